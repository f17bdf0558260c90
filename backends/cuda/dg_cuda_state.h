/* dg_cuda_state.h - the CUDA backend's process state and what its two
 * files share: dg_backend_cuda.cu (the device, memory, copies, launches)
 * and dg_cuda_units.cu (model slots and their kernel units: compiled by
 * NVRTC, cached, loaded).  C++ (nvcc), private to backends/cuda. */
#ifndef DG_CUDA_STATE_H
#define DG_CUDA_STATE_H

#include "dg_cuda.h"
#include "dg_x_flow.h"
#include "dg_error.h"

#include <cuda_runtime.h>

#define DG_CUDA_MAX_STREAMS 8

namespace dg_cuda {

/* The models whose kernels this process runs, by slot
 * (dg_stage_args.model_id): the header (a name under models/ for the
 * library's own, an absolute path for a modeller's), the kernels loaded so
 * far and the host's flux variant of the model (backends/dg_x_flow.h). */
enum { DG_CUDA_SLOTS = 64 };
struct model_slot {
  char *header;
  char name[64];
  dg_cuda_table *t;
  int x_flow_known;
  dg_x_flow_fn x_flow; /* NULL: no flux variants */
  int x_flows;         /* DG_MODEL_X_FLOWS, 0 without */
};

struct backend_state {
  int ready;        /* init succeeded */
  int chosen;       /* device set by a backend object (be_init_device) */
  int failed;       /* init failed: rc and message are kept */
  int compile_only; /* "cuda:sm_NN": kernels compiled into the cache for sm_NN, no device */
  int rc;
  char msg[512];
  int device, sms, max_threads_sm;
  int sync_each; /* DGRID_CUDA_SYNC */
  int block;     /* DGRID_CUDA_BLOCK */
  int warps_sm;  /* DGRID_CUDA_WARPS */
  int nstreams;  /* DGRID_CUDA_STREAMS */
  char arch[16]; /* the device's, for NVRTC: "sm_90" */
  char tool[2048];
  model_slot slot[DG_CUDA_SLOTS];
  int nslots;
  /* the current pass (see "Streams" above) */
  cudaStream_t stream[DG_CUDA_MAX_STREAMS];
  cudaEvent_t done[DG_CUDA_MAX_STREAMS];
  int in_pass, pos;
  int last_pass;
  unsigned used, prev_used, waited; /* stream bit masks */
};

extern backend_state st; /* dg_backend_cuda.cu */

inline int cuda_fail(cudaError_t e, const char *call, const char *what) {
  return dg_error(DG_ERR_BACKEND, "cuda backend: %s%s%s failed: %s (%s)", call, what ? " " : "",
                  what ? what : "", cudaGetErrorString(e), cudaGetErrorName(e));
}

/* Check a CUDA call: on failure record "cuda backend: <call> failed: ...". */
#define DG_CUDA_CHECK(call, what)                                                                  \
  do {                                                                                             \
    cudaError_t dg_cuda_e_ = (call);                                                               \
    if (dg_cuda_e_ != cudaSuccess) return cuda_fail(dg_cuda_e_, #call, what);                      \
  } while (0)

/* Make the device ready (once; a failure is kept and returned again). */
int be_init(void);
/* be_init, or nothing for a compile-only backend ("cuda:sm_NN"). */
int be_init_compile(void);

/* dg_cuda_units.cu: the ops table's model slots and kernel units. */
int be_model_slot(const char *header, int *slot);
int be_prepare(int slot, int dim, int n, const int (*rq)[2], const dg_stage_args *like);
int be_available(int model, int dim, int r, int q, const dg_stage_args *like);
void be_jit_verbose(int on);
/* The grid (dg_cuda.h) whose unit runs a stage call like `a` of slot m's
 * model: 0, or 1 + the model's flux variant on the sphere. */
int grid_of(model_slot *m, const dg_stage_args *a, int *grid);

} // namespace dg_cuda
#endif
