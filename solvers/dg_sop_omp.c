/* dg_sop_omp.c - the OpenMP driver of the solvers' element functions
 * (dg_sipg_elem.h): one loop over elements around the operator apply, its
 * diagonal, the element-block solve and the level transfers, per precision
 * (dg_sop_omp_t.h).  dg_sop_cuda.cu is the CUDA driver of the same
 * functions. */
#include "dg_sblock_internal.h"

#define DG_SR      double
#define DG_SN(x)   x##_d
#define DG_SSFX    d
#define DG_SBV(bj) ((bj)->V)
#define DG_SBL(bj) ((bj)->lam)
#include "dg_sop_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SSFX
#undef DG_SBV
#undef DG_SBL

#define DG_SR      float
#define DG_SN(x)   x##_f
#define DG_SSFX    f
#define DG_SBV(bj) ((bj)->Vf)
#define DG_SBL(bj) ((bj)->lamf)
#include "dg_sop_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SSFX
#undef DG_SBV
#undef DG_SBL
