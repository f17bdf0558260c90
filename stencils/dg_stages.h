/* dg_stages.h - the DG stages, written once for every backend.
 *
 * A stage computes one microblock of DG_W elements of one degree R (CPU: all
 * lanes at once; CUDA: the lane `lane` of the block, one element per
 * thread).  R, Q and DIM are passed as arguments; the backends call these
 * functions from wrappers where they are compile-time constants, so after
 * inlining every loop bound is known and the loops unroll.
 *
 * One RK stage is one pass over all buckets:
 *   dg_stage_update: Rusanov fluxes from its own face values and the
 *                    neighbours' stored traces, lifting, volume term,
 *                    inverse diagonal mass, fused RK update, and the traces
 *                    of the new coefficients for the next stage (a second
 *                    buffer).
 *   dg_stage_trace : coefficients -> values on the 2*DIM faces (at the
 *                    common Q^(DIM-1) face points), stored per slot; run only
 *                    when the coefficients changed outside the update.
 * Because the update reads neighbours only through traces, it may write its
 * coefficients in place.  With nbr_coeffs (uniform maps, a backend's choice)
 * it computes the neighbours' face values from their coefficients instead,
 * reads no traces and writes none, and puts the new coefficients into a
 * second buffer (u_out) while the neighbours still read the old ones.
 * All element operators are sum-factorised: one 1D contraction per direction
 * (dg_contract), O(Q^(DIM+1)) work per element.
 *
 * Layouts (modes, points, faces): dg_stage_ops.h. */
#ifndef DG_STAGES_H
#define DG_STAGES_H

#include "dg_basis.h"
#include "dg_lane.h"
#include "dg_stage_args.h"
#include "dg_stage_model.h"
#include "dg_stage_geom.h"
#include "dg_stage_ops.h"

#ifndef DG_PREFETCH_AHEAD
#define DG_PREFETCH_AHEAD 1 /* microblocks */
#endif
/* From this much scratch per microblock (bytes) the update prefetches the
 * next microblock's streams into L2 only: into L1 they evicted the scratch
 * and were evicted before use; with less scratch L1 is faster
 * (docs/ARCHITECTURE.md, "One time step": dg_prefetch). */
#ifndef DG_PREFETCH_L2_FROM
#define DG_PREFETCH_L2_FROM 8192
#endif
/* Scratch (in dg_lane units) a stage needs for degree r, Q points. */
#define DG_STAGE_WORK(dim, r, q)                                                                   \
  (DG_NVAR * (2 * DG_POW((r) + 1, dim) + DG_FACE_POINTS(dim, q) * ((r) + 1) +                      \
              (2 * (dim) + 3) * DG_FACE_POINTS(dim, q) +                                           \
              2 * (((q) + 1) / 2) * (DG_FACE_POINTS(dim, q) + DG_FACE_POINTS(dim, (r) + 1))) +     \
   2 * DG_FACE_POINTS(dim, (r) + 1) + ((dim) == 3 ? (q) * ((r) + 1) * ((r) + 1) : (q)) +           \
   ((r) + 1) * ((r) + 1) DG_STAGE_WORK_DERIV(dim, q))
/* the model's derived values on a chunk's slabs (dg_stage_model.h) */
#if DG_MODEL_NDERIV
#define DG_STAGE_WORK_DERIV(dim, q) +DG_MODEL_NDERIV * 2 * (((q) + 1) / 2) * DG_FACE_POINTS(dim, q)
#else
#define DG_STAGE_WORK_DERIV(dim, q)
#endif

/* Trace pass: only needed when the coefficients changed outside the update
 * (initial data, restart); the update writes the next stage's traces itself. */
DG_HD static inline void dg_stage_trace(const dg_stage_args *A, const dg_stage_basis *B, long blk,
                                        int lane, const int DIM, const int R, const int Q,
                                        dg_lane *wk) {
  const int N = R + 1, M = DG_POW(N, DIM), QF = DIM == 3 ? Q * Q : Q;
  const dg_real *u = A->u + blk * (long)(DG_NVAR * M * DG_W) + lane;
  dg_real *tr = A->trace + (A->slot0 / DG_W + blk) * (long)(2 * DIM * DG_NVAR * QF * DG_W) + lane;
  const int NF = DIM == 3 ? N * N : N;
  dg_lane *c = wk, *fv = c + M, *g = fv + DG_NVAR * 2 * DIM * QF, *t = g + 2 * NF;
  DG_UNROLL_ALL
  for (int v = 0; v < DG_NVAR; ++v) {
    DG_UNROLL_ALL
    for (int m = 0; m < M; ++m) c[m] = dg_lane_load(u + (long)(v * M + m) * DG_W);
    dg_face_values(B, c, fv + v * 2 * DIM * QF, g, t, DIM, N, Q);
  }
  dg_store_traces(tr, fv, DIM, Q);
}

/* The update.  NBRC is A->nbr_coeffs, passed apart so that a backend can make
 * it a constant (CUDA: one kernel per value, so neither carries the other's
 * registers).  NX 0 says that the model needs no coordinates (A->geom is
 * NULL), as a constant: then every branch on the position folds away (in
 * a low-degree update those branches are a visible share of the
 * instructions); NX 1: A->geom decides at run time;
 * NX 2: also the sides of a box with boundaries (A->bc).  The CUDA backend
 * runs NX 2 only for a grid with boundaries: the exterior state's call takes
 * the scratch's address, which would move a whole element's registers to
 * local memory (2D degree 1 and 3 ran 3.9x slower); the CPU's generic copy
 * is NX 2.  XF: the model's flux variant that this copy runs (a constant,
 * dg_model_x_flow gives the running one; docs/ARCHITECTURE.md, "Geometry"):
 * the position gets only the lanes that variant reads (DG_X_READ); -1 (as
 * dg_stage_update calls it): all lanes. */
DG_HD static inline void dg_stage_update_xf(const dg_stage_args *A, const dg_stage_basis *B,
                                            long blk, int lane, const int DIM, const int R,
                                            const int Q, const int NBRC, const int NX, const int XF,
                                            dg_lane *wk) {
  const int N = R + 1, M = DG_POW(N, DIM), QF = DIM == 3 ? Q * Q : Q;
  const int NF = DIM == 3 ? N * N : N;
  const int NV = DG_NVAR;
  const long bs = blk * (long)(NV * M * DG_W) + lane;
  const dg_real *u = A->u + bs;
  dg_real *uw = (A->u_out ? A->u_out : A->u) + bs; /* where the new coefficients go */
  const long tslot = 2 * DIM * NV * QF * DG_W;
  const int *nbr = A->nbr + blk * (2 * DIM * DG_W) + lane;
  /* geom reals per slot: a box's coordinates (centre and faces per
     direction), with boundaries 2*DIM masks after them; the sphere's
     DG_GEOM_METRIC and no coordinates (never both) */
  const int GS = (A->metric ? DG_GEOM_METRIC : 3 * DIM) + (A->bc ? 2 * DIM : 0);
  const dg_real *geom = NX && A->geom ? A->geom + blk * (GS * DG_W) + lane : 0;
  /* a copy per flux variant (XF >= 0) runs on the sphere only (the backend
     picks it there), so that position and metric are constants in it */
  const int needs_x = XF >= 0 || geom != 0;
  /* a box with boundaries (A->bc, which brings geom): the sides' kinds, the
     model's inflow data before the first slot's geometry */
  const int bnd = NX == 2 && geom && A->bc;
#if DG_MODEL_BOUNDARY
  const dg_real *bdat = bnd ? A->geom - (A->slot0 / DG_W) * (long)(GS * DG_W) - DG_BDATA_REALS : 0;
#else
  const dg_real *bdat = 0;
#endif
  /* the sphere (A->metric): the row table's offset (moff; uni: the whole
     microblock in one row), the lambda faces' cos and sin (ft), the
     bucket's angle table (tt); from them the trigonometric entries at the
     Gauss points (once per element into trg where DG_TRIG_ONCE, else at
     each point: dg_trig_at) and from the row the theta faces' cos and sin and pole
     masks (rowf, DG_ROW_FACE) */
  const int met = XF >= 0 || (NX && geom && A->metric);
  const dg_real *mtab = met ? A->geom - (A->slot0 / DG_W) * (long)(GS * DG_W) : 0;
  const dg_real *tt = met ? mtab - DG_TRIG_LEN : 0, *ft = met ? geom + DG_W : 0;
  dg_lane moff = dg_lane_set(0), trg[DG_TRIG_ONCE ? 2 * DG_TRIG_N * DG_MAX_Q : 1], rowf[6];
  dg_sphere_src sph;     /* set on the sphere only (the planar grids skip its setup) */
  const dg_lane *tg = 0; /* trg where it is set: gcc cannot tie a read of trg to met */
  int uni = 0;
  if (met) {
    moff = dg_lane_load(geom);
    uni = dg_lane_uniform(moff);
    sph.tt = tt, sph.ft = ft, sph.tab = mtab, sph.off = moff, sph.N = N;
    if (DG_TRIG_ONCE) dg_sphere_trig(&sph, uni, Q, XF, trg);
    dg_row_fetch(mtab, moff, uni, DG_ROW_FACE(N, Q), 6, rowf);
    tg = trg;
  }
  const int QV = QF * Q;
  const dg_real *ax = DG_MODEL_NAUX ? A->aux + blk * (long)(DG_AUX_SIZE(DIM, Q) * DG_W) + lane : 0;
  dg_lane av[DG_MODEL_NAUX + 1];
  const dg_lane *am = DG_MODEL_NAUX ? av : 0; /* the auxiliary values as the model sees them */
  /* local copies: the stores below could alias *A as far as the compiler
     knows, so without them every point would reload and re-broadcast these */
  dg_model_params mp = dg_model_unpack(&A->model);
#if DG_MODEL_X_FLOWS
  if (XF >= 0) dg_model_x_flow_set(&mp, XF); /* the copy's variant: the model's test folds */
#endif
  const dg_real h[3] = {A->h[0], A->h[1], A->h[2]}, dt = A->dt, tm = A->t;

  /* scratch, see DG_STAGE_WORK */
  dg_lane *c = wk, *tv = c + NV * M, *rhs = tv + NV * QF * N;
  dg_lane *fv = rhs + NV * M;                    /* own face values [v][f][p] */
  dg_lane *G = fv + NV * 2 * DIM * QF;           /* face fluxes [side][v][p] */
  const int NS = 2 * ((Q + 1) / 2);              /* slabs of the largest chunk of pairs */
  dg_lane *us = G + 2 * NV * QF;                 /* values on a chunk's slabs [slab][v][p] */
  dg_lane *fs = us + NS * NV * QF;               /* flux on one slab [v][p] */
  dg_lane *st = fs + NV * QF;                    /* slab fluxes tested in-slab [slab][v][i] */
  dg_lane *gf = st + NS * NV * NF;               /* face-value collapse, 2 N^(DIM-1) */
  dg_lane *t1 = gf + 2 * NF;                     /* contraction scratch */
  dg_lane *t2 = t1 + (DIM == 3 ? Q * N * N : Q); /* N^2, the 3D lifting */
#if DG_MODEL_NDERIV
  dg_lane *ud = t2 + N * N; /* the model's derived values on a chunk's slabs [slab][i][p] */
#endif
  dg_lane xc[3], x[DG_X_LEN], up[DG_NU], f[DG_NVAR];
  const dg_lane *xm = NX ? x : 0; /* the position as the model sees it */
  DG_UNROLL_ALL
  for (int e = 0; e < 3; ++e) xc[e] = dg_lane_set(0);
  /* x is read only where the model takes a position (NX): zeroing it in
     the NX = 0 copy changed that copy's register allocation */
  if (NX) dg_x_zero(x);
  /* the centre where some direction reads the coordinate (or a boundary
     face's exterior state needs it); the sphere has none */
  if (needs_x && !met) DG_UNROLL_ALL
  for (int e = 0; e < DIM; ++e)
    if (DG_X_READ(XF, -1, e) || bnd) xc[e] = dg_lane_load(geom + (3 * e) * DG_W);

  /* the streams of a later block (CPU only: DG_PREFETCH is 0 on the GPU, so
     not even the neighbour offsets are read there) */
  if (DG_PREFETCH && blk + DG_PREFETCH_AHEAD < A->blk0 + A->nblock) {
    const int l2 = DG_STAGE_WORK(DIM, R, Q) * (long)sizeof(dg_lane) >= DG_PREFETCH_L2_FROM;
    const long ahead = DG_PREFETCH_AHEAD * (long)(NV * M * DG_W);
    const long bytes = (long)sizeof(dg_real) * NV * M * DG_W;
    dg_prefetch(u + ahead - lane, bytes, l2);
    if (A->k) dg_prefetch(A->k + bs + ahead - lane, bytes, l2);
    if (A->u0) dg_prefetch(A->u0 + bs + ahead - lane, bytes, l2);
    const int *nb = nbr + DG_PREFETCH_AHEAD * (2 * DIM * DG_W) - lane;
    for (int fc = 0; fc < 2 * DIM; ++fc) {
      if (NBRC)
        dg_prefetch(A->u + nb[fc * DG_W], bytes, l2);
      else
        dg_prefetch(A->trace + nb[fc * DG_W], (long)sizeof(dg_real) * NV * QF * DG_W, l2);
      /* the last lane's neighbour too: where the neighbours are shifted
         (dg_lane_nbr_kind > 0, e.g. a row of the sphere that does not fill
         whole microblocks) they run on into another microblock, whose
         values missed the cache (2D degree 1 on 724 x 362 elements: a
         quarter of the sphere's update waited on that load).  Only where
         the neighbours are not one whole microblock, and not in the
         constant-velocity copy (NX = 0), which stays as measured. */
      const int nlast = nb[fc * DG_W + DG_W - 1];
      if (NX && nlast != nb[fc * DG_W] + DG_W - 1) {
        if (NBRC)
          dg_prefetch(A->u + nlast, bytes, l2);
        else
          dg_prefetch(A->trace + nlast, (long)sizeof(dg_real) * NV * QF * DG_W, l2);
      }
    }
    if (A->reuse_traces)
      dg_prefetch(A->trace + (A->slot0 / DG_W + blk + DG_PREFETCH_AHEAD) * tslot,
                  (long)sizeof(dg_real) * tslot, l2);
      /* the auxiliary data: a stream of its own, as long as the state's or
         longer, that the hardware prefetcher left to miss at its first read
         (the volume term's); a model without them has no code here */
#if DG_MODEL_NAUX
    dg_prefetch(ax + DG_PREFETCH_AHEAD * (long)(DG_AUX_SIZE(DIM, Q) * DG_W) - lane,
                (long)sizeof(dg_real) * DG_AUX_SIZE(DIM, Q) * DG_W, l2);
#endif
    if (met) /* the sphere's geometry: many lines a microblock that miss the cache
                at low degree; a planar position's few lines are left to the
                hardware prefetcher, which served them better */
      dg_prefetch(geom + DG_PREFETCH_AHEAD * (GS * DG_W) - lane, (long)sizeof(dg_real) * GS * DG_W,
                  l2);
  }

  /* The update is ordered so that little is alive at once (one thread holds
   * a whole element on the GPU, where the scratch is registers): the
   * coefficients are needed only to start the volume term (contracted in all
   * but the last direction: tv) and for the own face values; the surface
   * term goes into rhs next, while tv waits; the volume term then runs over
   * pairs of slabs (index l and Q-1-l along the last direction), so only two
   * slabs of point values are alive; the RK update reads the old
   * coefficients again. */
  const dg_real *own = A->reuse_traces ? A->trace + (A->slot0 / DG_W + blk) * tslot + lane : 0;
  DG_UNROLL_ALL
  for (int v = 0; v < NV; ++v) {
    dg_lane *cv = c + v * M;
    DG_UNROLL
    for (int m = 0; m < M; ++m) {
      cv[m] = dg_lane_load(u + (long)(v * M + m) * DG_W);
      rhs[v * M + m] = dg_lane_set(0);
    }
    if (DIM == 2) {
      dg_contract(cv, tv + v * QF * N, N, N, 1, 0, Q, B->P, 1, 0);
    } else {
      dg_contract(cv, t1, N, N, N, 0, Q, B->P, 1, 0);
      dg_contract(t1, tv + v * QF * N, Q, N, N, 1, Q, B->P, 1, 0);
    }
    if (A->reuse_traces) {
      DG_UNROLL_ALL
      for (int fc = 0; fc < 2 * DIM; ++fc) DG_UNROLL_ALL
      for (int p = 0; p < QF; ++p)
        fv[(v * 2 * DIM + fc) * QF + p] = dg_lane_load(own + (long)((fc * NV + v) * QF + p) * DG_W);
    } else {
      dg_face_values(B, cv, fv + v * 2 * DIM * QF, gf, t1, DIM, N, Q);
    }
  }

  /* surface: Rusanov flux on each face from the two traces, then lifting */
  DG_UNROLL_DIR
  for (int d = 0; d < DIM; ++d) {
    const dg_real scale = 2 / h[d];
    const int sd = d == 0 ? 1 : (d == 1 ? N : N * N);
    const int s1 = d == 0 ? N : 1, s2 = d == 2 ? N : N * N;
    const int t1d = d == 0 ? 1 : 0, t2d = d == 2 ? 1 : 2; /* tangential directions */
    DG_UNROLL_ALL
    for (int side = 0; side < 2; ++side) {
      const int fc = 2 * d + side;
      /* the sphere: the face's own entries (dg_face_trig), once per face */
      dg_lane xf = dg_lane_set(0), fe[DG_TRIG_N];
      if (DIM == 2 && met)
        dg_face_trig(d == 0 ? dg_lane_load(ft + (2 * side) * DG_W) : rowf[2 * side],
                     d == 0 ? dg_lane_load(ft + (2 * side + 1) * DG_W) : rowf[2 * side + 1], fe);
      if (needs_x && !met && (DG_X_READ(XF, d, d) || bnd)) /* the sphere has no coordinates */
        xf = dg_lane_load(geom + (3 * d + 1 + side) * DG_W);
      /* a boundary side of the box: its kind and, per lane, 1 where this
         face lies on it; a microblock without such a face skips it */
      int bk = bnd ? (A->bc >> (2 * fc)) & 3 : 0;
      dg_lane bm = dg_lane_set(0);
      if (bk) {
        bm = dg_lane_load(geom + (3 * DIM + fc) * DG_W);
        if (!dg_lane_any(bm)) bk = 0;
      }
      /* the neighbours' traces: vector loads where the neighbours are whole
         or shifted microblocks (dg_lane_nbr_kind), a gather elsewhere */
      const int *noff = nbr + fc * DG_W;
      const int kind = dg_lane_nbr_kind(noff);
      dg_lane *Gs = G + side * NV * QF;
      /* the neighbour's facing values into this side's flux slots (each
         point's flux overwrites its own values): from the neighbour's
         coefficients (c is free until the RK update), or its traces */
      if (NBRC) {
        DG_UNROLL_ALL
        for (int v = 0; v < NV; ++v) {
          dg_lane_nbr_load_n(A->u, noff, kind, (long)(v * M), M, c);
          dg_face_dir(B, c, Gs + v * QF, Gs + v * QF, 2 >> side, gf, t1, DIM, N, Q, d);
        }
      } else {
        dg_lane_nbr_load_n(A->trace, noff, kind, 0, NV * QF, Gs);
      }
      if (bk) /* a face on a boundary side: the exterior state instead */
        dg_exterior(&mp, bdat, bk, bm, fv + fc * QF, 2 * DIM * QF, Gs, ax, xf, xc, h, B, tm, DIM, Q,
                    fc);
      DG_UNROLL
      for (int p = 0; p < QF; ++p) {
        const int p1 = p % Q, p2 = p / Q;
        dg_lane uo[DG_NVAR], un[DG_NVAR];
        DG_UNROLL_ALL
        for (int v = 0; v < NV; ++v) {
          uo[v] = fv[(v * 2 * DIM + fc) * QF + p];
          un[v] = Gs[v * QF + p];
        }
        const dg_lane *ul = side ? uo : un, *ur = side ? un : uo;
        if (needs_x) { /* the lanes this direction reads (DG_X_READ) */
          if (DG_X_READ(XF, d, d)) x[d] = xf;
          if (DG_X_READ(XF, d, t1d)) x[t1d] = xc[t1d] + (dg_real)0.5 * h[t1d] * B->x[p1];
          if (DIM == 3 && DG_X_READ(XF, d, t2d))
            x[t2d] = xc[t2d] + (dg_real)0.5 * h[t2d] * B->x[p2];
        }
        if (DIM == 2 && met) { /* the face's own entries, the tangential point's */
          DG_UNROLL
          for (int i = 0; i < DG_TRIG_N; ++i)
            if (DG_X_READ(XF, d, DG_X_TRIG(d, i))) x[DG_X_TRIG(d, i)] = fe[i];
          dg_trig_at(&sph, tg, Q, t1d, p1, XF, d, x);
        }
        if (DG_MODEL_NAUX) dg_aux_face(ax, fc, p, QV, QF, av);
        dg_rusanov(&mp, ul, ur, am, xm, tm, d, (dg_real)0.5 * scale, Gs + p, QF);
        if (met && d == DIM - 1) /* a pole face carries no flux */
          DG_UNROLL_ALL
        for (int v = 0; v < NV; ++v) Gs[v * QF + p] = Gs[v * QF + p] * rowf[4 + side];
      }
    }
    /* lifting: the minus face adds F psi(-1) = F (-1)^n, the plus face
       subtracts F psi(+1) = F, so the even modes n get G- - G+ and the odd
       ones -(G- + G+): two liftings of the combined fluxes, each scattered
       into half of the modes */
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v) {
      dg_lane *gm = G + v * QF, *gp = G + (NV + v) * QF;
      DG_UNROLL
      for (int p = 0; p < QF; ++p) {
        const dg_lane a = gm[p], b = gp[p];
        gm[p] = a - b;
        gp[p] = a + b;
      }
      dg_lane *r = rhs + v * M;
      const int n2 = DIM == 3 ? N : 1;
      DG_UNROLL_ALL
      for (int par = 0; par < 2; ++par) {
        const dg_lane *hs = t1;
        if (DIM == 2) {
          dg_contract(par ? gp : gm, t1, Q, 1, 1, 0, N, B->Pw, 0, 0);
        } else {
          dg_contract(par ? gp : gm, t1, Q, Q, 1, 0, N, B->Pw, 0, 0);
          dg_contract(t1, t2, N, Q, 1, 1, N, B->Pw, 0, 0);
          hs = t2;
        }
        DG_UNROLL_ALL
        for (int n = par; n < N; n += 2) DG_UNROLL_ALL
        for (int j = 0; j < n2; ++j) DG_UNROLL_ALL
        for (int i = 0; i < N; ++i) {
          if (par)
            r[n * sd + i * s1 + j * s2] -= hs[i + N * j];
          else
            r[n * sd + i * s1 + j * s2] += hs[i + N * j];
        }
      }
    }
  }

  /* volume: sum_d int f_d dpsi/dx_d over pairs of slabs.  The last
     direction is contracted with the even/odd split of dg_contract: point
     values on slabs l and Q-1-l are e + o and e - o, and a slab pair tests
     mode n with T[n][l] (s_l +- s_{Q-1-l}) (T[n][Q-1-l] = +-T[n][l]).  The
     quadrature weights sit in the test tables Pw and Dw.  The pairs come in
     chunks of nc: all of them at once (the CPU, and the GPU below
     DG_ROLL_SLABS_FROM points: rhs is read and written once per direction),
     or one pair per turn of a rolled loop (the GPU from there on, so that
     only one pair's values are alive, see DG_ROLL). */
  const int hq = Q / 2, oq = Q % 2, nl = hq + oq;
  const int nc = Q >= DG_ROLL_SLABS_FROM ? 1 : nl;
  DG_ROLL
  for (int l0 = 0; l0 < nl; l0 += nc) {
    DG_UNROLL_SLABS
    for (int ic = 0; ic < nc; ++ic) {
      const int l = l0 + ic, mid = l == hq; /* the middle slab of an odd Q has no partner */
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) {
        const dg_lane *t = tv + v * QF * N;
        dg_lane *u0 = us + (2 * ic * NV + v) * QF, *u1 = u0 + NV * QF;
        DG_UNROLL
        for (int p = 0; p < QF; ++p) {
          dg_lane e = dg_lane_set(0), o = dg_lane_set(0);
          DG_UNROLL
          for (int n = 0; n < N; ++n) {
            if (n % 2 == 0)
              e += t[p + QF * n] * B->P[n][l];
            else if (!mid)
              o += t[p + QF * n] * B->P[n][l];
          }
          u0[p] = e + o;
          u1[p] = e - o;
        }
      }
    }
    /* d = DIM: the model's source, tested with the values in every
       direction (scale 1: the Jacobian cancels against the mass matrix's) */
    DG_UNROLL_DIR
    for (int d = 0; d < DIM + DG_MODEL_SOURCE; ++d) {
      const dg_real scale = d < DIM ? 2 / h[d] : 1;
      DG_UNROLL_SLABS
      for (int ic = 0; ic < nc; ++ic) {
        const int l = l0 + ic, mid = l == hq;
        DG_UNROLL_ALL
        for (int s = 0; s < 2 - mid; ++s) {
          const dg_lane *ucs = us + (2 * ic + s) * NV * QF;
          DG_UNROLL
          for (int p = 0; p < QF; ++p) {
            DG_UNROLL_ALL
            for (int v = 0; v < NV; ++v) up[v] = ucs[v * QF + p];
            if (needs_x) dg_slab_x(h, B, xc, DIM, Q, p, s ? Q - 1 - l : l, met, &sph, tg, XF, d, x);
            if (DG_MODEL_NAUX) dg_aux_vol(ax, p + QF * (s ? Q - 1 - l : l), QV, av);
#if DG_MODEL_NDERIV
            /* the model's derived values: formed in the first direction's
               pass, kept for the other directions and the source */
            dg_lane *uds = ud + (2 * ic + s) * DG_MODEL_NDERIV * QF + p;
            if (d == 0) dg_model_derive(&mp, up, am);
            DG_UNROLL_ALL
            for (int i = 0; i < DG_MODEL_NDERIV; ++i) {
              if (d == 0)
                uds[i * QF] = up[NV + i];
              else
                up[NV + i] = uds[i * QF];
            }
#endif
#if DG_MODEL_SOURCE
            if (d == DIM)
              dg_model_source(&mp, up, am, xm, tm, f);
            else
#endif
              dg_model_flux(&mp, up, am, xm, tm, d, f);
            DG_UNROLL_ALL
            for (int v = 0; v < NV; ++v) fs[v * QF + p] = f[v] * scale;
          }
          /* test within the slab: the gradient table along d, values elsewhere */
          DG_UNROLL_ALL
          for (int v = 0; v < NV; ++v) {
            dg_lane *sv = st + ((2 * ic + s) * NV + v) * NF;
            if (DIM == 2) {
              dg_contract(fs + v * QF, sv, Q, 1, 1, 0, N, d == 0 ? B->Dw : B->Pw, 0, d == 0);
            } else {
              dg_contract(fs + v * QF, t1, Q, Q, 1, 0, N, d == 0 ? B->Dw : B->Pw, 0, d == 0);
              dg_contract(t1, sv, N, Q, 1, 1, N, d == 1 ? B->Dw : B->Pw, 0, d == 1);
            }
          }
        }
      }
      /* test along the last direction: the chunk's pairs summed in a register */
      const int par = d == DIM - 1;
      const dg_tab(*TL)[DG_MAX_Q] = par ? B->Dw : B->Pw;
      DG_UNROLL_ALL
      for (int v = 0; v < NV; ++v) {
        dg_lane *r = rhs + v * M;
        DG_UNROLL
        for (int i = 0; i < NF; ++i) {
          dg_lane sm[DG_MAX_Q / 2 + 1], df[DG_MAX_Q / 2 + 1];
          DG_UNROLL_SLABS
          for (int ic = 0; ic < nc; ++ic) {
            const int mid = l0 + ic == hq;
            const dg_lane s0 = st[(2 * ic * NV + v) * NF + i];
            const dg_lane s1 = mid ? s0 : st[((2 * ic + 1) * NV + v) * NF + i];
            sm[ic] = mid ? s0 : s0 + s1;
            df[ic] = s0 - s1;
          }
          DG_UNROLL
          for (int n = 0; n < N; ++n) {
            dg_lane acc = r[i + NF * n];
            DG_UNROLL_SLABS
            for (int ic = 0; ic < nc; ++ic) {
              if ((n + par) % 2 == 0)
                acc += sm[ic] * TL[n][l0 + ic];
              else if (l0 + ic != hq)
                acc += df[ic] * TL[n][l0 + ic];
            }
            r[i + NF * n] = acc;
          }
        }
      }
    }
  }

  /* the sphere: the row's weighted theta mass inverse (its table already
     holds the factor 2 / (2 b + 1) that dg_rk_element's diagonal
     multiplies back), applied in the theta index; c is free until the RK
     update and holds a copy of rhs meanwhile */
  if (met) dg_row_mass(mtab, moff, uni, rhs, c, N);

  /* inverse diagonal mass and the fused RK update */
  const dg_rk_coeffs rk = A->rk;
  dg_real *ku = A->k ? A->k + bs : 0;
  dg_real *u0 = A->u0 ? A->u0 + bs : 0;
  /* the CPU compiles the loop once for each common scheme shape (Euler: no
     flags, LSRK4: k only), so no mode branches on the flags in the inner
     loop; the GPU keeps one copy (DG_RK_UNSWITCH 0: its
     registers are the limit there) */
  if (DG_RK_UNSWITCH && !rk.use_u0 && !rk.save_u0 && !rk.use_k)
    dg_rk_element(&rk, u, rhs, c, ku, u0, uw, dt, DIM, N, 0, 0, 0);
  else if (DG_RK_UNSWITCH && !rk.use_u0 && !rk.save_u0)
    dg_rk_element(&rk, u, rhs, c, ku, u0, uw, dt, DIM, N, 1, 0, 0);
  else
    dg_rk_element(&rk, u, rhs, c, ku, u0, uw, dt, DIM, N, rk.use_k, rk.use_u0, rk.save_u0);

  /* the next stage's traces, while the new coefficients are at hand */
  if (A->trace_out) {
    DG_UNROLL_ALL
    for (int v = 0; v < NV; ++v)
      dg_face_values(B, c + v * M, fv + v * 2 * DIM * QF, gf, t1, DIM, N, Q);
    dg_store_traces(A->trace_out + (A->slot0 / DG_W + blk) * tslot + lane, fv, DIM, Q);
  }
}

/* dg_stage_update_xf forming every lane of the position (XF = -1). */
DG_HD static inline void dg_stage_update(const dg_stage_args *A, const dg_stage_basis *B, long blk,
                                         int lane, const int DIM, const int R, const int Q,
                                         const int NBRC, const int NX, dg_lane *wk) {
  dg_stage_update_xf(A, B, blk, lane, DIM, R, Q, NBRC, NX, -1, wk);
}

#endif
