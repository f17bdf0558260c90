/* dg_spatch_cuda.cu - the CUDA driver of the vertex-patch smoother: the
 * OpenMP driver's plan (dg_spatch_omp_t.h) on the device, the same per-patch
 * arithmetic (dg_spatch_t.h).  z is zeroed, then one launch per colour (a
 * colour's patches share no element, and the default stream orders the
 * colours: no atomics, the same sum as the OpenMP build's).  Two thread
 * organisations:
 *   team     (n = r + 1 = 1..8, the default): a team of threads per patch,
 *            the patch's arrays in shared memory (dg_spatch_cuda_team_t.h);
 *   thread   one thread per patch around dg_spatch_solve_w, its two arrays
 *            in local memory sized per degree ((2n)^dim reals each; the
 *            largest patch's, DG_SPATCH_LD^dim, for n > 8): for n > 8, for
 *            3D n = 8 in double (its arrays exceed a block's static shared
 *            memory), and everywhere with DGRID_CUDA_SOP=element (the A/B of
 *            dg_sop_cuda.cu, which refuses other values).
 *
 * Memory: the object's tables (vertex info, the patch list by colour, V and
 * lam of both precisions) are solver memory (dg_svec_alloc: managed on this
 * backend), so the kernels read them where dg_spatch_create put them; the
 * kernels' arguments carry the rest by value.  Nothing to upload, nothing
 * for dg_spatch_destroy to free on the device. */
#include "dg_spatch_internal.h"

#include "dg_error.h"
#include "dg_svec.h"

#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

namespace {

const int kThreads = 128;

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

/* overloads over the patch function's two precisions */
__device__ inline void solve_w(int dim, const int nc[3], const long el[8], const long *off,
                               const double *const V[3], const double *const lam[3], double shift,
                               const double *rv, double *z, double *w, double *u, int n, int full) {
  dg_spatch_solve_w_d(dim, nc, el, off, V, lam, shift, rv, z, w, u, n, full);
}
__device__ inline void solve_w(int dim, const int nc[3], const long el[8], const long *off,
                               const float *const V[3], const float *const lam[3], float shift,
                               const float *rv, float *z, float *w, float *u, int n, int full) {
  dg_spatch_solve_w_f(dim, nc, el, off, V, lam, shift, rv, z, w, u, n, full);
}

/* (2 N)^DIM entries, or the largest patch's for N = 0 */
template <int N, int DIM> struct patch_size {
  static const int m = N ? 2 * N : DG_SPATCH_LD;
  static const int len = DIM == 3 ? m * m * m : m * m;
};

/* The np patches list[0..np) (one colour): z += R_p^T A_p^-1 R_p r, one
   thread each.  N > 0: every element has N modes per direction (constant
   trip counts); patches with two cells in every direction take the loops of
   constant cell counts too (full = 1), the boundary's the general ones. */
template <typename R, int N, int DIM>
__global__ void k_patch(dg_spatch_kargs a, const long *list, long np, const R *Vs, const R *ls,
                        R shift, const R *r, R *z) {
  const long q = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= np) return;
  long el[8];
  int nc[3], key[3];
  dg_spatch_cells_at(DIM, a.nv, a.voff, a.vinfo, a.n0, a.n1, list[q], el, nc, key);
  const R *V[3], *lam[3];
  for (int d = 0; d < 3; ++d) {
    V[d] = Vs + (long)key[d] * 2 * DG_SPATCH_LD * DG_SPATCH_LD;
    lam[d] = ls + (long)key[d] * DG_SPATCH_LD;
  }
  R w[patch_size<N, DIM>::len], u[patch_size<N, DIM>::len];
  const int n = N ? N : a.n;
  if (nc[0] * nc[1] * nc[2] == (1 << DIM))
    solve_w(DIM, nc, el, a.off, V, lam, shift, r, z, w, u, n, 1);
  else
    solve_w(DIM, nc, el, a.off, V, lam, shift, r, z, w, u, n, 0);
}

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

/* One colour's launch for N modes per direction (0: any): the thread kernel,
   or where the team kernel exists for N (FITS) and team is set, that one. */
template <typename R, int N, int DIM,
          bool FITS = (N > 0 && dg_spatch_team<N, DIM, sizeof(R)>::ppb > 0)>
struct colour {
  static void launch(bool team, const dg_spatch_kargs &a, const long *list, long np, const R *Vs,
                     const R *ls, R shift, const R *r, R *z) {
    const unsigned nb = (unsigned)((np + kThreads - 1) / kThreads);
    k_patch<R, N, DIM><<<nb, kThreads>>>(a, list, np, Vs, ls, shift, r, z);
  }
};
template <typename R, int N, int DIM> struct colour<R, N, DIM, true> {
  static void launch(bool team, const dg_spatch_kargs &a, const long *list, long np, const R *Vs,
                     const R *ls, R shift, const R *r, R *z) {
    if (!team) {
      colour<R, N, DIM, false>::launch(team, a, list, np, Vs, ls, shift, r, z);
      return;
    }
    const int ppb = dg_spatch_team<N, DIM, sizeof(R)>::ppb;
    team_kernel<N, DIM>((unsigned)((np + ppb - 1) / ppb), a, list, np, Vs, ls, shift, r, z);
  }
};

/* colour<R, N, D> for the level's n (1..8, else 0) */
#define DG_PATCH_NS(D, n, launch_args)                                                             \
  switch (n) {                                                                                     \
  case 1:                                                                                          \
    colour<R, 1, D>::launch launch_args;                                                           \
    break;                                                                                         \
  case 2:                                                                                          \
    colour<R, 2, D>::launch launch_args;                                                           \
    break;                                                                                         \
  case 3:                                                                                          \
    colour<R, 3, D>::launch launch_args;                                                           \
    break;                                                                                         \
  case 4:                                                                                          \
    colour<R, 4, D>::launch launch_args;                                                           \
    break;                                                                                         \
  case 5:                                                                                          \
    colour<R, 5, D>::launch launch_args;                                                           \
    break;                                                                                         \
  case 6:                                                                                          \
    colour<R, 6, D>::launch launch_args;                                                           \
    break;                                                                                         \
  case 7:                                                                                          \
    colour<R, 7, D>::launch launch_args;                                                           \
    break;                                                                                         \
  case 8:                                                                                          \
    colour<R, 8, D>::launch launch_args;                                                           \
    break;                                                                                         \
  default:                                                                                         \
    colour<R, 0, D>::launch launch_args;                                                           \
    break;                                                                                         \
  }

void zero(long n, double *z) { dg_svec_zero_d(n, z); }
void zero(long n, float *z) { dg_svec_zero_f(n, z); }

/* DGRID_CUDA_SOP=element: one thread per patch (as per element in
   dg_sop_cuda.cu, which checks the value) */
bool team_plan(void) {
  const char *plan = getenv("DGRID_CUDA_SOP");
  return !(plan && !strcmp(plan, "element"));
}

template <typename R> int apply(const dg_spatch *sp, const R *Vs, const R *ls, const R *r, R *z) {
  const dg_sop *op = sp->op;
  const dg_grid *g = &op->g;
  if (sp->dim != 2 && sp->dim != 3)
    return dg_error(DG_ERR_ARG, "vertex-patch smoother (CUDA): dimension %d", sp->dim);
  static const bool team = team_plan();
  dg_spatch_kargs a;
  a.n = sp->n;
  for (int d = 0; d < 3; ++d) {
    a.nv[d] = sp->nv[d];
    a.voff[d] = sp->voff[d];
  }
  a.n0 = g->n[0];
  a.n1 = sp->dim > 1 ? g->n[1] : 1;
  a.vinfo = sp->vinfo;
  a.off = op->off;
  const R shift = (R)sp->shift;
  zero(dg_sop_len(op), z); /* a vector kernel: it records its own launch failure */
  for (int col = 0; col < sp->ncol; ++col) {
    const long np = sp->cstart[col + 1] - sp->cstart[col];
    if (!np) continue;
    const long *list = sp->list + sp->cstart[col];
    if (sp->dim == 2)
      DG_PATCH_NS(2, sp->n, (team, a, list, np, Vs, ls, shift, r, z))
    else
      DG_PATCH_NS(3, sp->n, (team, a, list, np, Vs, ls, shift, r, z))
    DG_CALL(launched(team ? "vertex-patch kernel (team)" : "vertex-patch kernel"));
  }
  return 0;
}

} // namespace

extern "C" {

int dg_spatch_apply_d(const dg_spatch *sp, const double *r, double *z) {
  return apply(sp, sp->V, sp->lam, r, z);
}
int dg_spatch_apply_f(const dg_spatch *sp, const float *r, float *z) {
  return apply(sp, sp->Vf, sp->lamf, r, z);
}

} /* extern "C" */
