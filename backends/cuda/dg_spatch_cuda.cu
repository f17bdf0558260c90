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
 * pointer here). */
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

#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_spatch_cuda_team_t.h"
#undef DG_SR
#undef DG_SN
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_spatch_cuda_team_t.h"
#undef DG_SR
#undef DG_SN

/* the team kernel of each precision */
template <int N, int DIM>
void team_kernel(unsigned nb, const dg_spatch_kargs &a, const long *list, long np, const double *Vs,
                 const double *ls, double shift, const double *r, double *z) {
  k_spatch_team_d<N, DIM>
      <<<nb, dg_spatch_team<N, DIM, sizeof(double)>::threads>>>(a, list, np, Vs, ls, shift, r, z);
}
template <int N, int DIM>
void team_kernel(unsigned nb, const dg_spatch_kargs &a, const long *list, long np, const float *Vs,
                 const float *ls, float shift, const float *r, float *z) {
  k_spatch_team_f<N, DIM>
      <<<nb, dg_spatch_team<N, DIM, sizeof(float)>::threads>>>(a, list, np, Vs, ls, shift, r, z);
}

/* One colour's launch for N modes per direction (0: any): the team kernel
   where it exists for N (FITS), else a refusal. */
template <typename R, int N, int DIM,
          bool FITS = (N > 0 && dg_spatch_team<N, DIM, sizeof(R)>::ppb > 0)>
struct colour {
  static int launch(const dg_spatch_kargs &a, const long *list, long np, const R *Vs, const R *ls,
                    R shift, const R *r, R *z) {
    return dg_error(DG_ERR_ARG,
                    "vertex-patch smoother: degree %d in %dD (%s) has no CUDA kernel (its patch "
                    "does not fit a block's shared memory); use the element-block smoother",
                    a.n - 1, DIM, sizeof(R) == 8 ? "double" : "float");
  }
};
template <typename R, int N, int DIM> struct colour<R, N, DIM, true> {
  static int launch(const dg_spatch_kargs &a, const long *list, long np, const R *Vs, const R *ls,
                    R shift, const R *r, R *z) {
    const int ppb = dg_spatch_team<N, DIM, sizeof(R)>::ppb;
    team_kernel<N, DIM>((unsigned)((np + ppb - 1) / ppb), a, list, np, Vs, ls, shift, r, z);
    return launched("vertex-patch kernel (team)");
  }
};

/* colour<R, N, D> for the level's n (1..8, else 0) */
#define DG_PATCH_NS(D, n, launch_args)                                                             \
  switch (n) {                                                                                     \
  case 1:                                                                                          \
    rc = colour<R, 1, D>::launch launch_args;                                                      \
    break;                                                                                         \
  case 2:                                                                                          \
    rc = colour<R, 2, D>::launch launch_args;                                                      \
    break;                                                                                         \
  case 3:                                                                                          \
    rc = colour<R, 3, D>::launch launch_args;                                                      \
    break;                                                                                         \
  case 4:                                                                                          \
    rc = colour<R, 4, D>::launch launch_args;                                                      \
    break;                                                                                         \
  case 5:                                                                                          \
    rc = colour<R, 5, D>::launch launch_args;                                                      \
    break;                                                                                         \
  case 6:                                                                                          \
    rc = colour<R, 6, D>::launch launch_args;                                                      \
    break;                                                                                         \
  case 7:                                                                                          \
    rc = colour<R, 7, D>::launch launch_args;                                                      \
    break;                                                                                         \
  case 8:                                                                                          \
    rc = colour<R, 8, D>::launch launch_args;                                                      \
    break;                                                                                         \
  default:                                                                                         \
    rc = colour<R, 0, D>::launch launch_args;                                                      \
    break;                                                                                         \
  }

void zero(long n, double *z) { dg_cuda_svec_zero_d(n, z); }
void zero(long n, float *z) { dg_cuda_svec_zero_f(n, z); }

template <typename R> int apply(const dg_spatch *sp, const R *Vs, const R *ls, const R *r, R *z) {
  const dg_sop *op = sp->op;
  const dg_grid *g = &op->g;
  if (sp->dim != 2 && sp->dim != 3)
    return dg_error(DG_ERR_ARG, "vertex-patch smoother (CUDA): dimension %d", sp->dim);
  dg_spatch_kargs a;
  a.n = sp->n;
  for (int d = 0; d < 3; ++d) {
    a.nv[d] = sp->nv[d];
    a.voff[d] = sp->voff[d];
  }
  a.n0 = g->n[0];
  a.n1 = sp->dim > 1 ? g->n[1] : 1;
  a.vinfo = sp->vinfo;
  a.off = op->doff;
  const R shift = (R)sp->shift;
  zero(dg_sop_n(op), z); /* a vector kernel: it records its own launch failure */
  for (int col = 0; col < sp->ncol; ++col) {
    const long np = sp->cstart[col + 1] - sp->cstart[col];
    if (!np) continue;
    const long *list = sp->list + sp->cstart[col];
    int rc = 0;
    if (sp->dim == 2)
      DG_PATCH_NS(2, sp->n, (a, list, np, Vs, ls, shift, r, z))
    else
      DG_PATCH_NS(3, sp->n, (a, list, np, Vs, ls, shift, r, z))
    if (rc) return rc;
  }
  return 0;
}

} // namespace

extern "C" {

int dg_cuda_spatch_apply_d(const dg_spatch *sp, const double *r, double *z) {
  return apply(sp, sp->V, sp->lam, r, z);
}
int dg_cuda_spatch_apply_f(const dg_spatch *sp, const float *r, float *z) {
  return apply(sp, sp->Vf, sp->lamf, r, z);
}

} /* extern "C" */
