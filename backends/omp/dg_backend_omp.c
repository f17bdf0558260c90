/* dg_backend_omp.c - the OpenMP backend: host memory; the stages run by the
 * wrappers of dg_omp_stages.inc, compiled when a run first needs them
 * (backends/dg_jit.h; docs/ARCHITECTURE.md, "Kernels on demand"). */
#include "dg_backend.h"
#include "dg_backend_omp.h"
#include "dg_error.h"
#include "dg_jit.h"
#include "dg_lane.h"
#include "dg_solver_omp.h"
#include "dg_x_flow.h"

#include <dlfcn.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The models whose kernels this process runs, by slot (dg_stage_args.model_id):
 * the header (a name under models/ for the library's own, an absolute path
 * for a modeller's), the wrappers loaded so far, [grid][dim-2][r][q][kind]
 * (NULL: not loaded; grid 0 the plane, 1 + v the sphere's unit of flux
 * variant v), and the host's flux variant of the model (backends/dg_x_flow.h,
 * looked up at the first run on the sphere). */
enum { DG_OMP_SLOTS = 64, DG_OMP_XF_MAX = 4, DG_OMP_GRIDS = 1 + DG_OMP_XF_MAX };
typedef dg_omp_stage_fn omp_table[DG_OMP_GRIDS][2][DG_MAX_DEGREE + 1][DG_MAX_Q + 1][DG_OMP_KINDS];
static struct {
  char *header;
  char name[64];
  omp_table *t;
  int xf_known, xf_count;
  dg_x_flow_fn xf;
} slots[DG_OMP_SLOTS];
static int nslots;

static int be_init(int device) {
  if (device != 0) return dg_error(DG_ERR_ARG, "omp backend: no device %d (the CPU is 0)", device);
  return 0;
}

static int be_model_slot(const char *header, int *slot) {
  for (int i = 0; i < nslots; ++i)
    if (strcmp(slots[i].header, header) == 0) {
      *slot = i;
      return 0;
    }
  if (nslots == DG_OMP_SLOTS)
    return dg_error(DG_ERR_ARG, "omp backend: more than %d models in one process", DG_OMP_SLOTS);
  const char *base = strrchr(header, '/');
  base = base ? base + 1 : header;
  size_t len = strcspn(base, ".");
  if (len == 0 || len >= sizeof slots[0].name)
    return dg_error(DG_ERR_ARG, "model header '%s': not NAME.h", header);
  if (!(slots[nslots].header = strdup(header)) ||
      !(slots[nslots].t = calloc(1, sizeof(omp_table)))) {
    free(slots[nslots].header);
    return dg_error(DG_ERR_MEM, "out of memory");
  }
  memcpy(slots[nslots].name, base, len);
  slots[nslots].name[len] = '\0';
  *slot = nslots++;
  return 0;
}

typedef void (*fill_fn)(dg_omp_stage_fn t[DG_MAX_DEGREE + 1][DG_MAX_Q + 1][DG_OMP_KINDS]);

/* The flux variants of slot's model on the host (dg_x_flow.h), once. */
static int slot_x_flow(int slot) {
  if (slots[slot].xf_known) return 0;
  DG_CALL(dg_x_flow_host(slots[slot].header, slots[slot].name, DG_OMP_XF_MAX, &slots[slot].xf,
                         &slots[slot].xf_count));
  slots[slot].xf_known = 1;
  return 0;
}

/* The unit a stage call like `a` runs: *grid 0 on grids without metric
 * terms, 1 + v on the sphere (positions and metric) with the model's flux
 * variant v (0 for a model without variants). */
static int grid_of(int slot, const dg_stage_args *a, int *grid) {
  *grid = 0;
  if (!a || !(a->geom && a->metric)) return 0;
  DG_CALL(slot_x_flow(slot));
  int v = 0;
  if (slots[slot].xf_count > 0)
    DG_CALL(dg_x_flow_variant(slots[slot].name, slots[slot].xf, slots[slot].xf_count, a, &v));
  *grid = 1 + v;
  return 0;
}

/* Load (compile where the cache lacks them) the wrappers of (r[i], q[i]):
 * trace, update and rate of grid `grid` (grid_of), or (team 1) the team
 * update. */
static int load(int slot, int dim, int n, const int (*rq)[2], int team, int grid) {
  if (slot < 0 || slot >= nslots || dim < 2 || dim > 3 || n < 0 || (team && dim != 2) || grid < 0 ||
      grid >= DG_OMP_GRIDS || (grid && (team || dim != 2)))
    return dg_error(DG_ERR_ARG, "omp backend: no model slot %d or dimension %d", slot, dim);
  const int kind = team ? 3 : 1, m0 = n ? n : 1;
  dg_jit_unit *u = calloc((size_t)m0, sizeof *u);
  char(*src)[1024] = calloc((size_t)m0, sizeof *src);
  char(*what)[160] = calloc((size_t)m0, sizeof *what);
  void **h = calloc((size_t)m0, sizeof *h);
  int(*pair)[2] = calloc((size_t)m0, sizeof *pair);
  int rc = 0, m = 0;
  if (!u || !src || !what || !h || !pair) {
    rc = dg_error(DG_ERR_MEM, "out of memory");
    goto out;
  }
  const int user = slots[slot].header[0] == '/';
  /* the sphere's unit: one flux variant's update copy (dg_omp_stages.inc) */
  char gdef[64] = "", gwhat[32] = "";
  if (grid) {
    snprintf(gdef, sizeof gdef, "#define DG_OMP_SPHERE_XF %d\n", grid - 1);
    if (slots[slot].xf_count > 0)
      snprintf(gwhat, sizeof gwhat, " sphere flow %d", grid - 1);
    else
      snprintf(gwhat, sizeof gwhat, " sphere");
  }
  for (int i = 0; i < n; ++i) {
    const int r = rq[i][0], q = rq[i][1];
    if (r < 0 || r > DG_MAX_DEGREE || q <= r || q > DG_MAX_Q) {
      rc = dg_error(DG_ERR_ARG, "omp backend: no stages for degree %d with %d points", r, q);
      goto out;
    }
    if ((*slots[slot].t)[grid][dim - 2][r][q][kind]) continue;
    int dup = 0;
    for (int k = 0; k < m; ++k) dup |= pair[k][0] == r && pair[k][1] == q;
    if (dup) continue;
    snprintf(src[m], sizeof src[m],
             "/* dgrid kernel: omp %s %dD r=%d q=%d%s%s */\n#include \"%s\"\n"
             "#define DG_OMP_DIM %d\n#define DG_OMP_RQ(X) X(%d, %d)\n%s%s"
             "#include \"dg_omp_stages.inc\"\n",
             slots[slot].name, dim, r, q, team ? " team" : "", gwhat, slots[slot].header, dim, r, q,
             team ? "#define DG_OMP_TEAM_UNIT 1\n" : "", gdef);
    snprintf(what[m], sizeof what[m], "omp %s %dD r=%d q=%d%s%s", slots[slot].name, dim, r, q,
             team ? " team" : "", gwhat);
    u[m].what = what[m];
    u[m].source = src[m];
    u[m].model_path = user ? slots[slot].header : NULL;
    u[m].user = user;
    pair[m][0] = r;
    pair[m++][1] = q;
  }
  if ((rc = dg_jit_load(m, u, h))) goto out;
  for (int k = 0; k < m; ++k) {
    fill_fn fill;
    *(void **)&fill = dlsym(h[k], "dg_omp_fill");
    if (!fill) {
      rc = dg_error(DG_ERR_BACKEND, "kernel %s: no dg_omp_fill in it", what[k]);
      goto out;
    }
    fill((*slots[slot].t)[grid][dim - 2]);
  }
out:
  free(u);
  free(src);
  free(what);
  free(h);
  free(pair);
  return rc;
}

/* like NULL (dgrid cache warm): the plane's units and, in 2D, the sphere's
 * of every flux variant. */
static int be_prepare(int slot, int dim, int n, const int (*rq)[2], const dg_stage_args *like) {
  if (slot < 0 || slot >= nslots)
    return dg_error(DG_ERR_ARG, "omp backend: no model slot %d or dimension %d", slot, dim);
  int grid;
  if (like) {
    DG_CALL(grid_of(slot, like, &grid));
    return load(slot, dim, n, rq, 0, grid);
  }
  DG_CALL(load(slot, dim, n, rq, 0, 0));
  if (dim != 2) return 0;
  DG_CALL(slot_x_flow(slot));
  for (int v = 0; v < (slots[slot].xf_count ? slots[slot].xf_count : 1); ++v)
    DG_CALL(load(slot, dim, n, rq, 0, 1 + v));
  return 0;
}

static int be_alloc(void **p, size_t bytes) {
  size_t n = (bytes + 63) / 64 * 64;
  *p = aligned_alloc(64, n ? n : 64);
  if (!*p) return dg_error(DG_ERR_MEM, "out of memory allocating %zu bytes", bytes);
  memset(*p, 0, n ? n : 64);
  return 0;
}

static void be_free(void *p) { free(p); }

static int be_copy(void *dst, const void *src, size_t bytes) {
  if (dst != src) memcpy(dst, src, bytes);
  return 0;
}

static int be_basis_create(void **handle, const dg_basis *b) {
  dg_stage_basis *c = aligned_alloc(64, (sizeof *c + 63) / 64 * 64);
  if (!c) return dg_error(DG_ERR_MEM, "out of memory for basis tables");
  memset(c, 0, sizeof *c);
  c->q = b->q;
  for (int k = 0; k < DG_MAX_Q; ++k) {
    c->x[k] = b->x[k];
    c->w[k] = b->w[k];
    for (int a = 0; a < DG_MAX_Q; ++a) {
      c->P[a][k] = dg_lane_set(b->P[a][k]);
      c->Pw[a][k] = dg_lane_set(b->Pw[a][k]);
      c->Dw[a][k] = dg_lane_set(b->Dw[a][k]);
      c->Dp[a][k] = dg_lane_set(b->Dp[a][k]);
    }
    c->Lp[0][k] = dg_lane_set(b->Lp[0][k]);
    c->Lp[1][k] = dg_lane_set(b->Lp[1][k]);
  }
  for (int i = 0; i < DG_TRIG_LEN; ++i) c->tt[i] = b->tt[i];
  *handle = c;
  return 0;
}

static void be_basis_free(void *h) { free(h); }

static int be_available(int model, int dim, int r, int q, const dg_stage_args *like) {
  int grid;
  if (model < 0 || model >= nslots || dim < 2 || dim > 3 || r < 0 || r > DG_MAX_DEGREE || q <= r ||
      q > DG_MAX_Q || grid_of(model, like, &grid))
    return 0;
  return (*slots[model].t)[grid][dim - 2][r][q][1] != NULL;
}

static int run(int kind, const dg_stage_args *a, const void *basis, int r, int q) {
  const int m = a->model_id, dim = a->dim;
  if (m >= nslots || dim < 2 || dim > 3 || r < 0 || r > DG_MAX_DEGREE || q <= r || q > DG_MAX_Q)
    return dg_error(DG_ERR_ARG, "omp backend: no model %d, dim %d, degree %d with %d points", m,
                    dim, r, q);
  if (kind == 1 && a->team) { /* the team update (either grid): its own unit, loaded at first use */
    dg_omp_stage_fn *k = (*slots[m].t)[0][dim - 2][r][q];
    if (!k[3]) {
      const int rq[1][2] = {{r, q}};
      DG_CALL(load(m, dim, 1, rq, 1, 0));
    }
    k[3](a, (const dg_stage_basis *)basis);
    return 0;
  }
  int grid;
  DG_CALL(grid_of(m, a, &grid));
  dg_omp_stage_fn f = (*slots[m].t)[grid][dim - 2][r][q][kind];
  if (!f)
    return dg_error(DG_ERR_ARG,
                    "omp backend: model %d has no stage loaded for dim %d, degree %d, %d points%s",
                    m, dim, r, q, grid ? " on the sphere" : "");
  f(a, (const dg_stage_basis *)basis);
  return 0;
}

static int be_trace(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(0, a, basis, r, q);
}

static int be_update(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(1, a, basis, r, q);
}

static int be_rate(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(2, a, basis, r, q);
}

static int be_max(const dg_real *x, size_t n, double *out) {
  double m = -INFINITY;
  int nan = 0;
#pragma omp parallel for reduction(max : m) reduction(| : nan) schedule(static)
  for (size_t i = 0; i < n; ++i) {
    const double v = (double)x[i];
    nan |= v != v;
    if (v > m) m = v;
  }
  *out = nan ? NAN : m;
  return 0;
}

static const dg_backend_ops ops;
static int be_plan(const dg_plan_in *in, dg_plan *out) { return dg_plan_choose(&ops, in, out); }

static int be_nonfinite(const dg_real *x, const long *rows, long nrows, int w, long tag,
                        long *first) {
  int bad = 0;
#pragma omp parallel for reduction(| : bad) schedule(static)
  for (long i = 0; i < nrows; ++i)
    for (int l = 0; l < w; ++l) bad |= !isfinite((double)x[rows[i] + l]);
  if (bad && tag < *first) *first = tag;
  return 0;
}

static int be_sync(void) { return 0; }

static int be_triad(dg_real *a, const dg_real *b, const dg_real *c, dg_real s, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
  return 0;
}

static int be_parallelism(void) { return omp_get_max_threads(); }

static int be_pack(dg_real *buf, dg_real *tmp, const dg_real *x, const long *idx, size_t n) {
  (void)tmp; /* the memory is the host's */
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) buf[i] = x[idx[i]];
  return 0;
}

static int be_unpack(dg_real *x, dg_real *tmp, const long *idx, const dg_real *buf, size_t n) {
  (void)tmp;
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) x[idx[i]] = buf[i];
  return 0;
}

/* The CPU stages are compute-bound: reading the element's own old face
 * values (a few more bytes) beats computing them again (docs/ARCHITECTURE.md,
 * "One time step": reuse_traces). */
#ifndef DG_OMP_REUSE_TRACES
#define DG_OMP_REUSE_TRACES 1
#endif

static const dg_backend_ops ops = {
    .name = "omp",
    .lane_width = DG_W,
    .host_is_device = 1,
    .reuse_traces = DG_OMP_REUSE_TRACES,
    /* compute-bound: recomputing the neighbours' face values costs more than
       the trace bytes save (DGRID_NEIGHBOURS=coeffs still runs it) */
    .coeffs_rmax = {-1, -1},
    /* the team update is for GPUs; the CPU runs it only when asked
       (DGRID_UPDATE=team, for tests) */
    .team_qmin = {DG_MAX_Q + 1, DG_MAX_Q + 1},
    .team_aux_q = {DG_MAX_Q + 1, 0},
    /* a parallel region more per degree costs little: every degree that
       has such elements (docs/ARCHITECTURE.md, "Decisions and why": own q) */
    .own_q_min = 1,
    .init = be_init,
    .model_slot = be_model_slot,
    .prepare = be_prepare,
    .jit_verbose = dg_jit_set_verbose,
    .alloc = be_alloc,
    .free = be_free,
    .to_device = be_copy,
    .to_host = be_copy,
    .basis_create = be_basis_create,
    .basis_free = be_basis_free,
    .plan = be_plan,
    .describe = dg_plan_describe,
    .available = be_available,
    .trace = be_trace,
    .update = be_update,
    .rate = be_rate,
    .max = be_max,
    .sync = be_sync,
    .triad = be_triad,
    .nonfinite = be_nonfinite,
    .parallelism = be_parallelism,
    .pack = be_pack,
    .unpack = be_unpack,
    .solver = &dg_solver_omp,
};

const dg_backend_ops *dg_backend_omp_ops(void) { return &ops; }
