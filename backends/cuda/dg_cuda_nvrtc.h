/* dg_cuda_nvrtc.h - private to backends/cuda: the stage kernels of one
 * (model, dim, R, Q) as an NVRTC unit (docs/ARCHITECTURE.md, "Kernels on
 * demand").  The backend (dg_backend_cuda.cu) builds units through the
 * kernel cache (dg_jit_load_blob with dg_cuda_nvrtc_build) and loads their
 * CUBIN; tests/gpu/nvrtc_check.c compiles the same units without a device.
 *
 * A unit's bytes (what the cache keeps) are a short text header, the
 * lowered names of its kernels by kind (dg_cuda.h) and what the host needs
 * to know of it (flux variants, team size, shared memory), followed by the
 * CUBIN. */
#ifndef DG_CUDA_NVRTC_H
#define DG_CUDA_NVRTC_H

#include "dg_cuda.h"
#include "dg_jit.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What dg_cuda_nvrtc_build compiles: the unit's (dim, r, q) and grid
 * (dg_cuda.h: DG_CUDA_GRID_PLANE the plane's kinds, DG_CUDA_GRID_WALLS the
 * boundary update, DG_CUDA_GRID_SPHERE + v the sphere's of flux variant v;
 * its text says the same: dg_cuda_nvrtc_source) for the target arch
 * ("sm_90"). */
typedef struct {
  char arch[16];
  int dim, r, q, grid;
  double seconds; /* out: the time NVRTC took */
} dg_cuda_nvrtc_ctx;

/* The target of compute capability major.minor ("sm_90") into arch, where
 * this NVRTC can compile for it.  0 or DG_ERR_BACKEND. */
int dg_cuda_nvrtc_arch(int major, int minor, char *arch, size_t cap);

/* The text of the unit for the model in `header` (a name under models/, or
 * an absolute path), dimension dim, degree r, q points and grid (as in
 * dg_cuda_nvrtc_ctx).  0 or DG_ERR_*. */
int dg_cuda_nvrtc_source(const char *header, int dim, int r, int q, int grid, char *buf,
                         size_t cap);

/* What a unit of `grid` adds to its name ("", " walls", " sphere flow 1"). */
void dg_cuda_grid_what(int grid, char *buf, size_t cap);

/* Everything besides a unit's text that changes what NVRTC makes of it
 * (the NVRTC version, the target, the options), for the cache key
 * (dg_jit_load_blob's `tool`).  0 or DG_ERR_*. */
int dg_cuda_nvrtc_tool(const char *arch, char *buf, size_t cap);

/* A dg_jit_build_fn: compile unit u (ctx: a dg_cuda_nvrtc_ctx) into the
 * unit bytes described above.  A compile error returns DG_ERR_ARG with the
 * first lines of NVRTC's log (they name the header's file:line). */
int dg_cuda_nvrtc_build(void *ctx, const dg_jit_unit *u, void **bytes, size_t *len);

/* A unit's bytes, read back: name[kind] the lowered names (NULL: the unit
 * has no kernel of that kind), flows the model's flux variants
 * (DG_MODEL_X_FLOWS), team and smem a 2D team kernel's threads per element
 * and dynamic shared memory per block, and the CUBIN. */
typedef struct {
  const char *name[DG_CUDA_KINDS];
  int flows, team, smem;
  const void *cubin;
  size_t cubin_len;
} dg_cuda_unit;

/* Parse the unit bytes (len of them; they are modified: the names point
 * into them).  0 or DG_ERR_BACKEND for bytes that are not a unit. */
int dg_cuda_unit_parse(void *bytes, size_t len, dg_cuda_unit *out);

#ifdef __cplusplus
}
#endif
#endif
