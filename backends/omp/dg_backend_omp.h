/* dg_backend_omp.h - private to backends/omp. */
#ifndef DG_BACKEND_OMP_H
#define DG_BACKEND_OMP_H

#include "dg_basis.h"
#include "dg_stage_args.h"

typedef void (*dg_omp_stage_fn)(const dg_stage_args *a, const dg_stage_basis *b);
/* t[model][dim-2][r][q][kind]: kind 0 trace, 1 update, 2 CFL rate */
enum { DG_OMP_KINDS = 3 };
/* The parts that fill the table: the generated dg_omp_parts.h. */

#endif
