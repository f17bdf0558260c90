/* dg_svec_cuda.cu - the CUDA backend's solver vectors: plain device memory
 * (the host copies what it reads or writes: dg_svec_map) with a cache of
 * freed blocks, and grid-stride kernels on the default stream.  Reductions: fixed-size per-block
 * partial sums in double, added on the host in a fixed order (the same bits every run).
 * The kernels and entry points of both precisions are dg_svec_cuda_t.h, included
 * once per precision at the end; the mixed-precision ones are here. */
#include "dg_solver_cuda.h"
#include "dg_svec_pool.h"

#include "dg_error.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>

namespace {

const int kThreads = 256, kRedBlocks = 1024;
int svec_rc = 0; /* first launch failure (sticky) */
dg_svec_pool pool;
double *red_dev = NULL; /* [kRedBlocks] partial sums */
double red_host[kRedBlocks];

int fail(cudaError_t e, const char *call) {
  int rc = dg_error(DG_ERR_BACKEND, "cuda solvers: %s failed: %s (%s)", call, cudaGetErrorString(e),
                    cudaGetErrorName(e));
  if (!svec_rc) svec_rc = rc;
  return rc;
}

/* after a launch: record a failure, kernels return nothing */
void launched(const char *what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) fail(e, what);
}

int blocks(long n) {
  const long b = (n + kThreads - 1) / kThreads;
  return (int)(b < 1 ? 1 : (b > 8192 ? 8192 : b));
}

#define DG_GRID_STRIDE(i, n)                                                                       \
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                              \
       i += (long)gridDim.x * blockDim.x)

/* the block's threads' s summed into part[blockIdx.x] by a fixed tree (the
   same bits every run) */
__device__ void block_sum(double s, double *part) {
  __shared__ double sh[kThreads];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if ((int)threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = sh[0];
}

__global__ void k_amax(long n, const double *x, double *part) {
  __shared__ double sh[kThreads];
  double s = 0;
  DG_GRID_STRIDE(i, n) s = fmax(s, fabs(x[i]));
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if ((int)threadIdx.x < w) sh[threadIdx.x] = fmax(sh[threadIdx.x], sh[threadIdx.x + w]);
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = sh[0];
}

/* the partial results of a reduction kernel, back on the host */
int partials(const char *what) {
  launched(what);
  if (svec_rc) return svec_rc;
  const cudaError_t e =
      cudaMemcpy(red_host, red_dev, sizeof(double) * kRedBlocks, cudaMemcpyDeviceToHost);
  return e == cudaSuccess ? 0 : fail(e, "cudaMemcpy (reduction)");
}

int red_setup(void) {
  if (red_dev) return 0;
  const cudaError_t e = cudaMalloc((void **)&red_dev, sizeof(double) * kRedBlocks);
  return e == cudaSuccess ? 0 : fail(e, "cudaMalloc (reduction)");
}

/* the sum of a summing kernel's partial results, in a fixed order (NAN if
   the kernel failed) */
double summed(const char *what) {
  if (partials(what)) return NAN;
  double s = 0;
  for (int b = 0; b < kRedBlocks; ++b) s += red_host[b];
  return s;
}

__global__ void k_to_f(long n, double s, const double *x, float *y) {
  DG_GRID_STRIDE(i, n) y[i] = (float)(s * x[i]);
}
__global__ void k_from_f(long n, double s, const float *x, double *y) {
  DG_GRID_STRIDE(i, n) y[i] = s * (double)x[i];
}
__global__ void k_add_from_f(long n, double s, const float *x, double *y) {
  DG_GRID_STRIDE(i, n) y[i] += s * (double)x[i];
}
__global__ void k_resid_to_f(long n, double s, const double *b, const double *t, float *y) {
  DG_GRID_STRIDE(i, n) y[i] = (float)(s * (b[i] - t[i]));
}
__global__ void k_scatter_add(long m, const long *idx, double c, double *y) {
  DG_GRID_STRIDE(i, m) y[idx[i]] += c;
}
/* row i of a symmetric A read as column i: neighbouring threads read
   neighbouring entries */
__global__ void k_symv(long n, const double *A, const double *x, double *y) {
  DG_GRID_STRIDE(i, n) {
    double s = 0;
    for (long k = 0; k < n; ++k) s += A[k * n + i] * x[k];
    y[i] = s;
  }
}

/* The allocator's plan.  Solver memory is plain device memory (cudaMalloc):
   the host reaches it only through the copies below (dg_svec_map,
   dg_svec_to_host and _to_device; docs/ARCHITECTURE.md, "Solver memory").
   A solve allocates and frees the same sizes again and again (CG's four
   vectors, the coarse solve's per cycle): freed blocks wait in a small
   cache (dg_svec_pool.h, shared with the OpenMP backend) and are handed out
   again for the same size, so no cudaFree/cudaMalloc pair (each
   synchronises the device) lands in a solve.  Stream order makes the reuse
   safe: the next user's kernels queue behind the last user's.  The cache's
   oldest block goes back to CUDA first, the others keep their order: a
   solve's own vectors (freed at its end, taken again by the next solve)
   stay cached once a setup has filled the cache. */

/* A block back to CUDA, after the device has finished with it. */
void release(void *p) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaFree(p);
  if (e != cudaSuccess) fail(e, "cudaFree");
}

} // namespace

extern "C" {

void *dg_cuda_svec_alloc(size_t bytes) {
  const size_t b = bytes ? bytes : 1;
  void *p = dg_svec_pool_take(&pool, b);
  cudaError_t e = cudaSuccess;
  if (!p) {
    e = cudaMalloc(&p, b);
    if (e != cudaSuccess) { /* the cached blocks back to CUDA, and once more */
      /* this failure is known: off the runtime's last error, so that the
         next launch's check does not report it again */
      const cudaError_t last = cudaGetLastError();
      if (last != cudaSuccess && last != e) fail(last, "an earlier CUDA call");
      size_t ob;
      void *q;
      while ((q = dg_svec_pool_pop(&pool, &ob)) != NULL) release(q);
      e = cudaMalloc(&p, b);
    }
    if (e != cudaSuccess) {
      dg_error(DG_ERR_MEM, "solver memory: cudaMalloc of %zu bytes failed: %s (%s)", bytes,
               cudaGetErrorString(e), cudaGetErrorName(e));
      return NULL;
    }
  }
  if (dg_svec_pool_add(&pool, p, b)) {
    release(p);
    return NULL;
  }
  /* zeroed, as on the OpenMP backend; the default stream orders the
     memset before every later kernel and copy */
  e = cudaMemset(p, 0, b);
  if (e != cudaSuccess) {
    dg_error(DG_ERR_MEM, "solver memory: clearing %zu bytes failed: %s (%s)", bytes,
             cudaGetErrorString(e), cudaGetErrorName(e));
    dg_svec_pool_remove(&pool, p);
    return NULL;
  }
  return p;
}

void dg_cuda_svec_free(void *p) {
  if (!p) return;
  const size_t b = dg_svec_pool_remove(&pool, p);
  if (!b) { /* not handed out: the pool recorded the message */
    if (!svec_rc) svec_rc = DG_ERR_ARG;
    return;
  }
  size_t ob;
  void *old = dg_svec_pool_put(&pool, p, b, &ob);
  if (old) release(old);
}

int dg_cuda_svec_sync(void) {
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return fail(e, "cudaDeviceSynchronize");
  return svec_rc;
}

int dg_cuda_svec_status(void) { return svec_rc; }

/* Ordered after the queued kernels (default stream), and they wait. */
int dg_cuda_svec_to_host(void *h, const void *d, size_t bytes) {
  if (!bytes) return 0;
  const cudaError_t e = cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  return e != cudaSuccess ? fail(e, "cudaMemcpy (solver memory to the host)") : 0;
}
int dg_cuda_svec_to_device(void *d, const void *h, size_t bytes) {
  if (!bytes) return 0;
  const cudaError_t e = cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  return e != cudaSuccess ? fail(e, "cudaMemcpy (solver memory to the device)") : 0;
}

double dg_cuda_svec_amax_d(long n, const double *x) {
  if (red_setup()) return NAN;
  k_amax<<<kRedBlocks, kThreads>>>(n, x, red_dev);
  if (partials("amax kernel")) return NAN;
  double m = 0;
  for (int b = 0; b < kRedBlocks; ++b) m = fmax(m, red_host[b]);
  return m;
}

#define DG_SVEC_LAUNCH(kern, what, n, ...)                                                         \
  do {                                                                                             \
    kern<<<blocks(n), kThreads>>>(n, __VA_ARGS__);                                                 \
    launched(what);                                                                                \
  } while (0)

void dg_cuda_svec_symv_d(long n, const double *A, const double *x, double *y) {
  DG_SVEC_LAUNCH(k_symv, "dense coarse solve kernel", n, A, x, y);
}
void dg_cuda_svec_to_f(long n, double s, const double *x, float *y) {
  DG_SVEC_LAUNCH(k_to_f, "to-float kernel", n, s, x, y);
}
void dg_cuda_svec_from_f(long n, double s, const float *x, double *y) {
  DG_SVEC_LAUNCH(k_from_f, "from-float kernel", n, s, x, y);
}
void dg_cuda_svec_add_from_f(long n, double s, const float *x, double *y) {
  DG_SVEC_LAUNCH(k_add_from_f, "add-from-float kernel", n, s, x, y);
}
void dg_cuda_svec_resid_to_f(long n, double s, const double *b, const double *t, float *y) {
  DG_SVEC_LAUNCH(k_resid_to_f, "residual-to-float kernel", n, s, b, t, y);
}
void dg_cuda_svec_scatter_add_d(long m, const long *idx, double c, double *y) {
  DG_SVEC_LAUNCH(k_scatter_add, "scatter-add kernel", m, idx, c, y);
}

} /* extern "C" */

/* defines (dg_svec_cuda_t.h): dg_svec_k_axpy_d dg_svec_k_cg_step_d dg_svec_k_cheb_d
   dg_svec_k_cheb_add_d dg_svec_k_copy_d dg_svec_k_dot_d dg_svec_k_gather_d dg_svec_k_mul_d
   dg_svec_k_scale_d dg_svec_k_scatter_d dg_svec_k_xpby_d dg_svec_k_zero_d
   dg_cuda_svec_axpy_d dg_cuda_svec_cg_step_d dg_cuda_svec_cheb_d dg_cuda_svec_cheb_add_d
   dg_cuda_svec_copy_d dg_cuda_svec_dot_d dg_cuda_svec_gather_d dg_cuda_svec_mul_d
   dg_cuda_svec_scale_d dg_cuda_svec_scatter_d dg_cuda_svec_xpby_d dg_cuda_svec_zero_d */
#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_svec_cuda_t.h"
#undef DG_SR
#undef DG_SN

/* defines (dg_svec_cuda_t.h): dg_svec_k_axpy_f dg_svec_k_cg_step_f dg_svec_k_cheb_f
   dg_svec_k_cheb_add_f dg_svec_k_copy_f dg_svec_k_dot_f dg_svec_k_gather_f dg_svec_k_mul_f
   dg_svec_k_scale_f dg_svec_k_scatter_f dg_svec_k_xpby_f dg_svec_k_zero_f
   dg_cuda_svec_axpy_f dg_cuda_svec_cg_step_f dg_cuda_svec_cheb_f dg_cuda_svec_cheb_add_f
   dg_cuda_svec_copy_f dg_cuda_svec_dot_f dg_cuda_svec_gather_f dg_cuda_svec_mul_f
   dg_cuda_svec_scale_f dg_cuda_svec_scatter_f dg_cuda_svec_xpby_f dg_cuda_svec_zero_f */
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_svec_cuda_t.h"
#undef DG_SR
#undef DG_SN
