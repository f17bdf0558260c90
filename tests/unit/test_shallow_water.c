#define _POSIX_C_SOURCE 200809L /* setenv */
/* test_shallow_water.c - the shallow-water model (models/shallow_water.h) on
 * the plane through the public C API, each case a measured number that
 * could be wrong:
 *   lake   the lake at rest over a bump stays at rest to round-off (max
 *          |eta - eta0| and |m| below 1e-12 after 200 steps) on a uniform
 *          map, a random map 0..4, with walls, on the beta-plane and with the
 *          linear equations; the same lake raised by 1e-3 in one element
 *          does move (the bottom's forcing is live, so the balance is not
 *          an idle check)
 *   wave   the linear inertia-gravity wave: L2 rates r + 1 (within 0.3) for
 *          r = 1..5; mass (eta) to 1e-13; the energy (dg_integrals) never
 *          grows in a step and the potential enstrophy is reported
 *   sphere_lake  the lake at rest over Williamson 5's mountain (a cone) on
 *          the sphere (--grid latlon) stays at rest to round-off (|eta -
 *          eta0| / eta0 and |m| / (eta0 sqrt(g eta0)) below 1e-13 after 300
 *          steps) on uniform, latitude and random maps; the same lake
 *          raised by 1 m in one element does move
 *   w2     Williamson 2 across the poles (alpha = pi/2 - 0.05), 6 hours:
 *          Williamson's normalised l2 error of h on 8 x 4 and 16 x 8
 *          elements (r = 1: 16 x 8 and 32 x 16), rates r + 1 (within 0.3) for r = 1..4; the mass of
 * h to 1e-13; the steady state's energy and enstrophy drift reported
 *   w6     Williamson 6 (Rossby-Haurwitz wave 4), 6 hours on 8 x 4, uniform
 *          degree 3 and the latitude map 1..3: the mass of h to 1e-13, the
 *          total energy falls in every step, by less than 1e-4 in all
 *          (the latitude map's rows of degree 1 and 2: 1e-2)
 *   maps   Williamson 2 (alpha = 0), one day on 16 x 8: the latitude maps
 *          2..3 and 1..3 take 1.3..1.45x and 2.1..2.4x the uniform degree
 *          3's mean step (the pole rows' 2r + 1); 2..3's l2 is 1..6x the
 *          uniform map's, 1..3's worse still
 *   team   the team update (DGRID_UPDATE=team) against the one-element
 *          update on the plane and the sphere, uniform and variable maps:
 *          the same coefficients to 1e-13 relative, mass to 1e-13, and the
 *          sphere's lake at rest to round-off
 * Usage: test_shallow_water CASE
 */
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_model.h"
#include "dg_test.h"
#include "dg_ts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *const *params; /* key, value, ..., NULL */
  int sphere;                /* --grid latlon: n rows, 2 n columns */
  int n, r;                  /* cells per direction, degree (map NULL) */
  const dg_degree_map *map;
  int walls;
  double t_end, cfl;
  int steps;     /* > 0: this many CFL steps instead of t_end */
  int no_energy; /* skip the energy after every step (no check reads its growth) */
} sw_case;

typedef struct {
  double l2, maxdev; /* L2 error over all variables; max |u - exact| at the Gauss points */
  double mass0, mass1;
  double energy0, energy_growth, enstrophy, energy1, enstrophy0;
  double l2_rel; /* Williamson's normalised l2 error of h (eta) */
  long steps;
  int team;       /* the discretisation ran the team update (dg_disc_team) */
  double *coeffs; /* keep_coeffs: by element, variable and mode (malloc'd) */
  long ncoeffs;
} sw_result;

static int keep_coeffs; /* run() keeps the final coefficients (test_team) */

static void make_grid(dg_grid *g, int n, int walls) {
  const int nn[3] = {n, n, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(g, 2, nn, lo, hi));
  if (walls) {
    const int bc[6] = {DG_BC_WALL, DG_BC_WALL, DG_BC_WALL, DG_BC_WALL, 0, 0};
    OK(dg_grid_set_bc(g, bc));
  }
}

/* Raise eta by `bump` in element e0 (coefficient 0: the mean). */
static void raise(const dg_disc *d, dg_field *u, long e0, double bump) {
  double c[3 * 121];
  OK(dg_element_coeffs(d, u, e0, c));
  c[0] += bump;
  OK(dg_element_set_coeffs(d, u, e0, c));
}

static void run(const sw_case *sc, double bump, sw_result *res) {
  dg_grid g;
  if (sc->sphere)
    OK(dg_grid_init_latlon(&g, 2 * sc->n, sc->n, 6.37122e6));
  else
    make_grid(&g, sc->n, sc->walls);
  dg_degree_map *own = NULL;
  const dg_degree_map *map = sc->map;
  if (!map) {
    OK(dg_degree_map_create_uniform(&own, &g, sc->r));
    map = own;
  }
  dg_model *m;
  OK(dg_model_create(&m, "shallow_water"));
  for (int i = 0; sc->params[i]; i += 2) OK(dg_model_set(m, sc->params[i], sc->params[i + 1]));
  dg_disc *d;
  OK(dg_disc_create(&d, dg_test_backend(), &g, map, 0, m));
  dg_model_destroy(&m);
  CHECK(dg_model_ninteg(dg_disc_model(d)) == 2, "shallow_water reports energy and enstrophy");
  dg_field *u;
  dg_ts *ts;
  OK(dg_field_create(&u, d));
  OK(dg_project_solution(d, u, 0.0));
  if (bump != 0) raise(d, u, g.nelem / 2 + sc->n / 2, bump);
  double mass[3], integ[2];
  OK(dg_mass(d, u, mass));
  res->mass0 = mass[0];
  OK(dg_integrals(d, u, integ));
  res->energy0 = integ[0];
  res->enstrophy0 = integ[1];
  res->energy_growth = -INFINITY;
  OK(dg_ts_create(&ts, d, DG_TS_LSRK4));
  double t = 0, e_prev = integ[0];
  res->steps = 0;
  for (;;) {
    if (sc->steps > 0 ? res->steps >= sc->steps : t >= sc->t_end * (1 - 1e-14)) break;
    double dt;
    OK(dg_disc_stable_dt(d, u, t, &dt));
    dt *= sc->cfl;
    if (sc->steps <= 0 && t + dt > sc->t_end) dt = sc->t_end - t;
    OK(dg_ts_step(ts, u, t, dt));
    t += dt;
    res->steps++;
    if (sc->no_energy) continue;
    OK(dg_integrals(d, u, integ));
    const double growth = (integ[0] - e_prev) / fabs(res->energy0);
    if (growth > res->energy_growth) res->energy_growth = growth;
    e_prev = integ[0];
  }
  OK(dg_integrals(d, u, integ));
  res->enstrophy = integ[1];
  res->energy1 = integ[0];
  OK(dg_mass(d, u, mass));
  res->mass1 = mass[0];
  double l2[3], linf[3], s2 = 0;
  OK(dg_error_norms(d, u, t, l2, linf));
  res->maxdev = 0;
  for (int v = 0; v < 3; ++v) {
    s2 += l2[v] * l2[v];
    res->maxdev = fmax(res->maxdev, linf[v]);
  }
  res->l2 = sqrt(s2);
  double n1[3], n2[3], ni[3];
  OK(dg_error_norms_rel(d, u, t, n1, n2, ni));
  res->l2_rel = n2[0];
  res->team = dg_disc_team(d);
  res->coeffs = NULL;
  res->ncoeffs = 0;
  if (keep_coeffs) { /* by element: the storage order depends on the path */
    res->coeffs = malloc(sizeof(double) * (size_t)dg_disc_ndofs(d));
    CHECK(res->coeffs != NULL, "out of memory");
    for (long e = 0; e < g.nelem && res->coeffs; ++e) {
      const int n1d = dg_disc_degrees(d)->deg[e] + 1;
      OK(dg_element_coeffs(d, u, e, res->coeffs + res->ncoeffs));
      res->ncoeffs += 3L * n1d * n1d;
    }
  }
  dg_ts_destroy(&ts);
  dg_field_destroy(&u);
  dg_disc_destroy(&d);
  dg_degree_map_destroy(&own);
}

/* ---- lake ---- */
static void test_lake(void) {
  static const char *const plain[] = {"case", "lake_at_rest", NULL};
  static const char *const beta[] = {"case", "lake_at_rest", "coriolis", "3,2",
                                     "bump", "0.6,0.15",     NULL};
  static const char *const linear[] = {"case", "lake_at_rest", "equations", "linear", NULL};
  dg_grid g;
  make_grid(&g, 12, 0);
  dg_degree_map *rnd;
  OK(dg_degree_map_create_random(&rnd, &g, 0, 4, 7));
  const struct {
    const char *what;
    sw_case c;
  } cases[] = {
      {"uniform r=3", {plain, 0, 12, 3, NULL, 0, 0, 0.3, 200, 1}},
      {"random 0..4", {plain, 0, 12, 0, rnd, 0, 0, 0.3, 200, 1}},
      {"walls r=4", {plain, 0, 12, 4, NULL, 1, 0, 0.3, 200, 1}},
      {"walls random 0..4, beta-plane", {beta, 0, 12, 0, rnd, 1, 0, 0.3, 200, 1}},
      {"linear r=2", {linear, 0, 12, 2, NULL, 0, 0, 0.3, 200, 1}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    sw_result res;
    run(&cases[k].c, 0, &res);
    const double dm = fabs(res.mass1 - res.mass0) / res.mass0;
    printf("lake at rest, %s: max |u - rest| %.2e after %ld steps, mass drift %.2e\n",
           cases[k].what, res.maxdev, res.steps, dm);
    CHECK(res.maxdev < 1e-12, "lake at rest (%s): max deviation %.2e", cases[k].what, res.maxdev);
    CHECK(dm < 1e-13, "lake at rest (%s): mass drift %.2e", cases[k].what, dm);
  }
  /* liveness: a raised lake moves, and the model's mass stays */
  sw_result res;
  run(&cases[0].c, 1e-3, &res);
  const double dm = fabs(res.mass1 - res.mass0) / res.mass0;
  printf("lake raised by 1e-3 in one element: max |u - rest| %.2e, mass drift %.2e\n", res.maxdev,
         dm);
  CHECK(res.maxdev > 1e-5, "the raised lake must move (max deviation %.2e)", res.maxdev);
  CHECK(dm < 1e-13, "raised lake: mass drift %.2e", dm);
  dg_degree_map_destroy(&rnd);
}

/* ---- wave ---- */
static void test_wave(void) {
  static const char *const params[] = {"case",     "gravity_wave", "wave", "1,2",
                                       "coriolis", "3,0",          NULL};
  static const int nc[] = {0, 8, 8, 6, 4, 4};
  for (int r = 1; r <= 5; ++r) {
    double e[2];
    for (int k = 0; k < 2; ++k) {
      /* LSRK4's error below the spatial one at r = 5: a smaller CFL there */
      sw_case c = {params, 0, nc[r] << k, r, NULL, 0, 0.1, r >= 4 ? 0.1 : 0.2, 0, 0};
      sw_result res;
      run(&c, 0, &res);
      e[k] = res.l2;
      const double dm = fabs(res.mass1 - res.mass0) / res.mass0;
      printf("gravity wave r=%d n=%d: L2 %.3e, mass drift %.2e, largest energy growth in a step "
             "%.2e (energy %.6e), enstrophy %.6e, %ld steps\n",
             r, c.n, e[k], dm, res.energy_growth, res.energy0, res.enstrophy, res.steps);
      CHECK(dm < 1e-13, "gravity wave r=%d: mass drift %.2e", r, dm);
      CHECK(res.energy_growth <= 1e-14, "gravity wave r=%d: the energy grew by %.2e in a step", r,
            res.energy_growth);
      CHECK(isfinite(res.enstrophy) && res.enstrophy > 0, "enstrophy %g", res.enstrophy);
    }
    const double rate = log2(e[0] / e[1]);
    printf("gravity wave r=%d: rate %.2f\n", r, rate);
    CHECK(fabs(rate - (r + 1)) <= 0.3, "gravity wave r=%d: rate %.2f, expected %d within 0.3", r,
          rate, r + 1);
  }
}

/* ---- the sphere ---- */
static void test_sphere_lake(void) {
  static const char *const params[] = {"case", "lake_at_rest", NULL};
  dg_grid g;
  OK(dg_grid_init_latlon(&g, 16, 8, 6.37122e6));
  dg_degree_map *lat, *rnd;
  OK(dg_degree_map_create_latitude(&lat, &g, 1, 4));
  OK(dg_degree_map_create_random(&rnd, &g, 0, 4, 3));
  const struct {
    const char *what;
    sw_case c;
  } cases[] = {
      {"uniform r=3", {params, 1, 8, 3, NULL, 0, 0, 0.3, 300, 1}},
      {"latitude 1..4", {params, 1, 8, 0, lat, 0, 0, 0.3, 300, 1}},
      {"random 0..4", {params, 1, 8, 0, rnd, 0, 0, 0.3, 300, 1}},
  };
  const double eta0 = 5960, mscale = eta0 * sqrt(9.80616 * eta0);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    sw_result res;
    run(&cases[k].c, 0, &res);
    const double dm = fabs(res.mass1 - res.mass0) / res.mass0;
    /* maxdev is over eta (m) and the momentum (m^2/s): the momentum's scale */
    printf("sphere lake at rest over the mountain, %s: max |u - rest| %.2e (%.2e of "
           "eta0 sqrt(g eta0)) after %ld steps, mass drift %.2e\n",
           cases[k].what, res.maxdev, res.maxdev / mscale, res.steps, dm);
    CHECK(res.maxdev / mscale < 1e-13, "sphere lake (%s): max deviation %.2e", cases[k].what,
          res.maxdev);
    CHECK(dm < 1e-13, "sphere lake (%s): mass drift %.2e", cases[k].what, dm);
  }
  sw_result res;
  run(&cases[0].c, 1.0, &res);
  printf("sphere lake raised by 1 m in one element: max |u - rest| %.2e\n", res.maxdev);
  CHECK(res.maxdev > 1e-3, "the raised lake must move (max deviation %.2e)", res.maxdev);
  dg_degree_map_destroy(&lat);
  dg_degree_map_destroy(&rnd);
}

static void test_w2(void) {
  static const char *const params[] = {"case", "williamson2", "alpha", "1.5207963267948966", NULL};
  static const int nc[] = {0, 8, 4, 4, 4}; /* rows of the coarser grid */
  for (int r = 1; r <= 4; ++r) {
    double e[2];
    for (int k = 0; k < 2; ++k) {
      sw_case c = {params, 1, nc[r] << k, r, NULL, 0, 21600, 0.3, 0, 1};
      sw_result res;
      run(&c, 0, &res);
      e[k] = res.l2_rel;
      const double dm = fabs(res.mass1 - res.mass0) / res.mass0;
      printf("williamson2 alpha=pi/2-0.05 r=%d %dx%d, 6 h: l2_rel %.3e, mass drift %.2e, energy "
             "drift %.2e, enstrophy drift %.2e, %ld steps\n",
             r, 2 * c.n, c.n, e[k], dm, (res.energy1 - res.energy0) / res.energy0,
             (res.enstrophy - res.enstrophy0) / res.enstrophy0, res.steps);
      CHECK(dm < 1e-13, "williamson2 r=%d: mass drift %.2e", r, dm);
    }
    const double rate = log2(e[0] / e[1]);
    printf("williamson2 r=%d: rate %.2f\n", r, rate);
    CHECK(fabs(rate - (r + 1)) <= 0.3, "williamson2 r=%d: rate %.2f, expected %d within 0.3", r,
          rate, r + 1);
  }
}

/* Williamson 6 (the Rossby-Haurwitz wave 4), 6 hours on 8 x 4: the mass of h
 * to round-off on the uniform and the latitude map; the Rusanov flux
 * dissipates, so the total energy falls, by a small amount (14 days on the
 * uniform map: docs/VALIDATION.md, "Shallow water"). */
static void test_w6(void) {
  static const char *const params[] = {"case", "williamson6", NULL};
  dg_grid g;
  OK(dg_grid_init_latlon(&g, 8, 4, 6.37122e6));
  dg_degree_map *lat;
  OK(dg_degree_map_create_latitude(&lat, &g, 1, 3));
  const struct {
    const char *what;
    sw_case c;
    double fall; /* the largest energy loss allowed (relative) */
  } cases[] = {
      {"uniform r=3", {params, 1, 4, 3, NULL, 0, 21600, 1.0, 0, 0}, 1e-4},
      /* rows of degree 1, 2, 2, 1: the low degrees dissipate more */
      {"latitude 1..3", {params, 1, 4, 0, lat, 0, 21600, 1.0, 0, 0}, 1e-2},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    sw_result res;
    run(&cases[k].c, 0, &res);
    const double dm = fabs(res.mass1 - res.mass0) / res.mass0;
    const double de = (res.energy1 - res.energy0) / res.energy0;
    printf("williamson6 %s, 6 h: mass drift %.2e, energy drift %.3e, enstrophy drift %.3e, "
           "largest energy growth in a step %.2e, %ld steps\n",
           cases[k].what, dm, de, (res.enstrophy - res.enstrophy0) / res.enstrophy0,
           res.energy_growth, res.steps);
    CHECK(dm < 1e-13, "williamson6 (%s): mass drift %.2e", cases[k].what, dm);
    CHECK(res.energy_growth < 0, "williamson6 (%s): the energy grew by %.2e in a step",
          cases[k].what, res.energy_growth);
    CHECK(de > -cases[k].fall, "williamson6 (%s): energy drift %.3e, expected above -%.0e",
          cases[k].what, de, cases[k].fall);
  }
  dg_degree_map_destroy(&lat);
}

/* The latitude degree maps against the uniform degree (Williamson 2, alpha =
 * 0, one day on 16 x 8, docs/VALIDATION.md "Degree maps at equal error"): the
 * pole rows set the stable step, so lowering their degree from 3 to 2 (to 1)
 * lengthens the mean step by about 7/5 (7/3), and costs accuracy there. */
static void test_maps(void) {
  static const char *const params[] = {"case", "williamson2", "alpha", "0", NULL};
  dg_grid g;
  OK(dg_grid_init_latlon(&g, 16, 8, 6.37122e6));
  dg_degree_map *lat2, *lat1;
  OK(dg_degree_map_create_latitude(&lat2, &g, 2, 3));
  OK(dg_degree_map_create_latitude(&lat1, &g, 1, 3));
  const sw_case cu = {params, 1, 8, 3, NULL, 0, 86400, 1.0, 0, 1};
  const sw_case c2 = {params, 1, 8, 0, lat2, 0, 86400, 1.0, 0, 1};
  const sw_case c1 = {params, 1, 8, 0, lat1, 0, 86400, 1.0, 0, 1};
  sw_result ru, r2, r1;
  run(&cu, 0, &ru);
  run(&c2, 0, &r2);
  run(&c1, 0, &r1);
  const double s2 = (double)ru.steps / r2.steps, s1 = (double)ru.steps / r1.steps;
  const double e2 = r2.l2_rel / ru.l2_rel, e1 = r1.l2_rel / ru.l2_rel;
  printf("williamson2 alpha=0, 1 day, 16x8: uniform 3 %ld steps l2_rel %.3e; latitude 2..3 %ld "
         "steps (step %.3fx) l2_rel %.3e (%.2fx); latitude 1..3 %ld steps (step %.3fx) l2_rel "
         "%.3e (%.2fx)\n",
         ru.steps, ru.l2_rel, r2.steps, s2, r2.l2_rel, e2, r1.steps, s1, r1.l2_rel, e1);
  CHECK(s2 > 1.3 && s2 < 1.45, "latitude 2..3: mean step %.3fx the uniform map's, expected ~1.4",
        s2);
  CHECK(s1 > 2.1 && s1 < 2.4, "latitude 1..3: mean step %.3fx the uniform map's, expected ~2.3",
        s1);
  CHECK(e2 > 1 && e2 < 6, "latitude 2..3: l2 %.2fx the uniform map's, expected in (1, 6)", e2);
  CHECK(e1 > e2, "latitude 1..3 (l2 %.2fx) must be worse than 2..3 (%.2fx)", e1, e2);
  dg_degree_map_destroy(&lat2);
  dg_degree_map_destroy(&lat1);
}

/* ---- the team update ---- */
/* Run c under DGRID_UPDATE=mode: the team flag and the coefficients in res. */
static void run_update(const sw_case *c, double bump, const char *mode, sw_result *res) {
  OK(setenv("DGRID_UPDATE", mode, 1) ? DG_ERR_ARG : 0);
  run(c, bump, res);
  unsetenv("DGRID_UPDATE");
  CHECK(res->team == !strcmp(mode, "team"), "DGRID_UPDATE=%s: team is %d", mode, res->team);
}

/* The team update (stencils/dg_team.h) reads the auxiliary data where the
 * one-element update does: both give the same coefficients to 1e-13
 * relative on the plane (a lake raised over the bump on a beta-plane, also
 * on a band map: traces at degree changes; the nonlinear jet) and the sphere
 * (Williamson 5 over the mountain, uniform q = r + 1: the row's mass at the
 * points; the latitude map: q > r + 1 in its low rows), and it keeps the
 * sphere's lake at rest to round-off (both sides of a face read the same
 * auxiliary bits).  Degrees 1 and 2 at q = 3 only: every case shares four
 * kernel units. */
static void test_team(void) {
  static const char *const lake[] = {"case", "lake_at_rest", NULL};
  static const char *const beta[] = {"case", "lake_at_rest", "coriolis", "3,2", NULL};
  static const char *const jet[] = {"case", "jet", NULL};
  static const char *const w5[] = {"case", "williamson5", NULL};
  dg_grid gp, gs;
  make_grid(&gp, 8, 0);
  OK(dg_grid_init_latlon(&gs, 16, 8, 6.37122e6));
  dg_degree_map *band, *lat;
  OK(dg_degree_map_create_band(&band, &gp, 1, 2));
  OK(dg_degree_map_create_latitude(&lat, &gs, 1, 2));
  const struct {
    const char *what;
    sw_case c;
    double bump;
  } cases[] = {
      {"plane, lake raised over the bump, beta-plane, r=2",
       {beta, 0, 8, 2, NULL, 0, 0, 0.3, 20, 1},
       1e-2},
      {"plane, the same, band 1..2", {beta, 0, 8, 0, band, 0, 0, 0.3, 20, 1}, 1e-2},
      {"plane, jet, r=2", {jet, 0, 8, 2, NULL, 0, 0, 0.3, 20, 1}, 0},
      {"sphere, williamson5, r=2", {w5, 1, 8, 2, NULL, 0, 0, 0.5, 20, 1}, 0},
      {"sphere, williamson5, latitude 1..2", {w5, 1, 8, 0, lat, 0, 0, 0.5, 20, 1}, 0},
  };
  double worst = 0;
  keep_coeffs = 1;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    sw_result re, rt;
    run_update(&cases[k].c, cases[k].bump, "element", &re);
    run_update(&cases[k].c, cases[k].bump, "team", &rt);
    CHECK(re.ncoeffs == rt.ncoeffs && re.ncoeffs > 0, "%s: %ld and %ld coefficients", cases[k].what,
          re.ncoeffs, rt.ncoeffs);
    const double rel = test_rel_l2(re.coeffs, rt.coeffs, re.ncoeffs == rt.ncoeffs ? re.ncoeffs : 0);
    const double dm = fabs(rt.mass1 - rt.mass0) / rt.mass0;
    printf("team against element update, %s, %ld steps: relative L2 difference %.2e, team mass "
           "drift %.2e\n",
           cases[k].what, rt.steps, rel, dm);
    CHECK(rel <= 1e-13, "%s: element and team updates differ by %.3e", cases[k].what, rel);
    CHECK(dm < 1e-13, "%s: team mass drift %.2e", cases[k].what, dm);
    if (rel > worst) worst = rel;
    free(re.coeffs);
    free(rt.coeffs);
  }
  /* the team keeps the sphere's lake at rest over the mountain (the
     latitude map: degree changes, q > r + 1) */
  keep_coeffs = 0;
  const sw_case rest = {lake, 1, 8, 0, lat, 0, 0, 0.3, 100, 1};
  const double eta0 = 5960, mscale = eta0 * sqrt(9.80616 * eta0);
  sw_result res;
  run_update(&rest, 0, "team", &res);
  printf("team update, sphere lake at rest, latitude 1..2: max |u - rest| %.2e of eta0 sqrt(g "
         "eta0) after %ld steps; element vs team largest difference %.2e\n",
         res.maxdev / mscale, res.steps, worst);
  CHECK(res.maxdev / mscale < 1e-13, "team, sphere lake: max deviation %.2e", res.maxdev);
  dg_degree_map_destroy(&band);
  dg_degree_map_destroy(&lat);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (!strcmp(which, "lake"))
    test_lake();
  else if (!strcmp(which, "wave"))
    test_wave();
  else if (!strcmp(which, "sphere_lake"))
    test_sphere_lake();
  else if (!strcmp(which, "w2"))
    test_w2();
  else if (!strcmp(which, "w6"))
    test_w6();
  else if (!strcmp(which, "maps"))
    test_maps();
  else if (!strcmp(which, "team"))
    test_team();
  else {
    fprintf(stderr, "usage: test_shallow_water lake|wave|sphere_lake|w2|w6|maps|team\n");
    return 2;
  }
  return dg_test_done(which);
}
