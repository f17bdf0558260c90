/* dg_cuda_units.cu - the CUDA backend's model slots and kernel units: the
 * stage kernels of a (model, dim, R, Q) on a grid (the plane, or the sphere
 * with one flux variant of the model: dg_cuda.h) are one unit of
 * dg_cuda_stages.cuh
 * that NVRTC compiles for the running device when a discretisation first
 * needs it (dg_cuda_nvrtc.c), kept in the per-user kernel cache
 * (dg_jit_load_blob) and loaded as a CUDA library; its kernels go into the
 * slot's table, which dg_backend_cuda.cu launches from.  Units the cache
 * lacks are compiled on several threads at once (NVRTC is thread-safe; the
 * cache is driven from the calling thread only). */
#include "dg_cuda_nvrtc.h"
#include "dg_cuda_state.h"
#include "dg_jit.h"

#include <cuda_runtime.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

namespace dg_cuda {

int be_model_slot(const char *header, int *slot) {
  for (int i = 0; i < st.nslots; ++i)
    if (strcmp(st.slot[i].header, header) == 0) {
      *slot = i;
      return 0;
    }
  if (st.nslots == DG_CUDA_SLOTS)
    return dg_error(DG_ERR_ARG, "cuda backend: more than %d models in one process", DG_CUDA_SLOTS);
  const char *base = strrchr(header, '/');
  base = base ? base + 1 : header;
  const size_t len = strcspn(base, ".");
  model_slot *m = &st.slot[st.nslots];
  if (len == 0 || len >= sizeof m->name)
    return dg_error(DG_ERR_ARG, "model header '%s': not NAME.h", header);
  m->header = strdup(header);
  m->t = (dg_cuda_table *)calloc(1, sizeof(dg_cuda_table));
  if (!m->header || !m->t) {
    free(m->header);
    free(m->t);
    m->header = NULL;
    m->t = NULL;
    return dg_error(DG_ERR_MEM, "cuda backend: out of memory");
  }
  memcpy(m->name, base, len);
  m->name[len] = '\0';
  *slot = st.nslots++;
  return 0;
}

/* The host's flux variants of slot m's model (backends/dg_x_flow.h), once. */
static int slot_x_flow(model_slot *m) {
  if (m->x_flow_known) return 0;
  DG_CALL(dg_x_flow_host(m->header, m->name, DG_CUDA_XF_MAX, &m->x_flow, &m->x_flows));
  m->x_flow_known = 1;
  return 0;
}

/* Grid 0 on grids without metric terms and for a model without flux
 * variants (its general update carries every lane), DG_CUDA_GRID_SPHERE + v
 * on the sphere
 * (positions and metric) with the model's variant v: a run uses one
 * variant, so a unit holds one (docs/ARCHITECTURE.md, "Kernels on
 * demand": a sphere run of shallow water compiles about a quarter of what
 * the unit of every grid took). */
int grid_of(model_slot *m, const dg_stage_args *a, int *grid) {
  *grid = 0;
  if (!a || !(a->geom && a->metric)) return 0;
  DG_CALL(slot_x_flow(m));
  if (m->x_flows == 0) return 0;
  int v;
  DG_CALL(dg_x_flow_variant(m->name, m->x_flow, m->x_flows, a, &v));
  *grid = DG_CUDA_GRID_SPHERE + v;
  return 0;
}

/* The kind whose kernel every unit of `grid` has (the update). */
static int key_kind(int grid) {
  return grid == DG_CUDA_GRID_PLANE   ? 1
         : grid == DG_CUDA_GRID_WALLS ? 7
                                      : 8 + 2 * (grid - DG_CUDA_GRID_SPHERE);
}

/* One unit prepare needs: its text and what NVRTC makes of it. */
struct pending_unit {
  char src[4096 + 512], what[160];
  dg_jit_unit u;
  dg_cuda_nvrtc_ctx ctx;
  int missing; /* not in the cache */
  void *built; /* compiled by a build thread */
  size_t built_len;
  int rc;         /* a build thread's status ... */
  char msg[2048]; /* ... and message */
};

int verbose; /* jit_verbose */

int unit_init(pending_unit *p, const model_slot *m, int dim, int r, int q, int grid) {
  memset(p, 0, sizeof *p);
  DG_CALL(dg_cuda_nvrtc_source(m->header, dim, r, q, grid, p->src, sizeof p->src));
  char gwhat[32];
  dg_cuda_grid_what(grid, gwhat, sizeof gwhat);
  snprintf(p->what, sizeof p->what, "cuda %s %dD r=%d q=%d%s", m->name, dim, r, q, gwhat);
  p->u.what = p->what;
  p->u.source = p->src;
  p->u.user = m->header[0] == '/';
  p->u.model_path = p->u.user ? m->header : NULL;
  snprintf(p->ctx.arch, sizeof p->ctx.arch, "%s", st.arch);
  p->ctx.dim = dim;
  p->ctx.r = r;
  p->ctx.q = q;
  p->ctx.grid = grid;
  return 0;
}

/* dg_jit_build_fns: the first only notes that the cache lacks the unit,
 * the second hands over what a build thread made. */
int note_missing(void *ctx, const dg_jit_unit *u, void **bytes, size_t *len) {
  ((pending_unit *)ctx)->missing = 1;
  return dg_error(DG_ERR_BACKEND, "kernel %s: not in the cache", u->what);
}
int take_built(void *ctx, const dg_jit_unit *u, void **bytes, size_t *len) {
  pending_unit *p = (pending_unit *)ctx;
  if (!p->built) return dg_error(DG_ERR_BACKEND, "kernel %s: not built", u->what);
  *bytes = p->built;
  *len = p->built_len;
  p->built = NULL;
  return 0;
}

/* Build threads: NVRTC is thread-safe, the cache is not (dg_jit.c), so
 * the threads only compile; prepare publishes. */
struct build_pool {
  pending_unit **units;
  int n, next;
};
void *build_thread(void *arg) {
  build_pool *pool = (build_pool *)arg;
  for (int i; (i = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED)) < pool->n;) {
    pending_unit *p = pool->units[i];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    p->rc = dg_cuda_nvrtc_build(&p->ctx, &p->u, &p->built, &p->built_len);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* the unit's own time, for the cache's record (take_built hands it over) */
    p->u.built_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (p->rc) snprintf(p->msg, sizeof p->msg, "%s", dg_error_message()); /* thread-local */
  }
  return NULL;
}

/* Compile the n units on up to as many threads as there are processors. */
int build_all(pending_unit **units, int n) {
  build_pool pool = {units, n, 0};
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  int nt = (int)(ncpu < 1 ? 1 : ncpu > 16 ? 16 : ncpu);
  if (nt > n) nt = n;
  pthread_t th[16];
  int started = 0;
  for (; started < nt - 1; ++started)
    if (pthread_create(&th[started], NULL, build_thread, &pool)) break;
  build_thread(&pool); /* this thread too */
  for (int i = 0; i < started; ++i) pthread_join(th[i], NULL);
  for (int i = 0; i < n; ++i)
    if (units[i]->rc) return dg_error(units[i]->rc, "%s", units[i]->msg);
  return 0;
}

/* Load a unit's kernels (its bytes: dg_cuda_nvrtc.h) into slot m's table. */
int install_unit(model_slot *m, const pending_unit *p, void *bytes, size_t len) {
  const int dim = p->ctx.dim, r = p->ctx.r, q = p->ctx.q, grid = p->ctx.grid;
  dg_cuda_unit unit;
  int rc = dg_cuda_unit_parse(bytes, len, &unit);
  if (!rc) rc = slot_x_flow(m);
  if (!rc && unit.flows != m->x_flows)
    rc = dg_error(DG_ERR_BACKEND,
                  "cuda backend: %s: the device code declares %d flux variants, the host's "
                  "dg_model_x_flow %d",
                  p->what, unit.flows, m->x_flows);
  static const char *const kind_name[DG_CUDA_KINDS] = {DG_CUDA_KIND_NAMES("")};
  char *names = NULL;
  cudaLibrary_t lib = NULL;
  dg_cuda_kernel k[DG_CUDA_KINDS];
  memset(k, 0, sizeof k);
  if (!rc && !(names = (char *)malloc(DG_CUDA_KINDS * 96)))
    rc = dg_error(DG_ERR_MEM, "cuda backend: out of memory");
  cudaError_t e = cudaSuccess;
  if (!rc &&
      (e = cudaLibraryLoadData(&lib, unit.cubin, NULL, NULL, 0, NULL, NULL, 0)) != cudaSuccess)
    rc = cuda_fail(e, "cudaLibraryLoadData", p->what);
  for (int i = 0; i < DG_CUDA_KINDS && !rc; ++i) {
    if (!unit.name[i]) continue;
    cudaKernel_t kern;
    if ((e = cudaLibraryGetKernel(&kern, lib, unit.name[i])) != cudaSuccess) {
      rc = cuda_fail(e, "cudaLibraryGetKernel", unit.name[i]);
      break;
    }
    k[i].fn = (const void *)kern;
    k[i].name = names + 96 * i;
    snprintf(names + 96 * i, 96, "%s %dD r=%d q=%d", kind_name[i], dim, r, q);
    if ((i >= 3 && i <= 5) || i >= 12) { /* the team kinds */
      k[i].team = unit.team;
      k[i].smem = unit.smem;
    }
  }
  if (!rc && !k[key_kind(grid)].fn)
    rc = dg_error(DG_ERR_BACKEND, "cuda backend: %s has no update kernel", p->what);
  if (rc) {
    if (lib) cudaLibraryUnload(lib);
    free(names);
    free(bytes);
    return rc;
  }
  /* the library may read the CUBIN later (lazy loading): bytes stay */
  memcpy((*m->t)[grid][dim - 2][r][q], k, sizeof k);
  return 0;
}

/* Load the kernels of grid `grid` of the (r, q) pairs of slot m that are
 * not loaded yet: from the cache, else compiled by NVRTC now, several
 * units at once. */
int load_units(model_slot *m, int dim, int n, const int (*rq)[2], int grid) {
  pending_unit *all = (pending_unit *)calloc((size_t)(n ? n : 1), sizeof *all);
  pending_unit **miss = (pending_unit **)calloc((size_t)(n ? n : 1), sizeof *miss);
  void **bytes = (void **)calloc((size_t)(n ? n : 1), sizeof *bytes);
  size_t *len = (size_t *)calloc((size_t)(n ? n : 1), sizeof *len);
  int rc = 0, np = 0, nmiss = 0;
  if (!all || !miss || !bytes || !len) {
    rc = dg_error(DG_ERR_MEM, "cuda backend: out of memory");
    goto out;
  }
  for (int i = 0; i < n && !rc; ++i) {
    const int r = rq[i][0], q = rq[i][1];
    int dup = (*m->t)[grid][dim - 2][r][q][key_kind(grid)].fn != NULL;
    for (int k = 0; k < np; ++k) dup |= all[k].ctx.r == r && all[k].ctx.q == q;
    if (!dup) rc = unit_init(&all[np++], m, dim, r, q, grid);
  }
  /* from the cache, noting what it lacks; a single missing unit is
     compiled right away (then the cache records its time) */
  for (int i = 0; i < np && !rc; ++i) {
    rc = dg_jit_load_blob(&all[i].u, st.tool, np == 1 ? dg_cuda_nvrtc_build : note_missing,
                          np == 1 ? (void *)&all[i].ctx : (void *)&all[i], &bytes[i], &len[i]);
    if (rc && all[i].missing) {
      rc = 0;
      dg_error_clear();
      miss[nmiss++] = &all[i];
    }
  }
  if (!rc && nmiss) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = build_all(miss, nmiss);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!rc && verbose)
      fprintf(stderr, "dgrid: compiled %d kernel units at once (NVRTC) in %.2f s\n", nmiss,
              (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    /* publish; where another process did first, its entry comes back */
    for (int i = 0; i < np && !rc; ++i)
      if (all[i].missing)
        rc = dg_jit_load_blob(&all[i].u, st.tool, take_built, &all[i], &bytes[i], &len[i]);
  }
  for (int i = 0; i < np && !rc && !st.compile_only; ++i) {
    rc = install_unit(m, &all[i], bytes[i], len[i]);
    bytes[i] = NULL; /* kept or freed there */
  }
out:
  for (int i = 0; all && bytes && i < np; ++i) {
    free(bytes[i]);
    free(all[i].built);
  }
  free(all);
  free(miss);
  free(bytes);
  free(len);
  return rc;
}

/* Load (compile where the cache lacks them) the kernels of (r[i], q[i])
 * for stage calls like `like` (grid_of; with boundaries, like->bc, the
 * walls' unit too); like NULL (dgrid cache warm): the plane's and the
 * walls' units and, in 2D, the sphere's of every flux variant. */
int be_prepare(int slot, int dim, int n, const int (*rq)[2], const dg_stage_args *like) {
  DG_CALL(be_init_compile());
  if (slot < 0 || slot >= st.nslots || dim < 2 || dim > 3 || n < 0)
    return dg_error(DG_ERR_ARG, "cuda backend: no model slot %d or dimension %d", slot, dim);
  for (int i = 0; i < n; ++i)
    if (rq[i][0] < 0 || rq[i][0] > DG_MAX_DEGREE || rq[i][1] <= rq[i][0] || rq[i][1] > DG_MAX_Q)
      return dg_error(DG_ERR_ARG, "cuda backend: no stages for degree %d with %d points", rq[i][0],
                      rq[i][1]);
  model_slot *m = &st.slot[slot];
  if (like) {
    int grid;
    DG_CALL(grid_of(m, like, &grid));
    DG_CALL(load_units(m, dim, n, rq, grid));
    return like->bc ? load_units(m, dim, n, rq, DG_CUDA_GRID_WALLS) : 0;
  }
  DG_CALL(load_units(m, dim, n, rq, DG_CUDA_GRID_PLANE));
  DG_CALL(load_units(m, dim, n, rq, DG_CUDA_GRID_WALLS));
  if (dim != 2) return 0;
  DG_CALL(slot_x_flow(m));
  for (int v = 0; v < m->x_flows; ++v) DG_CALL(load_units(m, dim, n, rq, DG_CUDA_GRID_SPHERE + v));
  return 0;
}

void be_jit_verbose(int on) {
  verbose = on;
  dg_jit_set_verbose(on);
}

int be_available(int model, int dim, int r, int q, const dg_stage_args *like) {
  int grid;
  if (model < 0 || model >= st.nslots || dim < 2 || dim > 3 || r < 0 || r > DG_MAX_DEGREE ||
      q <= r || q > DG_MAX_Q)
    return 0;
  if (grid_of(&st.slot[model], like, &grid)) {
    dg_error_clear(); /* a query: run() reports the same failure */
    return 0;
  }
  const dg_cuda_kernel *k = (*st.slot[model].t)[grid][dim - 2][r][q];
  if (!k[key_kind(grid)].fn) return 0;
  return !(like && like->bc) ||
         (*st.slot[model].t)[DG_CUDA_GRID_WALLS][dim - 2][r][q][7].fn != NULL;
}

} // namespace dg_cuda
