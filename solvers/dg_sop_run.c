/* dg_sop_run.c - the operator's, the block solve's and the patch
 * smoother's calls (dg_sop.h, dg_sblock.h, dg_spatch.h): each runs on the
 * operator's backend, through its solver table (dg_solver_ops.h).  Where a
 * backend has no fused residual step (OpenMP), or the operator is a rank's
 * (its apply exchanges ghosts first: solvers/dg_spart.h), the step is the
 * calls it stands for: the smoother's p = D_block^-1 (b - A x), and the
 * mixed cycle's fp64 residual into float. */
#include "dg_sblock_internal.h"
#include "dg_sop.h"
#include "dg_sop_internal.h"
#include "dg_spart.h"
#include "dg_spatch_internal.h"
#include "dg_svec.h"

#include "dg_backend.h"
#include "dg_error.h"
#include "dg_solver_ops.h"

/* The solver table of op's backend. */
static const dg_solver_ops *dg_sop_ops(const dg_sop *op) { return op->be->ops->solver; }

int dg_sop_prepare(const dg_backend *be, int dim, unsigned degrees, int precisions) {
  const dg_solver_ops *s = be->ops->solver;
  return s->prepare ? s->prepare(dim, degrees, precisions) : 0;
}

/* A rank's operator (dg_spart.h) reads its neighbours' values in x's ghost
 * slots: they are received first and cleared after, and y's are cleared,
 * so every vector keeps zeros outside the owned elements. */
int dg_sop_apply_d(const dg_sop *op, const double *x, double *y) {
  if (!op->px) return dg_sop_ops(op)->apply_d(op, x, y);
  double *xw = (double *)x; /* only its ghost slots, zero again on return */
  DG_CALL(dg_sop_part_exchange_d(op, xw));
  const int rc = dg_sop_ops(op)->apply_d(op, x, y);
  dg_sop_part_clear_d(op, xw); /* on the backend, after the apply */
  dg_sop_part_clear_d(op, y);
  return rc;
}
int dg_sop_apply_f(const dg_sop *op, const float *x, float *y) {
  if (!op->px) return dg_sop_ops(op)->apply_f(op, x, y);
  float *xw = (float *)x; /* only its ghost slots, zero again on return */
  DG_CALL(dg_sop_part_exchange_f(op, xw));
  const int rc = dg_sop_ops(op)->apply_f(op, x, y);
  dg_sop_part_clear_f(op, xw); /* on the backend, after the apply */
  dg_sop_part_clear_f(op, y);
  return rc;
}
int dg_sop_diag_d(const dg_sop *op, double *y) { return dg_sop_ops(op)->diag_d(op, y); }
int dg_sop_diag_f(const dg_sop *op, float *y) { return dg_sop_ops(op)->diag_f(op, y); }

/* defines (dg_sop_xfer_t.h): dg_sop_prolong_add_d dg_sop_restrict_d dg_spatch_apply_d */
#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_sop_xfer_t.h"
#undef DG_SR
#undef DG_SN

/* defines (dg_sop_xfer_t.h): dg_sop_prolong_add_f dg_sop_restrict_f dg_spatch_apply_f */
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_sop_xfer_t.h"
#undef DG_SR
#undef DG_SN

int dg_sblock_apply_d(const dg_sblock *bj, const double *r, double *z) {
  return dg_sop_ops(bj->op)->sblock_apply_d(bj, r, z);
}
int dg_sblock_apply_f(const dg_sblock *bj, const float *r, float *z) {
  return dg_sop_ops(bj->op)->sblock_apply_f(bj, r, z);
}

int dg_spatch_on_ranks(const dg_backend *be) { return be->ops->solver->patch_on_ranks; }

int dg_sblock_resid_d(const dg_sblock *bj, const double *x, const double *b, double *t, double *p) {
  const dg_solver_ops *s = dg_sop_ops(bj->op);
  if (s->sblock_resid_d && !bj->op->px) return s->sblock_resid_d(bj, x, b, t, p);
  DG_CALL(dg_sop_apply_d(bj->op, x, t));
  s->xpby_d(dg_sop_n(bj->op), b, -1.0, t);
  return dg_sblock_apply_d(bj, t, p);
}

int dg_sblock_resid_f(const dg_sblock *bj, const float *x, const float *b, float *t, float *p) {
  const dg_solver_ops *s = dg_sop_ops(bj->op);
  if (s->sblock_resid_f && !bj->op->px) return s->sblock_resid_f(bj, x, b, t, p);
  DG_CALL(dg_sop_apply_f(bj->op, x, t));
  s->xpby_f(dg_sop_n(bj->op), b, -1.0f, t);
  return dg_sblock_apply_f(bj, t, p);
}

int dg_sop_resid_to_f(const dg_sop *op, const double *x, const double *b, double scale, double *t,
                      float *y) {
  const dg_solver_ops *s = dg_sop_ops(op);
  if (s->resid_to_f && !op->px) return s->resid_to_f(op, x, b, scale, t, y);
  DG_CALL(dg_sop_apply_d(op, x, t));
  s->vresid_to_f(dg_sop_n(op), scale, b, t, y);
  return 0;
}
