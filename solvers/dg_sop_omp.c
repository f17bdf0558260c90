/* dg_sop_omp.c - the OpenMP driver of the operator: one loop over elements
 * around the element functions of dg_sipg_elem.h, for each precision. */
#include "dg_sop_internal.h"

/* One case per degree: the element function is inlined with a constant
 * degree, so its loops have constant trip counts (unrolled, vectorised). */
#define DG_SOP_CASE(R, sfx, A, T, e, x, y)                                                         \
  case R:                                                                                          \
    dg_sipg_elem_r_##sfx(A, T, e, x, y, R);                                                        \
    break;
#define DG_SOP_DISPATCH(sfx, A, T, e, x, y, r)                                                     \
  switch (r) {                                                                                     \
    DG_SOP_CASE(0, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(1, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(2, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(3, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(4, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(5, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(6, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(7, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(8, sfx, A, T, e, x, y)                                                             \
    DG_SOP_CASE(9, sfx, A, T, e, x, y)                                                             \
  default:                                                                                         \
    dg_sipg_elem_r_##sfx(A, T, e, x, y, r);                                                        \
  }

int dg_sop_apply_d(const dg_sop *op, const double *x, double *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e) {
    DG_SOP_DISPATCH(d, &op->args_d, &op->tab_d, e, x, y, op->deg[e])
  }
  return 0;
}

int dg_sop_apply_f(const dg_sop *op, const float *x, float *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e) {
    DG_SOP_DISPATCH(f, &op->args_f, &op->tab_f, e, x, y, op->deg[e])
  }
  return 0;
}

int dg_sop_diag_d(const dg_sop *op, double *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e) dg_sipg_diag_d(&op->args_d, &op->tab_d, e, y);
  return 0;
}

int dg_sop_diag_f(const dg_sop *op, float *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e) dg_sipg_diag_f(&op->args_f, &op->tab_f, e, y);
  return 0;
}
