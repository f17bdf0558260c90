/* dg_spatch_cuda.cu - the CUDA driver of the vertex-patch smoother: the
 * OpenMP driver's plan (dg_spatch_omp_t.h) on the device, the same per-patch
 * arithmetic (dg_spatch_solve_w of dg_spatch_t.h).  z is zeroed, then one
 * launch per colour, one thread per patch of the colour (a colour's patches
 * share no element, and the default stream orders the colours: no atomics,
 * the same sum as the OpenMP build's).
 *
 * Memory: the object's tables (vertex info, the patch list by colour, V and
 * lam of both precisions) are solver memory (dg_svec_alloc: managed on this
 * backend), so the kernels read them where dg_spatch_create put them; the
 * kernel's arguments carry the rest by value.  Nothing to upload, nothing
 * for dg_spatch_destroy to free on the device.
 *
 * A thread's patch vector and its transform's second array live in local
 * memory, sized per degree: a kernel per (precision, n = r + 1, dimension)
 * for n = 1..8 with two arrays of (2n)^dim reals (2D degree 6 in double:
 * 3.1 KB a thread; 3D degree 3: 8 KB; 3D degree 7: 64 KB), one of runtime
 * n with arrays of the largest patch (DG_SPATCH_LD^dim) beyond. */
#include "dg_spatch_internal.h"

#include "dg_error.h"
#include "dg_svec.h"

#include <cuda_runtime.h>

namespace {

const int kThreads = 128;

int launched(const char *what) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return 0;
  return dg_error(DG_ERR_BACKEND, "cuda solvers: %s failed: %s (%s)", what, cudaGetErrorString(e),
                  cudaGetErrorName(e));
}

/* what a patch kernel needs of the object, by value */
struct patch_args {
  int n;        /* modes per direction (the kernels with N = 0 read it) */
  int nv[3];    /* vertices per direction */
  long voff[3]; /* direction d's vertices in vinfo from 3 voff[d] */
  long n0, n1;  /* elements in directions 0 and 1 */
  const int *vinfo;
  const long *off;
};

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
__global__ void k_patch(patch_args a, const long *list, long np, const R *Vs, const R *ls, R shift,
                        const R *r, R *z) {
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

/* kern(N, DIM) for the level's n (1..8, else 0) and dimension */
#define DG_PATCH_NS(kern, launch_args, n, D)                                                       \
  switch (n) {                                                                                     \
  case 1:                                                                                          \
    kern(1, D) launch_args;                                                                        \
    break;                                                                                         \
  case 2:                                                                                          \
    kern(2, D) launch_args;                                                                        \
    break;                                                                                         \
  case 3:                                                                                          \
    kern(3, D) launch_args;                                                                        \
    break;                                                                                         \
  case 4:                                                                                          \
    kern(4, D) launch_args;                                                                        \
    break;                                                                                         \
  case 5:                                                                                          \
    kern(5, D) launch_args;                                                                        \
    break;                                                                                         \
  case 6:                                                                                          \
    kern(6, D) launch_args;                                                                        \
    break;                                                                                         \
  case 7:                                                                                          \
    kern(7, D) launch_args;                                                                        \
    break;                                                                                         \
  case 8:                                                                                          \
    kern(8, D) launch_args;                                                                        \
    break;                                                                                         \
  default:                                                                                         \
    kern(0, D) launch_args;                                                                        \
    break;                                                                                         \
  }

void zero(long n, double *z) { dg_svec_zero_d(n, z); }
void zero(long n, float *z) { dg_svec_zero_f(n, z); }

template <typename R> int apply(const dg_spatch *sp, const R *Vs, const R *ls, const R *r, R *z) {
  const dg_sop *op = sp->op;
  const dg_grid *g = &op->g;
  if (sp->dim != 2 && sp->dim != 3)
    return dg_error(DG_ERR_ARG, "vertex-patch smoother (CUDA): dimension %d", sp->dim);
  patch_args a;
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
    const unsigned nb = (unsigned)((np + kThreads - 1) / kThreads);
#define DG_K(N, D) k_patch<R, N, D><<<nb, kThreads>>>
    if (sp->dim == 2)
      DG_PATCH_NS(DG_K, (a, list, np, Vs, ls, shift, r, z), sp->n, 2)
    else
      DG_PATCH_NS(DG_K, (a, list, np, Vs, ls, shift, r, z), sp->n, 3)
#undef DG_K
    DG_CALL(launched("vertex-patch kernel"));
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
