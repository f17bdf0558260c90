/* dg_basis.h - the small 1D tables every stage reads: Gauss-Legendre points
 * and weights and the Legendre values/derivatives there.  Filled once on the
 * host (core/dg_disc.c from quadrature/), then placed by the backend where
 * reads are cheapest (CUDA: constant memory). */
#ifndef DG_BASIS_H
#define DG_BASIS_H

#include "dg_types.h"

typedef struct {
  int q;                          /* Gauss points per direction */
  dg_real x[DG_MAX_Q];            /* nodes on [-1,1], ascending */
  dg_real w[DG_MAX_Q];            /* weights */
  dg_real P[DG_MAX_Q][DG_MAX_Q];  /* P[a][k] = P_a(x_k), a <= DG_MAX_DEGREE */
  dg_real D[DG_MAX_Q][DG_MAX_Q];  /* D[a][k] = P_a'(x_k) */
} dg_basis;

#endif
