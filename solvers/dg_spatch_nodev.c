/* dg_spatch_nodev.c - the vertex-patch smoother's apply in a build whose
 * backend has no driver for it (CUDA, for now): a clear error, so that
 * dg_mg_create (whose eigenvalue estimate applies it) refuses the option. */
#include "dg_error.h"
#include "dg_spatch.h"

static int refuse(void) {
  return dg_error(DG_ERR_ARG, "vertex-patch smoother: not available on this backend (CUDA); "
                              "use the element-block smoother");
}

int dg_spatch_apply_d(const dg_spatch *sp, const double *r, double *z) { return refuse(); }
int dg_spatch_apply_f(const dg_spatch *sp, const float *r, float *z) { return refuse(); }
