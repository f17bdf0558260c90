/* dg_disc_op.h - the discretisation as an operator on plain vectors: the
 * explicit DG operator L(u) of a model (what every RK stage evaluates), its
 * linearisation, and the conversion between a field's microblock layout and
 * the compact element order of solvers/ (docs/MULTIGRID.md, "Implicit steps
 * for your own model").
 *
 * L(u) is du/dt of the semi-discrete system, M^-1 R(u): the inverse mass is
 * applied, exactly as in the stages (the stage code itself computes it).  A
 * caller that assembles a linear system in the SIPG operator's form (a M +
 * b K, solvers/dg_sop.h) multiplies by the diagonal mass (dg_sop_mass_d):
 * M L(u) = R(u) is the weak-form residual, in the same basis. */
#ifndef DG_DISC_OP_H
#define DG_DISC_OP_H

#include "dg_disc.h"
#include "dg_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = L(u) at time t: one fused stage with u <- 0 u + 1 * L(u) on a copy
 * of u (the stage arithmetic of the RK schemes, not a second copy of it).
 * u is not changed; out must be another field of d. */
int dg_disc_rhs(dg_disc *d, dg_field *u, double t, dg_field *out);

/* out = J(u0) v, the explicit operator linearised about u0, with lu0 =
 * L(u0) already computed: for a linear model (dg_model_linear) exactly L(v)
 * (u0 and lu0 are not read and may be NULL); otherwise the directional
 * difference (L(u0 + eps v) - L(u0)) / eps with eps = sqrt(2^-52) (1 +
 * |u0|_max) / |v|_max, first-order accurate in eps (its error about
 * sqrt(machine epsilon) relative).  work is a scratch field of d. */
int dg_disc_jacvec(dg_disc *d, dg_field *u0, dg_field *lu0, dg_field *v, double t, dg_field *work,
                   dg_field *out);

/* Length of a compact vector: sum over elements of nvar (r_e+1)^dim. */
long dg_disc_compact_len(const dg_disc *d);
/* x = the coefficients of f in compact order: variable after variable, each
 * a solvers/ vector of ndofs / nvar (element after element, mode a + N (b +
 * N c), dg_sop_offsets), so a solver's operator applies to each block. */
int dg_field_get_compact(const dg_disc *d, dg_field *f, double *x);
/* f = x (same order); marks the host copy modified. */
int dg_field_set_compact(const dg_disc *d, dg_field *f, const double *x);
/* The same for a list of elements: element elem[i] (of the elements d
 * holds: a rank's block, dg_disc_part.h) has its modes of variable v at x +
 * v ns + at[i].  The entries of x between them are not touched: the
 * implicit steps across ranks put a block's elements where a solver box
 * holds them (solvers/dg_spart.h). */
int dg_field_get_elems(const dg_disc *d, dg_field *f, long n, const long *elem, const long *at,
                       long ns, double *x);
int dg_field_set_elems(const dg_disc *d, dg_field *f, long n, const long *elem, const long *at,
                       long ns, const double *x);

#ifdef __cplusplus
}
#endif
#endif
