/* dg_quadrature.h - Gauss-Legendre rules and Legendre polynomial tables (GSL),
 * Gauss-Lobatto nodes and Lagrange interpolation (the sphere's wind).
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

/* Nodes x[0..n-1] of the n-point Gauss-Lobatto-Legendre rule (ascending,
 * x[0] = -1, x[n-1] = 1, the interior ones the roots of P_{n-1}'), in long
 * double (Newton iteration on the three-term recurrence).  2 <= n <= 64. */
int dg_gauss_lobatto(int n, long double *x);

/* The n Lagrange polynomials of the nodes xn (distinct) at the point x:
 * L[l] = l_l(x) and dL[l] = l_l'(x), in long double; x may be a node. */
void dg_lagrange_eval(int n, const long double *xn, long double x, long double *L, long double *dL);

#ifdef __cplusplus
}
#endif
#endif
