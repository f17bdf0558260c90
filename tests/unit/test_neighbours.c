#define _POSIX_C_SOURCE 200809L /* setenv */
/* unit.neighbours: the two ways an update can see its neighbours (face
 * traces, or the neighbours' coefficients: DGRID_NEIGHBOURS) give the same
 * coefficients to 1e-13 relative for every uniform degree, both dimensions,
 * a velocity that needs x and one that does not, and every integrator; the
 * coefficient path conserves mass to round-off; and DGRID_NEIGHBOURS refuses
 * what it cannot do with one message naming the variable. */
#include "dg_error.h"
#include "dg_test_run.h"

#include <stdlib.h>
#include <string.h>

/* Run c with DGRID_NEIGHBOURS=mode; the final coefficients into *out. */
static void run_mode(const test_case *c, const char *mode, int want_coeffs, double **out, long *n,
                     test_result *res) {
  OK(setenv("DGRID_NEIGHBOURS", mode, 1) ? DG_ERR_ARG : 0);
  int got;
  test_run_coeffs(c, res, dg_disc_nbr_coeffs, &got, out, n);
  CHECK(got == want_coeffs, "DGRID_NEIGHBOURS=%s: nbr_coeffs is %d", mode, got);
}

int main(void) {
  double worst = 0;
  int cases = 0;
  for (int dim = 2; dim <= 3; ++dim)
    for (int r = 0; r <= (dim == 2 ? 7 : 4); ++r)
      for (int vel = 0; vel < 2; ++vel) {
        test_case c;
        const int n = dim == 2 ? 6 : 3;
        test_case_default(&c, dim, n, r);
        c.velocity = vel ? DG_VELOCITY_ROTATION : DG_VELOCITY_CONSTANT;
        c.beta[1] = -0.6;
        c.beta[2] = 0.3;
        c.init = TEST_INIT_PARABOLA; /* a non-zero mass */
        c.ts = (dg_ts_kind)((r + vel) % DG_TS_COUNT);
        c.steps = 12;
        c.dt = 0.3 / n / (2 * r + 1);
        double *a, *b;
        long na, nb;
        test_result ra, rb;
        run_mode(&c, "traces", 0, &a, &na, &ra);
        run_mode(&c, "coeffs", 1, &b, &nb, &rb);
        CHECK(na == nb, "dim %d r %d: %ld and %ld coefficients", dim, r, na, nb);
        const double rel = test_rel_l2(a, b, na == nb ? na : 0);
        const double drift = fabs(rb.mass1 - rb.mass0) / fabs(rb.mass0);
        CHECK(rel <= 1e-13, "dim %d r %d %s %s: traces and coeffs differ by %.3e", dim, r,
              vel ? "rotation" : "constant", dg_ts_name(c.ts), rel);
        CHECK(drift < 1e-13, "dim %d r %d %s: coeffs mass drift %.3e", dim, r, dg_ts_name(c.ts),
              drift);
        if (rel > worst) worst = rel;
        cases++;
        free(a);
        free(b);
      }
  printf("%d cases: traces vs coeffs largest relative L2 difference %.3e\n", cases, worst);

  /* what DGRID_NEIGHBOURS refuses */
  dg_grid g;
  dg_degree_map *band, *uni;
  dg_model *mp;
  test_refusal_setup(&g, 4, 4, &band, &uni, &mp, DG_VELOCITY_CONSTANT);
  dg_disc *d = NULL;
  /* the one-element update (own q would take the team: unit.own_q) */
  OK(setenv("DGRID_OWN_Q", "off", 1) ? DG_ERR_ARG : 0);
  OK(setenv("DGRID_NEIGHBOURS", "coeffs", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, dg_test_backend(), &g, band, 0, mp) == DG_ERR_ARG && d == NULL,
        "coeffs on a band map was accepted");
  char want[192];
  snprintf(want, sizeof want,
           "DGRID_NEIGHBOURS=coeffs needs a uniform degree map and q = degree + 1, or the team "
           "update (this one has degrees %d..%d, q = %d)",
           band->rmin, band->rmax, band->rmax + 1);
  CHECK(band->rmin < band->rmax && strcmp(dg_error_message(), want) == 0, "message: %s",
        dg_error_message());
  OK(setenv("DGRID_NEIGHBOURS", "Coeffs", 1) ? DG_ERR_ARG : 0);
  CHECK(dg_disc_create(&d, dg_test_backend(), &g, uni, 0, mp) == DG_ERR_ARG && d == NULL,
        "DGRID_NEIGHBOURS=Coeffs was accepted");
  CHECK(strcmp(dg_error_message(), "DGRID_NEIGHBOURS='Coeffs': expected traces, coeffs or auto") ==
            0,
        "message: %s", dg_error_message());
  /* auto: the backend's choice, and a band map at q < 5 uses traces on both backends */
  OK(setenv("DGRID_NEIGHBOURS", "auto", 1) ? DG_ERR_ARG : 0);
  OK(dg_disc_create(&d, dg_test_backend(), &g, band, 0, mp));
  CHECK(dg_disc_nbr_coeffs(d) == 0, "auto on a band map: nbr_coeffs");
  dg_disc_destroy(&d);
  unsetenv("DGRID_NEIGHBOURS");
  unsetenv("DGRID_OWN_Q");
  dg_degree_map_destroy(&band);
  dg_degree_map_destroy(&uni);
  dg_model_destroy(&mp);
  return dg_test_done("neighbours");
}
