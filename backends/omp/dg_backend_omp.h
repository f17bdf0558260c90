/* dg_backend_omp.h - private to backends/omp. */
#ifndef DG_BACKEND_OMP_H
#define DG_BACKEND_OMP_H

#include "dg_basis.h"
#include "dg_stage_args.h"

typedef void (*dg_omp_stage_fn)(const dg_stage_args *a, const dg_stage_basis *b);
/* t[model][dim-2][r][q][kind]: kind 0 trace, 1 update, 2 CFL rate, 3 the
 * team update (2D, a unit of its own) */
enum { DG_OMP_KINDS = 4 };
/* Each kernel unit defines dg_omp_fill(t), which enters its wrappers into
 * t[r][q][kind] (dg_omp_stages.inc). */

#endif
