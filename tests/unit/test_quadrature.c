/* unit.quadrature: Gauss rules exact to round-off for degree 2Q-1; Legendre
 * orthogonality (the diagonal mass matrix entries 2/(2a+1)); derivatives and
 * face values; projection reproduces polynomials of degree <= r exactly. */
#include "dg_quadrature.h"
#include "dg_test_run.h"

static double poly_ctx_eval(const double x[3], int v, void *ctx) {
  (void)v;
  const int r = *(const int *)ctx;
  /* a product of degree-r polynomials in x and y (and z): in Q_r exactly */
  double p = 1;
  for (int d = 0; d < 3; ++d) {
    double t = 0, xp = 1;
    for (int a = 0; a <= r; ++a) {
      t += (0.3 + 0.1 * a - 0.05 * d) * xp;
      xp *= x[d] - 0.37;
    }
    p *= t;
  }
  return p;
}

int main(void) {
  double x[64], w[64], P[16 * 64], D[16 * 64];
  for (int q = 1; q <= 20; ++q) {
    const int check_sharp = q <= 8; /* the x^(2q) error is below 1e-6 beyond */
    OK(dg_gauss_legendre(q, x, w));
    for (int k = 0; k <= 2 * q - 1; ++k) {
      double s = 0;
      for (int i = 0; i < q; ++i) s += w[i] * pow(x[i], k);
      const double exact = k % 2 ? 0.0 : 2.0 / (k + 1);
      CHECK_CLOSE(s, exact, 2e-15, 2e-15, "Gauss rule on monomial");
    }
    /* one degree more is not exact: the rule is no stronger than claimed */
    double s = 0;
    for (int i = 0; i < q; ++i) s += w[i] * pow(x[i], 2 * q);
    CHECK(!check_sharp || fabs(s - 2.0 / (2 * q + 1)) > 1e-6, "q=%d integrates x^%d exactly?", q,
          2 * q);
  }
  /* orthogonality with Q = 12 points: sum w P_a P_b = delta 2/(2a+1) */
  const int q = DG_MAX_Q;
  OK(dg_gauss_legendre(q, x, w));
  OK(dg_legendre_table(q - 1, q, x, P, D));
  for (int a = 0; a < q; ++a)
    for (int b = 0; b < q; ++b) {
      double s = 0;
      for (int i = 0; i < q; ++i) s += w[i] * P[a * q + i] * P[b * q + i];
      CHECK_CLOSE(s, a == b ? 2.0 / (2 * a + 1) : 0.0, 1e-14, 1e-14, "orthogonality");
    }
  /* derivatives: (x^2-1) P_n' = n (x P_n - P_{n-1}) */
  for (int n = 1; n < q; ++n)
    for (int i = 0; i < q; ++i) {
      const double lhs = (x[i] * x[i] - 1) * D[n * q + i];
      const double rhs = n * (x[i] * P[n * q + i] - P[(n - 1) * q + i]);
      CHECK_CLOSE(lhs, rhs, 1e-12, 1e-12, "derivative identity");
    }
  /* face values and end-point derivatives */
  const double ends[2] = {-1, 1};
  double Pe[16 * 2], De[16 * 2];
  OK(dg_legendre_table(DG_MAX_DEGREE, 2, ends, Pe, De));
  for (int a = 0; a <= DG_MAX_DEGREE; ++a) {
    CHECK(Pe[a * 2] == (a % 2 ? -1.0 : 1.0), "P_%d(-1) = %g", a, Pe[a * 2]);
    CHECK(Pe[a * 2 + 1] == 1.0, "P_%d(1) = %g", a, Pe[a * 2 + 1]);
    CHECK_CLOSE(De[a * 2 + 1], 0.5 * a * (a + 1), 0, 1e-15, "P'(1)");
  }
  /* bad input: one message each */
  CHECK(dg_gauss_legendre(0, x, w) == DG_ERR_ARG, "q = 0 accepted");
  const double out[1] = {1.5};
  CHECK(dg_legendre_table(3, 1, out, P, NULL) == DG_ERR_ARG, "point outside [-1,1] accepted");

  /* projection of a Q_r polynomial is exact, every degree, 2D and 3D */
  for (int dim = 2; dim <= 3; ++dim)
    for (int r = 0; r <= (dim == 2 ? DG_MAX_DEGREE : 4); ++r) {
      dg_grid g;
      const int n[3] = {3, 2, 2};
      const double lo[3] = {-0.5, 0.25, 1.0}, hi[3] = {1.0, 1.5, 2.0};
      OK(dg_grid_init(&g, dim, n, lo, hi));
      dg_degree_map *m;
      OK(dg_degree_map_create_uniform(&m, &g, r));
      dg_model *mp;
      OK(dg_model_create(&mp, "advection"));
      dg_disc *d;
      OK(dg_disc_create(&d, dg_test_backend(), &g, m, 0, mp));
      dg_model_destroy(&mp);
      dg_field *u;
      OK(dg_field_create(&u, d));
      OK(dg_project(d, u, poly_ctx_eval, &r));
      /* sample at points that are not quadrature points */
      const double xs[3] = {-0.9, 0.13, 0.77};
      double vals[2 * 3 * 2 * 27];
      OK(dg_sample(d, u, 3, xs, vals));
      double maxerr = 0;
      for (long e = 0; e < g.nelem; ++e) {
        int ijk[3];
        dg_grid_ijk(&g, e, ijk);
        const int np = dim == 3 ? 27 : 9;
        for (int p = 0; p < np; ++p) {
          const int k[3] = {p % 3, (p / 3) % 3, p / 9};
          double xx[3] = {0, 0, 0};
          for (int t = 0; t < dim; ++t) xx[t] = lo[t] + (ijk[t] + 0.5 + 0.5 * xs[k[t]]) * g.h[t];
          const double ex = poly_ctx_eval(xx, 0, &r);
          const double er = fabs(vals[e * np + p] - ex) / (1 + fabs(ex));
          if (er > maxerr) maxerr = er;
        }
      }
      CHECK(maxerr < 1e-12, "dim %d degree %d: projection error %.3e", dim, r, maxerr);
      dg_field_destroy(&u);
      dg_disc_destroy(&d);
      dg_degree_map_destroy(&m);
    }
  return dg_test_done("quadrature");
}
