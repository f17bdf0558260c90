/* dg_backend_omp.h - private to backends/omp. */
#ifndef DG_BACKEND_OMP_H
#define DG_BACKEND_OMP_H

#include "dg_basis.h"
#include "dg_stage_args.h"

typedef void (*dg_omp_stage_fn)(const dg_stage_args *a, const dg_stage_basis *b);
/* Fill t[r][q][0] (trace) and t[r][q][1] (update) for one dimension. */
void dg_omp_fill_2_table_(dg_omp_stage_fn t[DG_MAX_DEGREE + 1][DG_MAX_Q + 1][2]);
void dg_omp_fill_3_table_(dg_omp_stage_fn t[DG_MAX_DEGREE + 1][DG_MAX_Q + 1][2]);

#endif
