/* dg_disc_internal.h - the parts of a discretisation that expose stencils/
 * types: its basis tables and the fused RK stage.  Used inside core (the
 * integrators, evaluation, output) and by tests; not installed (the
 * installed headers name no stencils/ type but dg_real: docs/ARCHITECTURE.md,
 * "Installed package"). */
#ifndef DG_DISC_INTERNAL_H
#define DG_DISC_INTERNAL_H

#include "dg_basis.h"
#include "dg_comm.h"
#include "dg_disc.h"
#include "dg_disc_part.h"
#include "dg_stage_args.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Gauss-Legendre tables of the discretisation's q points. */
const dg_basis *dg_disc_basis(const dg_disc *d);

/* Whether d's diagnostics (dg_eval.h's sums, maxima and checks) count
 * element e: every element of a discretisation of one process; of a rank's
 * block (dg_disc_part.h) its own elements, not its ghosts nor the elements
 * it does not hold.  The one place that says which elements a rank adds. */
int dg_disc_counts(const dg_disc *d, long e);

/* One RK stage: traces of u, then for every element L(u) at time t (the
 * stage time) and the fused update (stencils/dg_stage_args.h).  u0 and k
 * may be NULL when rk does not use them.  Works on the device copies; marks
 * them modified. */
int dg_disc_stage(dg_disc *d, dg_field *u, dg_field *u0, dg_field *k, double t, double dt,
                  const dg_rk_coeffs *rk);

#ifdef __cplusplus
}
#endif
#endif
