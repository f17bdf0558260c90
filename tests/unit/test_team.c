#define _POSIX_C_SOURCE 200809L /* setenv */
/* unit.team: the team update (stencils/dg_team.h, DGRID_UPDATE=team) and the
 * one-element update give the same coefficients to 1e-13 relative
 *  - for every uniform 2D degree 0..10 (both on the neighbours'
 *    coefficients),
 *  - for band and random degree maps and a uniform map with q > degree + 1
 *    (the one-element update on traces; the team update on the neighbours'
 *    coefficients and, across degree changes, traces),
 * each with a velocity that needs x and one that does not, over every
 * integrator; the team update conserves mass to round-off; and
 * DGRID_UPDATE refuses what it cannot do with one message naming it. */
#include "dg_error.h"
#include "dg_test_run.h"

#include <stdlib.h>
#include <string.h>

/* Run c with DGRID_NEIGHBOURS=nbr and DGRID_UPDATE=mode. */
static void run_mode(const test_case *c, const char *nbr, const char *mode, int want_team,
                     double **out, long *n, test_result *res) {
  OK(setenv("DGRID_NEIGHBOURS", nbr, 1) ? DG_ERR_ARG : 0);
  OK(setenv("DGRID_UPDATE", mode, 1) ? DG_ERR_ARG : 0);
  int got;
  test_run_coeffs(c, res, dg_disc_team, &got, out, n);
  CHECK(got == want_team, "DGRID_UPDATE=%s: team is %d", mode, got);
}

/* Element update (DGRID_NEIGHBOURS=enbr) against the team update on c:
 * their relative difference, after checking it and the team's mass. */
static double compare(const test_case *c, const char *what, const char *enbr) {
  double *a, *b;
  long na, nb;
  test_result ra, rb;
  run_mode(c, enbr, "element", 0, &a, &na, &ra);
  run_mode(c, "coeffs", "team", 1, &b, &nb, &rb);
  CHECK(na == nb, "%s: %ld and %ld coefficients", what, na, nb);
  const double rel = test_rel_l2(a, b, na == nb ? na : 0);
  const double drift = fabs(rb.mass1 - rb.mass0) / fabs(rb.mass0);
  CHECK(rel <= 1e-13, "%s %s %s: element and team updates differ by %.3e", what,
        c->velocity == DG_VELOCITY_ROTATION ? "rotation" : "constant", dg_ts_name(c->ts), rel);
  CHECK(drift < 1e-13, "%s %s: team mass drift %.3e", what, dg_ts_name(c->ts), drift);
  free(a);
  free(b);
  return rel;
}

int main(void) {
  double worst = 0;
  int cases = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    for (int vel = 0; vel < 2; ++vel) {
      test_case c;
      const int n = 6;
      test_case_default(&c, 2, n, r);
      c.velocity = vel ? DG_VELOCITY_ROTATION : DG_VELOCITY_CONSTANT;
      c.beta[1] = -0.6;
      c.init = TEST_INIT_PARABOLA; /* a non-zero mass */
      c.ts = (dg_ts_kind)((r + vel) % DG_TS_COUNT);
      c.steps = 12;
      c.dt = 0.3 / n / (2 * r + 1);
      char what[32];
      snprintf(what, sizeof what, "uniform %d", r);
      const double rel = compare(&c, what, "coeffs");
      if (rel > worst) worst = rel;
      cases++;
    }
  /* degree changes: band 1..4 and 0..7, random 0..5 (q = rmax + 1), and
     uniform 2 at q = 6 (no change, but q > degree + 1) */
  const int nx = 9, ny = 16; /* a row for each band of 0..7; microblocks across rows */
  dg_grid gv;
  const int nv[3] = {nx, ny, 1};
  const double lov[3] = {0, 0, 0}, hiv[3] = {1, 1, 1};
  OK(dg_grid_init(&gv, 2, nv, lov, hiv));
  for (int kind = 0; kind < 4; ++kind)
    for (int vel = 0; vel < 2; ++vel) {
      dg_degree_map *m;
      char what[48];
      if (kind == 0) OK(dg_degree_map_create_band(&m, &gv, 1, 4));
      if (kind == 1) OK(dg_degree_map_create_band(&m, &gv, 0, 7));
      if (kind == 2) OK(dg_degree_map_create_random(&m, &gv, 0, 5, 7));
      if (kind == 3) OK(dg_degree_map_create_uniform(&m, &gv, 2));
      snprintf(what, sizeof what, "%s %d..%d%s", kind == 2 ? "random" : "band", m->rmin, m->rmax,
               kind == 3 ? " q 6" : "");
      test_case c;
      test_case_default(&c, 2, nx, 0);
      for (int d = 0; d < 2; ++d) c.n[d] = nv[d];
      c.map = m;
      c.q = kind == 3 ? 6 : 0;
      c.velocity = vel ? DG_VELOCITY_ROTATION : DG_VELOCITY_CONSTANT;
      c.beta[1] = -0.6;
      c.init = TEST_INIT_PARABOLA;
      c.ts = (dg_ts_kind)((kind + 3 * vel) % DG_TS_COUNT);
      c.steps = 10;
      c.dt = 0.3 / ny / (2 * m->rmax + 1);
      const double rel = compare(&c, what, "traces");
      if (rel > worst) worst = rel;
      cases++;
      dg_degree_map_destroy(&m);
    }
  printf("%d cases: element vs team largest relative L2 difference %.3e\n", cases, worst);

  /* what DGRID_UPDATE refuses */
  dg_grid g2, g3;
  const int n[3] = {4, 4, 4};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g2, 2, n, lo, hi));
  OK(dg_grid_init(&g3, 3, n, lo, hi));
  dg_degree_map *band, *uni, *uni3;
  OK(dg_degree_map_create_band(&band, &g2, 1, 3));
  OK(dg_degree_map_create_uniform(&uni, &g2, 2));
  OK(dg_degree_map_create_uniform(&uni3, &g3, 2));
  dg_model *mp = test_velocity_model(DG_VELOCITY_CONSTANT);
  dg_disc *d = NULL;
  /* a band map: the team update, on coefficients and traces */
  OK(setenv("DGRID_UPDATE", "team", 1) ? DG_ERR_ARG : 0);
  unsetenv("DGRID_NEIGHBOURS");
  OK(dg_disc_create(&d, dg_test_backend(), &g2, band, 0, mp));
  CHECK(dg_disc_team(d) && dg_disc_nbr_coeffs(d) && dg_disc_nbr_traces(d),
        "band map, team: team %d coeffs %d traces %d", dg_disc_team(d), dg_disc_nbr_coeffs(d),
        dg_disc_nbr_traces(d));
  dg_disc_destroy(&d);
  OK(dg_disc_create(&d, dg_test_backend(), &g2, uni, 0, mp));
  CHECK(dg_disc_team(d) && !dg_disc_nbr_traces(d), "uniform map, team: traces");
  dg_disc_destroy(&d);
  dg_model *mp3 = test_velocity_model_dim(DG_VELOCITY_CONSTANT, 3);
  CHECK(dg_disc_create(&d, dg_test_backend(), &g3, uni3, 0, mp3) == DG_ERR_ARG && d == NULL,
        "team in 3D was accepted");
  dg_model_destroy(&mp3);
  CHECK(strcmp(dg_error_message(), "DGRID_UPDATE=team needs a 2D grid") == 0, "message: %s",
        dg_error_message());
  OK(setenv("DGRID_NEIGHBOURS", "traces", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, dg_test_backend(), &g2, uni, 0, mp) == DG_ERR_ARG && d == NULL,
        "team on traces was accepted");
  CHECK(strcmp(dg_error_message(),
               "DGRID_UPDATE=team reads the neighbours' coefficients: it cannot run with "
               "DGRID_NEIGHBOURS=traces") == 0,
        "message: %s", dg_error_message());
  OK(setenv("DGRID_UPDATE", "Team", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, dg_test_backend(), &g2, uni, 0, mp) == DG_ERR_ARG && d == NULL,
        "DGRID_UPDATE=Team was accepted");
  CHECK(strcmp(dg_error_message(), "DGRID_UPDATE='Team': expected element, team or auto") == 0,
        "message: %s", dg_error_message());
  /* the one-element update reads coefficients only on a uniform map */
  OK(setenv("DGRID_UPDATE", "element", 1) ? DG_ERR_ARG : 0);
  OK(setenv("DGRID_NEIGHBOURS", "coeffs", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, dg_test_backend(), &g2, band, 0, mp) == DG_ERR_ARG && d == NULL,
        "element update on coefficients of a band map was accepted");
  char want[192];
  snprintf(want, sizeof want,
           "DGRID_NEIGHBOURS=coeffs needs a uniform degree map and q = degree + 1, or the team "
           "update (this one has degrees %d..%d, q = %d)",
           band->rmin, band->rmax, band->rmax + 1);
  CHECK(strcmp(dg_error_message(), want) == 0, "message: %s", dg_error_message());
  /* auto: never a team on traces, whatever the backend's choice */
  OK(setenv("DGRID_UPDATE", "auto", 1) ? DG_ERR_ARG : 0);
  OK(setenv("DGRID_NEIGHBOURS", "traces", 1) ? DG_ERR_ARG : 0);
  OK(dg_disc_create(&d, dg_test_backend(), &g2, uni, 0, mp));
  CHECK(dg_disc_team(d) == 0, "auto on traces: team");
  dg_disc_destroy(&d);
  unsetenv("DGRID_NEIGHBOURS");
  unsetenv("DGRID_UPDATE");
  dg_degree_map_destroy(&band);
  dg_degree_map_destroy(&uni);
  dg_degree_map_destroy(&uni3);
  dg_model_destroy(&mp);
  return dg_test_done("team");
}
