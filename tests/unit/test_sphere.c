/* The latitude-longitude sphere (--grid latlon, model sphere_advection):
 *   mass      total mass (the weighted mass, 1^T M c) conserved to 1e-13
 *             relative on uniform, latitude and random degree maps, with the
 *             wind crossing the poles;
 *   constant  a constant stays constant: to quadrature accuracy (the
 *             discrete divergence of the analytic wind is not exactly zero),
 *             asserted below a bound and shrinking with more points q;
 *   converge  smooth Gaussian hill, Williamson's rotation at alpha = 0 and
 *             pi/2, r = 1..3: normalised l2 error rates >= r + 0.5;
 *   pole      the pole faces carry no flux: after one Euler stage a state
 *             in the south pole row has not reached the north pole row (its
 *             neighbour across the wrapped pole face), to the bit;
 *   exact     the exact solution after 12 days equals the initial state
 *             (the rotation closes), and the normalised norms of the
 *             projected initial state against it are small;
 *   plan      the plan runs the one-element update and refuses the team
 *             update on the sphere. */
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_test.h"
#include "dg_ts.h"

#include <stdlib.h>
#include <string.h>

#define A_EARTH 6.37122e6
#define DAY     86400.0

typedef struct {
  dg_grid g;
  dg_degree_map *map;
  dg_model *model;
  dg_disc *d;
  dg_field *u;
} sphere;

/* A sphere of 2 n x n elements, degree map `map` (uniform | latitude |
 * random) with degrees up to r, q points (0: r + 1), Williamson's flow at
 * angle alpha with the initial data `initial`, projected. */
static void sphere_make(sphere *s, int n, const char *map, int r, int q, double alpha,
                        const char *initial) {
  memset(s, 0, sizeof *s);
  OK(dg_grid_init_latlon(&s->g, 0, n, A_EARTH));
  if (!strcmp(map, "latitude"))
    OK(dg_degree_map_create_latitude(&s->map, &s->g, r > 1 ? r - 2 : 0, r));
  else if (!strcmp(map, "random"))
    OK(dg_degree_map_create_random(&s->map, &s->g, 1, r, 11));
  else
    OK(dg_degree_map_create_uniform(&s->map, &s->g, r));
  OK(dg_model_create(&s->model, "sphere_advection"));
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g", alpha);
  OK(dg_model_set(s->model, "alpha", buf));
  OK(dg_model_set(s->model, "initial", initial));
  OK(dg_disc_create(&s->d, &s->g, s->map, q, s->model));
  OK(dg_field_create(&s->u, s->d));
  OK(dg_project_solution(s->d, s->u, 0.0));
}

static void sphere_free(sphere *s) {
  dg_field_destroy(&s->u);
  dg_disc_destroy(&s->d);
  dg_model_destroy(&s->model);
  dg_degree_map_destroy(&s->map);
}

/* Run to t_end with `kind`, dt = cfl x the stable step (whole steps). */
static void sphere_run(sphere *s, dg_ts_kind kind, double t_end, double cfl, long max_steps) {
  double dt;
  OK(dg_disc_stable_dt(s->d, s->u, 0.0, &dt));
  long steps = (long)ceil(t_end / (cfl * dt));
  if (steps > max_steps) steps = max_steps;
  dt = t_end / (double)steps;
  dg_ts *ts;
  OK(dg_ts_create(&ts, s->d, kind));
  for (long k = 0; k < steps; ++k) OK(dg_ts_step(ts, s->u, (double)k * dt, dt));
  dg_ts_destroy(&ts);
}

static void test_mass(void) {
  const char *maps[] = {"uniform", "latitude", "random"};
  for (int i = 0; i < 3; ++i) {
    sphere s;
    sphere_make(&s, 8, maps[i], 4, 0, M_PI / 2 - 0.05, "hill");
    double m0, m1;
    OK(dg_mass(s.d, s.u, &m0));
    sphere_run(&s, DG_TS_SSPRK3, 0.5 * DAY, 0.5, 400);
    OK(dg_mass(s.d, s.u, &m1));
    const double drift = fabs(m1 - m0) / fabs(m0);
    printf("mass, %s map: %.17g -> %.17g, relative drift %.3e\n", maps[i], m0, m1, drift);
    CHECK(drift < 1e-13, "%s map: mass drift %.3e", maps[i], drift);
    /* the mass of the hill, exp(-5 |X - Xc|^2) h0 over the sphere: 2 pi a^2
       h0 (1 - exp(-20)) / 10 (the projection integrates it with q points) */
    const double exact = 2 * M_PI * A_EARTH * A_EARTH * 1000 * (1 - exp(-20.0)) / 10;
    CHECK_CLOSE(m0, exact, 0, 1e-3, "hill mass against its integral");
    sphere_free(&s);
  }
}

static double one_fn(const double x[3], int v, void *ctx) {
  (void)x, (void)v, (void)ctx;
  return 1.0;
}

/* The largest deviation of the coefficients from the constant 1. */
static double constant_deviation(sphere *s) {
  double worst = 0, cf[256];
  for (long e = 0; e < s->g.nelem; ++e) {
    OK(dg_element_coeffs(s->d, s->u, e, cf));
    const int N = s->map->deg[e] + 1;
    for (int k = 0; k < N * N; ++k) {
      const double err = fabs(cf[k] - (k == 0 ? 1.0 : 0.0));
      if (err > worst) worst = err;
    }
  }
  return worst;
}

static void test_constant(void) {
  double dev[2];
  for (int extra = 0; extra < 2; ++extra) {
    sphere s;
    sphere_make(&s, 8, "uniform", 3, 4 + 2 * extra, M_PI / 2 - 0.05, "hill");
    OK(dg_project(s.d, s.u, one_fn, NULL));
    const double d0 = constant_deviation(&s);
    CHECK(d0 < 1e-14, "projection of 1: deviation %.3e", d0);
    sphere_run(&s, DG_TS_SSPRK3, 0.25 * DAY, 0.5, 400);
    dev[extra] = constant_deviation(&s);
    printf("constant state, q = %d: largest deviation after 6 hours %.3e\n", 4 + 2 * extra,
           dev[extra]);
    sphere_free(&s);
  }
  /* measured 5.3e-8 (q = 4) and 8.6e-15 (q = 6): the quadrature error of the
     discrete divergence of the analytic wind (trigonometric, not a
     polynomial), which more points shrink to round-off */
  CHECK(dev[0] < 5e-7, "constant state, q = 4: deviation %.3e", dev[0]);
  CHECK(dev[1] < 1e-12, "constant state, q = 6: deviation %.3e", dev[1]);
  CHECK(dev[1] < 1e-3 * dev[0],
        "constant state: more points should shrink the deviation "
        "(%.3e -> %.3e)",
        dev[0], dev[1]);
}

static void test_converge(void) {
  const double alphas[2] = {0, M_PI / 2};
  const int ns[3] = {8, 16, 32};
  for (int ia = 0; ia < 2; ++ia)
    for (int r = 1; r <= 3; ++r) {
      double err[3];
      for (int k = 0; k < 3; ++k) {
        sphere s;
        sphere_make(&s, ns[k], "uniform", r, 0, alphas[ia], "hill");
        const double t = 3 * 3600.0;
        sphere_run(&s, DG_TS_RK4, t, 0.4, 100000);
        double l1, l2, li;
        OK(dg_error_norms_rel(s.d, s.u, t, &l1, &l2, &li));
        err[k] = l2;
        sphere_free(&s);
      }
      const double rate = log(err[1] / err[2]) / log(2.0);
      printf("hill, alpha %.4f, r = %d: l2 %.3e %.3e %.3e, rates %.2f %.2f\n", alphas[ia], r,
             err[0], err[1], err[2], log(err[0] / err[1]) / log(2.0), rate);
      CHECK(rate >= r + 0.5, "alpha %.4f r %d: rate %.2f < %.1f", alphas[ia], r, rate, r + 0.5);
    }
}

static void test_pole(void) {
  sphere s;
  sphere_make(&s, 6, "uniform", 2, 0, M_PI / 2, "hill");
  /* a state in the south pole row only */
  double cf[64];
  for (long e = 0; e < s.g.nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(&s.g, e, ijk);
    for (int k = 0; k < 9; ++k) cf[k] = ijk[1] == 0 ? 1.0 + 0.1 * k : 0.0;
    OK(dg_element_set_coeffs(s.d, s.u, e, cf));
  }
  double dt;
  OK(dg_disc_stable_dt(s.d, s.u, 0.0, &dt));
  dg_ts *ts;
  OK(dg_ts_create(&ts, s.d, DG_TS_EULER));
  OK(dg_ts_step(ts, s.u, 0.0, 0.5 * dt));
  dg_ts_destroy(&ts);
  long moved = 0, north = 0;
  for (long e = 0; e < s.g.nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(&s.g, e, ijk);
    OK(dg_element_coeffs(s.d, s.u, e, cf));
    for (int k = 0; k < 9; ++k) {
      if (ijk[1] == s.g.n[1] - 1 && cf[k] != 0) north++;
      if (ijk[1] == 1 && cf[k] != 0) moved++;
    }
  }
  printf("pole: %ld nonzero coefficients in the north pole row, %ld in row 1\n", north, moved);
  CHECK(north == 0, "the south pole row reached the north pole row across the pole (%ld)", north);
  CHECK(moved > 0, "nothing left the south pole row through its northern faces");
  sphere_free(&s);
}

static void test_exact(void) {
  sphere s;
  sphere_make(&s, 8, "uniform", 3, 0, M_PI / 2 - 0.05, "bell");
  const dg_model *m = dg_disc_model(s.d);
  double worst = 0;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 20; ++j) {
      const double x[3] = {2 * M_PI * (i + 0.3) / 40, -M_PI / 2 + M_PI * (j + 0.5) / 20, 0};
      double u0, u1;
      dg_model_solution(m, x, 0, &u0);
      dg_model_solution(m, x, 12 * DAY, &u1);
      if (fabs(u1 - u0) > worst) worst = fabs(u1 - u0);
    }
  printf("exact solution after 12 days against the initial state: %.3e\n", worst);
  CHECK(worst < 1e-8, "the rotation does not close after 12 days: %.3e", worst);
  double l1, l2, li;
  OK(dg_error_norms_rel(s.d, s.u, 0.0, &l1, &l2, &li));
  printf("projected bell, 16x8, r = 3: l1 %.3e l2 %.3e linf %.3e\n", l1, l2, li);
  CHECK(l2 > 1e-4 && l2 < 0.2, "projection error of the bell %.3e", l2);
  sphere_free(&s);
}

static void test_plan(void) {
  sphere s;
  sphere_make(&s, 4, "uniform", 5, 0, 0, "hill");
  char buf[800];
  dg_disc_describe(s.d, buf, sizeof buf);
  printf("%s\n", buf);
  CHECK(strstr(buf, "update=element") != NULL, "the sphere runs the one-element update");
  CHECK(strstr(buf, "geometry=latlon") != NULL, "the plan says it is on the sphere");
  sphere_free(&s);
  setenv("DGRID_UPDATE", "team", 1);
  dg_grid g;
  dg_degree_map *map;
  dg_model *model;
  dg_disc *d = NULL;
  OK(dg_grid_init_latlon(&g, 0, 4, A_EARTH));
  OK(dg_degree_map_create_uniform(&map, &g, 2));
  OK(dg_model_create(&model, "sphere_advection"));
  const int rc = dg_disc_create(&d, &g, map, 0, model);
  CHECK(rc != 0 &&
            strstr(dg_error_message(), "DGRID_UPDATE=team needs a 2D grid without metric") != NULL,
        "team update on the sphere: %s", rc ? dg_error_message() : "accepted");
  unsetenv("DGRID_UPDATE");
  dg_disc_destroy(&d);
  dg_model_destroy(&model);
  dg_degree_map_destroy(&map);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "mass";
  if (!strcmp(which, "mass"))
    test_mass();
  else if (!strcmp(which, "constant"))
    test_constant();
  else if (!strcmp(which, "converge"))
    test_converge();
  else if (!strcmp(which, "pole"))
    test_pole();
  else if (!strcmp(which, "exact"))
    test_exact();
  else if (!strcmp(which, "plan"))
    test_plan();
  else {
    printf("unknown case %s\n", which);
    return 2;
  }
  return dg_test_done(which);
}
