/* dg_jit.h - kernels compiled when a run needs them, and the per-user cache
 * that keeps them (docs/ARCHITECTURE.md, "Kernels on demand").  Private to
 * backends/.
 *
 * A unit is one translation unit of generated C (a few lines that include
 * the model header and a backend's wrapper file) compiled by the system C
 * compiler into a shared object and loaded with dlopen.  Its cache key
 * hashes everything that changes the binary: the sources the library
 * carries (dg_jit_sources.c, generated from stencils/, models/ and the
 * backends' wrapper files at build time), the model header's text where it
 * lives outside the tree, the compiler's path, the flags, the CPU where
 * -march=native is among them, and the unit's text (model, dim, R, Q,
 * variant).  The compiler's version is recorded in the entry and checked
 * where a compiler is present, so that a cache warmed on a login node is
 * used on compute nodes without one. */
#ifndef DG_JIT_H
#define DG_JIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One unit to load: `what` names it in messages and in `dgrid cache list`
 * ("omp advection 2D r=3 q=4"); `source` is its C text; `model_path`, where
 * not NULL, a header outside the tree whose text joins the key; `user` 1
 * for a modeller's code (compiled without -Werror). */
typedef struct {
  const char *what;
  const char *source;
  const char *model_path;
  int user;
  double built_s; /* > 0: built before the call (a batch of in-process compiles) in
                     this many seconds, the time recorded and said */
} dg_jit_unit;

/* Load n units: each from the cache where a valid entry exists, else
 * compiled (several compilers at once; one process of many compiles a
 * given unit, the others wait for it) and published.  handles[i] receives
 * the dlopen handle.  Returns 0 or DG_ERR_* with one message (a compile
 * error shows the compiler's first lines; no compiler names the one looked
 * for). */
int dg_jit_load(int n, const dg_jit_unit *u, void **handles);

/* The host part of a modeller's header `path` (absolute; NAME.h defines
 * `const dg_model_desc dg_model_NAME`), compiled with DG_MODEL_HOST into a
 * cached object and loaded: *desc points into it, *layout to its
 * {DG_NVAR, DG_MODEL_NAUX, DG_MODEL_NAUX_FACE} (models/dg_model_layout.h).
 * A compile error shows the compiler's first lines (the header's file:line). */
int dg_jit_load_model(const char *path, const void **desc, const int **layout);

/* An in-process compiler (NVRTC): build unit u into *bytes (malloc'd, the
 * caller frees) of *len bytes; 0 or DG_ERR_* with a message. */
typedef int (*dg_jit_build_fn)(void *ctx, const dg_jit_unit *u, void **bytes, size_t *len);

/* The bytes of unit u built by `build`: from the cache where a valid entry
 * exists (same checks as dg_jit_load), else built, published (one process
 * of many builds it) and returned.  `tool` names the compiler, its version,
 * options and target; it joins the key.  *bytes is malloc'd. */
int dg_jit_load_blob(const dg_jit_unit *u, const char *tool, dg_jit_build_fn build, void *ctx,
                     void **bytes, size_t *len);

/* Print what is compiled or loaded, and how long it took, on stderr. */
void dg_jit_set_verbose(int on);

/* The cache folder (resolved, created and checked); NULL with a message
 * recorded where it cannot be used. */
const char *dg_jit_cache_dir(void);

/* `dgrid cache list` and `clear`: print the entries on stdout / remove
 * them.  0 or DG_ERR_*. */
int dg_jit_cache_list(void);
int dg_jit_cache_clear(void);
/* what: "list" or "clear" (the backends' ops entry). */
int dg_jit_cache(const char *what);

/* The library's embedded sources (generated dg_jit_sources.c). */
typedef struct {
  const char *path; /* relative: stencils/dg_lane.h, models/advection.h, ... */
  const unsigned char *data;
  size_t len;
} dg_jit_source;
extern const dg_jit_source dg_jit_sources[];
extern const int dg_jit_nsources;

#ifdef __cplusplus
}
#endif
#endif
