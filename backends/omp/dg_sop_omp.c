/* dg_sop_omp.c - the OpenMP driver of the solvers' element functions
 * (dg_sipg_elem.h): one loop over elements around the operator apply, its
 * diagonal, the element-block solve and the level transfers, per precision
 * (dg_sop_omp_t.h).  dg_sop_cuda.cu is the CUDA driver of the same
 * functions. */
#include "dg_sblock_internal.h"

#include <string.h>

/* SIMD register width of the build: the lane functions' run length is one
 * register of the precision's reals (8 doubles or 16 floats with AVX-512) */
#if defined(__AVX512F__)
#define DG_SLBYTES 64
#elif defined(__AVX__)
#define DG_SLBYTES 32
#else
#define DG_SLBYTES 16
#endif

/* defines (dg_sipg_lane_t.h, dg_sop_omp_t.h): dg_sblock_lane_r_d dg_sipg_lane_r_d
   dg_sl_load_d dg_sl_load_p2_d dg_sl_pow2_d dg_sl_reshuffle_d dg_sl_store_d dg_sl_store_p2_d
   dg_sl_trace_d dg_sl_trace1_d dg_sl_transpose_d dg_sl_unshuffle_d dg_omp_sblock_apply_d
   dg_omp_sop_apply_d dg_omp_sop_diag_d dg_omp_sop_prolong_add_d dg_omp_sop_restrict_d
   sblock_factors_d sop_lane_apply_d sop_lane_run_d */
#define DG_SR      double
#define DG_SN(x)   x##_d
#define DG_SSFX    d
#define DG_SBV(bj) ((bj)->V)
#define DG_SBL(bj) ((bj)->lam)
#define DG_SLW     (DG_SLBYTES / 8)
#define DG_SRI     long long
#include "dg_sipg_lane_t.h"
#include "dg_sop_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SSFX
#undef DG_SBV
#undef DG_SBL
#undef DG_SLW
#undef DG_SRI
#undef DG_SL_MLO
#undef DG_SL_MHI
#undef DG_SL_I2
#undef DG_SL_I4
#undef DG_SL_I8
#undef DG_SL_I16
#undef DG_SL_IW
#undef DG_SL_STAGE
#undef DG_SLMAX
#undef DG_SLRMAX
#undef DG_SLINL

/* defines (dg_sipg_lane_t.h, dg_sop_omp_t.h): dg_sblock_lane_r_f dg_sipg_lane_r_f
   dg_sl_load_f dg_sl_load_p2_f dg_sl_pow2_f dg_sl_reshuffle_f dg_sl_store_f dg_sl_store_p2_f
   dg_sl_trace_f dg_sl_trace1_f dg_sl_transpose_f dg_sl_unshuffle_f dg_omp_sblock_apply_f
   dg_omp_sop_apply_f dg_omp_sop_diag_f dg_omp_sop_prolong_add_f dg_omp_sop_restrict_f
   sblock_factors_f sop_lane_apply_f sop_lane_run_f */
#define DG_SR      float
#define DG_SN(x)   x##_f
#define DG_SSFX    f
#define DG_SBV(bj) ((bj)->Vf)
#define DG_SBL(bj) ((bj)->lamf)
#define DG_SLW     (DG_SLBYTES / 4)
#define DG_SRI     int
#include "dg_sipg_lane_t.h"
#include "dg_sop_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SSFX
#undef DG_SBV
#undef DG_SBL
#undef DG_SLW
#undef DG_SRI
#undef DG_SL_MLO
#undef DG_SL_MHI
#undef DG_SL_I2
#undef DG_SL_I4
#undef DG_SL_I8
#undef DG_SL_I16
#undef DG_SL_IW
#undef DG_SL_STAGE
#undef DG_SLMAX
#undef DG_SLRMAX
#undef DG_SLINL
