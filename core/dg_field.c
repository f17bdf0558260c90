/* dg_field.c - host/device field storage. */
#include "dg_field.h"

#include "dg_arg.h"
#include "dg_backend.h"
#include "dg_error.h"

#include <stdlib.h>
#include <string.h>

static long next_stamp(void) {
  static long counter;
  return ++counter;
}

int dg_field_create(dg_field **f, const dg_disc *d) {
  DG_ARG_NONNULL("dg_field_create", f);
  *f = NULL;
  DG_ARG_NONNULL("dg_field_create", d);
  const dg_backend_ops *be = dg_disc_backend(d)->ops;
  dg_field *p = calloc(1, sizeof *p);
  if (!p) return dg_error(DG_ERR_MEM, "field: out of memory");
  p->disc = d;
  p->backend = dg_disc_backend(d);
  p->n = dg_disc_len(d);
  const size_t bytes = (size_t)p->n * sizeof(dg_real);
  void *dev = NULL;
  int rc = be->alloc(&dev, bytes);
  if (rc) {
    free(p);
    return rc;
  }
  p->dev = dev;
  if (be->host_is_device) {
    p->h = p->dev;
  } else {
    p->h = calloc((size_t)p->n ? (size_t)p->n : 1, sizeof(dg_real));
    if (!p->h) {
      const long n = p->n;
      be->free(dev);
      free(p);
      return dg_error(DG_ERR_MEM, "field: out of memory for %ld host values", n);
    }
  }
  p->host_valid = p->dev_valid = 1;
  p->stamp = next_stamp();
  *f = p;
  return 0;
}

void dg_field_destroy(dg_field **f) {
  if (!f || !*f) return;
  const dg_backend_ops *be = (*f)->backend->ops;
  if ((*f)->h != (*f)->dev) free((*f)->h);
  be->free((*f)->dev);
  free(*f);
  *f = NULL;
}

int dg_field_to_host(dg_field *f) {
  DG_ARG_NONNULL("dg_field_to_host", f);
  if (f->host_valid) return 0;
  DG_CALL(f->backend->ops->to_host(f->h, f->dev, (size_t)f->n * sizeof(dg_real)));
  f->host_valid = 1;
  return 0;
}

int dg_field_to_device(dg_field *f) {
  DG_ARG_NONNULL("dg_field_to_device", f);
  if (f->dev_valid) return 0;
  DG_CALL(f->backend->ops->to_device(f->dev, f->h, (size_t)f->n * sizeof(dg_real)));
  f->dev_valid = 1;
  return 0;
}

void dg_field_host_modified(dg_field *f) {
  f->stamp = next_stamp();
  f->host_valid = 1;
  f->dev_valid = f->h == f->dev;
}

void dg_field_device_modified(dg_field *f) {
  f->stamp = next_stamp();
  f->dev_valid = 1;
  f->host_valid = f->h == f->dev;
}

void dg_field_swap_device(dg_field *f, dg_real **buf) {
  dg_real *old = f->dev;
  f->dev = *buf;
  *buf = old;
  if (f->h == old) f->h = f->dev;
}

int dg_field_copy(dg_field *dst, dg_field *src) {
  DG_ARG_NONNULL("dg_field_copy", dst);
  DG_ARG_NONNULL("dg_field_copy", src);
  if (dst->n != src->n)
    return dg_error(DG_ERR_ARG, "field copy: sizes %ld and %ld", dst->n, src->n);
  DG_CALL(dg_field_to_host(src));
  memcpy(dst->h, src->h, (size_t)src->n * sizeof(dg_real));
  dg_field_host_modified(dst);
  return 0;
}
