/* dg_backend_omp.c - the OpenMP backend: host memory, stages run by the
 * wrappers of dg_omp_stages.inc (generated parts, dg_omp_parts.h). */
#include "dg_backend.h"
#include "dg_omp_parts.h"
#include "dg_error.h"
#include "dg_lane.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

/* [model][dim-2][r][q][kind]; NULL where the build has no such stage */
static dg_omp_stage_fn table[DG_OMP_NMODELS][2][DG_MAX_DEGREE + 1][DG_MAX_Q + 1][DG_OMP_KINDS];
static int table_ready;

static int be_init(void) {
  if (!table_ready) {
#define DG_OMP_FILL_PART(model, dim, part) dg_omp_fill_##part(table[model][(dim)-2]);
    DG_OMP_FOR_EACH_PART(DG_OMP_FILL_PART)
    table_ready = 1;
  }
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

static int be_available(int model, int dim, int r, int q) {
  if (be_init() || model < 0 || model >= DG_OMP_NMODELS || dim < 2 || dim > 3 || r < 0 ||
      r > DG_MAX_DEGREE || q <= r || q > DG_MAX_Q)
    return 0;
  return table[model][dim - 2][r][q][1] != NULL;
}

static int run(int kind, const dg_stage_args *a, const void *basis, int r, int q) {
  if (!be_available(a->model_id, a->dim, r, q))
    return dg_error(DG_ERR_ARG,
                    "omp backend: model %d has no stage for dim %d, degree %d, %d points",
                    a->model_id, a->dim, r, q);
  table[a->model_id][a->dim - 2][r][q][kind](a, (const dg_stage_basis *)basis);
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

static int be_sync(void) { return 0; }

static int be_triad(dg_real *a, const dg_real *b, const dg_real *c, dg_real s, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
  return 0;
}

static int be_parallelism(void) { return omp_get_max_threads(); }

/* The CPU stages are compute-bound: reading the element's own old face
 * values (a few more bytes) beats computing them again (BENCHMARKS.md,
 * neighbour values). */
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
    /* a parallel region more per degree costs little: every degree that
       has such elements (BENCHMARKS.md, own q on band maps) */
    .own_q_min = 1,
    .init = be_init,
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
    .parallelism = be_parallelism,
};

const dg_backend_ops *dg_backend(void) { return &ops; }
