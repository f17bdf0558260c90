/* dg_sblock_resid.c - the smoother's step p = D_block^-1 (b - A x) for a
 * backend without a fused kernel (OpenMP): the three calls it stands for.
 * The CUDA driver (dg_sop_cuda.cu) has its own, in one pass on uniform
 * levels. */
#include "dg_sblock_internal.h"
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
