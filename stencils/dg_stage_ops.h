/* dg_stage_ops.h - the element operators the DG stages (dg_stages.h,
 * dg_team.h, dg_stage_rate.h) are built from, written once for every
 * backend: the 1D contractions of the sum-factorised operators, the face
 * values and the traces stored for the neighbours, the Rusanov flux, the
 * inverse diagonal mass and the fused RK update of one element.
 *
 * Mode (a,b,c) of P_a(xi)P_b(eta)P_c(zeta) is mode index a + N*(b + N*c),
 * point (k0,k1,k2) is k0 + Q*(k1 + Q*k2); face f = 2*d + side (side 0: the
 * face at xi_d = -1); face points run over the tangential directions in
 * increasing order, the first fastest. */
#ifndef DG_STAGE_OPS_H
#define DG_STAGE_OPS_H

#include "dg_basis.h"
#include "dg_lane.h"
#include "dg_stage_args.h"
#include "dg_stage_model.h"

#define DG_POW(x, dim)         ((dim) == 3 ? (x) * (x) * (x) : (x) * (x))
#define DG_FACE_POINTS(dim, q) ((dim) == 3 ? (q) * (q) : (q))

/* One line of a 1D contraction with the table T: nin values x[0], x[sx], ..
 * into nout values y[0], y[sy], ..
 * to_points: y[k] = sum_a x[a] T[a][k]   (modes -> points, nout points)
 * otherwise: y[a] = sum_k x[k] T[a][k]   (points -> modes, nin points)
 * The Gauss points are symmetric and row a of T has parity (-1)^(a+par)
 * (par 0: P_a, par 1: P_a'), T[a][Q-1-k] = (-1)^(a+par) T[a][k], so the sum
 * is split into even and odd parts over point pairs (k, Q-1-k): half the
 * multiply-adds, and only the first ceil(Q/2) columns of T read. */
DG_HD static inline void dg_line(const dg_lane *x, const int sx, dg_lane *y, const int sy,
                                 const int nin, const int nout, const dg_tab (*T)[DG_MAX_Q],
                                 const int to_points, const int par) {
  const int nq = to_points ? nout : nin, h = nq / 2, odd = nq % 2;
  if (to_points) {
    DG_UNROLL
    for (int k = 0; k < h + odd; ++k) {
      dg_lane e = dg_lane_set(0), o = dg_lane_set(0);
      DG_UNROLL
      for (int a = 0; a < nin; ++a) {
        if ((a + par) % 2 == 0)
          e += x[sx * a] * T[a][k];
        else
          o += x[sx * a] * T[a][k];
      }
      if (k < h) {
        y[sy * k] = e + o;
        y[sy * (nq - 1 - k)] = e - o;
      } else {
        y[sy * k] = e; /* the middle point x = 0: the odd part vanishes */
      }
    }
  } else {
    dg_lane s[DG_MAX_Q / 2 + 1], d[DG_MAX_Q / 2];
    DG_UNROLL
    for (int k = 0; k < h; ++k) {
      s[k] = x[sx * k] + x[sx * (nq - 1 - k)];
      d[k] = x[sx * k] - x[sx * (nq - 1 - k)];
    }
    if (odd) s[h] = x[sx * h];
    DG_UNROLL
    for (int a = 0; a < nout; ++a) {
      dg_lane acc = dg_lane_set(0);
      if ((a + par) % 2 == 0) {
        DG_UNROLL
        for (int k = 0; k < h + odd; ++k) acc += s[k] * T[a][k];
      } else {
        DG_UNROLL
        for (int k = 0; k < h; ++k) acc += d[k] * T[a][k];
      }
      y[sy * a] = acc;
    }
  }
}

/* Contract `in` along direction dir with the table T (dg_line on every line).
 * in has extents (n0, n1, n2), x fastest; out the same with nout along dir. */
DG_HD static inline void dg_contract(const dg_lane *in, dg_lane *out, const int n0, const int n1,
                                     const int n2, const int dir, const int nout,
                                     const dg_tab (*T)[DG_MAX_Q], const int to_points,
                                     const int par) {
  const int nin = dir == 0 ? n0 : (dir == 1 ? n1 : n2);
  const int npre = dir == 0 ? 1 : (dir == 1 ? n0 : n0 * n1);
  const int npost = dir == 0 ? n1 * n2 : (dir == 1 ? n2 : 1);
  DG_UNROLL_ALL
  for (int ip = 0; ip < npost; ++ip) DG_UNROLL_ALL
  for (int i = 0; i < npre; ++i)
    dg_line(in + i + npre * nin * ip, npre, out + i + npre * nout * ip, npre, nin, nout, T,
            to_points, par);
}

/* The N modes c[0], c[sd], .. of one line along a normal direction at the
 * two ends: P_n(-1) = (-1)^n and P_n(+1) = 1, so the even and odd sums give
 * *lo = e - o (at -1) and *hi = e + o (at +1). */
DG_HD static inline void dg_collapse(const dg_lane *c, const int sd, const int N, dg_lane *lo,
                                     dg_lane *hi) {
  dg_lane e = dg_lane_set(0), o = dg_lane_set(0);
  DG_UNROLL
  for (int n = 0; n < N; ++n) {
    if (n % 2 == 0)
      e += c[n * sd];
    else
      o += c[n * sd];
  }
  *lo = e - o;
  *hi = e + o;
}

/* Values of the element's expansion c (one variable, N^DIM modes) at the
 * QF = Q^(DIM-1) points of the faces of direction d: the face at xi_d = -1
 * into lo (when bit 0 of `sides` is set), the one at +1 into hi (bit 1).
 * g and t are scratch of 2*N^(DIM-1) and Q*N lanes.  Every face value of
 * the stages comes from here (the trace pass, the update's own faces and,
 * with nbr_coeffs, its neighbours' faces), so both sides of a face always
 * see the same bits. */
DG_HD static inline void dg_face_dir(const dg_stage_basis *B, const dg_lane *c, dg_lane *lo,
                                     dg_lane *hi, const int sides, dg_lane *g, dg_lane *t,
                                     const int DIM, const int N, const int Q, const int d) {
  const int NF = DIM == 3 ? N * N : N;
  const int sd = d == 0 ? 1 : (d == 1 ? N : N * N);
  const int s1 = d == 0 ? N : 1;     /* first tangential stride */
  const int s2 = d == 2 ? N : N * N; /* second tangential (3D) */
  const int n2 = DIM == 3 ? N : 1;
  /* collapse the normal direction with P_n(+-1) = (+-1)^n: the even and odd
     mode sums give both sides, e - o at -1 (g) and e + o at +1 (g+NF) */
  DG_UNROLL_ALL
  for (int j = 0; j < n2; ++j) DG_UNROLL_ALL
  for (int i = 0; i < N; ++i) {
    dg_lane lo_, hi_;
    dg_collapse(c + i * s1 + j * s2, sd, N, &lo_, &hi_);
    if (sides & 1) g[i + N * j] = lo_;
    if (sides & 2) g[NF + i + N * j] = hi_;
  }
  DG_UNROLL_ALL
  for (int side = 0; side < 2; ++side) {
    if (!(sides & (1 << side))) continue;
    dg_lane *val = side ? hi : lo;
    if (DIM == 2) {
      dg_contract(g + side * NF, val, N, 1, 1, 0, Q, B->P, 1, 0);
    } else {
      dg_contract(g + side * NF, t, N, N, 1, 0, Q, B->P, 1, 0);
      dg_contract(t, val, Q, N, 1, 1, Q, B->P, 1, 0);
    }
  }
}

/* Values of c on all 2*DIM faces: out[f*QF + p] (scratch as dg_face_dir). */
DG_HD static inline void dg_face_values(const dg_stage_basis *B, const dg_lane *c, dg_lane *out,
                                        dg_lane *g, dg_lane *t, const int DIM, const int N,
                                        const int Q) {
  const int QF = DIM == 3 ? Q * Q : Q;
  DG_UNROLL_DIR
  for (int d = 0; d < DIM; ++d)
    dg_face_dir(B, c, out + 2 * d * QF, out + (2 * d + 1) * QF, 3, g, t, DIM, N, Q, d);
}

/* Store face values fv[v][f][p] of one microblock into the trace array. */
DG_HD static inline void dg_store_traces(dg_real *tr, const dg_lane *fv, const int DIM,
                                         const int Q) {
  const int QF = DIM == 3 ? Q * Q : Q;
  DG_UNROLL_ALL
  for (int f = 0; f < 2 * DIM; ++f) DG_UNROLL_ALL
  for (int v = 0; v < DG_NVAR; ++v) DG_UNROLL_ALL
  for (int p = 0; p < QF; ++p)
    dg_lane_store(tr + (long)((f * DG_NVAR + v) * QF + p) * DG_W, fv[(v * 2 * DIM + f) * QF + p]);
}

/* Rusanov flux through a face of direction d at one point, from the states
 * ul (the element on the minus side) and ur, scaled by hs:
 * G[v*sG] = hs ((f(ul) + f(ur)) - alpha (ur - ul)), alpha the larger wave
 * speed.  Both elements of a face call it with the same bits. */
DG_HD static inline void dg_rusanov(const dg_model_params *mp, const dg_lane *ul, const dg_lane *ur,
                                    const dg_lane *a, const dg_lane *x, const dg_real t,
                                    const int d, const dg_real hs, dg_lane *G, const int sG) {
  dg_lane fl[DG_NVAR], fr[DG_NVAR];
#if DG_MODEL_NDERIV
  /* the two states with the model's derived values (dg_stage_model.h) */
  dg_lane el[DG_NU], er[DG_NU];
  DG_UNROLL_ALL
  for (int v = 0; v < DG_NVAR; ++v) el[v] = ul[v], er[v] = ur[v];
  dg_model_derive(mp, el, a);
  dg_model_derive(mp, er, a);
  ul = el, ur = er;
#endif
  dg_model_flux(mp, ul, a, x, t, d, fl);
  dg_model_flux(mp, ur, a, x, t, d, fr);
  const dg_lane alpha =
      dg_lane_max(dg_model_max_speed(mp, ul, a, x, t, d), dg_model_max_speed(mp, ur, a, x, t, d));
  DG_UNROLL_ALL
  for (int v = 0; v < DG_NVAR; ++v) G[v * sG] = ((fl[v] + fr[v]) - alpha * (ur[v] - ul[v])) * hs;
}

/* The inverse of the diagonal mass matrix at mode (a, b, cc) (reference
 * element; cc unused in 2D).  Taking the mode's indices, not its number,
 * keeps integer divisions out of loops that stay rolled (CPU, 3D GPU), where
 * they were a visible share of the update's instructions. */
DG_HD static inline dg_real dg_inv_mass(const int DIM, const int a, const int b, const int cc) {
  const dg_real s = (dg_real)(2 * a + 1) * (dg_real)(2 * b + 1) / 4;
  return DIM == 3 ? s * (dg_real)(2 * cc + 1) / 2 : s;
}

/* The fused RK update of the coefficient at offset o (dg_rk_coeffs) with
 * old value cm and dtl = dt M^-1 L(u) there; ku, u0 and uw are the element's
 * k, u0 and output (ku and u0 may be NULL when the scheme does not use
 * them).  Returns the new value. */
DG_HD static inline dg_lane dg_rk_mode_as(const dg_rk_coeffs *rk, const dg_lane cm,
                                          const dg_lane dtl, dg_real *ku, dg_real *u0, dg_real *uw,
                                          const long o, const int use_k, const int use_u0,
                                          const int save_u0) {
  dg_lane un = cm * rk->ua + dtl * rk->ul;
  if (use_k) {
    const dg_lane kn = dg_lane_load(ku + o) * rk->ka + dtl * rk->kc;
    dg_lane_store(ku + o, kn);
    un += kn * rk->uk;
  }
  if (use_u0) un += dg_lane_load(u0 + o) * rk->u0a;
  if (save_u0) dg_lane_store(u0 + o, cm);
  dg_lane_store(uw + o, un);
  return un;
}
/* The same with the scheme's flags from rk (dg_rk_mode_as takes them as
 * arguments, so that a caller can make them constants). */
DG_HD static inline dg_lane dg_rk_mode(const dg_rk_coeffs *rk, const dg_lane cm, const dg_lane dtl,
                                       dg_real *ku, dg_real *u0, dg_real *uw, const long o) {
  return dg_rk_mode_as(rk, cm, dtl, ku, u0, uw, o, rk->use_k, rk->use_u0, rk->save_u0);
}

/* Inverse mass and the fused RK update of all modes of one element (the
 * old coefficients from u, dt M^-1 L(u) from rhs scaled here); the new
 * coefficients go to c as well.  use_k, use_u0, save_u0 as in rk (see
 * dg_stage_update: constants there on the CPU). */
DG_HD static inline void dg_rk_element(const dg_rk_coeffs *rk, const dg_real *u, const dg_lane *rhs,
                                       dg_lane *c, dg_real *ku, dg_real *u0, dg_real *uw,
                                       const dg_real dt, const int DIM, const int N,
                                       const int use_k, const int use_u0, const int save_u0) {
  const int M = DG_POW(N, DIM);
  DG_UNROLL_ALL
  for (int v = 0; v < DG_NVAR; ++v) DG_UNROLL_ALL
  for (int mc = 0; mc < (DIM == 3 ? N : 1); ++mc) DG_UNROLL_ALL
  for (int mb = 0; mb < N; ++mb) {
    /* dg_inv_mass(DIM, ma, mb, mc) is that of (0, mb, mc) times 2 ma + 1,
       exactly (small integers over 4 or 8); as lanes, so the CPU needs no
       scalar product and broadcast per mode */
    const dg_lane sbc = dg_lane_set(dg_inv_mass(DIM, 0, mb, mc));
    DG_UNROLL
    for (int ma = 0; ma < N; ++ma) {
      const int m = ma + N * (mb + N * mc);
      const long o = (long)(v * M + m) * DG_W;
      const dg_lane dtl = rhs[v * M + m] * ((sbc * (dg_real)(2 * ma + 1)) * dt);
      c[v * M + m] =
          dg_rk_mode_as(rk, dg_lane_load(u + o), dtl, ku, u0, uw, o, use_k, use_u0, save_u0);
    }
  }
}

#endif
