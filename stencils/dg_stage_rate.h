/* dg_stage_rate.h - the CFL rate stage, written once for every backend and
 * called as dg_stages.h's stages are: one microblock of DG_W elements of
 * degree R, with DIM and Q constants in the backends' wrappers. */
#ifndef DG_STAGE_RATE_H
#define DG_STAGE_RATE_H

#include "dg_stage_geom.h"
#include "dg_stage_ops.h"

/* CFL rate of each element: (2R + 1) sum_d max_points |speed_d| / h_d, the
 * largest wave speed of the model over the element's volume points on the
 * current solution at time A->t; a stable step is about 1 / (the largest
 * rate).  Writes one real per slot to A->u_out, times the slot's weight in
 * A->k (1 for an element, 0 for padding).  Scratch as dg_stage_update. */
DG_HD static inline void dg_stage_rate(const dg_stage_args *A, const dg_stage_basis *B, long blk,
                                       int lane, const int DIM, const int R, const int Q,
                                       dg_lane *wk) {
  const int N = R + 1, M = DG_POW(N, DIM), QF = DIM == 3 ? Q * Q : Q, NV = DG_NVAR;
  const dg_real *u = A->u + blk * (long)(NV * M * DG_W) + lane;
  const int GS = (A->metric ? DG_GEOM_METRIC : 3 * DIM) + (A->bc ? 2 * DIM : 0); /* per slot */
  const dg_real *geom = A->geom ? A->geom + blk * (GS * DG_W) + lane : 0;
  const dg_real *ax = DG_MODEL_NAUX ? A->aux + blk * (long)(DG_AUX_SIZE(DIM, Q) * DG_W) + lane : 0;
  const dg_model_params mp = dg_model_unpack(&A->model);
  dg_lane *c = wk, *tv = c + NV * M, *t1 = tv + NV * QF * N;
  dg_lane av[DG_MODEL_NAUX + 1];
  /* the sphere: the contravariant speeds over the Jacobian a^2 cos(theta),
     from the row's table (after the mass inverse: 1 / (a^2 cos theta) at the
     q points along theta, the last direction) */
  const int met = geom && A->metric;
  const dg_real *mtab = met ? A->geom - (A->slot0 / DG_W) * (long)(GS * DG_W) : 0;
  const dg_lane moff = met ? dg_lane_load(geom) : dg_lane_set(0);
  const dg_real *tt = met ? mtab - DG_TRIG_LEN : 0, *ft = met ? geom + DG_W : 0;
  dg_lane xc[3], x[DG_X_LEN], up[DG_NU], vmax[3], jinv[DG_MAX_Q];
  dg_lane trg[DG_TRIG_ONCE ? 2 * DG_TRIG_N * DG_MAX_Q : 1];
  const dg_sphere_src sph = {tt, ft, mtab, moff, N};
  const dg_lane *tg = 0; /* trg where it is set */
  if (met) {             /* and 1 / (a^2 cos theta) along theta */
    const int uni = dg_lane_uniform(moff);
    if (DG_TRIG_ONCE) dg_sphere_trig(&sph, uni, Q, -1, trg);
    dg_row_fetch(mtab, moff, uni, DG_ROW_JINV(N), Q, jinv);
    tg = trg;
  } else { /* set either way: a conditional read of it is a maybe-uninitialized warning */
    DG_UNROLL_ALL
    for (int k = 0; k < Q; ++k) jinv[k] = dg_lane_set(1);
  }
  dg_x_zero(x);
  DG_UNROLL_ALL
  for (int e = 0; e < 3; ++e) {
    xc[e] = vmax[e] = dg_lane_set(0);
    if (geom && !met && e < DIM) xc[e] = dg_lane_load(geom + (3 * e) * DG_W);
  }
  DG_UNROLL_ALL
  for (int v = 0; v < NV; ++v) {
    dg_lane *cv = c + v * M;
    for (int m = 0; m < M; ++m) cv[m] = dg_lane_load(u + (long)(v * M + m) * DG_W);
    if (DIM == 2) {
      dg_contract(cv, tv + v * QF * N, N, N, 1, 0, Q, B->P, 1, 0);
    } else {
      dg_contract(cv, t1, N, N, N, 0, Q, B->P, 1, 0);
      dg_contract(t1, tv + v * QF * N, Q, N, N, 1, Q, B->P, 1, 0);
    }
  }
  for (int l = 0; l < Q; ++l)
    for (int p = 0; p < QF; ++p) {
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) {
        dg_lane val = dg_lane_set(0);
        for (int n = 0; n < N; ++n) val += tv[v * QF * N + p + QF * n] * B->P[n][l];
        up[v] = val;
      }
      if (geom) dg_slab_x(A->h, B, xc, DIM, Q, p, l, met, &sph, tg, -1, -1, x);
      if (DG_MODEL_NAUX) dg_aux_vol(ax, p + QF * l, QF * Q, av);
#if DG_MODEL_NDERIV
      dg_model_derive(&mp, up, DG_MODEL_NAUX ? av : 0);
#endif
      const dg_lane jl = jinv[l];
      DG_UNROLL_ALL
      for (int d = 0; d < DIM; ++d)
        vmax[d] = dg_lane_max(
            vmax[d],
            dg_model_max_speed(&mp, up, DG_MODEL_NAUX ? av : 0, geom ? x : 0, A->t, d) * jl);
    }
  dg_lane rate = dg_lane_set(0);
  DG_UNROLL_ALL
  for (int d = 0; d < DIM; ++d) rate += vmax[d] * (1 / A->h[d]);
  rate = rate * (dg_real)(2 * R + 1) * dg_lane_load(A->k + blk * DG_W + lane);
  dg_lane_store(A->u_out + blk * DG_W + lane, rate);
}

#endif
