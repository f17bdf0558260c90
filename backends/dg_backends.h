/* dg_backends.h - the backend layer's entry points for programs: a backend
 * object made from a resource string (docs/ARCHITECTURE.md, "One backend
 * layer"), a modeller's header loaded by the kernel compiler, and the
 * kernel cache.  Installed with the API (dgrid.h includes it). */
#ifndef DG_BACKENDS_H
#define DG_BACKENDS_H

#include "dg_model.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_backend dg_backend;

/* A backend for `resource`: "omp" (OpenMP threads on this CPU), "cuda" (the
 * first GPU, or DGRID_CUDA_DEVICE) or "cuda:N" (GPU N); NULL or "" takes
 * DGRID_BACKEND from the environment, else the build's default
 * (dg_backend_default).  The backend is made ready now: a GPU that is not
 * there, or a backend this build lacks, is an error naming it.  One process
 * drives one GPU; omp and cuda may be used side by side.  "cuda:sm_NN"
 * needs no GPU: it compiles kernels for that target into the cache
 * (dg_model_warm; `dgrid cache warm --backends cuda:sm_90`) and runs
 * nothing. */
int dg_backend_create(dg_backend **be, const char *resource);

/* dg_backend_create for one of several ranks on a node: where the resource
 * names CUDA without a device ("cuda", or the default) and DGRID_CUDA_DEVICE
 * is not set, the rank takes device node_rank mod the number of devices, so
 * that the node's ranks spread over its GPUs; node_rank < 0: as
 * dg_backend_create. */
int dg_backend_create_on_node(dg_backend **be, const char *resource, int node_rank);
void dg_backend_destroy(dg_backend **be);
/* "omp" or "cuda", and the resource as it runs ("omp", "cuda:0"). */
const char *dg_backend_name(const dg_backend *be);
const char *dg_backend_resource(const dg_backend *be);
/* The build's default backend ("omp", or "cuda" in a CUDA build), and the
 * backends it has, as "omp" or "omp, cuda". */
const char *dg_backend_default(void);
const char *dg_backend_list(void);
/* Say on stderr what the kernel compiler compiles or loads, and how long it
 * takes (every backend of the process). */
void dg_backend_verbose(int on);

/* The solvers' kernels of the degrees in `degrees` (bit r) for operators
 * of dimension dim, double and float, compiled into the kernel cache or
 * loaded from it (`dgrid cache warm --solvers`); 0 at once where the
 * backend builds them with the library (CUDA).  0 or DG_ERR_*. */
int dg_backend_warm_solvers(const dg_backend *be, int dim, unsigned degrees);

/* The model of a header outside the tree (NAME.h, models/README.md): its
 * host part is compiled and loaded now, its stages when a discretisation
 * needs them, by the kernel compiler (docs/ARCHITECTURE.md, "Kernels on
 * demand"); dgrid is not rebuilt.  A compile error returns DG_ERR_ARG with
 * the compiler's first lines. */
int dg_model_load(dg_model **m, const char *path);

/* The digest of the modeller's header at `path` and of the headers beside it
 * that it includes (their text and include names, not where they lie): 32
 * hex digits into out[33].  A snapshot stores it, and a restart refuses a
 * header that has changed since. */
int dg_model_file_digest(const char *path, char out[33]);

/* The per-user kernel cache: "list" prints its entries on stdout, "clear"
 * removes them. */
int dg_backend_cache(const char *what);

#ifdef __cplusplus
}
#endif
#endif
