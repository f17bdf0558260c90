/* dg_backend_omp.c - the OpenMP backend: host memory, stages run by the
 * wrappers of dg_omp_stages.inc (generated parts, dg_omp_parts.h). */
#include "dg_backend.h"
#include "dg_omp_parts.h"
#include "dg_error.h"
#include "dg_lane.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

static dg_omp_stage_fn table[2][DG_MAX_DEGREE + 1][DG_MAX_Q + 1][2];
static int table_ready;

static int be_init(void) {
  if (!table_ready) {
#define DG_OMP_FILL_PART(dim, part) dg_omp_fill_##dim##_##part(table[(dim)-2]);
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
    }
  }
  *handle = c;
  return 0;
}

static void be_basis_free(void *h) { free(h); }

static int run(int kind, const dg_stage_args *a, const void *basis, int r, int q) {
  if (a->dim < 2 || a->dim > 3 || r < 0 || r > DG_MAX_DEGREE || q <= r || q > DG_MAX_Q)
    return dg_error(DG_ERR_ARG, "omp backend: no stage for dim %d, degree %d, %d points", a->dim, r,
                    q);
  DG_CALL(be_init());
  table[a->dim - 2][r][q][kind](a, (const dg_stage_basis *)basis);
  return 0;
}

static int be_trace(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(0, a, basis, r, q);
}

static int be_update(const dg_stage_args *a, const void *basis, int r, int q) {
  return run(1, a, basis, r, q);
}

static int be_sync(void) { return 0; }

static int be_triad(dg_real *a, const dg_real *b, const dg_real *c, dg_real s, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
  return 0;
}

static int be_parallelism(void) { return omp_get_max_threads(); }

/* The CPU stages are compute-bound: reading the element's own old face
 * values (a few more bytes) beats computing them again (BENCHMARKS.md). */
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
       has such elements (BENCHMARKS.md, session 17) */
    .own_q_min = 1,
    .init = be_init,
    .alloc = be_alloc,
    .free = be_free,
    .to_device = be_copy,
    .to_host = be_copy,
    .basis_create = be_basis_create,
    .basis_free = be_basis_free,
    .trace = be_trace,
    .update = be_update,
    .sync = be_sync,
    .triad = be_triad,
    .parallelism = be_parallelism,
};

const dg_backend_ops *dg_backend(void) { return &ops; }
