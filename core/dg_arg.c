/* dg_arg.c - the argument checks of the public API (dg_arg.h). */
#include "dg_arg.h"

#include "dg_disc.h"
#include "dg_field.h"

#include <math.h>

int dg_arg_field(const char *fn, const dg_disc *d, const dg_field *f, const char *name) {
  DG_ARG_NONNULL(fn, d);
  if (!f) return dg_error(DG_ERR_ARG, "%s: NULL argument '%s'", fn, name);
  if (f->disc != d || f->n != dg_disc_len(d))
    return dg_error(DG_ERR_ARG, "%s: field '%s' belongs to another discretisation", fn, name);
  return 0;
}

int dg_arg_elem(const char *fn, const dg_disc *d, long e) {
  DG_ARG_NONNULL(fn, d);
  const long n = dg_disc_grid(d)->nelem;
  if (e < 0 || e >= n)
    return dg_error(DG_ERR_ARG, "%s: element %ld out of range (the grid has %ld elements)", fn, e,
                    n);
  return 0;
}

int dg_arg_finite(const char *fn, const char *name, double v) {
  if (!isfinite(v)) return dg_error(DG_ERR_ARG, "%s: %s = %g is not finite", fn, name, v);
  return 0;
}
