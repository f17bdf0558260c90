/* dg_sop_omp.c - the OpenMP driver of the operator: one loop over elements
 * around the element functions of dg_sipg_elem.h, for each precision. */
#include "dg_sop_internal.h"

int dg_sop_apply_d(const dg_sop *op, const double *x, double *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e) dg_sipg_elem_d(&op->args_d, &op->tab_d, e, x, y);
  return 0;
}

int dg_sop_apply_f(const dg_sop *op, const float *x, float *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e) dg_sipg_elem_f(&op->args_f, &op->tab_f, e, x, y);
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
