/* dg_cuda.h - private to backends/cuda: the kernel table of the backend
 * (dg_backend_cuda.cu) and the constants the stage kernels share with it
 * (dg_cuda_stages.cuh, which NVRTC compiles: plain declarations only). */
#ifndef DG_CUDA_H
#define DG_CUDA_H

#include "dg_basis.h"
#include "dg_stage_args.h"

/* One loaded stage kernel.  fn is the kernel's handle (a cudaKernel_t of
 * the unit's library, which cudaLaunchKernel, cudaFuncSetAttribute and
 * cudaFuncGetAttributes take as a function); every kernel takes
 * (dg_stage_args, dg_basis) by value. */
typedef struct {
  const void *fn;
  const char *name; /* "update 3D r=7 q=8", for messages */
  int team;         /* team kernels: threads per element (blockDim.y), else 0 */
  int smem;         /* team kernels: dynamic shared memory per block (bytes) */
  int configured;   /* its attributes are set (dg_backend_cuda.cu, configure) */
} dg_cuda_kernel;

/* The kinds (the last index of dg_cuda_table, below): 0 = trace, 1 = update, 2 = update
 * with nbr_coeffs (compiled for q = r + 1 only, the uniform maps that use
 * it), 3 = team update, 4 = team update with traces at degree changes
 * (nbr_traces), 5 = 4 for models without coordinates (NX = 0 in
 * dg_stage_update_team: A->geom is NULL); 3..5 for 2D only; 6 = the
 * elements' CFL rates (dg_stage_rate); 7 = update on a box with boundaries
 * (NX = 2 in dg_stage_update); 8, 9 = 1, 2 for flux variant 0 of a model
 * that declares variants (XF = 0 in dg_stage_update_xf, on mapped grids:
 * the sphere), 10, 11 = the same for variant 1; 12, 13 = 3, 4 for flux
 * variant 0 (the sphere's team update), 14, 15 = the same for variant 1. */
enum { DG_CUDA_KINDS = 16, DG_CUDA_XF_MAX = 2 };
/* The kinds' names for messages, each followed by the string literal s
 * (" 2D r=1 q=8"). */
#define DG_CUDA_KIND_NAMES(s)                                                                      \
  "trace" s, "update" s, "update (neighbours' coefficients)" s, "update (team)" s,                 \
      "update (team, traces at degree changes)" s,                                                 \
      "update (team, traces at degree changes, no coordinates)" s, "CFL rate" s,                   \
      "update (boundaries)" s, "update (flux variant 0)" s,                                        \
      "update (neighbours' coefficients, flux variant 0)" s, "update (flux variant 1)" s,          \
      "update (neighbours' coefficients, flux variant 1)" s, "update (team, flux variant 0)" s,    \
      "update (team, traces at degree changes, flux variant 0)" s,                                 \
      "update (team, flux variant 1)" s,                                                           \
      "update (team, traces at degree changes, flux variant 1)" s
/* t[grid][dim-2][r][q][kind]: grid 0 (DG_CUDA_GRID_PLANE) holds the kinds
 * 0..6 (the plane's unit, which also runs a model without flux variants on
 * the sphere), grid 1 (DG_CUDA_GRID_WALLS) kind 7 alone (a box with
 * boundaries: its unit is compiled only for runs that have them), grid
 * DG_CUDA_GRID_SPHERE + v the sphere's unit of flux variant v: kinds 0, 6,
 * 8 + 2 v, 9 + 2 v, 12 + 2 v and 13 + 2 v (a run takes one variant:
 * dg_cuda_units.cu). */
enum { DG_CUDA_GRID_PLANE = 0, DG_CUDA_GRID_WALLS = 1, DG_CUDA_GRID_SPHERE = 2 };
enum { DG_CUDA_GRIDS = DG_CUDA_GRID_SPHERE + DG_CUDA_XF_MAX };
typedef dg_cuda_kernel dg_cuda_table[DG_CUDA_GRIDS][2][DG_MAX_DEGREE + 1][DG_MAX_Q + 1]
                                    [DG_CUDA_KINDS];

/* Threads per block of the stage kernels (a multiple of 32: one warp per
 * microblock); the __launch_bounds__ of every stage kernel. */
#define DG_CUDA_BLOCK 128

#endif
