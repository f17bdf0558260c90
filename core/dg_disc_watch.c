/* dg_disc_watch.c - the blow-up watch of a discretisation (dg_disc.h): a
 * check of the elements' mode-0 coefficients queued on the backend after
 * each step, read back only when the run waits anyway, so that the GPU finds
 * a blow-up at the step it happens without a host round trip per step. */
#include "dg_disc.h"
#include "dg_disc_impl.h"
#include "dg_error.h"
#include "dg_field.h"

#include <limits.h>
#include <stdlib.h>

/* Where each microblock's W mode-0 values of each variable start, on the
 * device; the first-step flag, set to LONG_MAX. */
static int watch_setup(dg_disc *d) {
  const dg_backend_ops *be = d->be;
  long n = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) n += d->bk[r].nblock * d->nvar;
  long *h = malloc((size_t)(n ? n : 1) * sizeof *h);
  if (!h) return dg_error(DG_ERR_MEM, "out of memory for the blow-up watch");
  long k = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    const long M = dg_disc_ipow(r + 1, d->grid.dim);
    for (long blk = 0; blk < d->bk[r].nblock; ++blk)
      for (int v = 0; v < d->nvar; ++v) h[k++] = d->bk[r].base + (blk * d->nvar + v) * M * d->W;
  }
  const long none = LONG_MAX;
  int rc = be->alloc((void **)&d->d_watch_rows, (size_t)(n ? n : 1) * sizeof *h);
  if (!rc) rc = be->to_device(d->d_watch_rows, h, (size_t)n * sizeof *h);
  if (!rc) rc = be->alloc((void **)&d->d_watch_first, sizeof none);
  if (!rc) rc = be->to_device(d->d_watch_first, &none, sizeof none);
  free(h);
  if (rc) {
    if (d->d_watch_rows) be->free(d->d_watch_rows);
    if (d->d_watch_first) be->free(d->d_watch_first);
    d->d_watch_rows = NULL;
    d->d_watch_first = NULL;
    return rc;
  }
  d->nwatch = n;
  return 0;
}

int dg_disc_watch(dg_disc *d, const dg_field *f, long step) {
  if (!d || !f || f->disc != d)
    return dg_error(DG_ERR_ARG, "dg_disc_watch: a discretisation and a field of it are needed");
  if (!d->d_watch_first) DG_CALL(watch_setup(d));
  return d->be->nonfinite(f->dev, d->d_watch_rows, d->nwatch, d->W, step, d->d_watch_first);
}

int dg_disc_watch_first(dg_disc *d, long *step) {
  if (!d || !step) return dg_error(DG_ERR_ARG, "dg_disc_watch_first: NULL argument");
  *step = -1;
  if (!d->d_watch_first) return 0;
  long first;
  DG_CALL(d->be->to_host(&first, d->d_watch_first, sizeof first));
  if (first != LONG_MAX) *step = first;
  return 0;
}
