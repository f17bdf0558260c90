/* dg_eval.h - host-side operations on fields: L2 projection, sampling at
 * tensor point sets, error norms, mass, finiteness.  Setup/diagnostics only
 * (they sync the host copy); the time loop never calls them.
 *
 * Sums (norms, mass, integrals) are exact (dg_xsum.h), rounded once.  On a
 * discretisation of one rank's block (dg_disc_part.h) the norms, the mass,
 * the integrals and dg_check_finite are collective: each rank adds its own
 * elements and the results are combined over the ranks exactly (sums as
 * dg_xsum, maxima), so every rank gets the bits of one process, whatever
 * the number of ranks (docs/ARCHITECTURE.md, "Runs across ranks"). */
#ifndef DG_EVAL_H
#define DG_EVAL_H

#include "dg_disc.h"
#include "dg_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* f(x) for projection; returns the value of variable v. */
typedef double (*dg_point_fn)(const double x[3], int v, void *ctx);

/* L2 projection of fn with the solver's Q-point Gauss rule (exact for
 * polynomials of degree <= r: Q >= r+1).  On a rank's block: its own
 * elements (the ghosts come from their owners before each stage). */
int dg_project(const dg_disc *d, dg_field *f, dg_point_fn fn, void *ctx);
/* L2 projection of the model's solution at time t (t = 0: its initial
 * data); DG_ERR_ARG where the model does not know it at t. */
int dg_project_solution(const dg_disc *d, dg_field *f, double t);

/* Coefficients of element e, variable-major, mode a + N*(b + N*c): (r+1)^dim*nvar values. */
int dg_element_coeffs(const dg_disc *d, dg_field *f, long e, double *out);
/* Overwrite element e's coefficients (same order); marks the host copy modified. */
int dg_element_set_coeffs(const dg_disc *d, dg_field *f, long e, const double *in);

/* Values at the np^dim tensor points x1d (in [-1,1]) of every element:
 * out[(e*np^dim + p)*nvar + v], points x-fastest.  On a rank's block only
 * its own elements' entries are written. */
int dg_sample(const dg_disc *d, dg_field *f, int np, const double *x1d, double *out);
/* The same for the elements d counts (every one in one process, a rank's
 * own on its block), packed in element order: out[(i*np^dim + p)*nvar + v]
 * for the i-th of them. */
int dg_sample_own(const dg_disc *d, dg_field *f, int np, const double *x1d, double *out);

/* L2 and max error of each variable, l2[v] and linf[v] (nvar each), against
 * the model's solution at time t, with Q+3 Gauss points per direction (a
 * rule stronger than the solver's; the sphere: 8, with the area weight
 * a^2 cos(theta)); NaN where the solution is not known at t. */
int dg_error_norms(const dg_disc *d, dg_field *f, double t, double *l2, double *linf);

/* Williamson et al. (1992)'s normalised errors of each variable against the
 * model's solution at t: l1 = I(|u - e|) / I(|e|), l2 = sqrt(I((u - e)^2) /
 * I(e^2)), linf = max |u - e| / max |e|, I the integral over the domain (the
 * sphere: area weight a^2 cos(theta), 8 x 8 Gauss points per element; the
 * box: Q + 3 points), the maxima over the same points.  NaN where the
 * solution is not known at t. */
int dg_error_norms_rel(const dg_disc *d, dg_field *f, double t, double *l1, double *l2,
                       double *linf);

/* Integral of each variable over the domain, mass[v] = sum_e |e| c_{v,0}
 * (nvar values); on the sphere with the stages' weighted mass (1^T M c,
 * conserved to round-off by the update). */
int dg_mass(const dg_disc *d, dg_field *f, double *mass);

/* The model's integral diagnostics (dg_model_ninteg values, e.g. energy and
 * enstrophy): out[i] = the integral over the domain of density i, from the
 * solution and its gradient at Q + 3 Gauss points per direction (the
 * sphere: 8, with the area weight a^2 cos(theta)) and the model's sample of
 * its auxiliary data there.  Nothing where the model declares none. */
int dg_integrals(const dg_disc *d, dg_field *f, double *out);

/* 0 if every coefficient is finite, else DG_ERR_NUMERIC naming the first
 * such element in grid order (or, in one process, the padding). */
int dg_check_finite(const dg_disc *d, dg_field *f);

#ifdef __cplusplus
}
#endif
#endif
