/* dg_sop_internal.h - the operator object, shared by its files only. */
#ifndef DG_SOP_INTERNAL_H
#define DG_SOP_INTERNAL_H

#include "dg_sop.h"

struct dg_sop {
  const dg_backend *be; /* runs its kernels, owns its memory */
  long len;             /* dg_sop_len */
  dg_grid g;
  dg_sop_params p;
  uint8_t *deg;  /* [nelem] (host memory) */
  uint8_t *pdeg; /* [nelem] penalty degrees (host memory) */
  long *off;     /* [nelem + 1] (host memory) */
  /* the same in solver memory, for the drivers (args_d, args_f) */
  uint8_t *ddeg, *dpdeg;
  long *doff;
  double *m0;       /* [nelem] solver memory: dg_sop_mode0_get's gather */
  int runi;         /* the degree of every element, or -1 (a backend may plan by it) */
  unsigned degmask; /* bit r: some element has degree r (the kernels a backend loads) */
  dg_stab_d tab_d;
  dg_stab_f tab_f;
  dg_sargs_d args_d; /* over the solver memory: the drivers' */
  dg_sargs_f args_f;
  dg_sargs_d hargs_d; /* over the host copies: for element functions on the host */
  dg_sargs_f hargs_f;
  struct dg_spx *px; /* a rank's share (dg_spart.c), or NULL */
  /* For the transfers by agglomeration (the drivers): the whole grid's
     index of box element 0 per direction (xorg), and the box range of the
     owned elements [xlo, xhi); 0 and [0, n) for an operator of one process.
     The fine box's origin need not be twice the coarse one's. */
  int xorg[3], xlo[3], xhi[3];
};

/* The length of a vector (for the drivers, which call nothing of solvers/). */
static inline long dg_sop_n(const dg_sop *op) { return op->len; }

/* Fill both precisions' 1D tables (Gauss-Legendre, quadrature/). */
int dg_stab_build(dg_stab_d *td, dg_stab_f *tf);

#endif
