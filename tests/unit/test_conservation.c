/* unit.conservation: total mass changes by < 1e-13 relative over 1000 steps on
 * a random degree map with jumps (constant and rotating velocity).
 * unit.constant_state: a constant stays constant to round-off under any map. */
#include "dg_test_run.h"

#include <string.h>

int main(int argc, char **argv) {
  const int which = argc > 1 ? atoi(argv[1]) : 0; /* 0 conservation, 1 constant state */
  for (int dim = 2; dim <= 3; ++dim)
    for (int vel = 0; vel < 2; ++vel) {
      test_case c;
      const int n = dim == 2 ? 16 : 6;
      test_case_default(&c, dim, n, 0);
      c.lo[0] = -0.5;
      c.hi[0] = 1.5; /* non-unit box */
      c.velocity = vel ? DG_VELOCITY_ROTATION : DG_VELOCITY_CONSTANT;
      c.beta[0] = 1.0;
      c.beta[1] = -0.6;
      c.beta[2] = 0.3;
      c.omega = 2.0;
      dg_grid g;
      OK(dg_grid_init(&g, dim, c.n, c.lo, c.hi));
      dg_degree_map *m;
      OK(dg_degree_map_create_random(&m, &g, 0, dim == 2 ? 6 : 3, 7));
      c.map = m;
      c.init = which ? TEST_INIT_CONSTANT : TEST_INIT_PARABOLA;
      c.ts = DG_TS_SSPRK3;
      c.steps = which ? 200 : 1000;
      c.dt = 0.2 / n / (2 * 6 + 1);
      test_result res;
      dg_disc *d;
      dg_field *u;
      test_run(&c, &res, &d, &u);
      if (which == 0) {
        const double drift = fabs(res.mass1 - res.mass0) / fabs(res.mass0);
        printf("dim %d velocity %s: mass %.17g -> %.17g, relative drift %.3e\n", dim,
               vel ? "rotation" : "constant", res.mass0, res.mass1, drift);
        CHECK(drift < 1e-13, "dim %d vel %d: mass drift %.3e", dim, vel, drift);
      } else {
        /* every mean is 1 and every higher mode 0 */
        double worst = 0;
        for (long e = 0; e < g.nelem; ++e) {
          double cf[4096];
          OK(dg_element_coeffs(d, u, e, cf));
          const long M = (long)pow(m->deg[e] + 1, dim);
          for (long k = 0; k < M; ++k) {
            const double err = fabs(cf[k] - (k == 0 ? 1.0 : 0.0));
            if (err > worst) worst = err;
          }
        }
        printf("dim %d velocity %s: largest deviation from the constant %.3e\n", dim,
               vel ? "rotation" : "constant", worst);
        CHECK(worst < 1e-12, "dim %d vel %d: constant state drifts by %.3e", dim, vel, worst);
      }
      dg_field_destroy(&u);
      dg_disc_destroy(&d);
      dg_degree_map_destroy(&m);
    }
  return dg_test_done(which ? "constant_state" : "conservation");
}
