/* dg_mg_cycle.c - the cycles of dg_mg_t.h in double and float, the fp64
 * coarse solve they share, and the mixed-precision preconditioner. */
#include "dg_mg_internal.h"

#include "dg_error.h"
#include "dg_krylov.h"
#include "dg_spart.h"
#include "dg_svec.h"

#include <math.h>

/* mg->work counts fine-level operator applications: one apply on level l */
static void mg_work_apply(dg_mg *mg, int l) {
  mg->work += (double)mg->lev[l].n / (double)mg->lev[0].n;
}

static int coarse_apply(void *ctx, const double *x, double *y) {
  dg_mg *mg = (dg_mg *)ctx;
  mg_work_apply(mg, mg->nl - 1);
  return dg_sop_apply_d(mg->lev[mg->nl - 1].op, x, y);
}

/* Across ranks, the coarse solve of the last level on the ranks: b
   gathered onto the coarse root, one cycle of the whole grid's hierarchy
   from that level on there (the double, float or mixed one, as one process
   runs it there), and each rank's owned entries of the result scattered
   back into x.  Every rank calls the gather and the scatter whatever
   failed before (the status travels with the data), so none waits for
   a rank that left. */
static int sub_cycle(dg_mg *mg, const double *b, double *x, int prec) {
  const dg_sop *op = mg->lev[mg->nl - 1].op;
  const long n = mg->sub ? dg_sop_len(mg->sub_op) : 0;
  const size_t nb = sizeof(double) * (size_t)n;
  double *h = NULL; /* gb and gx are solver memory: the root fills and reads views */
  int rc = mg->sub ? dg_svec_map(&mg->sub_be, mg->gb, nb, DG_SVEC_WRITE, (void **)&h) : 0;
  rc = dg_sop_gather_root_d(op, mg->croot, rc, b, h);
  if (h) {
    const int wrc = dg_svec_unmap(&mg->sub_be, mg->gb, h, nb, rc ? 0 : DG_SVEC_WRITE);
    rc = rc ? rc : wrc;
    h = NULL;
  }
  if (mg->sub && !rc) {
    if (prec == DG_MG_DOUBLE) {
      rc = dg_mg_cycle_d(mg->sub, mg->gb, mg->gx);
    } else if (prec == DG_MG_FLOAT) {
      dg_svec_to_f(&mg->sub_be, n, 1, mg->gb, mg->gbf);
      rc = dg_mg_cycle_f(mg->sub, mg->gbf, mg->gxf);
      if (!rc) dg_svec_from_f(&mg->sub_be, n, 1, mg->gxf, mg->gx);
    } else
      rc = dg_mg_precond_mixed(mg->sub, mg->gb, mg->gx);
    if (!rc) rc = dg_svec_map(&mg->sub_be, mg->gx, nb, DG_SVEC_READ, (void **)&h);
  }
  rc = dg_sop_scatter_root_d(op, mg->croot, rc, h, x);
  if (h) dg_svec_unmap(&mg->sub_be, mg->gx, h, nb, 0);
  return rc;
}

/* x = A^-1 b on the coarsest level: its dense pseudo-inverse, or fp64 CG
   with Jacobi from zero (across ranks: sub_cycle of precision prec). */
static int coarse_solve_d(dg_mg *mg, const double *b, double *x, int prec) {
  const dg_mg_level *L = &mg->lev[mg->nl - 1];
  if (mg->gathered) return sub_cycle(mg, b, x, prec);
  if (mg->cinv) {
    mg_work_apply(mg, mg->nl - 1); /* counted as one coarse apply */
    dg_svec_symv_d(mg->be, L->n, mg->cinv, b, x);
    return 0;
  }
  dg_diag_d jac = {mg->be, L->n, L->dinv_d};
  dg_krylov_opts o = {mg->o.coarse_rtol, 10 * (int)L->n + 100, NULL, NULL, 0};
  dg_krylov_stats st;
  dg_svec_zero_d(mg->be, L->n, x);
  DG_CALL(dg_cg_d(mg->be, L->n, coarse_apply, mg, dg_diag_apply_d, &jac, b, x, &o, &st));
  if (!st.converged)
    return dg_error(DG_ERR_NUMERIC, "multigrid: coarse solve stopped at %.3g after %d iterations",
                    st.rel, st.its);
  return 0;
}

static int mg_coarse_d(dg_mg *mg, int l, const double *b, double *x) {
  return coarse_solve_d(mg, b, x, DG_MG_DOUBLE);
}

/* the float cycle's coarse solve is fp64 too (an fp32 Krylov solve can
   cancel to zero): in fp64 copies */
static int mg_coarse_f(dg_mg *mg, int l, const float *b, float *x) {
  const long n = mg->lev[l].n;
  dg_svec_from_f(mg->be, n, 1, b, mg->cd[0]);
  DG_CALL(coarse_solve_d(mg, mg->cd[0], mg->cd[1], DG_MG_FLOAT));
  dg_svec_to_f(mg->be, n, 1, mg->cd[1], x);
  return 0;
}

/* defines (dg_mg_t.h): dg_mg_cycle_d dg_mg_precond_d mg_apply_d mg_cheb_step_d mg_coarse_d
   mg_fcycle_d mg_jacobi_d mg_pre_d mg_prolong_add_d mg_resid_jacobi_d mg_restrict_d
   mg_smooth_d mg_smooth_to_d mg_vcycle_d */
#define DG_SR       double
#define DG_SN(x)    x##_d
#define DG_SV(L)    ((L)->vd)
#define DG_SDINV(L) ((L)->dinv_d)
#define DG_SRNAME   "double"
#include "dg_mg_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SV
#undef DG_SDINV
#undef DG_SRNAME

/* defines (dg_mg_t.h): dg_mg_cycle_f dg_mg_precond_f mg_apply_f mg_cheb_step_f mg_coarse_f
   mg_fcycle_f mg_jacobi_f mg_pre_f mg_prolong_add_f mg_resid_jacobi_f mg_restrict_f
   mg_smooth_f mg_smooth_to_f mg_vcycle_f */
#define DG_SR       float
#define DG_SN(x)    x##_f
#define DG_SV(L)    ((L)->vf)
#define DG_SDINV(L) ((L)->dinv_f)
#define DG_SRNAME   "float"
#include "dg_mg_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SV
#undef DG_SDINV
#undef DG_SRNAME

int dg_mg_prolong_add_d(dg_mg *mg, int l, const double *xc, double *x) {
  if (l < 0 || l + 1 >= mg->nl)
    return dg_error(DG_ERR_ARG, "dg_mg_prolong_add_d: no level below %d", l);
  return mg_prolong_add_d(mg, l, xc, x);
}

int dg_mg_restrict_d(dg_mg *mg, int l, const double *r, double *bc) {
  if (l < 0 || l + 1 >= mg->nl)
    return dg_error(DG_ERR_ARG, "dg_mg_restrict_d: no level below %d", l);
  return mg_restrict_d(mg, l, r, bc);
}

/* x = cycle(b) on level l from x = 0, b and x in fp64 (mixed precision);
 * the level's float B holds b / s (the scale keeps float from underflowing
 * as the outer residual shrinks).  The pre-smoothing, the restriction and
 * the post-smoother's steps run in float; the coarse correction is added
 * and the residual b - A x after it formed in fp64, and the post-smoother
 * solves for the correction of x from that residual, from zero (the same
 * Chebyshev iteration: it is affine in its start), its last step adding
 * the correction into x.  In float, x after the
 * coarse correction (large and smooth) would carry rounding of eps_f |x| per
 * entry, and its residual an error of eps_f |A| |x|, the level's condition
 * number times eps_f relative to b: high-frequency noise in the
 * preconditioned direction that the outer CG's residual sees in full. */
static int mixed_cycle(dg_mg *mg, int l, const double *b, double s, double *x, int fcycle) {
  dg_mg_level *L = &mg->lev[l];
  const long n = L->n;
  if (l == mg->nl - 1) return coarse_solve_d(mg, b, x, 0);
  dg_mg_level *C = &mg->lev[l + 1];
  const long nc = C->n;
  double *bc = C->vd[MG_B], *xc = C->vd[MG_X], *t = L->vd[MG_T];
  DG_CALL(mg_pre_f(mg, l, L->vf[MG_B], L->vf[MG_X]));
  dg_svec_from_f(mg->be, nc, s, C->vf[MG_B], bc);
  DG_CALL(mixed_cycle(mg, l + 1, bc, s, xc, fcycle));
  if (fcycle && l + 1 < mg->nl - 1) { /* the F-cycle's V-cycle on the coarse residual */
    double *rc = C->vd[MG_R];
    DG_CALL(mg_apply_d(mg, l + 1, xc, rc));
    dg_svec_xpby_d(mg->be, nc, bc, -1, rc);
    const double sr = dg_svec_amax_d(mg->be, nc, rc);
    if (sr > 0) {
      dg_svec_to_f(mg->be, nc, 1 / sr, rc, C->vf[MG_B]);
      DG_CALL(mixed_cycle(mg, l + 1, rc, sr, t, 0));
      dg_svec_axpy_d(mg->be, nc, 1, t, xc);
    }
  }
  dg_svec_from_f(mg->be, n, s, L->vf[MG_X], x);
  DG_CALL(mg_prolong_add_d(mg, l, xc, x));
  mg_work_apply(mg, l);
  DG_CALL(dg_sop_resid_to_f(L->op, x, b, 1 / s, t, L->vf[MG_B]));  /* (b - A x) / s */
  return mg_smooth_to_f(mg, l, L->vf[MG_B], L->vf[MG_X], 1, s, x); /* x += s X */
}

int dg_mg_precond_mixed(void *ctx, const double *r, double *z) {
  dg_mg *mg = (dg_mg *)ctx;
  dg_mg_level *L = &mg->lev[0];
  if (!L->vf[MG_B] || !L->vd[MG_T])
    return dg_error(DG_ERR_ARG, "dg_mg_precond_mixed: the float and double cycles were not set up");
  const long n = L->n;
  const double s = dg_svec_amax_d(mg->be, n, r);
  if (s == 0) {
    dg_svec_zero_d(mg->be, n, z);
    return 0;
  }
  dg_svec_to_f(mg->be, n, 1 / s, r, L->vf[MG_B]);
  mg->cycles++;
  return mixed_cycle(mg, 0, r, s, z, mg->o.cycle == DG_MG_F);
}
