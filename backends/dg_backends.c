/* dg_backends.c - backend objects from resource strings, the backends this
 * build has, and what programs reach the kernel compiler for
 * (dg_backends.h; docs/ARCHITECTURE.md, "One backend layer"). */
#include "dg_backends.h"

#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_jit.h"
#include "dg_model_internal.h"
#include "dg_solver_ops.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each backend's table (backends/omp, backends/cuda). */
const dg_backend_ops *dg_backend_omp_ops(void);
#ifdef DG_HAVE_CUDA
const dg_backend_ops *dg_backend_cuda_ops(void);
int dg_backend_cuda_devices(void);
#endif

const char *dg_backend_default(void) {
#ifdef DG_HAVE_CUDA
  return "cuda";
#else
  return "omp";
#endif
}

const char *dg_backend_list(void) {
#ifdef DG_HAVE_CUDA
  return "omp, cuda";
#else
  return "omp";
#endif
}

#ifdef DG_HAVE_CUDA
/* "N" as a device index 0..999; -1 otherwise. */
static int device_index(const char *s) {
  if (!s || !*s || strlen(s) > 3) return -1;
  int v = 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return -1;
    v = 10 * v + (*s - '0');
  }
  return v;
}
#endif

/* DGRID_CUDA_AWARE=auto|off|on: whether the exchange across ranks hands
 * device memory to MPI where MPI says it can (auto), never (off: staged
 * through host memory, to time both), or always (on: an MPI that cannot is
 * an error); dg_backend.cuda_aware. */
static int cuda_aware_env(int *aware) {
  const char *env = getenv("DGRID_CUDA_AWARE");
  *aware = 0;
  if (!env || !*env || strcmp(env, "auto") == 0) return 0;
  if (strcmp(env, "off") == 0 || strcmp(env, "on") == 0) {
    *aware = env[1] == 'n' ? 1 : -1;
    return 0;
  }
  char esc[80];
  return dg_error(DG_ERR_ARG, "DGRID_CUDA_AWARE='%s': expected auto, off or on",
                  dg_escape(esc, sizeof esc, env));
}

int dg_backend_create(dg_backend **out, const char *resource) {
  return dg_backend_create_on_node(out, resource, -1);
}

int dg_backend_create_on_node(dg_backend **out, const char *resource, int node_rank) {
  if (!out) return dg_error(DG_ERR_ARG, "dg_backend_create: NULL handle");
  *out = NULL;
  const char *from = "backend '%s'";
  if (!resource || !*resource) {
    const char *env = getenv("DGRID_BACKEND");
    resource = env && *env ? env : dg_backend_default();
    if (env && *env) from = "DGRID_BACKEND='%s'";
  }
  char esc[80], what[120];
  dg_escape(esc, sizeof esc, resource);
  snprintf(what, sizeof what, from, esc);
  const dg_backend_ops *ops = NULL;
  int device = 0;
  if (strcmp(resource, "omp") == 0) {
    ops = dg_backend_omp_ops();
  } else if (strncmp(resource, "cuda", 4) == 0 && (resource[4] == '\0' || resource[4] == ':')) {
#ifdef DG_HAVE_CUDA
    if (resource[4] == ':' && strncmp(resource + 5, "sm_", 3) == 0) {
      /* a target without a device: kernels compiled into the cache (device -NN) */
      const int nn = device_index(resource + 8);
      if (nn < 10 || resource[8] == '0')
        return dg_error(DG_ERR_ARG, "%s: the target is not sm_NN (sm_80, sm_90, ...)", what);
      device = -nn;
    } else if (resource[4] == ':') {
      device = device_index(resource + 5);
      if (device < 0)
        return dg_error(DG_ERR_ARG,
                        "%s: the device is not a number (cuda:0, cuda:1, ...) or a target "
                        "(cuda:sm_90)",
                        what);
    } else {
      const char *env = getenv("DGRID_CUDA_DEVICE");
      if (env && *env && (device = device_index(env)) < 0) {
        char e2[80];
        return dg_error(DG_ERR_ARG, "DGRID_CUDA_DEVICE='%s' is not a device number",
                        dg_escape(e2, sizeof e2, env));
      }
      /* one rank per device: the node's ranks take its devices in turn */
      const int ndev = node_rank > 0 && !(env && *env) ? dg_backend_cuda_devices() : 0;
      if (ndev > 0) device = node_rank % ndev;
    }
    ops = dg_backend_cuda_ops();
#else
    return dg_error(DG_ERR_ARG,
                    "%s: this dgrid was built without CUDA (backends: %s; build with "
                    "-DDGRID_BACKEND=cuda)",
                    what, dg_backend_list());
#endif
  } else {
    return dg_error(DG_ERR_ARG, "%s: not a backend of this build (%s%s)", what, dg_backend_list(),
#ifdef DG_HAVE_CUDA
                    ", cuda:N"
#else
                    ""
#endif
    );
  }
  int aware = 0;
  DG_CALL(cuda_aware_env(&aware));
  DG_CALL(ops->init(device));
  dg_backend *be = calloc(1, sizeof *be);
  if (!be) return dg_error(DG_ERR_MEM, "out of memory");
  be->ops = ops;
  be->device = device;
  be->cuda_aware = aware;
  if (strcmp(ops->name, "cuda") == 0 && device < 0)
    snprintf(be->resource, sizeof be->resource, "cuda:sm_%d", -device);
  else if (strcmp(ops->name, "cuda") == 0)
    snprintf(be->resource, sizeof be->resource, "cuda:%d", device);
  else
    snprintf(be->resource, sizeof be->resource, "%s", ops->name);
  *out = be;
  return 0;
}

void dg_backend_destroy(dg_backend **be) {
  if (!be || !*be) return;
  free(*be);
  *be = NULL;
}

const char *dg_backend_name(const dg_backend *be) { return be ? be->ops->name : "(none)"; }
const char *dg_backend_resource(const dg_backend *be) { return be ? be->resource : "(none)"; }

void dg_backend_verbose(int on) {
  dg_backend_omp_ops()->jit_verbose(on);
#ifdef DG_HAVE_CUDA
  dg_backend_cuda_ops()->jit_verbose(on);
#endif
}

int dg_backend_cache(const char *what) { return dg_jit_cache(what); }

int dg_backend_warm_solvers(const dg_backend *be, int dim, unsigned degrees) {
  if (!be || !be->ops) return dg_error(DG_ERR_ARG, "dg_backend_warm_solvers: NULL argument");
  if (dim != 2 && dim != 3)
    return dg_error(DG_ERR_ARG, "dg_backend_warm_solvers: dimension %d (2 or 3)", dim);
  const dg_solver_ops *s = be->ops->solver;
  return s && s->prepare ? s->prepare(dim, degrees, 3) : 0; /* 3: double and float */
}

int dg_model_load(dg_model **out, const char *path) {
  if (!out) return dg_error(DG_ERR_ARG, "dg_model_load: NULL handle");
  *out = NULL;
  if (!path || !*path) return dg_error(DG_ERR_ARG, "option --model-file: empty path");
  char esc[320];
  char *abs = realpath(path, NULL);
  if (!abs)
    return dg_error(DG_ERR_IO, "option --model-file: cannot open '%s' (%s)",
                    dg_escape(esc, sizeof esc, path), strerror(errno));
  FILE *f = fopen(abs, "r");
  if (!f) {
    int e = errno;
    free(abs);
    return dg_error(DG_ERR_IO, "option --model-file: cannot read '%s' (%s)",
                    dg_escape(esc, sizeof esc, path), strerror(e));
  }
  fclose(f);
  const void *desc = NULL;
  const int *layout = NULL;
  int rc = dg_jit_load_model(abs, &desc, &layout);
  if (!rc) rc = dg_model_from_desc(out, (const dg_model_desc *)desc, abs, layout);
  free(abs);
  return rc;
}
