/* dg_backend_cuda.cu - the CUDA backend: device memory, copies, the STREAM
 * triad and the stage dispatch over the kernels of dg_cuda_stages.cuh.
 *
 * Kernels.  The stage kernels of a (model, dim, R, Q) are compiled, cached
 * and loaded by dg_cuda_units.cu into the model slot's table; the launches
 * here read that table.  A cudaKernel_t cast to const void * is what
 * cudaLaunchKernel, cudaFuncSetAttribute and cudaFuncGetAttributes take for
 * a kernel of a library (CUDA runtime API, cudaLaunchKernel: it "can also
 * be used with a kernel cudaKernel_t" passed "by casting to void*";
 * cudaFuncGetAttributes, cudaFuncSetAttribute: a pointer that is no
 * function of the program "is assumed to be a cudaKernel_t"), so the
 * launch code is the one of the ahead-of-time kernels.
 *
 * Every CUDA call is checked; a failure records a message naming the call
 * (and the kernel, for launches) and returns DG_ERR_BACKEND.  Errors that
 * happen while a kernel runs surface at the next synchronising call (a copy,
 * sync); with DGRID_CUDA_SYNC=1 in the environment every launch is followed
 * by cudaDeviceSynchronize, so the message names the kernel that failed
 * (slow; for debugging).
 *
 * Streams.  Core calls a stage once per degree bucket, and the buckets of
 * one pass are independent (each reads the coefficients and traces of the
 * previous pass and writes its own coefficients and new traces); core gives
 * them one pass id (dg_stage_args.pass).  So the launches of one pass go
 * round-robin to DGRID_CUDA_STREAMS blocking streams and run concurrently:
 * the small buckets of a variable-degree map fill each other's tails instead
 * of each paying a partly empty last wave.  A launch with another pass id
 * starts a new pass: every stream of the new pass first waits for every
 * stream of the last (events).  Copies, memsets and the triad use the
 * legacy default stream, which is ordered with the blocking streams both
 * ways, so they see finished stages and stages see finished copies.
 *
 * Environment (for experiments, all optional; the device is the backend
 * object's, "cuda:N", or DGRID_CUDA_DEVICE for "cuda": backends/dg_backends.c):
 *   DGRID_CUDA_SYNC    1: synchronise after every launch   [0]
 *   DGRID_CUDA_BLOCK   threads per block, a multiple of 32 up to
 *                      DG_CUDA_BLOCK                        [DG_CUDA_BLOCK]
 *   DGRID_CUDA_WARPS   most resident warps per SM the stage grid may fill
 *                      (0: one thread per element, no limit) [0]
 *   DGRID_CUDA_STREAMS streams a pass's buckets are spread over, 1..8 [4]
 *   DGRID_CUDA_NVRTC_OPTIONS more NVRTC options for the stage kernels
 *                      (-DDG_CUDA_TEAM_T=4; they join the cache key)  [] */
#include "dg_backend.h"
#include "dg_cuda.h"
#include "dg_cuda_nvrtc.h"
#include "dg_cuda_state.h"
#include "dg_x_flow.h"
#include "dg_error.h"
#include "dg_jit.h"
#include "dg_lane.h"
#include "dg_solver_cuda.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern "C" const dg_backend_ops *dg_backend_cuda_ops(void);

namespace dg_cuda {

backend_state st;

int env_int(const char *name, int def) {
  const char *s = getenv(name);
  if (!s || !*s) return def;
  char *end;
  const long v = strtol(s, &end, 10);
  return *end ? -1 : (int)v;
}

__global__ void triad_kernel(dg_real *a, const dg_real *b, const dg_real *c, dg_real s, size_t n) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    a[i] = b[i] + s * c[i];
}

int do_init(void) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess)
    return dg_error(DG_ERR_BACKEND, "no CUDA device: cudaGetDeviceCount failed: %s (%s)",
                    cudaGetErrorString(e), cudaGetErrorName(e));
  if (n == 0) return dg_error(DG_ERR_BACKEND, "no CUDA device: cudaGetDeviceCount found none");
  if (st.device < 0 || st.device >= n)
    return dg_error(DG_ERR_ARG, "backend cuda:%d: this machine has CUDA devices 0..%d", st.device,
                    n - 1);
  st.sync_each = env_int("DGRID_CUDA_SYNC", 0) > 0;
  st.block = env_int("DGRID_CUDA_BLOCK", DG_CUDA_BLOCK);
  if (st.block < DG_W || st.block > DG_CUDA_BLOCK || st.block % DG_W)
    return dg_error(DG_ERR_ARG,
                    "cuda backend: DGRID_CUDA_BLOCK='%s': need a multiple of %d up to %d",
                    getenv("DGRID_CUDA_BLOCK"), DG_W, DG_CUDA_BLOCK);
  st.warps_sm = env_int("DGRID_CUDA_WARPS", 0);
  if (st.warps_sm < 0)
    return dg_error(DG_ERR_ARG, "cuda backend: DGRID_CUDA_WARPS='%s' is not a count >= 0",
                    getenv("DGRID_CUDA_WARPS"));
  st.nstreams = env_int("DGRID_CUDA_STREAMS", 4);
  if (st.nstreams < 1 || st.nstreams > DG_CUDA_MAX_STREAMS)
    return dg_error(DG_ERR_ARG, "cuda backend: DGRID_CUDA_STREAMS='%s': need 1..%d",
                    getenv("DGRID_CUDA_STREAMS"), DG_CUDA_MAX_STREAMS);
  DG_CUDA_CHECK(cudaSetDevice(st.device), "");
  cudaDeviceProp p;
  DG_CUDA_CHECK(cudaGetDeviceProperties(&p, st.device), "");
  st.sms = p.multiProcessorCount;
  st.max_threads_sm = p.maxThreadsPerMultiProcessor;
  /* a kernel image for this device?  (the build targets DGRID_CUDA_ARCH) */
  cudaFuncAttributes fa;
  e = cudaFuncGetAttributes(&fa, (const void *)triad_kernel);
  if (e != cudaSuccess)
    return dg_error(DG_ERR_BACKEND,
                    "cuda backend: device %d (%s, compute capability %d.%d) cannot run this "
                    "build's kernels (built for sm_%s; set DGRID_CUDA_ARCH): %s",
                    st.device, p.name, p.major, p.minor, DG_CUDA_ARCH_STR, cudaGetErrorString(e));
  for (int i = 0; i < st.nstreams; ++i) {
    DG_CUDA_CHECK(cudaStreamCreate(&st.stream[i]), "");
    DG_CUDA_CHECK(cudaEventCreateWithFlags(&st.done[i], cudaEventDisableTiming), "");
  }
  /* the stage kernels are compiled for this device */
  DG_CALL(dg_cuda_nvrtc_arch(p.major, p.minor, st.arch, sizeof st.arch));
  DG_CALL(dg_cuda_nvrtc_tool(st.arch, st.tool, sizeof st.tool));
  return 0;
}

/* The stream for the next launch of a stage; starts a new pass when this
 * launch cannot belong to the current one (see "Streams" above). */
int pick_stream(const dg_stage_args *a, cudaStream_t *out) {
  const int new_pass = !st.in_pass || a->pass != st.last_pass;
  if (new_pass) {
    for (int j = 0; j < st.nstreams; ++j)
      if (st.used >> j & 1) DG_CUDA_CHECK(cudaEventRecord(st.done[j], st.stream[j]), "(pass end)");
    st.prev_used = st.used;
    st.used = st.waited = 0;
    st.pos = 0;
    st.in_pass = 1;
    st.last_pass = a->pass;
  }
  const int k = st.pos++ % st.nstreams;
  if (!(st.waited >> k & 1)) {
    for (int j = 0; j < st.nstreams; ++j)
      if (j != k && (st.prev_used >> j & 1))
        DG_CUDA_CHECK(cudaStreamWaitEvent(st.stream[k], st.done[j], 0), "(pass start)");
    st.waited |= 1u << k;
  }
  st.used |= 1u << k;
  *out = st.stream[k];
  return 0;
}

/* Once per kernel: prefer L1 over shared memory (local scratch is cached in
 * L1), except for the team kernels, whose scratch is shared memory. */
int configure(dg_cuda_kernel *k) {
  if (k->configured) return 0;
  if (k->team)
    DG_CUDA_CHECK(cudaFuncSetAttribute(k->fn, cudaFuncAttributeMaxDynamicSharedMemorySize, k->smem),
                  k->name);
  DG_CUDA_CHECK(cudaFuncSetAttribute(k->fn, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     k->team ? (int)cudaSharedmemCarveoutMaxShared
                                             : (int)cudaSharedmemCarveoutMaxL1),
                k->name);
  k->configured = 1;
  return 0;
}

int be_init(void) {
  if (st.compile_only)
    return dg_error(DG_ERR_ARG,
                    "backend cuda:%s compiles kernels into the cache only (dgrid cache warm); it "
                    "runs nothing",
                    st.arch);
  if (st.ready) return 0;
  if (st.failed) return dg_error(st.rc, "%s", st.msg);
  const int rc = do_init();
  if (rc) {
    st.failed = 1;
    st.rc = rc;
    snprintf(st.msg, sizeof st.msg, "%s", dg_error_message());
    return rc;
  }
  st.ready = 1;
  return 0;
}

/* ops.init: device `device` for this process (the first backend object
 * chooses; one GPU per process). */
int be_init_compile(void) { return st.compile_only ? 0 : be_init(); }

/* "cuda:sm_NN" (device -NN): NVRTC's target sm_NN, no device asked for. */
static int init_compile_only(int device) {
  const int nn = -device;
  char arch[16];
  DG_CALL(dg_cuda_nvrtc_arch(nn / 10, nn % 10, arch, sizeof arch));
  DG_CALL(dg_cuda_nvrtc_tool(arch, st.tool, sizeof st.tool));
  snprintf(st.arch, sizeof st.arch, "%s", arch);
  st.compile_only = 1;
  return 0;
}

int be_init_device(int device) {
  if ((st.ready || st.failed || st.chosen) && device != st.device) {
    if (device < 0 || st.device < 0)
      return dg_error(DG_ERR_ARG,
                      "backend cuda: a process compiles for one target (cuda:sm_NN) or runs on "
                      "one GPU (cuda:N), not both");
    return dg_error(DG_ERR_ARG, "backend cuda:%d: this process runs on cuda:%d (one GPU each)",
                    device, st.device);
  }
  if (device < 0) {
    if (st.chosen) return 0;
    DG_CALL(init_compile_only(device));
    st.device = device;
    st.chosen = 1;
    return 0;
  }
  st.device = device;
  st.chosen = 1;
  return be_init();
}

int be_alloc(void **p, size_t bytes) {
  *p = NULL;
  DG_CALL(be_init());
  const size_t n = bytes ? bytes : 256;
  cudaError_t e = cudaMalloc(p, n);
  if (e != cudaSuccess) {
    *p = NULL;
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    return dg_error(DG_ERR_MEM,
                    "cuda backend: cudaMalloc of %zu bytes failed: %s (%zu of %zu bytes free)",
                    bytes, cudaGetErrorString(e), fr, tot);
  }
  e = cudaMemset(*p, 0, n);
  if (e != cudaSuccess) {
    cudaFree(*p);
    *p = NULL;
    return cuda_fail(e, "cudaMemset", "(zero-fill after cudaMalloc)");
  }
  return 0;
}

void be_free(void *p) {
  if (p) cudaFree(p); /* errors here are sticky ones already reported */
}

int be_to_device(void *d, const void *h, size_t bytes) {
  DG_CUDA_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), "(host to device)");
  return 0;
}

int be_to_host(void *h, const void *d, size_t bytes) {
  DG_CUDA_CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), "(device to host)");
  return 0;
}

/* The handle is a host copy: it is passed by value to every stage kernel
 * (constant bank, see dg_cuda_stages.cuh). */
int be_basis_create(void **handle, const dg_basis *b) {
  dg_basis *c = (dg_basis *)malloc(sizeof *c);
  if (!c) return dg_error(DG_ERR_MEM, "cuda backend: out of memory for basis tables");
  *c = *b;
  *handle = c;
  return 0;
}

void be_basis_free(void *h) { free(h); }

/* Team updates with traces at degree changes (band and random maps) of
 * models without coordinates run the kernels compiled for them (NX = 0 in
 * dg_stage_update_team: the position branches fold, which matters most in a
 * band map's low-degree buckets).  Uniform maps keep the general kernel:
 * there NX = 0 made ptxas spill more and the step slower
 * (docs/ARCHITECTURE.md, "One time step": position branches).
 * 0 (an experiment's baseline): the general kernels everywhere. */
#ifndef DG_CUDA_TEAM_NX0
#define DG_CUDA_TEAM_NX0 1
#endif

int run(int kind, const dg_stage_args *a, const void *basis, int r, int q) {
  DG_CALL(be_init());
  if (a->model_id >= st.nslots || a->dim < 2 || a->dim > 3 || r < 0 || r > DG_MAX_DEGREE ||
      q <= r || q > DG_MAX_Q)
    return dg_error(DG_ERR_ARG, "cuda backend: no stage for model %d, dim %d, degree %d, %d points",
                    a->model_id, a->dim, r, q);
  model_slot *m = &st.slot[a->model_id];
  int grid;
  DG_CALL(grid_of(m, a, &grid));
  if (kind == 1 && a->nbr_coeffs)
    kind = !a->team ? 2 : !a->nbr_traces ? 3 : (DG_CUDA_TEAM_NX0 && a->geom == NULL ? 5 : 4);
  else if (kind == 1 && a->bc) {
    kind = 7;                  /* the exterior states: compiled apart (dg_stage_update, NX 2) */
    grid = DG_CUDA_GRID_WALLS; /* in a unit of its own */
  }
  dg_cuda_kernel *t = (*m->t)[grid][a->dim - 2][r][q];
  if (kind >= 1 && kind <= 4 && grid >= DG_CUDA_GRID_SPHERE) {
    /* the sphere's unit of the running flux variant v */
    const int v = grid - DG_CUDA_GRID_SPHERE;
    kind = kind <= 2 ? 8 + 2 * v + (kind == 2) : 12 + 2 * v + (kind == 4);
  } else if ((kind == 3 || kind == 4) && a->geom && a->metric) {
    /* the team update's kernels for planar grids carry no metric terms */
    return dg_error(DG_ERR_BACKEND,
                    "cuda backend: the team update on the sphere needs a model that declares its "
                    "flux variants (DG_MODEL_X_FLOWS; model %s)",
                    m->name);
  }
  static const char *const kind_name[DG_CUDA_KINDS] = {DG_CUDA_KIND_NAMES("")};
  dg_cuda_kernel *k = &t[kind];
  if (!k->fn)
    return dg_error(DG_ERR_BACKEND,
                    "cuda backend: no %s kernel loaded for model %s, dim %d, degree %d, q %d",
                    kind_name[kind], st.slot[a->model_id].name, a->dim, r, q);
  if (a->nblock <= 0) return 0;
  DG_CALL(configure(k));
  /* microblocks per block: one for a team kernel, else one per warp */
  const int wpb = k->team ? 1 : st.block / DG_W;
  const dim3 threads = k->team ? dim3(DG_W, (unsigned)k->team) : dim3((unsigned)st.block);
  long blocks = (a->nblock + wpb - 1) / wpb;
  if (st.warps_sm > 0 && !k->team) {
    const long cap = (long)st.sms * ((st.warps_sm + wpb - 1) / wpb);
    if (blocks > cap) blocks = cap;
  }
  if (blocks > 0x7fffffffL) blocks = 0x7fffffffL; /* the grid strides over the rest */
  cudaStream_t stream;
  DG_CALL(pick_stream(a, &stream));
  dg_stage_args av = *a;
  void *args[2] = {&av, (void *)basis};
  cudaError_t e =
      cudaLaunchKernel(k->fn, dim3((unsigned)blocks), threads, args, (size_t)k->smem, stream);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) {
    cudaGetLastError(); /* clear a non-sticky launch error */
    cudaFuncAttributes fa;
    memset(&fa, 0, sizeof fa);
    cudaFuncGetAttributes(&fa, k->fn);
    return dg_error(DG_ERR_BACKEND,
                    "cuda backend: cudaLaunchKernel (%s, %ld blocks of %u threads, %d bytes of "
                    "shared memory, %zu bytes of local memory per thread) failed: %s (%s)",
                    k->name, blocks, threads.x * threads.y, k->smem, (size_t)fa.localSizeBytes,
                    cudaGetErrorString(e), cudaGetErrorName(e));
  }
  if (st.sync_each) DG_CUDA_CHECK(cudaDeviceSynchronize(), k->name);
  return 0;
}

int be_trace(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(0, a, basis, r, q);
}

int be_update(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(1, a, basis, r, q);
}

int be_rate(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(6, a, basis, r, q);
}

static_assert(sizeof(long) == sizeof(long long), "the watch's tag is a 64-bit long");

/* The blow-up watch: a thread per value of the watched rows; the first tag
   that sees a non-finite value wins (atomicMin), nothing is read back. */
__global__ void nonfinite_kernel(const dg_real *x, const long *rows, long nrows, int w, long tag,
                                 long long *first) {
  const long n = nrows * w, stride = (long)gridDim.x * blockDim.x;
  int bad = 0;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    bad |= !isfinite((double)x[rows[i / w] + i % w]);
  if (__syncthreads_or(bad) && threadIdx.x == 0) atomicMin(first, (long long)tag);
}

static int be_nonfinite(const dg_real *x, const long *rows, long nrows, int w, long tag,
                        long *first) {
  const long n = nrows * w;
  if (n <= 0) return 0;
  long blocks = (n + 255) / 256;
  if (blocks > 4096) blocks = 4096;
  nonfinite_kernel<<<(unsigned)blocks, 256>>>(x, rows, nrows, w, tag, (long long *)first);
  DG_CUDA_CHECK(cudaGetLastError(), "(nonfinite_kernel launch)");
  return 0;
}

/* be_max's block maxima (a static buffer: nothing to free at exit) */
enum { max_threads = 256, max_blocks = 1024 };
__device__ dg_real max_partial[max_blocks];

/* Block maxima of x (NaN wins: a NaN anywhere must reach the caller). */
__global__ void max_kernel(const dg_real *x, size_t n, dg_real *partial) {
  __shared__ dg_real sm[max_threads];
  dg_real m = -HUGE_VAL;
  int nan = 0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const dg_real v = x[i];
    nan |= v != v;
    m = v > m ? v : m;
  }
  sm[threadIdx.x] = nan ? (dg_real)NAN : m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if ((int)threadIdx.x < s) {
      const dg_real a = sm[threadIdx.x], b = sm[threadIdx.x + s];
      sm[threadIdx.x] = a != a || b != b ? (dg_real)NAN : (a > b ? a : b);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sm[0];
}

int be_max(const dg_real *x, size_t n, double *out) {
  DG_CALL(be_init());
  dg_real *partial = NULL;
  DG_CUDA_CHECK(cudaGetSymbolAddress((void **)&partial, max_partial), "(max reduction)");
  size_t blocks = (n + max_threads - 1) / max_threads;
  if (blocks > max_blocks) blocks = max_blocks;
  if (blocks == 0) blocks = 1;
  max_kernel<<<(unsigned)blocks, max_threads>>>(x, n, partial);
  DG_CUDA_CHECK(cudaGetLastError(), "(max_kernel launch)");
  dg_real h[max_blocks];
  DG_CUDA_CHECK(cudaMemcpy(h, partial, blocks * sizeof(dg_real), cudaMemcpyDeviceToHost),
                "(max reduction result)");
  double m = -HUGE_VAL;
  for (size_t i = 0; i < blocks; ++i) {
    if (h[i] != h[i]) {
      *out = NAN;
      return 0;
    }
    if ((double)h[i] > m) m = (double)h[i];
  }
  *out = m;
  return 0;
}

/* Across ranks: the ghosts' values gathered into tmp and copied to the
   host, or copied from the host into tmp and scattered; without a host
   buffer (a CUDA-aware MPI reads and writes tmp) the gather is waited for
   and the scatter reads tmp.  On the default stream, which the stage
   streams (blocking ones) wait for and which waits for them: the copy after
   the gather returns with the values in buf. */
__global__ void gather_kernel(dg_real *out, const dg_real *x, const long *idx, size_t n) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = x[idx[i]];
}

__global__ void scatter_kernel(dg_real *x, const long *idx, const dg_real *in, size_t n) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    x[idx[i]] = in[i];
}

static unsigned halo_blocks(size_t n) {
  const size_t b = (n + 255) / 256;
  return (unsigned)(b > 4096 ? 4096 : b ? b : 1);
}

int be_pack(dg_real *buf, dg_real *tmp, const dg_real *x, const long *idx, size_t n) {
  DG_CALL(be_init());
  if (n == 0) return 0;
  gather_kernel<<<halo_blocks(n), 256>>>(tmp, x, idx, n);
  DG_CUDA_CHECK(cudaGetLastError(), "(gather_kernel launch)");
  if (!buf) { /* MPI reads tmp next: the gather must be done */
    DG_CUDA_CHECK(cudaStreamSynchronize(0), "(gather_kernel, halo for MPI)");
    return 0;
  }
  DG_CUDA_CHECK(cudaMemcpy(buf, tmp, n * sizeof *buf, cudaMemcpyDeviceToHost), "(halo to host)");
  return 0;
}

int be_unpack(dg_real *x, dg_real *tmp, const long *idx, const dg_real *buf, size_t n) {
  DG_CALL(be_init());
  if (n == 0) return 0;
  if (buf)
    DG_CUDA_CHECK(cudaMemcpy(tmp, buf, n * sizeof *buf, cudaMemcpyHostToDevice),
                  "(halo to device)");
  scatter_kernel<<<halo_blocks(n), 256>>>(x, idx, tmp, n);
  DG_CUDA_CHECK(cudaGetLastError(), "(scatter_kernel launch)");
  if (st.sync_each) DG_CUDA_CHECK(cudaDeviceSynchronize(), "(scatter_kernel)");
  return 0;
}

/* Page-locked host memory: the staged exchange's copies run at the link's
   speed and without a bounce through a driver buffer. */
int be_host_alloc(void **p, size_t bytes) {
  *p = NULL;
  DG_CALL(be_init());
  const cudaError_t e = cudaHostAlloc(p, bytes ? bytes : 1, cudaHostAllocDefault);
  if (e != cudaSuccess) {
    *p = NULL;
    return dg_error(DG_ERR_MEM, "cuda backend: cudaHostAlloc of %zu bytes failed: %s (%s)", bytes,
                    cudaGetErrorString(e), cudaGetErrorName(e));
  }
  return 0;
}

void be_host_free(void *p) {
  if (p) cudaFreeHost(p); /* errors here are sticky ones already reported */
}

int be_sync(void) {
  DG_CALL(be_init());
  DG_CUDA_CHECK(cudaDeviceSynchronize(), "");
  return 0;
}

int be_triad(dg_real *a, const dg_real *b, const dg_real *c, dg_real s, size_t n) {
  DG_CALL(be_init());
  if (n == 0) return 0;
  const int threads = 256;
  size_t blocks = (n + threads - 1) / threads;
  const size_t cap = (size_t)st.sms * (st.max_threads_sm / threads) * 8;
  if (blocks > cap) blocks = cap;
  triad_kernel<<<(unsigned)blocks, threads>>>(a, b, c, s, n);
  DG_CUDA_CHECK(cudaGetLastError(), "(triad_kernel launch)");
  if (st.sync_each) DG_CUDA_CHECK(cudaDeviceSynchronize(), "(triad_kernel)");
  return 0;
}

int be_parallelism(void) {
  if (be_init()) return 0;
  return st.sms;
}

/* Whether the update reads its own old face values instead of recomputing
 * them (CMake DGRID_CUDA_REUSE_TRACES): bytes against flops. */
#ifndef DG_CUDA_REUSE_TRACES
#define DG_CUDA_REUSE_TRACES 0
#endif
/* Uniform 2D maps up to this degree read the neighbours' coefficients
 * instead of face traces (dg_stage_args.nbr_coeffs): the trace bytes are
 * gone, the neighbours' coefficients come from L1/L2.  Not in 3D, where the
 * kernels keep their scratch in local memory and it measured slower
 * (docs/ARCHITECTURE.md, "One time step"; -DDG_CUDA_COEFFS_RMAX_2D/3D=r
 * override). */
#ifndef DG_CUDA_COEFFS_RMAX_2D
#define DG_CUDA_COEFFS_RMAX_2D 10
#endif
#ifndef DG_CUDA_COEFFS_RMAX_3D
#define DG_CUDA_COEFFS_RMAX_3D -1
#endif

/* 2D grids with at least this many points per direction run the team
 * update (stencils/dg_team.h), whatever their degree map: from 5 points one
 * element no longer fits in one thread's registers, and a band map's
 * low-degree buckets compute at its highest degree's points
 * (-DDG_CUDA_TEAM_QMIN_2D=q overrides). */
#ifndef DG_CUDA_TEAM_QMIN_2D
#define DG_CUDA_TEAM_QMIN_2D 5
#endif

/* 2D grids of models with auxiliary data and several variables run the team
 * update from DG_CUDA_TEAM_AUX_QMIN_2D points per direction (the one-element
 * update holds a whole element of every variable and the point's auxiliary
 * values: shallow water's spills from degree 2 on) up to
 * DG_CUDA_TEAM_AUX_QMAX_2D, the range timed against the one-element update
 * (BENCHMARKS.md, "Shallow water": the team update with auxiliary data); 7
 * points, the most whose scratch of three variables with a source fits a
 * block's shared memory, is not timed yet.  -D...=q overrides, DGRID_UPDATE
 * gives an A/B in one build. */
#ifndef DG_CUDA_TEAM_AUX_QMIN_2D
#define DG_CUDA_TEAM_AUX_QMIN_2D 3
#endif
#ifndef DG_CUDA_TEAM_AUX_QMAX_2D
#define DG_CUDA_TEAM_AUX_QMAX_2D 6
#endif

/* Band and random maps of models without coordinates run the elements away
 * from degree changes at their own q = r + 1 (dg_backend_ops.own_q_min) in
 * the degrees with at least this many of them: below that the extra launch
 * per degree and the small kernel of the elements at degree changes cost
 * more than the points save (docs/ARCHITECTURE.md, "Decisions and why": own
 * q).  0: never (DGRID_OWN_Q=on still splits every degree). */
#ifndef DG_CUDA_OWN_Q_MIN
#define DG_CUDA_OWN_Q_MIN 65536
#endif

int be_plan(const dg_plan_in *in, dg_plan *out) {
  return dg_plan_choose(dg_backend_cuda_ops(), in, out);
}

/* By member, not by position: robust to the table's order. */
dg_backend_ops make_ops(void) {
  dg_backend_ops o;
  memset(&o, 0, sizeof o);
  o.name = "cuda";
  o.lane_width = DG_W;
  o.host_is_device = 0;
  o.reuse_traces = DG_CUDA_REUSE_TRACES;
  o.coeffs_rmax[0] = DG_CUDA_COEFFS_RMAX_2D;
  o.coeffs_rmax[1] = DG_CUDA_COEFFS_RMAX_3D;
  o.team_qmin[0] = DG_CUDA_TEAM_QMIN_2D;
  o.team_qmin[1] = DG_MAX_Q + 1;
  o.team_aux_q[0] = DG_CUDA_TEAM_AUX_QMIN_2D;
  o.team_aux_q[1] = DG_CUDA_TEAM_AUX_QMAX_2D;
  o.own_q_min = DG_CUDA_OWN_Q_MIN;
  o.init = be_init_device;
  o.alloc = be_alloc;
  o.free = be_free;
  o.to_device = be_to_device;
  o.to_host = be_to_host;
  o.basis_create = be_basis_create;
  o.basis_free = be_basis_free;
  o.plan = be_plan;
  o.describe = dg_plan_describe;
  o.model_slot = be_model_slot;
  o.prepare = be_prepare;
  o.available = be_available;
  o.jit_verbose = be_jit_verbose;
  o.trace = be_trace;
  o.update = be_update;
  o.rate = be_rate;
  o.max = be_max;
  o.nonfinite = be_nonfinite;
  o.sync = be_sync;
  o.triad = be_triad;
  o.parallelism = be_parallelism;
  o.pack = be_pack;
  o.unpack = be_unpack;
  o.host_alloc = be_host_alloc;
  o.host_free = be_host_free;
  o.solver = &dg_solver_cuda;
  return o;
}

} // namespace dg_cuda

using dg_cuda::make_ops;

static const dg_backend_ops the_ops = make_ops();

extern "C" const dg_backend_ops *dg_backend_cuda_ops(void) { return &the_ops; }

/* The number of CUDA devices this process sees (0 where there are none). */
extern "C" int dg_backend_cuda_devices(void) {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}
