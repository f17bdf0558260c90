/* test_boundary.c - boundary sides of a box (dg_grid_set_bc; the stages'
 * exterior states, stencils/dg_stage_model.h dg_exterior).
 *   advection  inflow on the upwind sides (data: the exact solution, a
 *              Gaussian that crosses them), outflow downwind, beta = (1, 0.5):
 *              L2 rates r + 1 within 0.3 for r = 1..4 on uniform maps, at
 *              least r + 0.7 on random maps of degrees r..r+1
 *   advection3 the same in 3D, r = 1..2
 *   balance    forward Euler steps on inflow/outflow sides (uniform and
 *              random maps): the change of the total mass equals -dt times
 *              the boundary flux computed on the host (outflow: beta.n times
 *              the exact face integral of the trace; inflow: beta.n times
 *              the Gauss sum of the data) to 1e-13 of the mass
 *   acoustics  walls on every side, the standing wave p = cos(pi x)
 *              cos(pi y) cos(w t): L2 rates r + 1 within 0.3 for r = 1..4
 *   walls      walls on every side, a pressure pulse on a mean (uniform and
 *              random maps): the total pressure stays to 1e-13 relative, the
 *              energy never grows
 *   refuse     the one-line refusals: a wall on a scalar model, inflow on a
 *              model without data, periodic on one side only, the team
 *              update, neighbours' coefficients and own q asked for
 * Usage: test_boundary CASE */
#include "dg_degree_map.h"
#include "dg_disc.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_quadrature.h"
#include "dg_test.h"
#include "dg_ts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { UNIFORM = 0, RANDOM = 1 };

/* A box [0,1]^dim with n cells per direction and the given sides. */
static void box(dg_grid *g, int dim, int n, const int bc[6]) {
  const int nn[3] = {n, n, dim == 3 ? n : 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(g, dim, nn, lo, hi));
  OK(dg_grid_set_bc(g, bc));
}

static void map_create(dg_degree_map **m, const dg_grid *g, int kind, int r) {
  if (kind == UNIFORM)
    OK(dg_degree_map_create_uniform(m, g, r));
  else
    OK(dg_degree_map_create_random(m, g, r, r + 1, 7));
}

/* The advection model: beta = (1, 0.5[, 0.25]), a Gaussian of width 0.2
 * at (0.3, 0.4[, 0.45]) that the inflow sides cut. */
static dg_model *advection(int dim) {
  dg_model *m;
  OK(dg_model_create(&m, "advection"));
  OK(dg_model_set(m, "beta", dim == 3 ? "1,0.5,0.25" : "1,0.5"));
  OK(dg_model_set(m, "init", "gauss"));
  OK(dg_model_set(m, "bell-centre", dim == 3 ? "0.3,0.4,0.45" : "0.3,0.4"));
  OK(dg_model_set(m, "bell-radius", "0.2"));
  OK(dg_model_set(m, "bell-height", "1"));
  return m;
}

/* Run to t_end with RK4 at cfl x the stable step; the L2 error (all
 * variables) against the model's solution. */
static double run_error(const dg_grid *g, const dg_degree_map *map, const dg_model *m, double t_end,
                        double cfl) {
  dg_disc *d;
  dg_field *u;
  dg_ts *ts;
  OK(dg_disc_create(&d, dg_test_backend(), g, map, 0, m));
  OK(dg_field_create(&u, d));
  OK(dg_project_solution(d, u, 0.0));
  OK(dg_ts_create(&ts, d, DG_TS_RK4));
  double dt, t = 0;
  OK(dg_disc_stable_dt(d, u, 0.0, &dt));
  dt *= cfl;
  const long steps = (long)ceil(t_end / dt - 1e-9);
  dt = t_end / (double)steps;
  for (long s = 0; s < steps; ++s, t = (double)s * dt) OK(dg_ts_step(ts, u, t, dt));
  double l2[DG_MAX_NVAR], linf[DG_MAX_NVAR], s2 = 0;
  OK(dg_error_norms(d, u, t_end, l2, linf));
  for (int v = 0; v < dg_disc_nvar(d); ++v) s2 += l2[v] * l2[v];
  dg_ts_destroy(&ts);
  dg_field_destroy(&u);
  dg_disc_destroy(&d);
  return sqrt(s2);
}

/* Rate between n and 2n cells. */
static double rate(int dim, int n, int r, int kind, const int bc[6], const dg_model *m,
                   double t_end, double cfl, double *e2) {
  double e[2];
  for (int k = 0; k < 2; ++k) {
    dg_grid g;
    dg_degree_map *map;
    box(&g, dim, n << k, bc);
    map_create(&map, &g, kind, r);
    e[k] = run_error(&g, map, m, t_end, cfl);
    dg_degree_map_destroy(&map);
  }
  *e2 = e[1];
  return log2(e[0] / e[1]);
}

static const int inout[6] = {DG_BC_INFLOW,  DG_BC_OUTFLOW, DG_BC_INFLOW,
                             DG_BC_OUTFLOW, DG_BC_INFLOW,  DG_BC_OUTFLOW};

static void case_advection(int dim) {
  dg_model *m = advection(dim);
  const int rmax = dim == 3 ? 2 : 4;
  for (int kind = UNIFORM; kind <= RANDOM; ++kind)
    for (int r = 1; r <= rmax - kind; ++r) {
      double e2;
      const double p =
          rate(dim, dim == 3 ? 6 : 8, r, kind, inout, m, 0.3, r >= 3 ? 0.15 : 0.4, &e2);
      printf("advection %dD %s r=%d: L2 %.3e rate %.2f\n", dim, kind ? "random r..r+1" : "uniform",
             r, e2, p);
      if (kind == UNIFORM)
        CHECK(fabs(p - (r + 1)) <= 0.3, "%dD uniform r=%d: rate %.2f, expected %d +- 0.3", dim, r,
              p, r + 1);
      else
        CHECK(p >= r + 0.7, "%dD random r=%d..%d: rate %.2f, expected >= %.1f", dim, r, r + 1, p,
              r + 0.7);
    }
  dg_model_destroy(&m);
}

/* Total boundary outflow of u (beta.n F ds summed over the boundary faces)
 * at time t: outflow faces from the trace's exact integral, inflow faces by
 * the Gauss sum of the model's data (its solution) at the q face points. */
static double boundary_flux(const dg_disc *d, dg_field *u, const dg_model *m, const double beta[2],
                            double t) {
  const dg_grid *g = dg_disc_grid(d);
  const int q = dg_disc_q(d);
  double xg[DG_MAX_Q], wg[DG_MAX_Q], c[(DG_MAX_DEGREE + 1) * (DG_MAX_DEGREE + 1)];
  OK(dg_gauss_legendre(q, xg, wg));
  double total = 0;
  for (long e = 0; e < g->nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    const int N = dg_disc_degrees(d)->deg[e] + 1;
    OK(dg_element_coeffs(d, u, e, c));
    for (int dd = 0; dd < 2; ++dd)
      for (int side = 0; side < 2; ++side) {
        if (ijk[dd] != (side ? g->n[dd] - 1 : 0)) continue;
        const double bn = side ? beta[dd] : -beta[dd]; /* beta . n */
        const int td = 1 - dd;
        const double ht = g->h[td];
        if (g->bc[2 * dd + side] == DG_BC_OUTFLOW) {
          /* int u(face) = h_t sum_a c[a along dd, 0 along td] (+-1)^a */
          double s = 0;
          for (int a = 0; a < N; ++a) {
            const double ci = dd == 0 ? c[a] : c[a * N];
            s += (side || a % 2 == 0) ? ci : -ci;
          }
          total += bn * ht * s;
        } else {
          double s = 0;
          for (int k = 0; k < q; ++k) {
            double x[3] = {0, 0, 0}, gv;
            x[dd] = g->lo[dd] + (ijk[dd] + side) * g->h[dd];
            x[td] = g->lo[td] + (ijk[td] + 0.5 * (1 + xg[k])) * ht;
            CHECK(dg_model_solution(m, x, t, &gv), "inflow data at t = %g", t);
            s += wg[k] * gv;
          }
          total += bn * 0.5 * ht * s;
        }
      }
  }
  return total;
}

static void case_balance(void) {
  const double beta[2] = {1, 0.5};
  for (int kind = UNIFORM; kind <= RANDOM; ++kind) {
    dg_grid g;
    dg_degree_map *map;
    box(&g, 2, 10, inout);
    map_create(&map, &g, kind, 2);
    dg_model *m = advection(2);
    dg_disc *d;
    dg_field *u;
    dg_ts *ts;
    OK(dg_disc_create(&d, dg_test_backend(), &g, map, 0, m));
    const dg_model *dm = dg_disc_model(d);
    OK(dg_field_create(&u, d));
    OK(dg_project_solution(d, u, 0.0));
    OK(dg_ts_create(&ts, d, DG_TS_EULER));
    double dt;
    OK(dg_disc_stable_dt(d, u, 0.0, &dt));
    dt *= 0.1;
    double worst = 0, t = 0, mass, scale;
    OK(dg_mass(d, u, &mass));
    scale = fabs(mass);
    for (int s = 0; s < 40; ++s) {
      const double flux = boundary_flux(d, u, dm, beta, t);
      OK(dg_ts_step(ts, u, t, dt));
      t += dt;
      double m1;
      OK(dg_mass(d, u, &m1));
      const double err = fabs((m1 - mass) + dt * flux) / scale;
      CHECK(fabs(m1 - mass) > 1e-6 * scale, "step %d: the mass hardly changed (%g)", s, m1 - mass);
      if (err > worst) worst = err;
      mass = m1;
    }
    printf("balance %s: |dM + dt F| / M <= %.2e over 40 Euler steps\n",
           kind ? "random 2..3" : "uniform 2", worst);
    CHECK(worst <= 1e-13, "%s map: mass change and boundary flux differ by %.3e relative",
          kind ? "random" : "uniform", worst);
    dg_ts_destroy(&ts);
    dg_field_destroy(&u);
    dg_disc_destroy(&d);
    dg_model_destroy(&m);
    dg_degree_map_destroy(&map);
  }
}

static const int walls[6] = {DG_BC_WALL, DG_BC_WALL, DG_BC_WALL,
                             DG_BC_WALL, DG_BC_WALL, DG_BC_WALL};

static void case_acoustics(void) {
  dg_model *m;
  OK(dg_model_create(&m, "acoustics"));
  OK(dg_model_set(m, "shape", "standing"));
  for (int r = 1; r <= 4; ++r) {
    double e2;
    const double p = rate(2, 8, r, UNIFORM, walls, m, 0.3, r >= 3 ? 0.15 : 0.4, &e2);
    printf("acoustics walls r=%d: L2 %.3e rate %.2f\n", r, e2, p);
    CHECK(fabs(p - (r + 1)) <= 0.3, "r=%d: rate %.2f, expected %d +- 0.3", r, p, r + 1);
  }
  dg_model_destroy(&m);
}

/* Energy int p^2/2 + (u^2 + v^2)/2 (K = rho = 1): the orthogonal modes'
 * squares, each weighted by its norm. */
static double energy(const dg_disc *d, dg_field *u) {
  const dg_grid *g = dg_disc_grid(d);
  double e = 0, c[3 * (DG_MAX_DEGREE + 1) * (DG_MAX_DEGREE + 1)];
  for (long el = 0; el < g->nelem; ++el) {
    OK(dg_element_coeffs(d, u, el, c));
    const int N = dg_disc_degrees(d)->deg[el] + 1, M = N * N;
    for (int v = 0; v < 3; ++v)
      for (int k = 0; k < M; ++k)
        e += 0.5 * c[v * M + k] * c[v * M + k] * g->h[0] * g->h[1] /
             ((2 * (k % N) + 1) * (2 * (k / N) + 1));
  }
  return e;
}

/* A pressure pulse on a mean, at rest. */
static double pulse(const double x[3], int v, void *ctx) {
  (void)ctx;
  if (v) return 0;
  const double r2 = (x[0] - 0.35) * (x[0] - 0.35) + (x[1] - 0.6) * (x[1] - 0.6);
  return 1 + exp(-r2 / 0.02);
}

static void case_walls(void) {
  for (int kind = UNIFORM; kind <= RANDOM; ++kind) {
    dg_grid g;
    dg_degree_map *map;
    box(&g, 2, 12, walls);
    map_create(&map, &g, kind, 2);
    dg_model *m;
    OK(dg_model_create(&m, "acoustics"));
    dg_disc *d;
    dg_field *u;
    dg_ts *ts;
    OK(dg_disc_create(&d, dg_test_backend(), &g, map, 0, m));
    OK(dg_field_create(&u, d));
    OK(dg_project(d, u, pulse, NULL));
    OK(dg_ts_create(&ts, d, DG_TS_SSPRK3));
    double dt, mass0[3], mass[3];
    OK(dg_disc_stable_dt(d, u, 0.0, &dt));
    dt *= 0.4;
    OK(dg_mass(d, u, mass0));
    double e_prev = energy(d, u), growth = -INFINITY, drift = 0;
    const double e0 = e_prev;
    for (int s = 0; s < 60; ++s) {
      OK(dg_ts_step(ts, u, s * dt, dt));
      OK(dg_mass(d, u, mass));
      const double e = energy(d, u);
      if ((e - e_prev) / e_prev > growth) growth = (e - e_prev) / e_prev;
      e_prev = e;
      if (fabs(mass[0] - mass0[0]) / fabs(mass0[0]) > drift)
        drift = fabs(mass[0] - mass0[0]) / fabs(mass0[0]);
    }
    printf("walls %s: pressure drift %.2e, largest energy growth per step %.2e, energy %.6f -> "
           "%.6f\n",
           kind ? "random 2..3" : "uniform 2", drift, growth, e0, e_prev);
    CHECK(drift <= 1e-13, "%s: total pressure drifted by %.3e relative",
          kind ? "random" : "uniform", drift);
    CHECK(growth <= 1e-14, "%s: the energy grew by %.3e in a step", kind ? "random" : "uniform",
          growth);
    CHECK(e_prev < e0, "%s: the Rusanov flux dissipates nothing (%.17g -> %.17g)",
          kind ? "random" : "uniform", e0, e_prev);
    dg_ts_destroy(&ts);
    dg_field_destroy(&u);
    dg_disc_destroy(&d);
    dg_model_destroy(&m);
    dg_degree_map_destroy(&map);
  }
}

/* dg_disc_create on box(bc) with model `name` fails with exactly `msg`. */
static void refused(const char *name, const int bc[6], const char *env, const char *value, int r,
                    const char *msg) {
  dg_grid g;
  dg_degree_map *map;
  box(&g, 2, 6, bc);
  OK(dg_degree_map_create_uniform(&map, &g, r));
  dg_model *m;
  OK(dg_model_create(&m, name));
  if (env) setenv(env, value, 1);
  dg_disc *d = NULL;
  const int rc = dg_disc_create(&d, dg_test_backend(), &g, map, 0, m);
  if (env) unsetenv(env);
  CHECK(rc != 0 && !strcmp(dg_error_message(), msg), "%s: got rc %d '%s', expected '%s'", name, rc,
        rc ? dg_error_message() : "", msg);
  dg_disc_destroy(&d);
  dg_model_destroy(&m);
  dg_degree_map_destroy(&map);
}

static void case_refuse(void) {
  refused("advection", walls, NULL, NULL, 2, "boundary x-: model advection has no wall reflection");
  const int in_ac[6] = {DG_BC_OUTFLOW, DG_BC_OUTFLOW, DG_BC_PERIODIC, DG_BC_PERIODIC, 0, 0};
  const int in_ac2[6] = {DG_BC_WALL, DG_BC_WALL, DG_BC_WALL, DG_BC_INFLOW, 0, 0};
  refused("acoustics", in_ac2, NULL, NULL, 2, "boundary y+: model acoustics has no inflow data");
  refused("advection", inout, "DGRID_UPDATE", "team", 2,
          "DGRID_UPDATE=team needs a grid periodic on every side (the team update forms no "
          "boundary states)");
  refused("advection", in_ac, "DGRID_NEIGHBOURS", "coeffs", 2,
          "DGRID_NEIGHBOURS=coeffs needs a grid periodic on every side (a box with boundaries "
          "reads traces)");
  /* periodic on one side only */
  dg_grid g;
  const int n[3] = {4, 4, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 2, n, lo, hi));
  const int one[6] = {DG_BC_PERIODIC, DG_BC_OUTFLOW, DG_BC_WALL, DG_BC_WALL, 0, 0};
  const int rc = dg_grid_set_bc(&g, one);
  const char *msg = "boundary x: periodic on one side only (x- periodic, x+ outflow); a periodic "
                    "direction is periodic on both sides";
  CHECK(rc != 0 && !strcmp(dg_error_message(), msg), "one side: '%s'",
        rc ? dg_error_message() : "accepted");
  CHECK(dg_grid_periodic(&g, 0) && dg_grid_periodic(&g, 1) && !dg_grid_has_bc(&g),
        "a refused dg_grid_set_bc changed the grid");
  /* a box with boundaries accepts the element update and says so */
  dg_degree_map *map;
  dg_model *m;
  dg_disc *d;
  OK(dg_grid_set_bc(&g, inout));
  OK(dg_degree_map_create_uniform(&map, &g, 3));
  OK(dg_model_create(&m, "advection"));
  OK(dg_disc_create(&d, dg_test_backend(), &g, map, 0, m));
  char buf[1024];
  dg_disc_describe(d, buf, sizeof buf);
  CHECK(!dg_disc_team(d) && !dg_disc_nbr_coeffs(d) && !dg_disc_own_q(d) &&
            strstr(buf, "boundaries: the one-element update on traces only"),
        "plan on a box with boundaries: %s", buf);
  dg_disc_destroy(&d);
  dg_model_destroy(&m);
  dg_degree_map_destroy(&map);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_boundary advection|advection3|balance|acoustics|walls|refuse\n");
    return 2;
  }
  const char *c = argv[1];
  if (!strcmp(c, "advection"))
    case_advection(2);
  else if (!strcmp(c, "advection3"))
    case_advection(3);
  else if (!strcmp(c, "balance"))
    case_balance();
  else if (!strcmp(c, "acoustics"))
    case_acoustics();
  else if (!strcmp(c, "walls"))
    case_walls();
  else if (!strcmp(c, "refuse"))
    case_refuse();
  else {
    fprintf(stderr, "test_boundary: unknown case '%s'\n", c);
    return 2;
  }
  return dg_test_done(c);
}
