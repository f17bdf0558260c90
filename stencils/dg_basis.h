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
  /* The sphere's row update at q = r + 1 (dg_team_row_points), with the sums
   * over all q modes a (the tables' own degree, r = q - 1) and D^-1 =
   * diag((2a + 1) / 2): Dp[j][k] = sum_a P_a(x_k) (2a + 1) / 2 Dw[a][j]
   * (P D^-1 Dw': a flux at the points tested with the derivative, back at
   * the points) and Lp[s][k] = sum_a P_a(x_k) (2a + 1) / 2 P_a(s ? 1 : -1)
   * (P D^-1 of a face's lifting: the end s at the points).  After tt, so
   * that the other tables keep their places in a kernel's parameters. */
  dg_real Dp[DG_MAX_Q][DG_MAX_Q];
  dg_real Lp[2][DG_MAX_Q];
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
  dg_tab Dp[DG_MAX_Q][DG_MAX_Q];
  dg_tab Lp[2][DG_MAX_Q];
} dg_stage_basis;
#endif

#endif
