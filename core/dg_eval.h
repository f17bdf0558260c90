/* dg_eval.h - host-side operations on fields: L2 projection, sampling at
 * tensor point sets, error norms, mass, finiteness.  Setup/diagnostics only
 * (they sync the host copy); the time loop never calls them. */
#ifndef DG_EVAL_H
#define DG_EVAL_H

#include "dg_disc.h"
#include "dg_field.h"
#include "dg_problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* f(x) for projection; returns the value of variable v. */
typedef double (*dg_point_fn)(const double x[3], int v, void *ctx);

/* L2 projection of fn with the solver's Q-point Gauss rule (exact for
 * polynomials of degree <= r: Q >= r+1). */
int dg_project(const dg_disc *d, dg_field *f, dg_point_fn fn, void *ctx);

/* Coefficients of element e, variable-major, mode a + N*(b + N*c): (r+1)^dim*nvar values. */
int dg_element_coeffs(const dg_disc *d, dg_field *f, long e, double *out);
/* Overwrite element e's coefficients (same order); marks the host copy modified. */
int dg_element_set_coeffs(const dg_disc *d, dg_field *f, long e, const double *in);

/* Values at the np^dim tensor points x1d (in [-1,1]) of every element:
 * out[(e*np^dim + p)*nvar + v], points x-fastest. */
int dg_sample(const dg_disc *d, dg_field *f, int np, const double *x1d, double *out);

/* L2 and max error against the exact solution at time t, with Q+3 Gauss
 * points per direction (a rule stronger than the solver's). */
int dg_error_norms(const dg_disc *d, dg_field *f, const dg_problem *p, double t, double *l2,
                   double *linf);

/* Integral of variable 0 over the domain: sum_e |e| c_0. */
int dg_mass(const dg_disc *d, dg_field *f, double *mass);

/* 0 if every coefficient is finite, else DG_ERR_NUMERIC naming an element. */
int dg_check_finite(const dg_disc *d, dg_field *f);

#ifdef __cplusplus
}
#endif
#endif
