/* dg_quadrature.c - Gauss-Legendre rules and Legendre tables from GSL.
 * GSL's abort-on-error handler is switched off; every status is checked. */
#include "dg_quadrature.h"

#include "dg_error.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_legendre.h>
#include <math.h>
#include <stdlib.h>

#define DG_QUAD_MAXQ 64
#define DG_LEG_MAXR  64

int dg_gauss_legendre(int q, double *x, double *w) {
  if (q < 1 || q > DG_QUAD_MAXQ)
    return dg_error(DG_ERR_ARG, "Gauss-Legendre: %d points requested, need 1..%d", q, DG_QUAD_MAXQ);
  gsl_set_error_handler_off();
  gsl_integration_glfixed_table *t = gsl_integration_glfixed_table_alloc((size_t)q);
  if (!t) return dg_error(DG_ERR_LIB, "gsl_integration_glfixed_table_alloc(%d) failed", q);
  for (int i = 0; i < q; ++i) {
    double xi, wi;
    int st = gsl_integration_glfixed_point(-1.0, 1.0, (size_t)i, &xi, &wi, t);
    if (st != GSL_SUCCESS) {
      gsl_integration_glfixed_table_free(t);
      return dg_error(DG_ERR_LIB, "gsl_integration_glfixed_point(%d of %d): %s", i, q,
                      gsl_strerror(st));
    }
    x[i] = xi;
    w[i] = wi;
  }
  gsl_integration_glfixed_table_free(t);
  for (int i = 1; i < q; ++i)
    if (!(x[i] > x[i - 1]))
      return dg_error(DG_ERR_NUMERIC, "Gauss-Legendre: nodes of the %d-point rule not ascending",
                      q);
  return 0;
}

int dg_legendre_table(int rmax, int np, const double *x, double *P, double *dP) {
  if (rmax < 0 || rmax > DG_LEG_MAXR)
    return dg_error(DG_ERR_ARG, "Legendre table: degree %d outside 0..%d", rmax, DG_LEG_MAXR);
  if (np < 0) return dg_error(DG_ERR_ARG, "Legendre table: %d points", np);
  gsl_set_error_handler_off();
  double val[DG_LEG_MAXR + 1], der[DG_LEG_MAXR + 1];
  for (int k = 0; k < np; ++k) {
    if (!(fabs(x[k]) <= 1.0))
      return dg_error(DG_ERR_ARG, "Legendre table: point %d = %g outside [-1,1]", k, x[k]);
    int st;
    if (dP && fabs(x[k]) == 1.0) {
      /* GSL's derivative routine excludes the end points: P_a'(+-1) = (+-1)^(a+1) a(a+1)/2 */
      st = gsl_sf_legendre_Pl_array(rmax, x[k], val);
      for (int a = 0; a <= rmax; ++a)
        der[a] = (x[k] > 0 || a % 2 == 1 ? 1.0 : -1.0) * 0.5 * a * (a + 1.0);
    } else if (dP) {
      st = gsl_sf_legendre_Pl_deriv_array(rmax, x[k], val, der);
    } else {
      st = gsl_sf_legendre_Pl_array(rmax, x[k], val);
    }
    if (st != GSL_SUCCESS)
      return dg_error(DG_ERR_LIB, "gsl_sf_legendre_Pl%s_array(%d, %g): %s", dP ? "_deriv" : "",
                      rmax, x[k], gsl_strerror(st));
    for (int a = 0; a <= rmax; ++a) {
      P[a * np + k] = val[a];
      if (dP) dP[a * np + k] = der[a];
    }
  }
  return 0;
}

/* P_n and P_n' at x by the three-term recurrence, long double. */
static void legendre_l(int n, long double x, long double *p, long double *dp) {
  long double p0 = 1, p1 = x, d0 = 0, d1 = 1;
  if (n == 0) {
    *p = 1, *dp = 0;
    return;
  }
  for (int k = 2; k <= n; ++k) {
    const long double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    const long double d2 = d0 + (2 * k - 1) * p1; /* P_k' = P_{k-2}' + (2k - 1) P_{k-1} */
    p0 = p1, p1 = p2, d0 = d1, d1 = d2;
  }
  *p = p1, *dp = d1;
}

int dg_gauss_lobatto(int n, long double *x) {
  if (n < 2 || n > DG_QUAD_MAXQ)
    return dg_error(DG_ERR_ARG, "Gauss-Lobatto: %d points requested, need 2..%d", n, DG_QUAD_MAXQ);
  const int K = n - 1;
  x[0] = -1, x[K] = 1;
  for (int i = 1; i < K; ++i) {
    /* Chebyshev-Lobatto start; Newton on P_K' with
       P_K'' = (2 x P_K' - K (K + 1) P_K) / (1 - x^2) */
    long double t = -cosl(3.14159265358979323846264338327950288L * i / K);
    for (int it = 0; it < 100; ++it) {
      long double p, dp;
      legendre_l(K, t, &p, &dp);
      const long double ddp = (2 * t * dp - K * (K + 1.0L) * p) / (1 - t * t);
      const long double dt = dp / ddp;
      t -= dt;
      if (fabsl(dt) <= 1e-19L * (1 + fabsl(t))) break;
    }
    x[i] = t;
  }
  for (int i = 0; i < n / 2; ++i) { /* exactly symmetric */
    const long double m = 0.5L * (x[K - i] - x[i]);
    x[i] = -m, x[K - i] = m;
  }
  if (n % 2) x[K / 2] = 0;
  for (int i = 1; i < n; ++i)
    if (!(x[i] > x[i - 1]))
      return dg_error(DG_ERR_NUMERIC, "Gauss-Lobatto: nodes of the %d-point rule not ascending", n);
  return 0;
}

void dg_lagrange_eval(int n, const long double *xn, long double x, long double *L,
                      long double *dL) {
  for (int l = 0; l < n; ++l) {
    long double v = 1, dv = 0; /* the product and its derivative, term by term */
    for (int m = 0; m < n; ++m) {
      if (m == l) continue;
      const long double f = (x - xn[m]) / (xn[l] - xn[m]), df = 1 / (xn[l] - xn[m]);
      dv = dv * f + v * df;
      v *= f;
    }
    L[l] = v, dL[l] = dv;
  }
}
