/* dg_team.h - the update of one element by a team of threads (2D).
 *
 * dg_stage_update (dg_stages.h) gives one element to one thread; from 5
 * points per direction on a 2D element no longer fits in a GPU thread's
 * registers (it spills; docs/ARCHITECTURE.md, "Decisions and why").  Here T threads share one
 * element: the work is cut into phases, each a list of independent items
 * (a row of modes, a column of points, a face point, ...) that the team's
 * threads take in turn (item it goes to thread it % T), with a barrier
 * between phases (DG_TEAM_SYNC).  The element's scratch is shared by the
 * team (CUDA: shared memory; the CPU runs the items of a phase one after the
 * other with T = 1, on a microblock of DG_W elements at once as everywhere).
 *
 * The arithmetic is the one of dg_stage_update, from the same functions:
 * dg_line for every 1D contraction, dg_collapse for face values, dg_rusanov,
 * dg_inv_mass and dg_rk_mode.  It reads the neighbours' coefficients
 * (A->nbr_coeffs, new coefficients into A->u_out) where they have the
 * element's degree; across a degree change (A->nbr_traces) it reads the
 * neighbour's face trace instead and leaves the trace of its own new
 * coefficients on that face for the neighbour's next update (phase 5).  Its
 * sums run in another order than dg_stage_update's, so the two agree to
 * round-off, not bitwise; within team updates both sides of every face still
 * see the same bits (each side's face values come from the same dg_collapse
 * and dg_line calls, whether computed by the element, its neighbour, phase 5
 * or the trace pass's dg_face_dir).
 *
 * Phases (one variable shown; c the old coefficients, mode (a, b), point
 * (k, j), faces f = 2d + side; T = Q threads give one item per thread; as on
 * a planar grid, x first: on the sphere the roles of x and y swap, see D1 in
 * dg_stage_update_team):
 *   1. rows i:       load c[., i]; ax[k, i] = sum_a c[a, i] P_a(x_k); the
 *                    neighbours across the four faces collapsed onto their
 *                    facing sides at tangential index i
 *   2. columns k:    u(k, j) = sum_b ax[k, b] P_b(x_j); fluxes f_x, f_y there;
 *                    ax[k, b] = sum_j f_x Pw_b(j), ay[k, b] = sum_j f_y Dw_b(j);
 *                    own faces collapsed at tangential index k
 *   3. faces f:      both sides at the face points (dg_line), Rusanov fluxes,
 *                    lifting L[f][i] = sum_p G[p] Pw_i(p) (on the sphere
 *                    at Q = N the lambda faces keep G itself)
 *   4. rows b:       rhs[a, b] = sum_k ax[k, b] Dw_a(k) + ay[k, b] Pw_a(k)
 *                    + the four liftings; inverse mass, fused RK update
 *                    (with nbr_traces the new c[., b] kept in the scratch;
 *                    on the sphere at Q = N formed at the points,
 *                    dg_team_row_points)
 *   5. faces f:      (nbr_traces; where the neighbour has another degree)
 *                    the new coefficients' values at the face points into
 *                    trace_out.
 * Shared memory bounds this stage on the GPU (its throughput is the one near
 * its peak in a profile), so each phase reads the scratch once per item: a face
 * is one item (two short contractions beat Q point items that each read
 * all N collapsed values). */
#ifndef DG_TEAM_H
#define DG_TEAM_H

#include "dg_stages.h"

#ifdef __CUDA_ARCH__ /* nvcc's device pass (the host pass never runs a team) */
#define DG_TEAM_SYNC() __syncthreads()
#else
#define DG_TEAM_SYNC() ((void)0)
#endif

/* Scratch of one element (dg_lane units) for degree r, q points. */
#define DG_TEAM_WORK(r, q)                                                                         \
  (DG_NVAR * (((r) + 1) * ((r) + 1) + (2 + DG_MODEL_SOURCE) * (q) * ((r) + 1) + 8 * ((r) + 1)))

/* Phase 3 reads near[] (the x-neighbour in the same microblock) at the
 * thread's face item, an index known only at run time, so the CUDA compiler
 * may keep the array in local memory (an 8-byte stack frame; BENCHMARKS.md,
 * "Shallow water").  1: select the entry instead (no frame), an experiment
 * (DGRID_CUDA_NVRTC_OPTIONS=-DDG_TEAM_NEAR_SELECT=1): it changes every
 * model's team kernels, so it waits for a GPU run to become the default. */
#ifndef DG_TEAM_NEAR_SELECT
#define DG_TEAM_NEAR_SELECT 0
#endif

/* The items it = tid, tid + T, .. below n of one phase: ceil(n / T) turns
 * of a loop with constant bounds (so it unrolls and the turns' loads can be
 * issued together); the inner `for` runs once, or not at all past n. */
#define DG_TEAM_ITEMS(it, n)                                                                       \
  DG_UNROLL_ALL                                                                                    \
  for (int it##_turn = 0; it##_turn < ((n) + T - 1) / T; ++it##_turn)                              \
    for (int it = tid + it##_turn * T; it < (n) && it < tid + (it##_turn + 1) * T; it = (n))

/* GCC 12 reports uo and un "maybe uninitialized" in dg_team_face's copies
 * for the sphere's model at 5 and 6 points (its wind reads more position
 * lanes since 2026-11-24), though dg_line writes all Q of them before the
 * loop reads them, and rr in dg_stage_update_team's CPU copy (A->metric at
 * run time), though only the sphere, which writes it, reads it.  The pragma,
 * down to the end of dg_stage_update_team, changes no code. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/* Face f (direction d, a constant) of the team update: the values of both
 * sides at the Q face points from their collapses (own: go, neighbour: gn;
 * N modes each, variable v at + 4 N v), the Rusanov fluxes there, and their
 * lifting onto the N tangential modes into L (same layout; raw: the Q = N
 * fluxes unlifted, for dg_team_row_points).  tr (or NULL)
 * and noff: lanes whose neighbour offset is a trace take the neighbour's
 * values from there instead (dg_lane_trace_pick).  NX, XF as in
 * dg_stage_update_team; on the sphere (met) the position is the face's
 * trigonometric entries and the tangential point's, as dg_stage_update
 * forms them (the same calls, so both sides of the face see the same bits),
 * and a pole face carries no flux.  ax: the element's auxiliary data (a
 * model with DG_MODEL_NAUX; its face values at face f, as dg_stage_update
 * reads them). */
DG_HD static inline void
dg_team_face(const dg_model_params *mp, const dg_real tm, const dg_stage_basis *B,
             const dg_real *geom, const dg_real *h, const dg_lane *xc, const dg_lane *go,
             const dg_lane *gn, const dg_real *tr, const int *noff, dg_lane *L, const int f,
             const int d, const int N, const int Q, const int NX, const int met, const int XF,
             const dg_sphere_src *S, const int uni, const int raw, const dg_real *ax) {
  const int NV = DG_NVAR, side = f % 2, t = 1 - d;
  dg_lane uo[DG_NVAR][DG_MAX_Q], un[DG_NVAR][DG_MAX_Q], G[DG_NVAR][DG_MAX_Q], x[DG_X_LEN];
  DG_UNROLL_ALL
  for (int v = 0; v < NV; ++v) {
    dg_line(go + v * 4 * N, 1, uo[v], 1, N, Q, B->P, 1, 0);
    dg_line(gn + v * 4 * N, 1, un[v], 1, N, Q, B->P, 1, 0);
    if (tr) DG_UNROLL
    for (int p = 0; p < Q; ++p) un[v][p] = dg_lane_trace_pick(un[v][p], tr, noff, v * Q + p);
  }
  dg_x_zero(x);
  dg_lane pole = dg_lane_set(1);
  if (met) { /* the face's own entries (dg_face_trig); theta faces' from the row */
    dg_lane fe[DG_TRIG_N];
    if (d == 0) {
      dg_face_trig(dg_lane_load(S->ft + (2 * side) * DG_W),
                   dg_lane_load(S->ft + (2 * side + 1) * DG_W), fe);
    } else {
      dg_lane rf[2];
      dg_row_fetch(S->tab, S->off, uni, DG_ROW_FACE(N, Q) + 2 * side, 2, rf);
      dg_face_trig(rf[0], rf[1], fe);
      dg_row_fetch(S->tab, S->off, uni, DG_ROW_FACE(N, Q) + 4 + side, 1, &pole);
    }
    DG_UNROLL
    for (int i = 0; i < DG_TRIG_N; ++i)
      if (DG_X_READ(XF, d, DG_X_TRIG(d, i))) x[DG_X_TRIG(d, i)] = fe[i];
  } else if (geom) {
    x[d] = dg_lane_load(geom + (3 * d + 1 + side) * DG_W);
  }
  const dg_lane *xm = NX ? x : 0; /* the position as the model sees it */
  DG_UNROLL
  for (int p = 0; p < Q; ++p) {
    dg_lane ul[DG_NVAR], ur[DG_NVAR];
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) {
      ul[v] = side ? uo[v][p] : un[v][p];
      ur[v] = side ? un[v][p] : uo[v][p];
    }
    if (met)
      dg_point_trig(S, uni, Q, t, p, XF, d, x + DG_X_TRIG(t, 0));
    else if (geom)
      x[t] = xc[t] + (dg_real)0.5 * h[t] * B->x[p];
#if DG_MODEL_NAUX /* the face's own auxiliary values: both sides' (the same bits) */
    dg_lane av[DG_MODEL_NAUX + 1];
    dg_aux_face(ax, f, p, Q * Q, Q, av);
    dg_rusanov(mp, ul, ur, av, xm, tm, d, (dg_real)0.5 * (2 / h[d]), &G[0][p], DG_MAX_Q);
#else
    (void)ax;
    dg_rusanov(mp, ul, ur, 0, xm, tm, d, (dg_real)0.5 * (2 / h[d]), &G[0][p], DG_MAX_Q);
#endif
    if (met && d == 1) /* a pole face carries no flux */
      DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) G[v][p] = G[v][p] * pole;
  }
  DG_UNROLL_ALL
  for (int v = 0; v < NV; ++v) {
    if (raw) { /* dg_team_row_points takes the fluxes themselves */
      DG_UNROLL
      for (int p = 0; p < Q; ++p) L[v * 4 * N + p] = G[v][p];
    } else {
      dg_line(G[v], 1, L + v * 4 * N, 1, Q, N, B->Pw, 0, 0);
    }
  }
}

/* The row's theta mass inverse T (dg_types.h: T = diag(2 / (2b + 1))
 * W^-1 / a^2) applied to a line of theta modes r[b] in place, from the
 * row's table, where there are more points than modes (Q > N; at Q = N
 * phase 4 forms T r at the points instead, dg_team_row_points). */
DG_HD static inline void dg_team_row_mass(const dg_sphere_src *S, const int uni, const int N,
                                          dg_lane *r) {
  dg_lane t[DG_MAX_Q], o[DG_MAX_Q];
  DG_UNROLL
  for (int b = 0; b < N; ++b) {
    dg_row_fetch(S->tab, S->off, uni, b * N, N, t);
    dg_lane acc = dg_lane_set(0);
    DG_UNROLL
    for (int bb = 0; bb < N; ++bb) acc += t[bb] * r[bb];
    o[b] = acc;
  }
  DG_UNROLL
  for (int b = 0; b < N; ++b) r[b] = o[b];
}

/* Mode (a, b) of variable v from its right-hand side: inverse diagonal
 * mass and the fused RK update; with traces at degree changes (TR) the new
 * coefficient is kept in c for phase 5 (only this item reads row b). */
DG_HD static inline void dg_team_rk(const dg_rk_coeffs *rk, dg_lane *c, const dg_lane rhs,
                                    const int v, const int a, const int b, const int N,
                                    const dg_real dt, dg_real *ku, dg_real *u0, dg_real *uw,
                                    const int TR) {
  const int M = N * N, m = a + N * b;
  const dg_lane dtl = rhs * (dg_inv_mass(2, a, b, 0) * dt);
  const dg_lane un = dg_rk_mode(rk, c[v * M + m], dtl, ku, u0, uw, (long)(v * M + m) * DG_W);
  if (TR) c[v * M + m] = un;
}

/* Phase 4 on the sphere at Q = N, item b (the line of theta modes at
 * lambda mode b).  The line's right-hand side r is only ever needed as T r,
 * T the row's theta mass inverse (dg_team_row_mass).  With as many Gauss
 * points as modes the Gauss rule makes P' W P = D = diag(2 / (2b + 1)), so P
 * is invertible with P^-1 = D^-1 P' W, and W_row = P' W C P (C = cos theta
 * at the points) gives T r = P' W J P D^-1 r, J = 1 / (a^2 cos theta) at the
 * points (the row's DG_ROW_JINV: Q entries instead of N^2).  As P D^-1 P' W
 * = I, P D^-1 of each term of r is formed at the points directly: the
 * lambda flux tested along theta (ay) is its own value there, the lambda
 * faces' liftings are their fluxes (phase 3 leaves them raw), the theta
 * faces' are two fixed vectors times a number (B->Lp), the theta flux tested
 * with the derivative is one Q x Q table (B->Dp), and a source (tested like
 * ay, as: NULL without one) is its own value.  Then J and one contraction back to modes: T r to
 * round-off in two contractions where testing r and applying T take four,
 * and the lambda faces are not lifted (docs/ARCHITECTURE.md, "Geometry"). */
DG_HD static inline void dg_team_row_points(const dg_sphere_src *S, const int uni,
                                            const dg_stage_basis *B, const int N, const dg_lane *ax,
                                            const dg_lane *ay, const dg_lane *as, const dg_lane *fn,
                                            const int b, const dg_rk_coeffs *rk, dg_lane *c,
                                            const dg_real dt, dg_real *ku, dg_real *u0, dg_real *uw,
                                            const int TR) {
  const int NV = DG_NVAR, Q = N;
  const dg_real sg = b % 2 ? (dg_real)-1 : (dg_real)1; /* the minus face's P_b(-1) */
  dg_lane jw[DG_MAX_Q];
  dg_row_fetch(S->tab, S->off, uni, DG_ROW_JINV(N), Q, jw);
  DG_UNROLL_ALL
  for (int v = 0; v < NV; ++v) {
    const dg_lane *L = fn + v * 4 * N, *gx = ax + v * Q * N + Q * b;
    const dg_lane *gy = ay + v * Q * N + Q * b;
    dg_lane g[DG_MAX_Q], h[DG_MAX_Q], r[DG_MAX_Q];
    DG_UNROLL
    for (int j = 0; j < Q; ++j) g[j] = gx[j];
    const dg_lane lm = L[2 * N + b], lp = L[3 * N + b];
    DG_UNROLL
    for (int k = 0; k < Q; ++k) {
      dg_lane acc = (gy[k] - L[N + k]) + L[k] * sg;
      if (as) acc += as[v * Q * N + Q * b + k];
      acc += lm * B->Lp[0][k] - lp * B->Lp[1][k];
      DG_UNROLL
      for (int j = 0; j < Q; ++j) acc += g[j] * B->Dp[j][k];
      h[k] = acc * jw[k];
    }
    dg_line(h, 1, r, 1, Q, N, B->Pw, 0, 0);
    DG_UNROLL
    for (int e = 0; e < N; ++e) dg_team_rk(rk, c, r[e], v, b, e, N, dt, ku, u0, uw, TR);
  }
}

/* The update of element `lane` of microblock blk by thread tid of a team of
 * T (CPU: tid 0, T 1, all lanes).  wk: the element's shared scratch,
 * DG_TEAM_WORK(R, Q) lanes.  xs: when the elements lane -+ 1 of the same
 * microblock are updated alongside with their scratch xs lanes from wk (CUDA:
 * one block per microblock), that stride, else 0; then the x-faces shared
 * with them take their own collapsed faces from there instead of loading
 * their coefficients again (the same bits: the same dg_collapse of the same
 * values).  TR is A->nbr_traces, passed apart so that a backend can make it
 * a constant (CUDA: a uniform map's kernel carries none of the trace code).
 * NX as in dg_stage_update: 0 promises a model without coordinates (A->geom
 * NULL), so the position code folds away (CUDA: a kernel of each, the
 * low-degree buckets of a band map being where those instructions count).  XF as in
 * dg_stage_update_xf: a copy per flux variant on the sphere (A->metric);
 * -1: A->metric says at run time, and the position gets every lane; -2: a
 * grid without metric, as a constant (CUDA's kernels for planar grids carry
 * none of the sphere's code; the sphere runs the variants' copies, each with its variant set in
 * its parameters, dg_model_x_flow_set).  On the sphere the position is its trigonometric entries
 * (dg_point_trig: the team keeps no per-element table), the theta faces at a pole carry no flux,
 * the lines run along theta first (D1 = 1: a phase-2 item is a row of points of one theta, a
 * phase-4 item a line of theta modes), and phase 4 applies the row's weighted theta mass inverse
 * along its line (dg_team_row_mass).  2D only.  A model's auxiliary data (DG_MODEL_NAUX) are read
 * where dg_stage_update reads them, from global memory: a phase-2 item its line's volume points'
 * values, a face item its face's; a model without them has no code for it. */
DG_HD static inline void dg_stage_update_team(const dg_stage_args *A, const dg_stage_basis *B,
                                              long blk, int lane, const int tid, const int T,
                                              const int R, const int Q, const int TR, const int NX,
                                              const int XF, dg_lane *wk, const int xs) {
  const int DIM = 2, N = R + 1, M = N * N, NV = DG_NVAR;
  const long bs = blk * (long)(NV * M * DG_W) + lane;
  const dg_real *u = A->u + bs;
  dg_real *uw = A->u_out + bs;
  const int *nbr = A->nbr + blk * (2 * DIM * DG_W) + lane;
  /* the sphere (XF >= 0, or -1 and A->metric): geom holds DG_GEOM_METRIC
     reals per slot (the row table's offset, the lambda faces), no
     coordinates; else a box's coordinates */
  const int sphere = XF >= 0 || (XF == -1 && A->metric);
  const int GS = sphere ? DG_GEOM_METRIC : 3 * DIM;
  /* a flux variant's copy (XF >= 0) runs only with the sphere's geometry
     (the backend picks it where A->geom and A->metric are set), so met is a
     constant there and the planar path is not compiled into it */
  const dg_real *geom = XF >= 0 || (NX && A->geom) ? A->geom + blk * (GS * DG_W) + lane : 0;
  const int met = XF >= 0 || (sphere && geom);
  const int needs_x = geom != 0 && !met;
  dg_sphere_src sph;
  int uni = 0;
  sph.N = N;
  if (met) {
    const dg_real *mtab = A->geom - (A->slot0 / DG_W) * (long)(GS * DG_W);
    sph.off = dg_lane_load(geom);
    uni = dg_lane_uniform(sph.off);
    sph.tab = mtab, sph.ft = geom + DG_W;
  } else {
    sph.off = dg_lane_set(0), sph.tab = sph.ft = 0;
  }
  sph.tt = B->tt; /* on either path, so that CUDA reads it from the constant bank */
  dg_model_params mp = dg_model_unpack(&A->model);
#if DG_MODEL_X_FLOWS
  if (XF >= 0) dg_model_x_flow_set(&mp, XF); /* the copy's variant: the model's test folds */
#endif
  const dg_real h[2] = {A->h[0], A->h[1]}, dt = A->dt, tm = A->t;
#if DG_MODEL_NAUX
  const dg_real *axd = A->aux + blk * (long)(DG_AUX_SIZE(DIM, Q) * DG_W) + lane;
#else
  const dg_real *axd = 0;
#endif
  /* The lines of phases 1 and 4 run along direction D1, phase 2's along D2:
     x then y on a planar grid; on the sphere theta (y) first, so that a
     phase-2 item (a row of points) reads the theta entries of its point
     once, and a phase-4 item holds a whole line of theta modes for the
     row's mass inverse.  sp, ss: the strides in c of the mode index along
     D1 and along D2. */
  const int D1 = sphere ? 1 : 0, D2 = 1 - D1;
  const int sp = D1 ? N : 1, ss = D1 ? 1 : N;
  dg_lane *c = wk;               /* [v][M] the old coefficients */
  dg_lane *ax = c + NV * M;      /* [v][b][k] */
  dg_lane *ay = ax + NV * Q * N; /* [v][b][k] */
  dg_lane *fo = ay + NV * Q * N; /* [v][f][i] own faces collapsed */
  dg_lane *fn = fo + NV * 4 * N; /* [v][f][i] the neighbours' faces collapsed, then the
                                    liftings */
#if DG_MODEL_SOURCE
  dg_lane *as = fn + NV * 4 * N; /* [v][b][k] the source tested along y */
#endif
  /* the x-neighbours in this microblock (not at a periodic wrap) */
  const int near[2] = {xs && lane > 0 && nbr[0] == bs - 1,
                       xs && lane < DG_W - 1 && nbr[DG_W] == bs + 1};
  dg_lane xc[3], x[DG_X_LEN];
  const dg_lane *xm = NX || met ? x : 0; /* the position as the model sees it */
  DG_UNROLL_ALL
  for (int e = 0; e < 3; ++e) xc[e] = dg_lane_set(0);
  dg_x_zero(x);
  if (needs_x) DG_UNROLL_ALL
  for (int e = 0; e < DIM; ++e) xc[e] = dg_lane_load(geom + (3 * e) * DG_W);

  /* 1: line i of the coefficients (mode i along D2), contracted along D1;
     the neighbours' facing sides at tangential index i */
  DG_TEAM_ITEMS(i, N) {
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) {
      dg_lane *ci = c + v * M + ss * i;
      DG_UNROLL
      for (int a = 0; a < N; ++a)
        ci[sp * a] = dg_lane_load(u + (long)(v * M + ss * i + sp * a) * DG_W);
      dg_line(ci, sp, ax + v * Q * N + Q * i, 1, N, Q, B->P, 1, 0);
    }
    DG_UNROLL_ALL
    for (int f = 0; f < 4; ++f) {
      if (f < 2 && near[f]) continue;
      const int d = f / 2, sd = d == 0 ? 1 : N, s1 = d == 0 ? N : 1;
      const int *noff = nbr + f * DG_W;
      int co[DG_VL];
      if (TR) {
        /* lanes whose neighbour is a trace (offset < 0) load from offset 0
           (in bounds; phase 3 drops the values), or skip it all when every
           lane's is */
        int all_traces = 1;
        DG_UNROLL_ALL
        for (int l = 0; l < DG_VL; ++l) {
          co[l] = noff[l] < 0 ? 0 : noff[l];
          all_traces &= noff[l] < 0;
        }
        if (all_traces) continue;
        noff = co;
      }
      const int kind = dg_lane_nbr_kind(noff);
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) {
        dg_lane cl[DG_MAX_Q], lo, hi;
        DG_UNROLL
        for (int n = 0; n < N; ++n)
          cl[n] = dg_lane_nbr_load(A->u, noff, kind, (long)(v * M + n * sd + i * s1));
        dg_collapse(cl, 1, N, &lo, &hi);
        /* across the minus face the neighbour shows its plus side */
        fn[(v * 4 + f) * N + i] = f % 2 ? lo : hi;
      }
    }
  }
  DG_TEAM_SYNC();

  /* 2: values and fluxes on line k of points (point k along D1), tested
     along D2: the flux along D1 with the values (ax), the one along D2 with
     the derivatives (ay); own faces at tangential index k */
  DG_TEAM_ITEMS(k, Q) {
    dg_lane U[DG_NVAR][DG_MAX_Q], Fx[DG_NVAR][DG_MAX_Q], Fy[DG_NVAR][DG_MAX_Q];
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) dg_line(ax + v * Q * N + k, Q, U[v], 1, N, Q, B->P, 1, 0);
    if (needs_x) x[D1] = xc[D1] + (dg_real)0.5 * h[D1] * B->x[k];
    if (met) dg_point_trig(&sph, uni, Q, D1, k, XF, -1, x + DG_X_TRIG(D1, 0));
    DG_UNROLL
    for (int j = 0; j < Q; ++j) {
      dg_lane up[DG_NU], f[DG_NVAR];
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) up[v] = U[v][j];
#if DG_MODEL_NAUX /* point (k, j) along (D1, D2); the data's points run x fastest */
      dg_lane av[DG_MODEL_NAUX];
      dg_aux_vol(axd, D1 ? j + Q * k : k + Q * j, Q * Q, av);
      const dg_lane *am = av;
#else
      const dg_lane *am = 0;
#endif
#if DG_MODEL_NDERIV
      dg_model_derive(&mp, up, am);
#endif
      if (needs_x) x[D2] = xc[D2] + (dg_real)0.5 * h[D2] * B->x[j];
      if (met) dg_point_trig(&sph, uni, Q, D2, j, XF, -1, x + DG_X_TRIG(D2, 0));
      dg_model_flux(&mp, up, am, xm, tm, D1, f);
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) Fx[v][j] = f[v] * (2 / h[D1]);
      dg_model_flux(&mp, up, am, xm, tm, D2, f);
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) Fy[v][j] = f[v] * (2 / h[D2]);
#if DG_MODEL_SOURCE
      dg_model_source(&mp, up, am, xm, tm, f);
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) U[v][j] = f[v]; /* U[v][j] is not read again */
#endif
    }
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) {
      dg_line(Fx[v], 1, ax + v * Q * N + k, Q, Q, N, B->Pw, 0, 0);
      dg_line(Fy[v], 1, ay + v * Q * N + k, Q, Q, N, B->Dw, 0, 1);
#if DG_MODEL_SOURCE
      dg_line(U[v], 1, as + v * Q * N + k, Q, Q, N, B->Pw, 0, 0);
#endif
    }
    if (k < N) DG_UNROLL_ALL
    for (int d = 0; d < DIM; ++d) {
      const int sd = d == 0 ? 1 : N, s1 = d == 0 ? N : 1;
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v)
        dg_collapse(c + v * M + k * s1, sd, N, &fo[(v * 4 + 2 * d) * N + k],
                    &fo[(v * 4 + 2 * d + 1) * N + k]);
    }
  }
  DG_TEAM_SYNC();

  /* 3: face f, one item: both sides' values at the face points, Rusanov
     fluxes, lifting onto the tangential modes (into fn[f], which only this
     item reads) */
  DG_TEAM_ITEMS(f, 4) {
    /* the neighbour's side: its own collapse across the face, or ours */
#if DG_TEAM_NEAR_SELECT
    const int nf = f == 0 ? near[0] : f == 1 && near[1];
    const dg_lane *gn = nf ? fo + (f ? xs : -xs) + (f ^ 1) * N : fn + f * N;
#else
    const dg_lane *gn = f < 2 && near[f] ? fo + (f ? xs : -xs) + (f ^ 1) * N : fn + f * N;
#endif
    const dg_real *tr = TR ? A->trace : 0;
    if (f < 2) /* d a constant in each copy: x stays in registers */
      dg_team_face(&mp, tm, B, geom, h, xc, fo + f * N, gn, tr, nbr + f * DG_W, fn + f * N, f, 0, N,
                   Q, NX, met, XF, &sph, uni, met && Q == N, axd);
    else
      dg_team_face(&mp, tm, B, geom, h, xc, fo + f * N, gn, tr, nbr + f * DG_W, fn + f * N, f, 1, N,
                   Q, NX, met, XF, &sph, uni, 0, axd);
  }
  DG_TEAM_SYNC();

  /* 4: line b of modes (mode b along D2): volume tests along D1, the
     liftings (the minus face adds F psi(-1) = F (-1)^n, the plus face
     subtracts F), on the sphere the row's theta mass inverse along the line
     (dg_team_row_mass), inverse mass and the RK update */
  const dg_rk_coeffs rk = A->rk;
  dg_real *ku = A->k ? A->k + bs : 0;
  dg_real *u0 = A->u0 ? A->u0 + bs : 0;
  DG_TEAM_ITEMS(b, N) {
    if (met && Q == N) {
#if DG_MODEL_SOURCE
      dg_team_row_points(&sph, uni, B, N, ax, ay, as, fn, b, &rk, c, dt, ku, u0, uw, TR);
#else
      dg_team_row_points(&sph, uni, B, N, ax, ay, 0, fn, b, &rk, c, dt, ku, u0, uw, TR);
#endif
      continue;
    }
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) {
      dg_lane r1[DG_MAX_Q], r2[DG_MAX_Q];
      const dg_lane *L = fn + v * 4 * N;
      dg_line(ax + v * Q * N + Q * b, 1, r1, 1, Q, N, B->Dw, 0, 1);
      dg_line(ay + v * Q * N + Q * b, 1, r2, 1, Q, N, B->Pw, 0, 0);
#if DG_MODEL_SOURCE
      {
        dg_lane r3[DG_MAX_Q];
        dg_line(as + v * Q * N + Q * b, 1, r3, 1, Q, N, B->Pw, 0, 0);
        DG_UNROLL
        for (int a = 0; a < N; ++a) r2[a] += r3[a];
      }
#endif
      dg_lane rr[DG_MAX_Q]; /* the sphere: the line's right-hand sides */
      DG_UNROLL
      for (int e = 0; e < N; ++e) {                /* mode e along D1 */
        const int a = D1 ? b : e, bm = D1 ? e : b; /* mode (a, bm) */
        const dg_lane sx = a % 2 ? L[bm] * (dg_real)-1 : L[bm];
        const dg_lane sy = bm % 2 ? L[2 * N + a] * (dg_real)-1 : L[2 * N + a];
        const dg_lane rhs = ((r1[e] + r2[e]) + (sx - L[N + bm])) + (sy - L[3 * N + a]);
        if (met)
          rr[e] = rhs;
        else
          dg_team_rk(&rk, c, rhs, v, a, bm, N, dt, ku, u0, uw, TR);
      }
      if (met) {
        dg_team_row_mass(&sph, uni, N, rr);
        DG_UNROLL
        for (int e = 0; e < N; ++e) dg_team_rk(&rk, c, rr[e], v, b, e, N, dt, ku, u0, uw, TR);
      }
    }
  }
  if (!TR) return;
  DG_TEAM_SYNC();

  /* 5: the new coefficients' values on face f, where a neighbour of another
     degree reads them as its trace in the next update: the calls that give
     its own side in phases 2 and 3 (and the trace pass), so the same bits */
  dg_real *tw = A->trace_out + (A->slot0 / DG_W + blk) * (long)(4 * NV * Q * DG_W) + lane;
  DG_TEAM_ITEMS(f, 4) {
    int any = 0;
    DG_UNROLL_ALL
    for (int l = 0; l < DG_VL; ++l) any |= nbr[f * DG_W + l] < 0;
    if (!any) continue;
    const int d = f / 2, sd = d == 0 ? 1 : N, s1 = d == 0 ? N : 1;
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) {
      dg_lane g[DG_MAX_Q], val[DG_MAX_Q];
      DG_UNROLL
      for (int i = 0; i < N; ++i) {
        dg_lane lo, hi;
        dg_collapse(c + v * M + i * s1, sd, N, &lo, &hi);
        g[i] = f % 2 ? hi : lo;
      }
      dg_line(g, 1, val, 1, N, Q, B->P, 1, 0);
      DG_UNROLL
      for (int p = 0; p < Q; ++p) dg_lane_store(tw + (long)((f * NV + v) * Q + p) * DG_W, val[p]);
    }
  }
}
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

#endif
