/* dg_cuda_x_flow.h - private to backends/cuda: the running flux variant of
 * a model on the host (dg_cuda_kernel.x_flow), which picks the kernel copy
 * of that variant (dg_cuda_stages.cuh).  NVRTC makes device code only, so
 * the model's dg_model_x_flow is compiled for the host apart: by the build
 * for the models of the build (CMakeLists.txt generates one C file each,
 * which includes the model header, defines DG_CUDA_X_FLOW_NAME and then
 * includes this file), by the kernel compiler for a modeller's header
 * (dg_backend_cuda.cu). */
#ifndef DG_CUDA_X_FLOW_H
#define DG_CUDA_X_FLOW_H

#include "dg_stage_args.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*dg_cuda_x_flow_fn)(const dg_stage_args *a);

/* The models of the build: header (NAME.h) and *fn (NULL: no variants). */
typedef struct {
  const char *header;
  const dg_cuda_x_flow_fn *fn;
} dg_cuda_x_flow_entry;
extern const dg_cuda_x_flow_entry dg_cuda_x_flows[];
extern const int dg_cuda_nx_flows;

#ifdef __cplusplus
}
#endif
#endif

#ifdef DG_CUDA_X_FLOW_NAME
#include <string.h>
#if defined(DG_MODEL_X_FLOWS) && DG_MODEL_X_FLOWS
static int dg_cuda_x_flow_of(const dg_stage_args *a) {
  dg_model_params p;
  memcpy(&p, &a->model, sizeof p); /* as dg_model_unpack */
  return dg_model_x_flow(&p);
}
const dg_cuda_x_flow_fn DG_CUDA_X_FLOW_NAME = dg_cuda_x_flow_of;
#else
const dg_cuda_x_flow_fn DG_CUDA_X_FLOW_NAME = 0;
#endif
#endif
