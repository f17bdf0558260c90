/* dg_spatch_omp.c - the OpenMP driver of the vertex-patch smoother: a loop
 * over the patches of each colour around dg_spatch_solve_* (dg_spatch_t.h),
 * per precision (dg_spatch_omp_t.h). */
#include "dg_spatch_internal.h"
#include "dg_solver_omp.h"

/* defines (dg_spatch_omp_t.h): dg_omp_spatch_apply_d */
#define DG_SR      double
#define DG_SN(x)   x##_d
#define DG_SPV(sp) ((sp)->V)
#define DG_SPL(sp) ((sp)->lam)
#include "dg_spatch_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SPV
#undef DG_SPL

/* defines (dg_spatch_omp_t.h): dg_omp_spatch_apply_f */
#define DG_SR      float
#define DG_SN(x)   x##_f
#define DG_SPV(sp) ((sp)->Vf)
#define DG_SPL(sp) ((sp)->lamf)
#include "dg_spatch_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SPV
#undef DG_SPL
