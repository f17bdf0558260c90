/* unit.fv_r0: degree 0 everywhere is first-order upwind finite volumes; the
 * FV scheme is written out by hand here and both must agree to round-off
 * (forward Euler and classical RK4, skewed velocity, non-square cells). */
#include "dg_test_run.h"

#include <string.h>

enum { NX = 16, NY = 12 };

/* L(u) of first-order upwind FV on the periodic NX x NY grid */
static void fv_rhs(const double *u, double *L, double bx, double by, double hx, double hy) {
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i) {
      const int ip = (i + 1) % NX, im = (i + NX - 1) % NX, jp = (j + 1) % NY,
                jm = (j + NY - 1) % NY;
      const double c = u[i + NX * j];
      /* upwind flux through each face, in the + direction */
      const double fe = bx > 0 ? bx * c : bx * u[ip + NX * j];
      const double fw = bx > 0 ? bx * u[im + NX * j] : bx * c;
      const double fn = by > 0 ? by * c : by * u[i + NX * jp];
      const double fs = by > 0 ? by * u[i + NX * jm] : by * c;
      L[i + NX * j] = -(fe - fw) / hx - (fn - fs) / hy;
    }
}

int main(void) {
  const double bx = 1.3, by = -0.7;
  for (int rk = 0; rk < 2; ++rk)
    for (int q = 1; q <= 3; q += 2) {
      test_case c;
      test_case_default(&c, 2, 0, 0);
      c.n[0] = NX;
      c.n[1] = NY;
      c.hi[0] = 2.0;
      c.hi[1] = 0.75;
      c.q = q;
      c.beta[0] = bx;
      c.beta[1] = by;
      c.init = TEST_INIT_BELL;
      c.ts = rk ? DG_TS_RK4 : DG_TS_EULER;
      c.steps = 0;
      c.dt = 0.3 * (2.0 / NX) / 1.3 / 2;
      test_result res;
      dg_disc *d;
      dg_field *u;
      test_run(&c, &res, &d, &u);
      /* the FV state starts from the DG cell means */
      double v[NX * NY], w[NX * NY], k[4][NX * NY];
      for (long e = 0; e < NX * NY; ++e) OK(dg_element_coeffs(d, u, e, &v[e]));
      dg_ts *ts;
      OK(dg_ts_create(&ts, d, c.ts));
      const double hx = 2.0 / NX, hy = 0.75 / NY, dt = c.dt;
      for (int s = 0; s < 60; ++s) {
        OK(dg_ts_step(ts, u, s * dt, dt));
        if (!rk) {
          fv_rhs(v, k[0], bx, by, hx, hy);
          for (int i = 0; i < NX * NY; ++i) v[i] += dt * k[0][i];
        } else {
          const double a[4] = {0, 0.5, 0.5, 1};
          for (int st = 0; st < 4; ++st) {
            for (int i = 0; i < NX * NY; ++i) w[i] = v[i] + (st ? a[st] * dt * k[st - 1][i] : 0);
            fv_rhs(w, k[st], bx, by, hx, hy);
          }
          for (int i = 0; i < NX * NY; ++i)
            v[i] += dt / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
        }
      }
      double worst = 0, scale = 0;
      for (long e = 0; e < NX * NY; ++e) {
        double cf;
        OK(dg_element_coeffs(d, u, e, &cf));
        if (fabs(cf - v[e]) > worst) worst = fabs(cf - v[e]);
        if (fabs(v[e]) > scale) scale = fabs(v[e]);
      }
      printf("%s, q=%d: max |DG r=0 - FV| = %.3e (max |u| %.3f)\n", rk ? "rk4" : "euler", q, worst,
             scale);
      CHECK(worst <= 1e-13 * scale, "%s q=%d: DG r=0 differs from upwind FV by %.3e",
            rk ? "rk4" : "euler", q, worst);
      CHECK(scale > 0.1, "the test moved no mass (max |u| = %g)", scale);
      dg_ts_destroy(&ts);
      dg_field_destroy(&u);
      dg_disc_destroy(&d);
    }
  return dg_test_done("fv_r0");
}
