/* The latitude-longitude sphere (--grid latlon, model sphere_advection):
 *   mass      total mass (the weighted mass, 1^T M c) conserved to 1e-13
 *             relative on uniform, latitude and random degree maps, with the
 *             wind crossing the poles;
 *   constant  a constant stays constant to round-off (1e-13) at the
 *             default q = rmax + 1, on uniform, latitude and random degree
 *             maps, for Williamson's flow at alpha = pi/2 - 0.05 and the
 *             Nair-Lauritzen flow: the wind is the exact curl of the
 *             interpolated stream function, exactly divergence-free under
 *             the Gauss rule (docs/ARCHITECTURE.md, "Geometry");
 *   interp    the trigonometric interpolants behind that wind
 *             (dg_grid_trig_interp): exact at the interval's ends, exact for
 *             a degree that reproduces them to round-off, and values and
 *             derivatives converging at rates >= K + 1 and >= K;
 *   converge  smooth Gaussian hill, Williamson's rotation at alpha = 0 and
 *             pi/2, r = 1..3: normalised l2 error rates >= r + 0.5;
 *   pole      the pole faces carry no flux: after one Euler stage a state
 *             in the south pole row has not reached the north pole row (its
 *             neighbour across the wrapped pole face), to the bit;
 *   exact     the exact solution after 12 days equals the initial state
 *             (the rotation closes), and the normalised norms of the
 *             projected initial state against it are small;
 *   team      the team update (DGRID_UPDATE=team) gives the one-element
 *             update's coefficients to 1e-13 on uniform, latitude and
 *             random maps, both flows, and conserves mass to 1e-13;
 *   step      the rows' degrees for a target step (--map step) and the
 *             estimate of local time stepping on them, against values
 *             worked out by hand for four rows. */
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_grid.h"
#include "dg_quadrature.h"
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
static void sphere_make_flow(sphere *s, int n, const char *map, int r, int q, const char *flow,
                             double alpha, const char *initial) {
  memset(s, 0, sizeof *s);
  OK(dg_grid_init_latlon(&s->g, 0, n, A_EARTH));
  if (!strcmp(map, "latitude"))
    OK(dg_degree_map_create_latitude(&s->map, &s->g, r > 1 ? r - 2 : 0, r));
  else if (!strcmp(map, "random"))
    OK(dg_degree_map_create_random(&s->map, &s->g, 1, r, 11));
  else
    OK(dg_degree_map_create_uniform(&s->map, &s->g, r));
  OK(dg_model_create(&s->model, "sphere_advection"));
  OK(dg_model_set(s->model, "flow", flow));
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g", alpha);
  OK(dg_model_set(s->model, "alpha", buf));
  OK(dg_model_set(s->model, "initial", initial));
  OK(dg_disc_create(&s->d, dg_test_backend(), &s->g, s->map, q, s->model));
  OK(dg_field_create(&s->u, s->d));
  OK(dg_project_solution(s->d, s->u, 0.0));
}

static void sphere_make(sphere *s, int n, const char *map, int r, int q, double alpha,
                        const char *initial) {
  sphere_make_flow(s, n, map, r, q, "williamson", alpha, initial);
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
  const char *maps[] = {"uniform", "latitude", "random"};
  const char *flows[] = {"williamson", "nair_lauritzen"};
  for (int f = 0; f < 2; ++f)
    for (int i = 0; i < 3; ++i) {
      sphere s;
      sphere_make_flow(&s, 8, maps[i], 3, 0, flows[f], M_PI / 2 - 0.05, "hill");
      OK(dg_project(s.d, s.u, one_fn, NULL));
      const double d0 = constant_deviation(&s);
      CHECK(d0 < 1e-14, "projection of 1: deviation %.3e", d0);
      double m0, m1;
      OK(dg_mass(s.d, s.u, &m0));
      sphere_run(&s, DG_TS_SSPRK3, 0.25 * DAY, 0.5, 400);
      OK(dg_mass(s.d, s.u, &m1));
      const double dev = constant_deviation(&s), drift = fabs(m1 - m0) / fabs(m0);
      printf("constant state, %s, %s map, q = %d: largest deviation after 6 hours %.3e, "
             "mass drift %.3e\n",
             flows[f], maps[i], dg_disc_q(s.d), dev, drift);
      /* before the interpolated stream function: 5.3e-8 (williamson,
         uniform, q = 4), round-off only from q = r + 3 */
      CHECK(dev <= 1e-13, "constant state, %s, %s map: deviation %.3e", flows[f], maps[i], dev);
      CHECK(drift < 1e-13, "constant state, %s, %s map: mass drift %.3e", flows[f], maps[i], drift);
      sphere_free(&s);
    }
}

/* The interpolants of cos(m x), sin(m x) of degree K on [x0, x0 + h] at
 * Gauss points against the functions: the largest error of the values and
 * of the derivatives, over m, cos and sin. */
static void interp_error(int K, double x0, double h, int q, double *ev, double *ed) {
  double xg[16], wg[16], out[8 * 16];
  OK(dg_gauss_legendre(q, xg, wg));
  OK(dg_grid_trig_interp(K, x0, x0 + h, q, xg, out, q));
  *ev = *ed = 0;
  for (int k = 0; k < q; ++k) {
    const double x = x0 + 0.5 * h * (1 + xg[k]);
    for (int m = 1; m <= 2; ++m) {
      const double f[4] = {cos(m * x), sin(m * x), -m * sin(m * x), m * cos(m * x)};
      for (int i = 0; i < 4; ++i) {
        const double e = fabs(out[(4 * (m - 1) + i) * q + k] - f[i]);
        double *w = i < 2 ? ev : ed;
        if (e > *w) *w = e;
      }
    }
  }
}

static void test_interp(void) {
  /* the ends of the interval are nodes: exact there */
  double ends[2] = {-1, 1}, out[8 * 2];
  OK(dg_grid_trig_interp(4, 0.3, 0.7, 2, ends, out, 2));
  const double xe[2] = {0.3, 0.7};
  for (int k = 0; k < 2; ++k) {
    const double f[4] = {cos(xe[k]), sin(xe[k]), cos(2 * xe[k]), sin(2 * xe[k])};
    const int at[4] = {0, 2, 8, 10}; /* I[cos x], I[sin x], I[cos 2x], I[sin 2x] */
    for (int i = 0; i < 4; ++i)
      CHECK(fabs(out[at[i] + k] - f[i]) <= 1.2e-16, "end %d, entry %d: %.17g against %.17g", k,
            at[i], out[at[i] + k], f[i]);
  }
  /* a high degree on a short interval: round-off */
  double ev, ed;
  interp_error(14, 1.1, 0.2, 8, &ev, &ed);
  printf("interp K = 14 on 0.2: value error %.3e, derivative error %.3e\n", ev, ed);
  CHECK(ev < 5e-16 && ed < 5e-15, "K = 14: errors %.3e %.3e", ev, ed);
  /* rates at q = K - 1 points (the sphere's q = rmax + 1 for K = rmax + 2):
     values O(h^(K+1)), derivatives O(h^K) (at the K Gauss points they would
     be superconvergent: the derivative of (x^2 - 1) P_K' vanishes there) */
  for (int K = 3; K <= 6; ++K) {
    double v[2], dv[2];
    for (int l = 0; l < 2; ++l) interp_error(K, 0.4, 0.4 / (1 << (2 * l)), K - 1, &v[l], &dv[l]);
    const double rv = log(v[0] / v[1]) / log(4.0), rd = log(dv[0] / dv[1]) / log(4.0);
    printf("interp K = %d: value errors %.3e %.3e (rate %.2f), derivative %.3e %.3e (rate "
           "%.2f)\n",
           K, v[0], v[1], rv, dv[0], dv[1], rd);
    CHECK(rv >= K + 0.8, "K = %d: value rate %.2f", K, rv);
    CHECK(rd >= K - 0.2, "K = %d: derivative rate %.2f", K, rd);
  }
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

/* All coefficients of s, element by element, into a new array (*n of them). */
static double *sphere_coeffs(sphere *s, long *n) {
  long total = 0;
  for (long e = 0; e < s->g.nelem; ++e) total += (s->map->deg[e] + 1) * (s->map->deg[e] + 1);
  double *all = malloc((size_t)total * sizeof *all);
  CHECK(all != NULL, "out of memory");
  if (!all) exit(1);
  long k = 0;
  for (long e = 0; e < s->g.nelem; ++e) {
    OK(dg_element_coeffs(s->d, s->u, e, all + k));
    k += (s->map->deg[e] + 1) * (s->map->deg[e] + 1);
  }
  *n = total;
  return all;
}

/* The team update (DGRID_UPDATE=team) on the sphere against the one-element
 * update: 20 SSPRK3 steps of the hill on 2 n x n elements, the same
 * coefficients to 1e-13 relative, and the team's mass conserved to 1e-13,
 * for both flows (Williamson's through the poles) on a uniform map, a
 * latitude map (degree changes: traces there) and a random one. */
static void test_team(void) {
  sphere s;
  sphere_make(&s, 4, "uniform", 5, 0, 0, "hill");
  char buf[800];
  dg_disc_describe(s.d, buf, sizeof buf);
  printf("%s\n", buf);
  CHECK(strstr(buf, "geometry=latlon") != NULL, "the plan says it is on the sphere");
  sphere_free(&s);
  const char *maps[] = {"uniform", "latitude", "random"};
  const char *flows[] = {"williamson", "nair_lauritzen"};
  double worst = 0;
  for (int f = 0; f < 2; ++f)
    for (int i = 0; i < 3; ++i)
      for (int r = 4; r <= 5; ++r) {
        double *c[2];
        long n[2];
        double m0 = 0, m1 = 0;
        for (int team = 0; team < 2; ++team) {
          OK(setenv("DGRID_UPDATE", team ? "team" : "element", 1) ? DG_ERR_ARG : 0);
          sphere_make_flow(&s, 6, maps[i], r, 0, flows[f], M_PI / 2 - 0.05, "hill");
          CHECK(dg_disc_team(s.d) == team, "DGRID_UPDATE=%s: team is %d", team ? "team" : "element",
                dg_disc_team(s.d));
          if (team) OK(dg_mass(s.d, s.u, &m0));
          sphere_run(&s, DG_TS_SSPRK3, 0.05 * DAY, 0.5, 20);
          if (team) OK(dg_mass(s.d, s.u, &m1));
          c[team] = sphere_coeffs(&s, &n[team]);
          sphere_free(&s);
        }
        unsetenv("DGRID_UPDATE");
        CHECK(n[0] == n[1], "%ld and %ld coefficients", n[0], n[1]);
        const double rel = test_rel_l2(c[0], c[1], n[0] == n[1] ? n[0] : 0);
        const double drift = fabs(m1 - m0) / fabs(m0);
        printf("team, %s, %s map, degree %d: element vs team %.3e, team mass drift %.3e\n",
               flows[f], maps[i], r, rel, drift);
        CHECK(rel <= 1e-13, "%s %s %d: element and team updates differ by %.3e", flows[f], maps[i],
              r, rel);
        CHECK(drift < 1e-13, "%s %s %d: team mass drift %.3e", flows[f], maps[i], r, drift);
        if (rel > worst) worst = rel;
        free(c[0]);
        free(c[1]);
      }
  printf("team on the sphere: largest relative difference %.3e\n", worst);
}

/* Four rows, rmax 3, rmin 1, speed factors 8, 2, 1, 1 (rate = 7 s): the
 * middle rows (1, 2) set the target 1 / (7 x 2) = 1/14; row 0 falls to
 * degree 1 and is then still at CFL 3 x 8 / 14 = 12/7, so the map reaches
 * 1/24; local steps: row 0 at level 1 (12/7 <= 2), the rest at level 0 (row
 * 1 exactly at CFL 1); work (r + 1)^2 per row: 4 x 2 + 3 x 16 = 56 per
 * target step against 52 x 24/14 for the global step. */
static void test_step(void) {
  const double s[4] = {8, 2, 1, 1};
  double rate[4], target = 0, reached = 0, ratio = 0;
  int deg[4], lev[4];
  for (int j = 0; j < 4; ++j) rate[j] = 7 * s[j];
  OK(dg_degree_rows_for_step(4, rate, 3, 1, deg, &target, &reached));
  CHECK(deg[0] == 1 && deg[1] == 3 && deg[2] == 3 && deg[3] == 3, "degrees %d %d %d %d", deg[0],
        deg[1], deg[2], deg[3]);
  CHECK_CLOSE(target, 1.0 / 14, 0, 1e-15, "target step");
  CHECK_CLOSE(reached, 1.0 / 24, 0, 1e-15, "step reached");
  OK(dg_degree_rows_lts(4, rate, 3, deg, target, reached, lev, &ratio));
  CHECK(lev[0] == 1 && lev[1] == 0 && lev[2] == 0 && lev[3] == 0, "levels %d %d %d %d", lev[0],
        lev[1], lev[2], lev[3]);
  CHECK_CLOSE(ratio, 56.0 / (52.0 * 24 / 14), 0, 1e-14, "work of local steps / global");
  /* a row of speed 0 steps at level 0; bad steps are refused */
  rate[3] = 0;
  OK(dg_degree_rows_lts(4, rate, 3, deg, target, reached, lev, &ratio));
  CHECK(lev[3] == 0, "a row at rest: level %d", lev[3]);
  CHECK(dg_degree_rows_lts(4, rate, 3, deg, target, 0, lev, &ratio) == DG_ERR_ARG &&
            strstr(dg_error_message(), "local time steps: steps") != NULL,
        "a zero step: %s", dg_error_message());
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "mass";
  if (!strcmp(which, "mass"))
    test_mass();
  else if (!strcmp(which, "constant"))
    test_constant();
  else if (!strcmp(which, "interp"))
    test_interp();
  else if (!strcmp(which, "converge"))
    test_converge();
  else if (!strcmp(which, "pole"))
    test_pole();
  else if (!strcmp(which, "exact"))
    test_exact();
  else if (!strcmp(which, "team"))
    test_team();
  else if (!strcmp(which, "step"))
    test_step();
  else {
    printf("unknown case %s\n", which);
    return 2;
  }
  return dg_test_done(which);
}
