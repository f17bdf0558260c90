/* test_models.c - the models of the build through the public C API, each
 * case a measured number that could be wrong:
 *   deform      the deformation model: LeVeque's reversing flow (velocity
 *               varying in x and t): back to the initial state at t = T, L2
 *               rate r + 1 (within 0.3) for r = 1..4; mass to round-off on
 *               random degree maps
 *   burgers     the nonlinear flux: rate r + 1 (within 0.3) against the
 *               exact solution before the shock; mass drift below 1e-13 on
 *               band and random maps with every plan; the stable step from
 *               the data
 *   acoustics   a system (nvar 3): rates r + 1 (within 0.2) for r = 1..5 on a
 *               plane wave; the energy never grows
 *   stage_times the order of every integrator on a source a cos(w t) (the
 *               stage times): within 0.3 of its order
 *   aux         auxiliary data (advection_field): a velocity held as data
 *               against the same velocity by formula to 1e-13, a program's
 *               own data bitwise the model's sample, the team update against
 *               the element update to 1e-13; rates of the data's flow
 * Usage: test_models CASE */
#include "dg_backend.h"
#include "dg_disc_internal.h"
#include "dg_test_run.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
  const char *model;
  const char *const *params; /* key, value, ..., NULL */
  int n;                     /* cells per direction (square) */
  dg_degree_map *map;        /* NULL: uniform degree r */
  int r;
  dg_ts_kind ts;
  double t_end;
  double cfl; /* > 0: dt = cfl x the stable step, re-estimated every step */
  double dt;  /* else a fixed step (the last one shortened to land on t_end) */
} model_case;

typedef struct {
  double l2; /* L2 error over all variables */
  double mass0[DG_MAX_NVAR], mass1[DG_MAX_NVAR];
  double energy_growth; /* acoustics: largest relative growth of the energy in a step */
  int nvar;
  long steps;
} model_result;

/* Energy of the acoustic state: int p^2/(2K) + rho (u^2 + v^2)/2 with K =
 * rho = 1 (the defaults): half the sum of squares of the orthogonal modal
 * expansion, each mode weighted by its norm. */
static double acoustic_energy(const dg_disc *d, dg_field *u) {
  const dg_grid *g = dg_disc_grid(d);
  const double jac = g->h[0] * g->h[1] / 4;
  double e = 0, c[3 * 11 * 11];
  for (long el = 0; el < g->nelem; ++el) {
    OK(dg_element_coeffs(d, u, el, c));
    const int N = dg_disc_degrees(d)->deg[el] + 1, M = N * N;
    for (int v = 0; v < 3; ++v)
      for (int m = 0; m < M; ++m) {
        const int a = m % N, b = m / N;
        e += 0.5 * c[v * M + m] * c[v * M + m] * jac * 4.0 / ((2 * a + 1) * (2 * b + 1));
      }
  }
  return e;
}

static void run_model(const model_case *mc, model_result *res) {
  dg_grid g;
  const int n[3] = {mc->n, mc->n, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 2, n, lo, hi));
  dg_degree_map *own = NULL;
  const dg_degree_map *map = mc->map;
  if (!map) {
    OK(dg_degree_map_create_uniform(&own, &g, mc->r));
    map = own;
  }
  dg_model *m;
  OK(dg_model_create(&m, mc->model));
  for (int i = 0; mc->params && mc->params[i]; i += 2)
    OK(dg_model_set(m, mc->params[i], mc->params[i + 1]));
  dg_disc *d;
  OK(dg_disc_create(&d, dg_test_backend(), &g, map, 0, m));
  dg_model_destroy(&m);
  const int acoustics = !strcmp(mc->model, "acoustics");
  dg_field *u;
  dg_ts *ts;
  OK(dg_field_create(&u, d));
  OK(dg_project_solution(d, u, 0.0));
  OK(dg_mass(d, u, res->mass0));
  OK(dg_ts_create(&ts, d, mc->ts));
  double t = 0, e_prev = acoustics ? acoustic_energy(d, u) : 0;
  res->energy_growth = -INFINITY;
  res->steps = 0;
  while (t < mc->t_end * (1 - 1e-14)) {
    double dt = mc->dt;
    if (mc->cfl > 0) {
      OK(dg_disc_stable_dt(d, u, t, &dt));
      dt *= mc->cfl;
    }
    if (t + dt > mc->t_end) dt = mc->t_end - t;
    OK(dg_ts_step(ts, u, t, dt));
    t += dt;
    res->steps++;
    if (acoustics) {
      const double e = acoustic_energy(d, u);
      const double growth = (e - e_prev) / e_prev;
      if (growth > res->energy_growth) res->energy_growth = growth;
      e_prev = e;
    }
  }
  OK(dg_mass(d, u, res->mass1));
  double l2[DG_MAX_NVAR], linf[DG_MAX_NVAR], s2 = 0;
  OK(dg_error_norms(d, u, mc->t_end, l2, linf));
  res->nvar = dg_disc_nvar(d);
  for (int v = 0; v < res->nvar; ++v) s2 += l2[v] * l2[v];
  res->l2 = sqrt(s2);
  dg_ts_destroy(&ts);
  dg_field_destroy(&u);
  dg_disc_destroy(&d);
  dg_degree_map_destroy(&own);
}

/* The largest relative mass change over the variables (against the
 * largest initial mass magnitude, or 1). */
static double mass_drift(const model_result *r) {
  double scale = 1, worst = 0;
  for (int v = 0; v < r->nvar; ++v)
    if (fabs(r->mass0[v]) > scale) scale = fabs(r->mass0[v]);
  for (int v = 0; v < r->nvar; ++v)
    if (fabs(r->mass1[v] - r->mass0[v]) / scale > worst)
      worst = fabs(r->mass1[v] - r->mass0[v]) / scale;
  return worst;
}

/* L2 errors on n and 2n cells for degrees rlo..rhi; each rate within tol
 * of r + 1.  dt_of(n, r) gives a fixed step, or cfl > 0 a CFL step. */
static void rates(const char *what, model_case mc, const int *nc, int rlo, int rhi, double tol,
                  double (*dt_of)(int n, int r)) {
  for (int r = rlo; r <= rhi; ++r) {
    double e[2];
    for (int k = 0; k < 2; ++k) {
      mc.n = nc[r] * (k + 1);
      mc.r = r;
      if (dt_of) mc.dt = dt_of(mc.n, r);
      model_result res;
      run_model(&mc, &res);
      e[k] = res.l2;
    }
    const double rate = log2(e[0] / e[1]);
    printf("%s r=%d: L2 %.3e (%d cells) %.3e (%d cells) rate %.2f\n", what, r, e[0], nc[r], e[1],
           2 * nc[r], rate);
    CHECK(fabs(rate - (r + 1)) <= tol, "%s r=%d: rate %.2f, expected %d within %.1f", what, r, rate,
          r + 1, tol);
  }
}

/* ---- deform ---- */
/* A full period T = 1 (the hump stretched and brought back; at T = 5 these
 * grids resolve the filaments too poorly for rates: docs/VALIDATION.md). */
static const char *const deform_params[] = {
    "period", "1", "init", "gauss", "bell-centre", "0.5,0.4", "bell-radius", "0.25", NULL};
static double deform_dt(int n, int r) { return 0.2 / (n * (2 * r + 1)); }

static void test_deform(void) {
  model_case mc = {"deformation", deform_params, 0, NULL, 0, DG_TS_LSRK4, 1.0, 0, 0};
  static const int nc[] = {0, 16, 8, 8, 8};
  rates("deform", mc, nc, 1, 4, 0.3, deform_dt);
  /* mass on random maps, every plan of the backend (x-dependent flux: no own q) */
  static const char *const plans[][2] = {{"element", "traces"}, {"team", "coeffs"}};
  for (int p = 0; p < 2; ++p) {
    OK(setenv("DGRID_UPDATE", plans[p][0], 1) ? DG_ERR_ARG : 0);
    OK(setenv("DGRID_NEIGHBOURS", plans[p][1], 1) ? DG_ERR_ARG : 0);
    dg_grid g;
    const int n[3] = {12, 12, 1};
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    OK(dg_grid_init(&g, 2, n, lo, hi));
    dg_degree_map *map;
    OK(dg_degree_map_create_random(&map, &g, 0, 4, 11));
    model_case mm = {"deformation", deform_params, 12, map, 0, DG_TS_SSPRK3, 0.25, 0, 2e-3};
    model_result res;
    run_model(&mm, &res);
    const double drift = mass_drift(&res);
    printf("deform random map 0..4, %s/%s: mass drift %.2e over %ld steps\n", plans[p][0],
           plans[p][1], drift, res.steps);
    CHECK(drift < 1e-13, "deform: mass drift %.2e with %s/%s", drift, plans[p][0], plans[p][1]);
    dg_degree_map_destroy(&map);
  }
  unsetenv("DGRID_UPDATE");
  unsetenv("DGRID_NEIGHBOURS");
}

/* ---- burgers ---- */
static void test_burgers(void) {
  /* rates before the shock (t* = 1 / (2 pi b k) = 0.318 for b = 0.25, k = 2) */
  model_case mc = {"burgers", NULL, 0, NULL, 0, DG_TS_LSRK4, 0.15, 0.1, 0};
  static const int nc[] = {0, 16, 12, 16, 12};
  rates("burgers", mc, nc, 1, 4, 0.3, NULL);

  /* the step from the data: 1 / ((2r+1) max|u| (1/hx + 1/hy)) over the Gauss
     points, against the same maximum taken on the host */
  {
    dg_grid g;
    const int n[3] = {10, 10, 1};
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    OK(dg_grid_init(&g, 2, n, lo, hi));
    dg_degree_map *map;
    OK(dg_degree_map_create_uniform(&map, &g, 3));
    dg_model *m;
    OK(dg_model_create(&m, "burgers"));
    OK(dg_model_set(m, "mean", "-0.3"));
    OK(dg_model_set(m, "amplitude", "0.6"));
    dg_disc *d;
    OK(dg_disc_create(&d, dg_test_backend(), &g, map, 0, m));
    dg_model_destroy(&m);
    dg_field *u;
    OK(dg_field_create(&u, d));
    OK(dg_project_solution(d, u, 0.0));
    double dt;
    OK(dg_disc_stable_dt(d, u, 0.0, &dt));
    const int q = dg_disc_q(d);
    double xq[DG_MAX_Q], *vals = malloc(sizeof(double) * (size_t)(g.nelem * q * q));
    for (int k = 0; k < q; ++k) xq[k] = (double)dg_disc_basis(d)->x[k];
    OK(dg_sample(d, u, q, xq, vals));
    double umax = 0;
    for (long i = 0; i < g.nelem * q * q; ++i) umax = fmax(umax, fabs(vals[i]));
    const double want = 1.0 / (7 * umax * (10 + 10));
    printf("burgers stable step %.15e, from the host maximum %.15e\n", dt, want);
    CHECK(fabs(dt - want) <= 1e-12 * want, "stable step %.15e, expected %.15e", dt, want);
    CHECK(umax > 0.85, "max |u| %.3f: the data reach 0.9", umax);
    free(vals);
    dg_field_destroy(&u);
    dg_disc_destroy(&d);
    dg_degree_map_destroy(&map);
  }

  /* mass on band and random maps with every plan (nonlinear: never own q) */
  static const char *const plans[][2] = {
      {"element", "traces"}, {"team", "coeffs"}, {"auto", "auto"}};
  for (int mk = 0; mk < 2; ++mk)
    for (int p = 0; p < 3; ++p) {
      OK(setenv("DGRID_UPDATE", plans[p][0], 1) ? DG_ERR_ARG : 0);
      OK(setenv("DGRID_NEIGHBOURS", plans[p][1], 1) ? DG_ERR_ARG : 0);
      dg_grid g;
      const int n[3] = {16, 16, 1};
      const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
      OK(dg_grid_init(&g, 2, n, lo, hi));
      dg_degree_map *map;
      if (mk == 0)
        OK(dg_degree_map_create_band(&map, &g, 1, 5));
      else
        OK(dg_degree_map_create_random(&map, &g, 0, 5, 5));
      model_case mc2 = {"burgers", NULL, 16, map, 0, DG_TS_SSPRK3, 0.1, 0.3, 0};
      model_result res;
      run_model(&mc2, &res);
      const double drift = mass_drift(&res);
      printf("burgers %s map, %s/%s: mass drift %.2e over %ld steps\n", mk ? "random" : "band",
             plans[p][0], plans[p][1], drift, res.steps);
      CHECK(drift < 1e-13, "burgers: mass drift %.2e on the %s map with %s/%s", drift,
            mk ? "random" : "band", plans[p][0], plans[p][1]);
      dg_degree_map_destroy(&map);
    }
  unsetenv("DGRID_UPDATE");
  unsetenv("DGRID_NEIGHBOURS");
}

/* ---- acoustics ---- */
static double acoustics_dt(int n, int r) {
  /* small enough that LSRK4's error stays below the spatial one at r = 5 */
  return 0.2 / (n * (2 * r + 1) * (r >= 4 ? 2 : 1));
}

static void test_acoustics(void) {
  static const char *const params[] = {"wave", "1,2", NULL};
  model_case mc = {"acoustics", params, 0, NULL, 0, DG_TS_LSRK4, 0.25, 0, 0};
  static const int nc[] = {0, 16, 8, 6, 4, 4};
  rates("acoustics", mc, nc, 1, 5, 0.2, acoustics_dt);
  /* the energy never grows (Rusanov dissipates), a band map with own q where the backend
     takes it */
  dg_grid g;
  const int n[3] = {12, 12, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 2, n, lo, hi));
  dg_degree_map *map;
  OK(dg_degree_map_create_band(&map, &g, 1, 4));
  model_case me = {"acoustics", params, 12, map, 0, DG_TS_SSPRK3, 0.3, 0.5, 0};
  model_result res;
  run_model(&me, &res);
  printf("acoustics band 1..4: largest energy growth per step %.2e over %ld steps, mass drift "
         "%.2e\n",
         res.energy_growth, res.steps, mass_drift(&res));
  CHECK(res.energy_growth <= 1e-14, "the energy grew by %.2e in a step", res.energy_growth);
  CHECK(mass_drift(&res) < 1e-13, "acoustics: mass drift %.2e", mass_drift(&res));
  dg_degree_map_destroy(&map);
}

/* ---- stage times ---- */
static void test_stage_times(void) {
  /* u = the forcing alone (constant in space), so the error is the integrator's */
  static const char *const params[] = {"sine", "0",         "lambda", "1", "forcing",
                                       "1",    "frequency", "6",      NULL};
  for (int k = 0; k < DG_TS_COUNT; ++k) {
    const int order = dg_ts_order((dg_ts_kind)k);
    const int n0 = order == 1 ? 40 : 10;
    double e[2];
    for (int i = 0; i < 2; ++i) {
      model_case mc = {"advection_reaction", params, 4, NULL,           1,
                       (dg_ts_kind)k,        1.0,    0, 1.0 / (n0 << i)};
      model_result res;
      run_model(&mc, &res);
      e[i] = res.l2;
    }
    const double rate = log2(e[0] / e[1]);
    printf("stage times %s: L2 %.3e (dt 1/%d) %.3e (dt 1/%d) rate %.2f\n",
           dg_ts_name((dg_ts_kind)k), e[0], n0, e[1], 2 * n0, rate);
    CHECK(fabs(rate - order) <= 0.3, "%s: rate %.2f, its order is %d", dg_ts_name((dg_ts_kind)k),
          rate, order);
  }
}

/* ---- aux: a velocity held as data (models/advection_field.h) ---- */
/* The coefficients after 40 SSP-RK3 steps of 2e-3 on a 12 x 12 grid with the
 * given map, for a model and its parameters; with fn, the auxiliary data
 * from that sampler instead of the model's.  Returns the number of values in
 * *c (malloc'ed, 121 per element); *dt_stable the stable step at t = 0;
 * *drift the relative mass change. */
static long aux_run(const char *model, const char *const *params, const dg_degree_map *map,
                    dg_aux_fn fn, double **c, double *dt_stable, double *drift) {
  dg_grid g;
  const int n[3] = {12, 12, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 2, n, lo, hi));
  dg_model *m;
  OK(dg_model_create(&m, model));
  for (int i = 0; params[i]; i += 2) OK(dg_model_set(m, params[i], params[i + 1]));
  dg_disc *d;
  OK(dg_disc_create(&d, dg_test_backend(), &g, map, 0, m));
  dg_model_destroy(&m);
  if (fn) OK(dg_disc_set_aux(d, fn, NULL));
  dg_field *u;
  dg_ts *ts;
  OK(dg_field_create(&u, d));
  OK(dg_project_solution(d, u, 0.0));
  double m0, m1;
  OK(dg_mass(d, u, &m0));
  OK(dg_disc_stable_dt(d, u, 0, dt_stable));
  OK(dg_ts_create(&ts, d, DG_TS_SSPRK3));
  for (int k = 0; k < 40; ++k) OK(dg_ts_step(ts, u, k * 2e-3, 2e-3));
  OK(dg_mass(d, u, &m1));
  *drift = fabs(m1 - m0) / fabs(m0);
  const long len = g.nelem * 121;
  *c = calloc((size_t)len, sizeof **c);
  for (long e = 0; e < g.nelem; ++e) OK(dg_element_coeffs(d, u, e, *c + e * 121));
  dg_ts_destroy(&ts);
  dg_field_destroy(&u);
  dg_disc_destroy(&d);
  return len;
}

/* The deformational flow's spatial part as a program's own data (the same
 * formula as the model's sample). */
static int deform_data(const double x[3], double *out, void *ctx) {
  (void)ctx;
  const double sx = sin(M_PI * x[0]), sy = sin(M_PI * x[1]);
  out[0] = sx * sx * sin(2 * M_PI * x[1]);
  out[1] = -sy * sy * sin(2 * M_PI * x[0]);
  return 0;
}

/* max |a - b| / max |a|. */
static double max_diff(const double *a, const double *b, long n) {
  double d = 0, s = 0;
  for (long i = 0; i < n; ++i) {
    d = fmax(d, fabs(a[i] - b[i]));
    s = fmax(s, fabs(a[i]));
  }
  return d / s;
}

static void test_aux(void) {
  static const char *const rot_field[] = {"field", "rotation", "omega", "2", NULL};
  static const char *const rot_adv[] = {"velocity", "rotation", "omega", "2", NULL};
  static const char *const deform_field[] = {"field",       "deformation", "period",      "1",
                                             "init",        "gauss",       "bell-centre", "0.5,0.4",
                                             "bell-radius", "0.25",        NULL};
  dg_grid g;
  const int n[3] = {12, 12, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 2, n, lo, hi));
  dg_degree_map *map;
  OK(dg_degree_map_create_random(&map, &g, 0, 4, 5));
  /* rotation as data against rotation by formula, with each way the element
     update sees its neighbours: traces on the random map, and on a uniform
     map of degree 3 traces and the neighbours' coefficients */
  dg_degree_map *uni;
  OK(dg_degree_map_create_uniform(&uni, &g, 3));
  static const char *const nbrs[] = {"traces", "traces", "coeffs"};
  double *ref, *c, dt_ref, dt, drift;
  for (int p = 0; p < 3; ++p) {
    const dg_degree_map *mp = p ? uni : map;
    OK(setenv("DGRID_NEIGHBOURS", nbrs[p], 1) ? DG_ERR_ARG : 0);
    const long n_rot = aux_run("advection", rot_adv, mp, NULL, &ref, &dt_ref, &drift);
    aux_run("advection_field", rot_field, mp, NULL, &c, &dt, &drift);
    const double diff = max_diff(ref, c, n_rot);
    printf("aux rotation vs advection rotation, %s, %s: max difference %.2e, stable dt "
           "%.15e vs %.15e, mass drift %.2e\n",
           p ? "uniform degree 3" : "random map 0..4", nbrs[p], diff, dt, dt_ref, drift);
    CHECK(diff < 1e-13, "aux rotation differs from the formula by %.2e (%s)", diff, nbrs[p]);
    CHECK(fabs(dt - dt_ref) <= 1e-14 * dt_ref, "aux stable dt %.17g vs %.17g", dt, dt_ref);
    CHECK(drift < 1e-14, "aux rotation: mass drift %.2e", drift);
    free(c);
    free(ref);
  }
  unsetenv("DGRID_NEIGHBOURS");
  dg_degree_map_destroy(&uni);
  /* a velocity varying in space and time (data times cos(pi t / T)) against
     the deformation model's formula, and a program's own data against the
     model's sample (the same bits) */
  double *own;
  const long len = aux_run("deformation", deform_params, map, NULL, &ref, &dt_ref, &drift);
  aux_run("advection_field", deform_field, map, NULL, &c, &dt, &drift);
  double diff = max_diff(ref, c, len);
  printf("aux deformation vs the deformation model, random map 0..4: max difference %.2e, "
         "mass drift %.2e\n",
         diff, drift);
  CHECK(diff < 1e-13, "aux deformation differs from the formula by %.2e", diff);
  CHECK(drift < 1e-14, "aux deformation: mass drift %.2e", drift);
  aux_run("advection_field", deform_field, map, deform_data, &own, &dt, &drift);
  diff = max_diff(c, own, len);
  printf("aux deformation: a program's own data vs the model's sample %.2e\n", diff);
  CHECK(diff == 0, "dg_disc_set_aux: %.2e from the model's own sample", diff);
  /* the team update reads the auxiliary data too (stencils/dg_team.h): the
     same coefficients to round-off, with traces at the degree changes */
  double *team;
  OK(setenv("DGRID_UPDATE", "team", 1) ? DG_ERR_ARG : 0);
  aux_run("advection_field", deform_field, map, NULL, &team, &dt, &drift);
  unsetenv("DGRID_UPDATE");
  diff = max_diff(c, team, len);
  printf("aux deformation, team against element update, random map 0..4: max difference %.2e, "
         "mass drift %.2e\n",
         diff, drift);
  CHECK(diff < 1e-13, "aux deformation: the team update differs by %.2e", diff);
  CHECK(drift < 1e-14, "aux deformation, team update: mass drift %.2e", drift);
  free(team);
  free(ref);
  free(c);
  free(own);
  dg_degree_map_destroy(&map);
  /* rates of the deformational flow held as data over one period (as
     unit.model_deform for the formula) */
  model_case mc = {"advection_field", deform_field, 0, NULL, 0, DG_TS_LSRK4, 1.0, 0, 0};
  static const int nc[] = {0, 16, 8, 8, 8};
  rates("aux deformation", mc, nc, 1, 4, 0.3, deform_dt);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (!strcmp(which, "deform"))
    test_deform();
  else if (!strcmp(which, "burgers"))
    test_burgers();
  else if (!strcmp(which, "acoustics"))
    test_acoustics();
  else if (!strcmp(which, "stage_times"))
    test_stage_times();
  else if (!strcmp(which, "aux"))
    test_aux();
  else {
    fprintf(stderr, "usage: test_models deform|burgers|acoustics|stage_times|aux\n");
    return 2;
  }
  return dg_test_done(which);
}
