/* dg_quadrature.h - Gauss-Legendre rules and Legendre polynomial tables (GSL).
 * Host-only, used at setup; results go into small tables (stencils/dg_basis.h).
 * Every function returns 0 or a DG_ERR_* code with a recorded message. */
#ifndef DG_QUADRATURE_H
#define DG_QUADRATURE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Nodes x[0..q-1] (ascending, in [-1,1]) and weights w of the q-point
 * Gauss-Legendre rule, exact for polynomials of degree 2q-1.  1 <= q <= 64. */
int dg_gauss_legendre(int q, double *x, double *w);

/* Legendre values P[a*np + k] = P_a(x_k) and, when dP is not NULL, derivatives
 * dP[a*np + k] = P_a'(x_k), for a = 0..rmax and the np points x (|x_k| <= 1).
 * P_a is the unnormalised Legendre polynomial, P_a(1) = 1. */
int dg_legendre_table(int rmax, int np, const double *x, double *P, double *dP);

#ifdef __cplusplus
}
#endif
#endif
