/* dg_stage_geom.h - the position and the sphere's geometry at the points of
 * a stage: the sphere's row tables, the trigonometric entries of the
 * position without a trigonometric function per point, the position of a
 * point as a model sees it, and the row's theta mass inverse.  Included by
 * dg_stages.h (docs/ARCHITECTURE.md, "Geometry"). */
#ifndef DG_STAGE_GEOM_H
#define DG_STAGE_GEOM_H

#include "dg_basis.h"
#include "dg_lane.h"
#include "dg_stage_args.h"
#include "dg_stage_model.h"

/* n entries i0, i0 + 1, .. of the sphere's row tables at the lanes' offsets
 * (dg_stage_args.metric) into dst: one broadcast each where the microblock
 * lies in one row (uni, dg_lane_uniform), a gather otherwise; the test is
 * made once, not per entry. */
DG_HD static inline void dg_row_fetch(const dg_real *tab, const dg_lane off, const int uni,
                                      const int i0, const int n, dg_lane *dst) {
  if (uni) {
    DG_UNROLL
    for (int i = 0; i < n; ++i) dst[i] = dg_lane_gather_u(tab, off, 1, i0 + i);
  } else {
    DG_UNROLL
    for (int i = 0; i < n; ++i) dst[i] = dg_lane_gather_u(tab, off, 0, i0 + i);
  }
}

/* Where the sphere's trigonometric entries at a point come from: the
 * bucket's angle table (tt, the interpolants of cos(m d), sin(m d) and their
 * derivatives at the Gauss points, one value for all lanes), the slot's
 * lambda faces (ft, per lane) and the row's table (tab + off, N modes per
 * direction). */
typedef struct {
  const dg_real *tt, *ft, *tab;
  dg_lane off;
  int N;
} dg_sphere_src;

/* The DG_TRIG_N entries of a coordinate at a face (DG_X_TRIG's order) from
 * cos and sin of the face: the values for m = 1 and, by the double angle,
 * m = 2; the derivatives along the face's normal 0.  The two elements of a
 * face call it with the same bits, so they see the same entries. */
DG_HD static inline void dg_face_trig(const dg_lane c, const dg_lane s, dg_lane *cs) {
  cs[0] = c;
  cs[1] = s;
  cs[4] = c * c - s * s;
  cs[5] = (c * s) * (dg_real)2;
  cs[2] = cs[3] = cs[6] = cs[7] = dg_lane_set(0);
}

/* The DG_TRIG_N entries of coordinate e at Gauss point k into cs
 * (DG_X_TRIG's order): lambda by angle addition from the element's minus
 * face, I[cos(m l_minus + m d)] = cos(m l_minus) I[cos m d] - sin(m l_minus)
 * I[sin m d] (interpolation is linear and the lambda spacing uniform, so one
 * table serves every element), the derivatives alike; theta, which depends
 * on the row alone, from the row's table (DG_ROW_TRIG; uni:
 * dg_row_fetch).  No trigonometric function per point. */
DG_HD static inline void dg_point_trig(const dg_sphere_src *S, const int uni, const int Q,
                                       const int e, const int k, const int XF, const int d,
                                       dg_lane *cs) {
  if (e == 0) {
    dg_lane fm[DG_TRIG_N];
    dg_face_trig(dg_lane_load(S->ft), dg_lane_load(S->ft + DG_W), fm);
    DG_UNROLL
    for (int m = 0; m < 2; ++m) {
      const dg_lane cm = fm[4 * m], sm = fm[4 * m + 1];
      const dg_real *t = S->tt + 4 * m * DG_MAX_Q + k;
      if (DG_X_READ(XF, d, DG_X_TRIG(0, 4 * m))) cs[4 * m] = cm * t[0] - sm * t[DG_MAX_Q];
      if (DG_X_READ(XF, d, DG_X_TRIG(0, 4 * m + 1))) cs[4 * m + 1] = sm * t[0] + cm * t[DG_MAX_Q];
      if (DG_X_READ(XF, d, DG_X_TRIG(0, 4 * m + 2)))
        cs[4 * m + 2] = cm * t[2 * DG_MAX_Q] - sm * t[3 * DG_MAX_Q];
      if (DG_X_READ(XF, d, DG_X_TRIG(0, 4 * m + 3)))
        cs[4 * m + 3] = sm * t[2 * DG_MAX_Q] + cm * t[3 * DG_MAX_Q];
    }
  } else {
    DG_UNROLL
    for (int i = 0; i < DG_TRIG_N; ++i)
      if (DG_X_READ(XF, d, DG_X_TRIG(1, i)))
        cs[i] = dg_lane_gather_u(S->tab, S->off, uni, DG_ROW_TRIG(S->N, Q) + i * Q + k);
  }
}

/* dg_point_trig at all of the element's Gauss points, trg[(DG_TRIG_N e + i)
 * Q + k], once per element and stage where the backend keeps them
 * (DG_TRIG_ONCE, the CPU: the volume points read each value 2 Q times); the
 * GPU forms them at each point instead (2 DG_TRIG_N Q lanes more per thread
 * would be local memory).  Only the entries that flux variant XF reads in
 * some direction (DG_X_READ). */
DG_HD static inline void dg_sphere_trig(const dg_sphere_src *S, const int uni, const int Q,
                                        const int XF, dg_lane *trg) {
  DG_UNROLL
  for (int k = 0; k < Q; ++k) {
    dg_lane cs[DG_TRIG_N];
    dg_point_trig(S, uni, Q, 0, k, XF, -1, cs);
    DG_UNROLL
    for (int i = 0; i < DG_TRIG_N; ++i)
      if (DG_X_READ(XF, -1, DG_X_TRIG(0, i))) trg[i * Q + k] = cs[i];
  }
  if (XF < 0) {
    dg_row_fetch(S->tab, S->off, uni, DG_ROW_TRIG(S->N, Q), DG_TRIG_N * Q, trg + DG_TRIG_N * Q);
  } else {
    DG_UNROLL
    for (int i = 0; i < DG_TRIG_N; ++i)
      if (DG_X_READ(XF, -1, DG_X_TRIG(1, i)))
        dg_row_fetch(S->tab, S->off, uni, DG_ROW_TRIG(S->N, Q) + i * Q, Q,
                     trg + (DG_TRIG_N + i) * Q);
  }
}

/* The entries of coordinate e at Gauss point k into x, those that
 * direction d of flux variant XF reads (DG_X_READ): from trg where the
 * backend keeps them (DG_TRIG_ONCE), else formed here (dg_point_trig). */
DG_HD static inline void dg_trig_at(const dg_sphere_src *S, const dg_lane *trg, const int Q,
                                    const int e, const int k, const int XF, const int d,
                                    dg_lane *x) {
  if (DG_TRIG_ONCE) {
    DG_UNROLL
    for (int i = 0; i < DG_TRIG_N; ++i)
      if (DG_X_READ(XF, d, DG_X_TRIG(e, i))) x[DG_X_TRIG(e, i)] = trg[(DG_TRIG_N * e + i) * Q + k];
  } else {
    dg_point_trig(S, 0, Q, e, k, XF, d, x + DG_X_TRIG(e, 0));
  }
}

/* The position as a model sees it, all 0 (DG_X_LEN lanes), in loops short
 * enough for the compiler to unroll them whole (GCC peels at most 16
 * iterations: one loop of 19 stays a loop and keeps x in memory). */
DG_HD static inline void dg_x_zero(dg_lane *x) {
  DG_UNROLL
  for (int e = 0; e < 3; ++e) x[e] = dg_lane_set(0);
  DG_UNROLL
  for (int i = 0; i < 2 * DG_TRIG_N; ++i) x[DG_X_TRIG(0, i)] = dg_lane_set(0);
}

/* Physical coordinates of point p of slab ls: p runs over the first DIM-1
 * directions (first fastest), ls is the index along the last direction; on
 * the sphere (met) also their trigonometric entries (dg_trig_at); only the
 * lanes that direction d of flux variant XF reads (DG_X_READ; d = -1: any).
 * S always points to the stage's own struct, set or not: a pointer that
 * may also be NULL kept the struct in local memory on the GPU (a 40-byte
 * stack frame, ptxas). */
DG_HD static inline void dg_slab_x(const dg_real *h, const dg_stage_basis *B, const dg_lane *xc,
                                   const int DIM, const int Q, const int p, const int ls,
                                   const int met, const dg_sphere_src *S, const dg_lane *trg,
                                   const int XF, const int d, dg_lane *x) {
  DG_UNROLL_ALL
  for (int e = 0; e < DIM; ++e) {
    const int ke = e == DIM - 1 ? ls : (e == 0 ? p % Q : p / Q);
    if (DG_X_READ(XF, d, e)) x[e] = xc[e] + (dg_real)0.5 * h[e] * B->x[ke];
    if (DIM == 2 && met) dg_trig_at(S, trg, Q, e, ke, XF, d, x); /* the sphere is 2D */
  }
}

/* The sphere's mass in the theta index (2D, dg_stage_args.metric): rhs[v]
 * [a + N b] <- sum_b' T[b][b'] rhs[v][a + N b'], T the N x N head of the
 * row's table at tab + off (per lane), so that dg_rk_element's diagonal
 * finishes the exact inverse of the weighted mass.  cp: NV N^2 lanes of
 * scratch.  Each row of the result is summed in registers; uni (a
 * constant here, dg_row_mass) says whether the lanes share one row: a
 * broadcast per table entry then, a gather otherwise. */
DG_HD static inline void dg_row_mass_as(const dg_real *tab, const dg_lane off, const int uni,
                                        dg_lane *rhs, dg_lane *cp, const int N) {
  const int M = N * N;
  DG_UNROLL_ALL
  for (int i = 0; i < DG_NVAR * M; ++i) cp[i] = rhs[i];
  DG_UNROLL_ALL
  for (int b = 0; b < N; ++b) {
    dg_lane acc[DG_NVAR * (DG_MAX_DEGREE + 1)];
    DG_UNROLL_ALL
    for (int i = 0; i < DG_NVAR * N; ++i) acc[i] = dg_lane_set(0);
    DG_UNROLL
    for (int bb = 0; bb < N; ++bb) {
      const dg_lane t = dg_lane_gather_u(tab, off, uni, b * N + bb);
      DG_UNROLL_ALL
      for (int v = 0; v < DG_NVAR; ++v) DG_UNROLL
      for (int a = 0; a < N; ++a) acc[v * N + a] += t * cp[v * M + a + N * bb];
    }
    DG_UNROLL_ALL
    for (int v = 0; v < DG_NVAR; ++v) DG_UNROLL
    for (int a = 0; a < N; ++a) rhs[v * M + a + N * b] = acc[v * N + a];
  }
}
DG_HD static inline void dg_row_mass(const dg_real *tab, const dg_lane off, const int uni,
                                     dg_lane *rhs, dg_lane *cp, const int N) {
  if (uni)
    dg_row_mass_as(tab, off, 1, rhs, cp, N);
  else
    dg_row_mass_as(tab, off, 0, rhs, cp, N);
}

#endif
