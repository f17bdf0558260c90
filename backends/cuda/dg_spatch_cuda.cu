/* dg_spatch_cuda.cu - the CUDA driver of the vertex-patch smoother: the
 * OpenMP driver's plan (dg_spatch_omp_t.h) on the device, the same per-patch
 * arithmetic (dg_spatch_t.h).  z is zeroed, then one launch per colour (a
 * colour's patches share no element, and the default stream orders the
 * colours: no atomics, the same sum as the OpenMP build's).  Two thread
 * organisations:
 *   a team of threads per patch, the patch's arrays in shared memory
 *   (dg_spatch_cuda_team_t.h), for n = r + 1 = 1..8 where they fit a block's
 *   static shared memory (not 3D n = 8 in double); other levels are refused
 *   with one line (dg_mg_create then fails: use the element blocks).  One
 *   thread per patch, with its arrays in local memory, was dropped: up to 170
 *   KB of local memory per thread, and its one GPU run (under
 *   DGRID_CUDA_SOP=element) failed, which the element-mode SIPG kernels also
 *   do alone at degree 2 (docs/MULTIGRID.md, "The operator"), so it was never
 *   shown correct.
 *
 * Memory: the object's tables (vertex info, the patch list by colour, V and
 * lam of both precisions) are solver memory (dg_cuda_svec_alloc: device
 * memory on this backend), built on the host and copied once by
 * dg_spatch_create; the kernels' arguments carry the rest by value (the
 * colours' starts, cstart, are host memory and only offset the list
 * pointer here).  A colour's launch and the entry point are dg_spatch_cuda_t.h,
 * included once per precision. */
#include "dg_spatch_internal.h"

#include "dg_error.h"
#include "dg_solver_cuda.h"

#include <cuda_runtime.h>

namespace {

int launched(const char *what) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return 0;
  return dg_error(DG_ERR_BACKEND, "cuda solvers: %s failed: %s (%s)", what, cudaGetErrorString(e),
                  cudaGetErrorName(e));
}

/* defines (dg_spatch_cuda_team_t.h): dg_spatch_k_team_d spatch_team_line_d */
#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_spatch_cuda_team_t.h"
#undef DG_SR
#undef DG_SN
/* defines (dg_spatch_cuda_team_t.h): dg_spatch_k_team_f spatch_team_line_f */
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_spatch_cuda_team_t.h"
#undef DG_SR
#undef DG_SN

/* DG_SN(colour)<N, D> for the level's n (1..8, else 0) */
#define DG_PATCH_NS(D, n, launch_args)                                                             \
  switch (n) {                                                                                     \
  case 1:                                                                                          \
    rc = DG_SN(colour)<1, D> launch_args;                                                          \
    break;                                                                                         \
  case 2:                                                                                          \
    rc = DG_SN(colour)<2, D> launch_args;                                                          \
    break;                                                                                         \
  case 3:                                                                                          \
    rc = DG_SN(colour)<3, D> launch_args;                                                          \
    break;                                                                                         \
  case 4:                                                                                          \
    rc = DG_SN(colour)<4, D> launch_args;                                                          \
    break;                                                                                         \
  case 5:                                                                                          \
    rc = DG_SN(colour)<5, D> launch_args;                                                          \
    break;                                                                                         \
  case 6:                                                                                          \
    rc = DG_SN(colour)<6, D> launch_args;                                                          \
    break;                                                                                         \
  case 7:                                                                                          \
    rc = DG_SN(colour)<7, D> launch_args;                                                          \
    break;                                                                                         \
  case 8:                                                                                          \
    rc = DG_SN(colour)<8, D> launch_args;                                                          \
    break;                                                                                         \
  default:                                                                                         \
    rc = DG_SN(colour)<0, D> launch_args;                                                          \
    break;                                                                                         \
  }

} // namespace

/* defines (dg_spatch_cuda_t.h): colour_d dg_cuda_spatch_apply_d */
#define DG_SR      double
#define DG_SN(x)   x##_d
#define DG_SPV(sp) ((sp)->V)
#define DG_SPL(sp) ((sp)->lam)
#include "dg_spatch_cuda_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SPV
#undef DG_SPL

/* defines (dg_spatch_cuda_t.h): colour_f dg_cuda_spatch_apply_f */
#define DG_SR      float
#define DG_SN(x)   x##_f
#define DG_SPV(sp) ((sp)->Vf)
#define DG_SPL(sp) ((sp)->lamf)
#include "dg_spatch_cuda_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SPV
#undef DG_SPL
