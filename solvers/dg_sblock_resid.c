/* dg_sblock_resid.c - the residual steps that the CUDA driver
 * (dg_sop_cuda.cu) fuses into one pass on uniform levels, for a backend
 * without fused kernels (OpenMP): the calls they stand for.  The smoother's
 * step p = D_block^-1 (b - A x), and the mixed cycle's fp64 residual into
 * float. */
#include "dg_sblock_internal.h"
#include "dg_sop.h"
#include "dg_svec.h"

#include "dg_error.h"

int dg_sblock_resid_d(const dg_sblock *bj, const double *x, const double *b, double *t, double *p) {
  DG_CALL(dg_sop_apply_d(bj->op, x, t));
  dg_svec_xpby_d(dg_sop_len(bj->op), b, -1.0, t);
  return dg_sblock_apply_d(bj, t, p);
}

int dg_sblock_resid_f(const dg_sblock *bj, const float *x, const float *b, float *t, float *p) {
  DG_CALL(dg_sop_apply_f(bj->op, x, t));
  dg_svec_xpby_f(dg_sop_len(bj->op), b, -1.0f, t);
  return dg_sblock_apply_f(bj, t, p);
}

int dg_sop_resid_to_f(const dg_sop *op, const double *x, const double *b, double scale, double *t,
                      float *y) {
  DG_CALL(dg_sop_apply_d(op, x, t));
  dg_svec_resid_to_f(dg_sop_len(op), scale, b, t, y);
  return 0;
}
