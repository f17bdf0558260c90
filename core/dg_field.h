/* dg_field.h - a field of modal coefficients in the discretisation's layout,
 * with a host and a device copy that know which is valid (DESIGN.md, 8).
 * Data moves only when asked for.  With the OpenMP backend both are one. */
#ifndef DG_FIELD_H
#define DG_FIELD_H

#include "dg_disc.h"
#include "dg_real.h"

#ifdef __cplusplus
extern "C" {
#endif

struct dg_field {
  const dg_disc *disc;
  const dg_backend *backend; /* the disc's (outlives the field) */
  long n;                    /* reals, dg_disc_len */
  dg_real *h;                /* host copy */
  dg_real *dev;              /* device copy (== h for the OpenMP backend) */
  int host_valid;            /* host copy up to date */
  int dev_valid;             /* device copy up to date */
  long stamp;                /* changes on every modification (unique across fields) */
};

/* A zero field (both copies valid). */
int dg_field_create(dg_field **f, const dg_disc *d);
void dg_field_destroy(dg_field **f);
/* Make the host copy current (copies from the device when needed). */
int dg_field_to_host(dg_field *f);
/* Make the device copy current. */
int dg_field_to_device(dg_field *f);
/* After writing the host copy: the device copy is stale. */
void dg_field_host_modified(dg_field *f);
/* After writing the device copy: the host copy is stale. */
void dg_field_device_modified(dg_field *f);
/* Exchange the device storage of f with *buf (f->n reals from the backend's
 * alloc); with a shared host copy that moves too.  The disc's ping-pong for
 * updates that read the neighbours' coefficients; the caller marks the
 * device copy modified. */
void dg_field_swap_device(dg_field *f, dg_real **buf);
/* dst = src (device copies). */
int dg_field_copy(dg_field *dst, dg_field *src);

#ifdef __cplusplus
}
#endif
#endif
