/* dg_sblock_internal.h - the element-block Jacobi object, shared by its
 * setup (dg_sblock.c) and the backends' drivers only. */
#ifndef DG_SBLOCK_INTERNAL_H
#define DG_SBLOCK_INTERNAL_H

#include "dg_sblock.h"
#include "dg_sop_internal.h"

#define DG_SBLOCK_NSIDE (2 * DG_SNR)

struct dg_sblock {
  const dg_sop *op;
  int nkeys;
  double *V, *lam; /* [nkeys][NR*NR], [nkeys][NR] (solver memory) */
  float *Vf, *lamf;
  int *key; /* [nelem][3] (solver memory) */
  int slot[3][DG_SNR][DG_SBLOCK_NSIDE][DG_SBLOCK_NSIDE];
  double shift; /* a vol */
};

#endif
