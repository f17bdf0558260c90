#define _POSIX_C_SOURCE 200809L /* setenv */
/* unit.team: the team update (stencils/dg_team.h, DGRID_UPDATE=team) and the
 * one-element update give the same coefficients to 1e-13 relative for every
 * uniform 2D degree 0..10, a velocity that needs x and one that does not,
 * and every integrator; the team update conserves mass to round-off; and
 * DGRID_UPDATE refuses what it cannot do with one message naming it. */
#include "dg_error.h"
#include "dg_test_run.h"

#include <stdlib.h>
#include <string.h>

/* Run c on the neighbours' coefficients with DGRID_UPDATE=mode. */
static void run_mode(const test_case *c, const char *mode, int want_team, double **out, long *n,
                     test_result *res) {
  OK(setenv("DGRID_UPDATE", mode, 1) ? DG_ERR_ARG : 0);
  int got;
  test_run_coeffs(c, res, dg_disc_team, &got, out, n);
  CHECK(got == want_team, "DGRID_UPDATE=%s: team is %d", mode, got);
}

int main(void) {
  double worst = 0;
  int cases = 0;
  OK(setenv("DGRID_NEIGHBOURS", "coeffs", 1) ? DG_ERR_ARG : 0);
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    for (int vel = 0; vel < 2; ++vel) {
      test_case c;
      const int n = 6;
      test_case_default(&c, 2, n, r);
      c.velocity = vel ? DG_VELOCITY_ROTATION : DG_VELOCITY_CONSTANT;
      c.beta[1] = -0.6;
      c.init = DG_INIT_PARABOLA; /* a non-zero mass */
      c.ts = (dg_ts_kind)((r + vel) % DG_TS_COUNT);
      c.steps = 12;
      c.dt = 0.3 / n / (2 * r + 1);
      double *a, *b;
      long na, nb;
      test_result ra, rb;
      run_mode(&c, "element", 0, &a, &na, &ra);
      run_mode(&c, "team", 1, &b, &nb, &rb);
      CHECK(na == nb, "r %d: %ld and %ld coefficients", r, na, nb);
      const double rel = test_rel_l2(a, b, na == nb ? na : 0);
      const double drift = fabs(rb.mass1 - rb.mass0) / fabs(rb.mass0);
      CHECK(rel <= 1e-13, "r %d %s %s: element and team updates differ by %.3e", r,
            vel ? "rotation" : "constant", dg_ts_name(c.ts), rel);
      CHECK(drift < 1e-13, "r %d %s: team mass drift %.3e", r, dg_ts_name(c.ts), drift);
      if (rel > worst) worst = rel;
      cases++;
      free(a);
      free(b);
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
  dg_model_params mp;
  memset(&mp, 0, sizeof mp);
  mp.velocity = DG_VELOCITY_CONSTANT;
  mp.beta[0] = 1;
  const char *want = "DGRID_UPDATE=team needs a 2D grid whose updates read the neighbours' "
                     "coefficients (a uniform degree map, q = degree + 1; see DGRID_NEIGHBOURS)";
  dg_disc *d = NULL;
  OK(setenv("DGRID_UPDATE", "team", 1) ? DG_ERR_ARG : 0);
  unsetenv("DGRID_NEIGHBOURS");
  CHECK(dg_disc_create(&d, &g2, band, 0, &mp) == DG_ERR_ARG && d == NULL,
        "team on a band map was accepted");
  CHECK(strcmp(dg_error_message(), want) == 0, "message: %s", dg_error_message());
  OK(setenv("DGRID_NEIGHBOURS", "coeffs", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, &g3, uni3, 0, &mp) == DG_ERR_ARG && d == NULL,
        "team in 3D was accepted");
  CHECK(strcmp(dg_error_message(), want) == 0, "message: %s", dg_error_message());
  OK(setenv("DGRID_NEIGHBOURS", "traces", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, &g2, uni, 0, &mp) == DG_ERR_ARG && d == NULL,
        "team on traces was accepted");
  CHECK(strcmp(dg_error_message(), want) == 0, "message: %s", dg_error_message());
  OK(setenv("DGRID_UPDATE", "Team", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, &g2, uni, 0, &mp) == DG_ERR_ARG && d == NULL,
        "DGRID_UPDATE=Team was accepted");
  CHECK(strcmp(dg_error_message(), "DGRID_UPDATE='Team': expected element, team or auto") == 0,
        "message: %s", dg_error_message());
  /* auto: never a team on traces */
  OK(setenv("DGRID_UPDATE", "auto", 1) ? DG_ERR_ARG : 0);
  OK(dg_disc_create(&d, &g2, uni, 0, &mp));
  CHECK(dg_disc_team(d) == 0, "auto on traces: team");
  dg_disc_destroy(&d);
  unsetenv("DGRID_NEIGHBOURS");
  unsetenv("DGRID_UPDATE");
  dg_degree_map_destroy(&band);
  dg_degree_map_destroy(&uni);
  dg_degree_map_destroy(&uni3);
  return dg_test_done("team");
}
