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
