/* dg_arg.h - the argument checks of the public API, one place per rule.
 *
 * Every public function that takes a handle, a field or an index checks it
 * here first and returns DG_ERR_ARG with one line "FUNCTION: ..." naming the
 * argument: a NULL pointer, a field made for another discretisation, an
 * element index outside the grid, a time or step that is not finite.
 * Internal header (not installed). */
#ifndef DG_ARG_H
#define DG_ARG_H

#include "dg_error.h"

/* The handles by their struct names: the file readers that the fuzz targets
 * compile alone include this header without the model headers dg_disc.h
 * needs. */
struct dg_disc;
struct dg_field;

/* Return DG_ERR_ARG from the calling function when pointer `p` is NULL (a
 * macro, so the file readers that the fuzz targets compile need no more). */
#define DG_ARG_NONNULL(fn, p)                                                                      \
  do {                                                                                             \
    if (!(p)) return dg_error(DG_ERR_ARG, "%s: NULL argument '%s'", fn, #p);                       \
  } while (0)

/* Propagate a non-zero check. */
#define DG_ARG_CHECK(expr) DG_CALL(expr)

/* f is non-NULL and was created for d (dg_field_create(&f, d)). */
int dg_arg_field(const char *fn, const struct dg_disc *d, const struct dg_field *f,
                 const char *name);
/* 0 <= e < the number of elements of d's grid. */
int dg_arg_elem(const char *fn, const struct dg_disc *d, long e);
/* v is a finite number. */
int dg_arg_finite(const char *fn, const char *name, double v);

#endif
