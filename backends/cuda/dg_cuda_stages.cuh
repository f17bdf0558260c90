/* dg_cuda_stages.cuh - the stencils/ stages as CUDA kernel templates, one
 * kernel per (DIM, R, Q) and stage: the body of the units the backend
 * compiles with NVRTC when a run first needs them (dg_cuda_nvrtc.c;
 * docs/ARCHITECTURE.md, "Kernels on demand").
 *
 * A unit is a few lines: DG_CUDA_DIM and DG_CUDA_MODEL_HEADER defined, then
 * this file.  Nothing here is instantiated by itself: the unit's kernels are
 * the instantiations its name expressions ask for (dg_cuda_nvrtc_build:
 * the (DIM, R, Q) of the unit, each stage kind), and dg_cuda_info<> tells
 * the host what it needs to know of the unit.  NVRTC compiles device code
 * only: every function here is __global__, __device__ or both.
 *
 * A thread computes one element: warp w of the grid takes microblock w (the
 * DG_W = 32 elements of a microblock are one warp, lane = threadIdx.x % 32,
 * so every coefficient and trace load is coalesced).  A grid smaller than
 * the bucket strides over it.  The stage bodies are the ones the OpenMP
 * backend runs (DESIGN.md, decision 1); with DIM, R and Q template constants
 * their loops have constant bounds.
 *
 * The basis tables travel as a by-value __grid_constant__ kernel parameter:
 * kernel parameters live in a constant bank, so the tables are read through
 * the constant cache exactly like a __constant__ symbol (every lane of a
 * warp reads the same entry: one broadcast), with no symbol to keep in step
 * when several discretisations with different tables are alive. */
#if !defined(DG_CUDA_DIM) || !defined(DG_CUDA_MODEL_HEADER)
#error "define DG_CUDA_DIM and DG_CUDA_MODEL_HEADER first"
#endif
/* 2D: unroll every stage loop, so the per-thread scratch becomes registers
 * (much faster at high degree, backends/cuda/README.md; 3D would spill). Must precede the
 * stencils headers, which the model header includes. */
#if DG_CUDA_DIM == 2
#define DG_FULL_UNROLL 1
#endif
#include DG_CUDA_MODEL_HEADER
#include "dg_cuda.h"
#include "dg_stages.h"
#include "dg_stage_rate.h"
#include "dg_team.h"

#if DG_W != 32
#error "the CUDA stage kernels map one microblock to one warp: DG_W must be 32"
#endif

/* The update kernels hold a whole element per thread; from degree 3 on
 * they take every register the compiler may use, which leaves few warps to
 * hide memory latency.  A minimum of blocks per SM in __launch_bounds__ caps
 * the registers (more warps in flight, but spills to L1-cached local memory
 * once the element no longer fits).  DG_CUDA_MIN_BLOCKS (CMake
 * DGRID_CUDA_MIN_BLOCKS) sets it for every update kernel; -1 (auto) takes
 * the per-degree choice below, measured on the H100 with 128-thread blocks
 * (docs/ARCHITECTURE.md, "One time step": CUDA register caps): 2D degrees 1
 * (at Q = 2 only: the constant-velocity path shares its kernel with the
 * sphere's larger one) and 2 at 4 blocks, degree 3 at 3, degree 5 at 2 (the
 * register limit stays 255, but ptxas allocates differently); tighter caps
 * make degrees 4-7 spill more and run slower.  The caps of degrees 2 and 3
 * hold up to Q = 5 points: at the Q of a higher degree (the buckets of a
 * band map) they need more registers and spill under the cap. */
#ifndef DG_CUDA_MIN_BLOCKS
#define DG_CUDA_MIN_BLOCKS -1
#endif
__host__ __device__ constexpr int dg_cuda_min_blocks(int dim, int r, int q) {
  return DG_CUDA_MIN_BLOCKS > 0 ? DG_CUDA_MIN_BLOCKS
                                : (dim != 2 ? 1
                                            : ((r == 1 && q == 2) || (r == 2 && q <= 5)
                                                   ? 4
                                                   : (r == 3 && q <= 5 ? 3 : (r == 5 ? 2 : 1))));
}

/* No anonymous namespace: a unit is a program of its own (no other unit
 * links with it), and the host looks its kernels up by their lowered
 * names, which must be visible symbols of the CUBIN. */

/* Warp w of the grid takes microblock w (striding over the bucket); both
 * stage kernels are this loop around their stencils/ stage.  XF: the
 * update's flux variant (-1: every lane of the position). */
template <int DIM, int R, int Q, int STAGE, bool NBRC, int XF = -1>
__device__ __forceinline__ void dg_cuda_blocks(const dg_stage_args &a, const dg_basis &b) {
  const int lane = threadIdx.x % DG_W;
  const long stride = (long)gridDim.x * (blockDim.x / DG_W);
  for (long blk = a.blk0 + ((long)blockIdx.x * blockDim.x + threadIdx.x) / DG_W;
       blk < a.blk0 + a.nblock; blk += stride) {
    dg_lane wk[DG_STAGE_WORK(DIM, R, Q)];
    if constexpr (XF >= 0) /* a flux variant's copy (the other kernels' code as before) */
      dg_stage_update_xf(&a, &b, blk, lane, DIM, R, Q, NBRC, STAGE == 3 ? 2 : 1, XF, wk);
    else if (STAGE == 1 || STAGE == 3) /* 3: a box with boundaries (NX 2) */
      dg_stage_update(&a, &b, blk, lane, DIM, R, Q, NBRC, STAGE == 3 ? 2 : 1, wk);
    else if (STAGE == 0)
      dg_stage_trace(&a, &b, blk, lane, DIM, R, Q, wk);
    else
      dg_stage_rate(&a, &b, blk, lane, DIM, R, Q, wk);
  }
}

template <int DIM, int R, int Q>
__global__ void __launch_bounds__(DG_CUDA_BLOCK)
    dg_cuda_trace(const __grid_constant__ dg_stage_args a, const __grid_constant__ dg_basis b) {
  dg_cuda_blocks<DIM, R, Q, 0, false>(a, b);
}

template <int DIM, int R, int Q>
__global__ void __launch_bounds__(DG_CUDA_BLOCK)
    dg_cuda_rate(const __grid_constant__ dg_stage_args a, const __grid_constant__ dg_basis b) {
  dg_cuda_blocks<DIM, R, Q, 2, false>(a, b);
}

/* XF: the flux variant of a model that declares them (kinds 8..11; -1:
 * every variant's lanes).  A copy of the update per flux variant forms only
 * the lanes of the position that variant's flux reads: the wind's run-time
 * test of the flow otherwise keeps every variant's lanes live (the sphere:
 * 11 lanes per point for its two flows, where Williamson's wind reads 5;
 * docs/ARCHITECTURE.md, "Geometry").  The host picks the
 * running variant's unit (the sphere's unit of variant v holds the kinds
 * of XF = v only: dg_cuda_units.cu).  A unit asks for its variant's kernels
 * before it knows how many the model has (dg_cuda_nvrtc.c): a variant the
 * model lacks is an empty kernel, which the host never uses. */
#if DG_MODEL_X_FLOWS
static_assert(DG_MODEL_X_FLOWS <= DG_CUDA_XF_MAX,
              "at most DG_CUDA_XF_MAX flux variants (DG_MODEL_X_FLOWS) on the CUDA backend");
#endif
template <int DIM, int R, int Q, bool NBRC, int XF = -1>
__global__ void __launch_bounds__(DG_CUDA_BLOCK, dg_cuda_min_blocks(DIM, R, Q))
    dg_cuda_update(const __grid_constant__ dg_stage_args a, const __grid_constant__ dg_basis b) {
  if constexpr (XF < DG_MODEL_X_FLOWS) dg_cuda_blocks<DIM, R, Q, 1, NBRC, XF>(a, b);
}

/* The update on a box with boundaries (traces only: the plan refuses
 * neighbours' coefficients there). */
template <int DIM, int R, int Q>
__global__ void __launch_bounds__(DG_CUDA_BLOCK, dg_cuda_min_blocks(DIM, R, Q))
    dg_cuda_update_bc(const __grid_constant__ dg_stage_args a, const __grid_constant__ dg_basis b) {
  dg_cuda_blocks<DIM, R, Q, 3, false>(a, b);
}

/* The team update (stencils/dg_team.h): a block of DG_W x T threads takes
 * one microblock, threadIdx.x the element (so every coefficient load of a
 * warp is still coalesced and every thread of a warp takes the same item)
 * and threadIdx.y the thread of its team.  The elements' scratch is shared
 * memory, element-major with an odd stride (lanes reading the same entry of
 * their elements hit different banks).  DG_CUDA_TEAM_T sets T for every
 * degree; 0 (default): Q threads per element. */
#ifndef DG_CUDA_TEAM_T
#define DG_CUDA_TEAM_T 0
#endif
/* Elements with at most ceil(q/2) modes per direction (a band map's
 * low-degree buckets) get ceil(q/2) threads, so that about twice as many
 * elements are in flight per SM, and ceil(q/4) with at most a quarter as
 * many (fewer instructions per element); not more, where the larger
 * buckets ran slower (docs/ARCHITECTURE.md, "Decisions and why": the team's
 * size).  DG_CUDA_TEAM_LOW_T=1: only the first rule; 0: q threads for
 * all. */
#ifndef DG_CUDA_TEAM_LOW_T
#define DG_CUDA_TEAM_LOW_T 2
#endif
__host__ __device__ constexpr int dg_cuda_team_threads(int r, int q) {
  return DG_CUDA_TEAM_T > 0                                ? DG_CUDA_TEAM_T
         : DG_CUDA_TEAM_LOW_T >= 2 && 4 * (r + 1) <= q     ? (q + 3) / 4
         : DG_CUDA_TEAM_LOW_T >= 1 && 2 * (r + 1) <= q + 1 ? (q + 1) / 2
                                                           : q;
}
__host__ __device__ constexpr int dg_cuda_team_stride(int r, int q) {
  return DG_TEAM_WORK(r, q) | 1;
}
__host__ __device__ constexpr int dg_cuda_team_bytes(int r, int q) {
  return DG_W * dg_cuda_team_stride(r, q) * (int)sizeof(dg_real);
}
__host__ __device__ constexpr int dg_cuda_min(int a, int b) { return a < b ? a : b; }
__host__ __device__ constexpr int dg_cuda_max(int a, int b) { return a > b ? a : b; }
/* The registers a team thread keeps at least (65536 per SM).  Below about
 * 56, the phase-2 item (values, two fluxes at Q points) spills: a band map's
 * low-degree buckets at Q = 8 took 32 and spilled up to 0.8 KB. */
#ifndef DG_CUDA_TEAM_MIN_REGS
#define DG_CUDA_TEAM_MIN_REGS 56
#endif
/* The same for the sphere's copies (XF >= 0), kept apart for experiments:
 * while phase 4 applied the row's mass inverse by contractions
 * (dg_team_row_mass) degree 4 spilled at 56 and 64 was faster; since it
 * forms the row at the points (dg_team_row_points) 56 is faster again
 * (docs/ARCHITECTURE.md, "One time step": CUDA register caps). */
#ifndef DG_CUDA_TEAM_SPHERE_MIN_REGS
#define DG_CUDA_TEAM_SPHERE_MIN_REGS 56
#endif
/* The __launch_bounds__ minimum of blocks per SM: as many as shared memory
 * holds (228 KB, 1 KB reserved per block), so that registers do not cut the
 * occupancy below that (degree 7: 80 registers, 3 blocks, no spills), but no
 * more than leave `regs` registers per thread; 1 to 32. */
__host__ __device__ constexpr int dg_cuda_team_min_blocks(int r, int q, int regs) {
  return dg_cuda_max(1, dg_cuda_min(dg_cuda_min(228 * 1024 / (dg_cuda_team_bytes(r, q) + 1024),
                                                65536 / regs / (DG_W * dg_cuda_team_threads(r, q))),
                                    32));
}

/* XF: -2 (kinds 3..5) a grid without metric; the sphere runs a copy per
 * flux variant (kinds 12..15, XF >= 0; empty for a variant the model
 * lacks, as dg_cuda_update). */
template <int R, int Q, bool TR, bool NX, int XF = -2>
__global__ void __launch_bounds__(DG_W *dg_cuda_team_threads(R, Q),
                                  dg_cuda_team_min_blocks(R, Q,
                                                          XF >= 0 ? DG_CUDA_TEAM_SPHERE_MIN_REGS
                                                                  : DG_CUDA_TEAM_MIN_REGS))
    dg_cuda_update_team(const __grid_constant__ dg_stage_args a,
                        const __grid_constant__ dg_basis b) {
  if constexpr (XF < DG_MODEL_X_FLOWS) {
    extern __shared__ dg_real dg_cuda_team_smem[];
    dg_lane *wk = dg_cuda_team_smem + threadIdx.x * dg_cuda_team_stride(R, Q);
    for (long blk = a.blk0 + blockIdx.x; blk < a.blk0 + a.nblock; blk += gridDim.x) {
      dg_stage_update_team(&a, &b, blk, (int)threadIdx.x, (int)threadIdx.y,
                           dg_cuda_team_threads(R, Q), R, Q, TR, NX, XF, wk,
                           dg_cuda_team_stride(R, Q));
      __syncthreads(); /* the next microblock overwrites the scratch */
    }
  }
}

/* What the host needs to know of a unit, in the lowered name of the
 * instantiation dg_cuda_info<DG_MODEL_X_FLOWS, dg_cuda_team_threads(R, Q),
 * dg_cuda_team_bytes(R, Q)> (dg_cuda_nvrtc.c reads its template arguments):
 * the model's flux variants, and a team kernel's threads per element and
 * dynamic shared memory per block, which depend on the model (DG_NVAR). */
template <int FLOWS, int TEAM, int SMEM> __global__ void dg_cuda_info() {}
