/* dg_sop_internal.h - the operator object, shared by its files only. */
#ifndef DG_SOP_INTERNAL_H
#define DG_SOP_INTERNAL_H

#include "dg_sop.h"

struct dg_sop {
  const dg_backend *be; /* runs its kernels, owns its memory */
  long len;             /* dg_sop_len */
  dg_grid g;
  dg_sop_params p;
  uint8_t *deg;  /* [nelem] */
  uint8_t *pdeg; /* [nelem] penalty degrees */
  long *off;     /* [nelem + 1] */
  int runi;      /* the degree of every element, or -1 (a backend may plan by it) */
  dg_stab_d tab_d;
  dg_stab_f tab_f;
  dg_sargs_d args_d;
  dg_sargs_f args_f;
  struct dg_spx *px; /* a rank's share (dg_spart.c), or NULL */
};

/* The length of a vector (for the drivers, which call nothing of solvers/). */
static inline long dg_sop_n(const dg_sop *op) { return op->len; }

/* Fill both precisions' 1D tables (Gauss-Legendre, quadrature/). */
int dg_stab_build(dg_stab_d *td, dg_stab_f *tf);

#endif
