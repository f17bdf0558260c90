/* backends_check.c - gpu.backends: every model of the build on both
 * backends in one process.  For each model, each dimension it runs in and a
 * uniform and a band map, the same initial state takes a few SSP-RK3 steps
 * on "omp" and on "cuda" (one process, one binary: docs/ARCHITECTURE.md,
 * "One backend layer"); the modal coefficients of every element must agree
 * to 1e-12 relative (FMA and reduction order differ, never bit for bit),
 * and so must the stable step the two backends estimate.
 *
 *   backends_check [MODEL...]   (default: every model of the build) */
#include "dgrid.h"
#include "dg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STEPS = 4 };

typedef struct {
  dg_disc *d;
  dg_field *u;
  dg_ts *ts;
} run;

static void run_free(run *r) {
  dg_ts_destroy(&r->ts);
  dg_field_destroy(&r->u);
  dg_disc_destroy(&r->d);
}

static int run_create(run *r, const dg_backend *be, const dg_grid *g, const dg_degree_map *m,
                      const dg_model *model) {
  memset(r, 0, sizeof *r);
  DG_CALL(dg_disc_create(&r->d, be, g, m, 0, model));
  DG_CALL(dg_field_create(&r->u, r->d));
  DG_CALL(dg_project_solution(r->d, r->u, 0.0));
  return dg_ts_create(&r->ts, r->d, DG_TS_SSPRK3);
}

/* One configuration: 0, or 1 after printing why it failed. */
static int one(const dg_backend *omp, const dg_backend *cuda, const char *name, int dim, int map) {
  dg_model *model = NULL;
  dg_degree_map *m = NULL;
  dg_grid g;
  run a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  double *ca = NULL, *cb = NULL;
  char what[160];
  int rc = dg_model_create(&model, name);
  const int sphere = !rc && dim == 2 && (dg_model_dims(model) & DG_MODEL_SPHERE);
  snprintf(what, sizeof what, "%s %dD%s %s", name, dim, sphere ? " sphere" : "",
           map ? "band 1..4" : "uniform 3");
  if (!rc) {
    const int n[3] = {dim == 3 ? 6 : 12, dim == 3 ? 5 : 10, 4};
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    rc = sphere ? dg_grid_init_latlon(&g, 16, 8, 6.37122e6) : dg_grid_init(&g, dim, n, lo, hi);
  }
  if (!rc) rc = dg_model_finish_grid(model, &g);
  if (!rc)
    rc = map ? dg_degree_map_create_band(&m, &g, 1, dim == 3 ? 3 : 4)
             : dg_degree_map_create_uniform(&m, &g, dim == 3 ? 2 : 3);
  if (!rc) rc = run_create(&a, omp, &g, m, model);
  if (!rc) rc = run_create(&b, cuda, &g, m, model);
  double dta = 0, dtb = 0;
  if (!rc) rc = dg_disc_stable_dt(a.d, a.u, 0.0, &dta);
  if (!rc) rc = dg_disc_stable_dt(b.d, b.u, 0.0, &dtb);
  const double dt = 0.3 * dta;
  for (int s = 0; s < STEPS && !rc; ++s) {
    rc = dg_ts_step(a.ts, a.u, s * dt, dt);
    if (!rc) rc = dg_ts_step(b.ts, b.u, s * dt, dt);
  }
  int bad = 0;
  if (rc) {
    printf("FAIL %s: %s\n", what, dg_error_message());
    bad = 1;
  } else {
    const int nv = dg_disc_nvar(a.d);
    long len = 0;
    for (long e = 0; e < g.nelem; ++e) {
      long k = nv;
      for (int d = 0; d < dim; ++d) k *= m->deg[e] + 1;
      len += k;
    }
    ca = malloc((size_t)len * sizeof *ca);
    cb = malloc((size_t)len * sizeof *cb);
    long o = 0;
    for (long e = 0; e < g.nelem && ca && cb && !rc; ++e) {
      long k = nv;
      for (int d = 0; d < dim; ++d) k *= m->deg[e] + 1;
      rc = dg_element_coeffs(a.d, a.u, e, ca + o);
      if (!rc) rc = dg_element_coeffs(b.d, b.u, e, cb + o);
      o += k;
    }
    if (!ca || !cb || rc) {
      printf("FAIL %s: %s\n", what, rc ? dg_error_message() : "out of memory");
      bad = 1;
    } else {
      const double diff = test_rel_l2(ca, cb, len);
      const int ok = diff <= 1e-12 && dg_close(dtb, dta, 0, 1e-12);
      printf("%s %-40s rel. L2 difference %.2e after %d steps, stable dt %.17g vs %.17g\n",
             ok ? "ok  " : "FAIL", what, diff, STEPS, dta, dtb);
      bad = !ok;
    }
  }
  free(ca);
  free(cb);
  run_free(&a);
  run_free(&b);
  dg_degree_map_destroy(&m);
  dg_model_destroy(&model);
  return bad;
}

int main(int argc, char **argv) {
  dg_backend *omp = NULL, *cuda = NULL;
  if (dg_backend_create(&omp, "omp") || dg_backend_create(&cuda, "cuda")) {
    printf("FAIL: %s\n", dg_error_message());
    dg_backend_destroy(&omp);
    return 1;
  }
  int fails = 0, cases = 0;
  for (int i = 0; i < dg_nmodels; ++i) {
    const char *name = dg_models[i]->name;
    int wanted = argc < 2;
    for (int k = 1; k < argc; ++k) wanted |= !strcmp(argv[k], name);
    if (!wanted) continue;
    const int dims = dg_models[i]->dims;
    for (int dim = 2; dim <= 3; ++dim) {
      if (!(dims & (1 << dim)) && !(dim == 2 && (dims & DG_MODEL_SPHERE))) continue;
      for (int map = 0; map < 2; ++map, ++cases) fails += one(omp, cuda, name, dim, map);
    }
  }
  dg_backend_destroy(&cuda);
  dg_backend_destroy(&omp);
  printf("backends_check: %d of %d configurations agree (omp vs cuda, one process)\n",
         cases - fails, cases);
  return fails || cases == 0;
}
