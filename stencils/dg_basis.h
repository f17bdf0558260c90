/* dg_basis.h - the small 1D tables every stage reads: Gauss-Legendre points
 * and weights and the Legendre values/derivatives there.  Filled once on the
 * host (core/dg_disc.c from quadrature/), then placed by the backend where
 * reads are cheapest (CUDA: constant memory). */
#ifndef DG_BASIS_H
#define DG_BASIS_H

#include "dg_lane.h"
#include "dg_types.h"

typedef struct {
  int q;                          /* Gauss points per direction */
  dg_real x[DG_MAX_Q];            /* nodes on [-1,1], ascending */
  dg_real w[DG_MAX_Q];            /* weights */
  dg_real P[DG_MAX_Q][DG_MAX_Q];  /* P[a][k] = P_a(x_k), a <= DG_MAX_DEGREE */
  dg_real Pw[DG_MAX_Q][DG_MAX_Q]; /* Pw[a][k] = P_a(x_k) w_k: tests a point value */
  dg_real Dw[DG_MAX_Q][DG_MAX_Q]; /* Dw[a][k] = P_a'(x_k) w_k: tests a flux */
  dg_real tt[DG_TRIG_LEN];        /* the sphere's angle table (dg_types.h), else 0 */
} dg_basis;

/* The tables as the stages read them: on the GPU the same struct; on the CPU
 * the tables pre-broadcast to SIMD lanes (built by the backend's basis_create). */
#ifdef __CUDACC__
typedef dg_basis dg_stage_basis;
#else
typedef struct {
  int q;
  dg_real x[DG_MAX_Q];
  dg_real w[DG_MAX_Q];
  dg_tab P[DG_MAX_Q][DG_MAX_Q];
  dg_tab Pw[DG_MAX_Q][DG_MAX_Q];
  dg_tab Dw[DG_MAX_Q][DG_MAX_Q];
  dg_real tt[DG_TRIG_LEN];
} dg_stage_basis;
#endif

#endif
