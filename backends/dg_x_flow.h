/* dg_x_flow.h - private to backends/: the running flux variant of a model
 * on the host (dg_model_x_flow of a model that declares DG_MODEL_X_FLOWS,
 * stencils/dg_stage_model.h), which picks the stage copy of that variant:
 * the unit of the sphere of either backend (cuda/dg_cuda_units.cu,
 * omp/dg_backend_omp.c).  NVRTC makes device code only, and
 * the OpenMP backend picks its unit before it loads one, so the model's
 * dg_model_x_flow is compiled for the host apart: by the build for the
 * models of the build (CMakeLists.txt generates one C file each, which
 * includes the model header, defines DG_X_FLOW_NAME and then includes this
 * file), by the kernel compiler for a modeller's header (dg_x_flow.c). */
#ifndef DG_X_FLOW_H
#define DG_X_FLOW_H

#include "dg_stage_args.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*dg_x_flow_fn)(const dg_stage_args *a);

/* The models of the build: header (NAME.h), *fn (NULL: no variants) and
 * *count (DG_MODEL_X_FLOWS, 0 without). */
typedef struct {
  const char *header;
  const dg_x_flow_fn *fn;
  const int *count;
} dg_x_flow_entry;
extern const dg_x_flow_entry dg_x_flows[];
extern const int dg_nx_flows;

/* The host's flux variant of the model whose device part is `header` (a
 * name under models/ for the build's models, an absolute path for a
 * modeller's; `name` for messages): *fn NULL and *count 0 for a model
 * without variants.  The build's for its own models, else compiled (or
 * taken from the cache) by the kernel compiler from the header.
 * DG_ERR_ARG for a model with more than `max` variants (the backend's). */
int dg_x_flow_host(const char *header, const char *name, int max, dg_x_flow_fn *fn, int *count);

/* The variant *v that fn (a model's, with `count` variants) gives for the
 * stage call a: DG_ERR_BACKEND naming the model where it is not one of
 * 0..count-1. */
int dg_x_flow_variant(const char *name, dg_x_flow_fn fn, int count, const dg_stage_args *a, int *v);

#ifdef __cplusplus
}
#endif
#endif

#ifdef DG_X_FLOW_NAME
#include <string.h>
#if defined(DG_MODEL_X_FLOWS) && DG_MODEL_X_FLOWS
static int dg_x_flow_of(const dg_stage_args *a) {
  dg_model_params p;
  memcpy(&p, &a->model, sizeof p); /* as dg_model_unpack */
  return dg_model_x_flow(&p);
}
const dg_x_flow_fn DG_X_FLOW_NAME = dg_x_flow_of;
const int DG_X_FLOW_COUNT_NAME = DG_MODEL_X_FLOWS;
#else
const dg_x_flow_fn DG_X_FLOW_NAME = 0;
const int DG_X_FLOW_COUNT_NAME = 0;
#endif
#endif
