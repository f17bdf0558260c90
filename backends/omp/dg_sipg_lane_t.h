/* dg_sipg_lane_t.h - the element arithmetic of dg_sipg_elem_t.h for a run of
 * DG_SLW elements at once, one element per SIMD lane (the CPU's form: the
 * OpenMP driver calls it on runs of consecutive elements of one degree).
 * The formulas and their order are those of dg_sipg_elem_r and
 * dg_sblock_solve, each scalar of an element becoming a GCC vector over the
 * run (two divisions become products with the reciprocal: 2/h, the block's
 * eigenvalue sum), so the results agree with the element functions to
 * round-off (tests/solvers/test_solvers_lane.c, ctest solvers.lane).
 * The including file (dg_sop_lane.inc, one unit per precision and degree
 * compiled when a run needs it) defines DG_SR, DG_SN(name), DG_SLW (lanes
 * of DG_SR in one SIMD register, a preprocessor number) and DG_SRI (the
 * integer type of DG_SR's size, for shuffle masks); CPU only (GCC vector
 * extensions), never read by nvcc.  No include guard.
 *
 * Lane layout: X[i] (a GCC vector of DG_SLW reals) holds mode i of the run's
 * elements, lane l element l: every operation below is one SIMD
 * instruction for the whole run. */

/* Inlined where the unit calls them with its constant degree: constant trip
 * counts, unrolled.  DG_SLMAX, the largest element a run takes, is
 * dg_sop_lane.h's (the driver checks it without these functions). */
#define DG_SLINL __attribute__((always_inline))

/* A register of DG_SLW reals and the shuffle masks of a DG_SLW x DG_SLW
 * transpose (GCC vector extensions): stage k swaps bit k of the row and
 * column indices, so the stages k = 1, 2, 4, .. transpose. */
typedef DG_SR DG_SN(dg_slv) __attribute__((vector_size(DG_SLW * sizeof(DG_SR))));
typedef DG_SRI DG_SN(dg_slm) __attribute__((vector_size(DG_SLW * sizeof(DG_SR))));
#define DG_SL_MLO(k, j) (((j) & (k)) ? DG_SLW + (j) - (k) : (j))
#define DG_SL_MHI(k, j) (((j) & (k)) ? DG_SLW + (j) : (j) + (k))
#define DG_SL_I2(F, k)  F(k, 0), F(k, 1)
#define DG_SL_I4(F, k)  DG_SL_I2(F, k), F(k, 2), F(k, 3)
#define DG_SL_I8(F, k)  DG_SL_I4(F, k), F(k, 4), F(k, 5), F(k, 6), F(k, 7)
#define DG_SL_I16(F, k)                                                                            \
  DG_SL_I8(F, k), F(k, 8), F(k, 9), F(k, 10), F(k, 11), F(k, 12), F(k, 13), F(k, 14), F(k, 15)
#if DG_SLW == 16
#define DG_SL_IW DG_SL_I16
#elif DG_SLW == 8
#define DG_SL_IW DG_SL_I8
#elif DG_SLW == 4
#define DG_SL_IW DG_SL_I4
#else
#define DG_SL_IW DG_SL_I2
#endif

#define DG_SL_STAGE(k)                                                                             \
  {                                                                                                \
    const DG_SN(dg_slm) lo = {DG_SL_IW(DG_SL_MLO, k)}, hi = {DG_SL_IW(DG_SL_MHI, k)};              \
    for (int i = 0; i < DG_SLW; ++i)                                                               \
      if (!(i & (k))) {                                                                            \
        const DG_SN(dg_slv) a = R[i], b = R[i + (k)];                                              \
        R[i] = __builtin_shuffle(a, b, lo);                                                        \
        R[i + (k)] = __builtin_shuffle(a, b, hi);                                                  \
      }                                                                                            \
  }

/* R = R^T (row i: R[i]). */
static inline DG_SLINL void DG_SN(dg_sl_transpose)(DG_SN(dg_slv) * R) {
  DG_SL_STAGE(1)
#if DG_SLW > 2
  DG_SL_STAGE(2)
#endif
#if DG_SLW > 4
  DG_SL_STAGE(4)
#endif
#if DG_SLW > 8
  DG_SL_STAGE(8)
#endif
}

/* Masks of the lane rotations: lane j takes lane j + 1 (MRP) or j - 1 (MRM). */
#define DG_SL_MRP(k, j) (((j) + 1) % DG_SLW)
#define DG_SL_MRM(k, j) (((j) + DG_SLW - 1) % DG_SLW)

/* Fewer modes than lanes, m = 2, 4 or 8: the run's m DG_SLW reals are m
 * registers V, element l's mode i at entry l m + i of them all; log2 m
 * rounds of splitting each pair of registers into its even and its odd
 * entries (V[2j], V[2j+1] -> V[j], V[j + m/2]) give V[i][l] = mode i of
 * element l.  dg_sl_reshuffle is the inverse round, as often. */
#define DG_SL_MEV(k, j)  (2 * (j))
#define DG_SL_MOD(k, j)  (2 * (j) + 1)
#define DG_SL_MILO(k, j) (((j)&1) ? DG_SLW + (j) / 2 : (j) / 2)
#define DG_SL_MIHI(k, j) (((j)&1) ? DG_SLW + DG_SLW / 2 + (j) / 2 : DG_SLW / 2 + (j) / 2)
static inline DG_SLINL int DG_SN(dg_sl_pow2)(const int m) {
  return m < DG_SLW && (m == 2 || m == 4 || m == 8);
}
static inline DG_SLINL void DG_SN(dg_sl_unshuffle)(DG_SN(dg_slv) * V, const int m) {
  const DG_SN(dg_slm) ev = {DG_SL_IW(DG_SL_MEV, 0)}, od = {DG_SL_IW(DG_SL_MOD, 0)};
  for (int s = 1; s < m; s *= 2) {
    DG_SN(dg_slv) W[8];
    for (int j = 0; j < m / 2; ++j) {
      W[j] = __builtin_shuffle(V[2 * j], V[2 * j + 1], ev);
      W[j + m / 2] = __builtin_shuffle(V[2 * j], V[2 * j + 1], od);
    }
    for (int j = 0; j < m; ++j) V[j] = W[j];
  }
}
static inline DG_SLINL void DG_SN(dg_sl_reshuffle)(DG_SN(dg_slv) * V, const int m) {
  const DG_SN(dg_slm) lo = {DG_SL_IW(DG_SL_MILO, 0)}, hi = {DG_SL_IW(DG_SL_MIHI, 0)};
  for (int s = 1; s < m; s *= 2) {
    DG_SN(dg_slv) W[8];
    for (int j = 0; j < m / 2; ++j) {
      W[2 * j] = __builtin_shuffle(V[j], V[j + m / 2], lo);
      W[2 * j + 1] = __builtin_shuffle(V[j], V[j + m / 2], hi);
    }
    for (int j = 0; j < m; ++j) V[j] = W[j];
  }
}

static inline DG_SLINL void DG_SN(dg_sl_load_p2)(const DG_SR *src, const int m, DG_SN(dg_slv) * X) {
  for (int k = 0; k < m; ++k) memcpy(&X[k], src + (long)k * DG_SLW, sizeof X[k]);
  DG_SN(dg_sl_unshuffle)(X, m);
}
static inline DG_SLINL void DG_SN(dg_sl_store_p2)(const DG_SN(dg_slv) * X, const int m,
                                                  DG_SR *dst) {
  DG_SN(dg_slv) V[8];
  for (int k = 0; k < m; ++k) V[k] = X[k];
  DG_SN(dg_sl_reshuffle)(V, m);
  for (int k = 0; k < m; ++k) memcpy(dst + (long)k * DG_SLW, &V[k], sizeof V[k]);
}

/* X = the m modes of the run's elements, stored one after the other from src
 * (one degree: consecutive elements are contiguous): DG_SLW x DG_SLW blocks
 * transposed in registers, the last block overlapping the one before it
 * (the same values written twice); fewer modes than lanes by the rounds
 * above (m = 2, 4, 8) or one by one. */
static inline DG_SLINL void DG_SN(dg_sl_load)(const DG_SR *src, const int m, DG_SN(dg_slv) * X) {
  if (DG_SN(dg_sl_pow2)(m)) { /* m a constant in each copy (dim is not) */
    if (m == 4)
      DG_SN(dg_sl_load_p2)(src, 4, X);
    else if (m == 8)
      DG_SN(dg_sl_load_p2)(src, 8, X);
    else
      DG_SN(dg_sl_load_p2)(src, 2, X);
    return;
  }
  if (m < DG_SLW) {
    for (int i = 0; i < m; ++i)
      for (int l = 0; l < DG_SLW; ++l) X[i][l] = src[(long)l * m + i];
    return;
  }
  for (int i0 = 0; i0 < m; i0 += DG_SLW) {
    const int ib = i0 + DG_SLW <= m ? i0 : m - DG_SLW;
    DG_SN(dg_slv) R[DG_SLW];
    for (int l = 0; l < DG_SLW; ++l) memcpy(&R[l], src + (long)l * m + ib, sizeof R[l]);
    DG_SN(dg_sl_transpose)(R);
    for (int j = 0; j < DG_SLW; ++j) X[ib + j] = R[j];
  }
}

/* The inverse: dst = X in element order. */
static inline DG_SLINL void DG_SN(dg_sl_store)(const DG_SN(dg_slv) * X, const int m, DG_SR *dst) {
  if (DG_SN(dg_sl_pow2)(m)) {
    if (m == 4)
      DG_SN(dg_sl_store_p2)(X, 4, dst);
    else if (m == 8)
      DG_SN(dg_sl_store_p2)(X, 8, dst);
    else
      DG_SN(dg_sl_store_p2)(X, 2, dst);
    return;
  }
  if (m < DG_SLW) {
    for (int i = 0; i < m; ++i)
      for (int l = 0; l < DG_SLW; ++l) dst[(long)l * m + i] = X[i][l];
    return;
  }
  for (int i0 = 0; i0 < m; i0 += DG_SLW) {
    const int ib = i0 + DG_SLW <= m ? i0 : m - DG_SLW;
    DG_SN(dg_slv) R[DG_SLW];
    for (int j = 0; j < DG_SLW; ++j) R[j] = X[ib + j];
    DG_SN(dg_sl_transpose)(R);
    for (int l = 0; l < DG_SLW; ++l) memcpy(dst + (long)l * m + ib, &R[l], sizeof R[l]);
  }
}

/* dg_sface_trace on the lanes (lim = r): the value and physical normal
 * derivative on side s of direction d, tr/dn[t0 + DG_SNR t1]. */
static inline DG_SLINL void DG_SN(dg_sl_trace)(const DG_SN(dg_stab) * T, int dim, int d, int s,
                                               const int r, DG_SR h, const DG_SN(dg_slv) * X,
                                               DG_SN(dg_slv) * tr, DG_SN(dg_slv) * dn) {
  int td[2];
  DG_SN(dg_stang)(dim, d, td);
  const int n = r + 1;
  const long str[3] = {1, n, (long)n * n};
  const long sd = str[d], s0 = str[td[0]], s1 = td[1] >= 0 ? str[td[1]] : 0;
  const int l1 = td[1] >= 0 ? r : 0;
  const DG_SR sc = (DG_SR)2 / h;
  for (int t1 = 0; t1 <= l1; ++t1)
    for (int t0 = 0; t0 <= r; ++t0) {
      const DG_SN(dg_slv) *ut = X + t0 * s0 + t1 * s1;
      DG_SN(dg_slv) v = ut[0] * T->Pe[s][0], g = ut[0] * T->De[s][0];
      for (int a = 1; a <= r; ++a) {
        v += T->Pe[s][a] * ut[a * sd];
        g += T->De[s][a] * ut[a * sd];
      }
      tr[t0 + DG_SNR * t1] = v;
      dn[t0 + DG_SNR * t1] = sc * g;
    }
}

/* Lane l of tr/dn = the trace (side s, direction d) of the element with
 * coefficients u (degree r), computed by the element function. */
static inline DG_SLINL void DG_SN(dg_sl_trace1)(const DG_SN(dg_stab) * T, int dim, int d, int s,
                                                const int r, DG_SR h, const DG_SR *u, int l,
                                                DG_SN(dg_slv) * tr, DG_SN(dg_slv) * dn) {
  DG_SR t1[DG_SNR * DG_SNR], d1[DG_SNR * DG_SNR];
  DG_SN(dg_sface_trace)(T, dim, d, s, r, r, h, u, t1, d1);
  const int l1 = dim == 3 ? r : 0;
  for (int b = 0; b <= l1; ++b)
    for (int a = 0; a <= r; ++a) {
      tr[a + DG_SNR * b][l] = t1[a + DG_SNR * b];
      dn[a + DG_SNR * b][l] = d1[a + DG_SNR * b];
    }
}

/* dg_sipg_elem_r on the run e0 .. e0 + DG_SLW - 1 of one row of direction 0,
 * all of degree r and so are their face neighbours (the driver checks):
 * y = (a M + b K) u on their test functions.  Direction 0's neighbours are
 * the run's own lanes shifted by one (the two ends' outer neighbours by the
 * element trace); directions 1 and 2 see one neighbouring run each (or a
 * Dirichlet boundary for all lanes). */
static inline DG_SLINL void DG_SN(dg_sipg_lane_r)(const DG_SN(dg_sargs) * A,
                                                  const DG_SN(dg_stab) * T, long e0, const DG_SR *u,
                                                  DG_SR *y, const int r) {
  typedef DG_SN(dg_slv) V;
  enum { W = DG_SLW };
  const int dim = A->dim, n = r + 1;
  const int n1 = n, n2 = dim == 3 ? n : 1, m = n * n1 * n2;
  V U[DG_SLMAX], Y[DG_SLMAX], N[DG_SLMAX];
  /* the run's traces on both sides of a direction, the neighbours' facing them */
  V tr[2][DG_SNR * DG_SNR], dv[2][DG_SNR * DG_SNR], trn[DG_SNR * DG_SNR], dnn[DG_SNR * DG_SNR];
  DG_SN(dg_sl_load)(u + A->off[e0], m, U);
  const long str[3] = {1, n, (long)n * n};
  DG_SR half[3], w[3];
  for (int d = 0; d < 3; ++d) half[d] = d < dim ? A->h[d] / 2 : 1;
  for (int d = 0; d < dim; ++d) w[d] = half[0] * half[1] * half[2] / (half[d] * half[d]);
  const DG_SR vol = half[0] * half[1] * half[2];
  /* volume: sum_d w_d (K in d, M in the others) + a M */
  for (int i2 = 0; i2 < n2; ++i2)
    for (int i1 = 0; i1 < n1; ++i1)
      for (int i0 = 0; i0 < n; ++i0) {
        const int ii[3] = {i0, i1, i2};
        const long mi = i0 + str[1] * i1 + str[2] * i2;
        DG_SR mt[3];
        for (int d = 0; d < 3; ++d) mt[d] = d < dim ? T->M[ii[d]] : 1;
        V acc = (A->a * vol * mt[0] * mt[1] * mt[2]) * U[mi];
        for (int d = 0; d < dim; ++d) {
          const long base = mi - ii[d] * str[d];
          const int q0 = ii[d] & 1;
          V k = T->K[ii[d]][q0] * U[base + q0 * str[d]];
          for (int q = q0 + 2; q < n; q += 2) k += T->K[ii[d]][q] * U[base + q * str[d]];
          acc += (A->b * w[d] * (mt[0] * mt[1] * mt[2] / mt[d])) * k;
        }
        Y[mi] = acc;
      }
  /* faces: -{du/dn}[v] - {dv/dn}[u] + sigma [u][v] */
  const long ijk[3] = {e0 % A->n[0], (e0 / A->n[0]) % A->n[1], e0 / ((long)A->n[0] * A->n[1])};
  for (int d = 0; d < dim; ++d) {
    int td[2];
    DG_SN(dg_stang)(dim, d, td);
    const DG_SR h = A->h[d], ih2 = 2 / h;
    const DG_SR J = vol / half[d];
    const int l1 = td[1] >= 0 ? r : 0;
    /* the run's own traces on both sides */
    for (int s = 0; s < 2; ++s) DG_SN(dg_sl_trace)(T, dim, d, s, r, h, U, tr[s], dv[s]);
    for (int s = 0; s < 2; ++s) {
      const DG_SR sg = s ? (DG_SR)1 : (DG_SR)-1;
      long nbl[W];
      if (d == 0) {
        /* lane l's neighbour is lane l -+ 1 (its other side's trace, shifted
           by a lane); the end lane's is outside the run */
        const int le = s ? W - 1 : 0;
        for (int l = 0; l < W; ++l) nbl[l] = e0 + l + (s ? 1 : -1);
        nbl[le] = DG_SN(dg_snbr)(A, e0 + le, 0, s);
        for (int t1 = 0; t1 <= l1; ++t1)
          for (int t0 = 0; t0 <= r; ++t0) {
            const int t = t0 + DG_SNR * t1;
            /* lane l takes lane l + 1 (s = 1) or l - 1 of its row's traces */
            const DG_SN(dg_slm) rp = {DG_SL_IW(DG_SL_MRP, 0)}, rm = {DG_SL_IW(DG_SL_MRM, 0)};
            trn[t] = __builtin_shuffle(tr[1 - s][t], s ? rp : rm);
            dnn[t] = __builtin_shuffle(dv[1 - s][t], s ? rp : rm);
          }
        if (nbl[le] >= 0)
          DG_SN(dg_sl_trace1)(T, dim, 0, 1 - s, r, h, u + A->off[nbl[le]], le, trn, dnn);
        else
          for (int t1 = 0; t1 <= l1; ++t1)
            for (int t0 = 0; t0 <= r; ++t0)
              trn[t0 + DG_SNR * t1][le] = dnn[t0 + DG_SNR * t1][le] = 0;
      } else {
        const long nb0 = DG_SN(dg_snbr_ijk)(A, e0, ijk, d, s);
        for (int l = 0; l < W; ++l) nbl[l] = nb0 < 0 ? -1 : nb0 + l;
        if (nb0 >= 0) {
          /* the neighbouring run's coefficients in lane layout */
          DG_SN(dg_sl_load)(u + A->off[nb0], m, N);
          DG_SN(dg_sl_trace)(T, dim, d, 1 - s, r, h, N, trn, dnn);
        } else {
          const V zero = {0};
          for (int t1 = 0; t1 <= l1; ++t1)
            for (int t0 = 0; t0 <= r; ++t0) trn[t0 + DG_SNR * t1] = dnn[t0 + DG_SNR * t1] = zero;
        }
      }
      /* the penalty (the larger penalty degree of the two sides) and the
         average's weight per lane, then sigma as a vector */
      V pq, wavg;
      if (A->pdu1) {
        /* one penalty degree on the level: the same values without the lane
           loop (an absent neighbour counts 0, so pm is the level's degree);
           only direction 0's end lane or a whole run of another direction
           can lack a neighbour */
        const V zero = {0};
        pq = zero + (DG_SR)(A->pdu1 * A->pdu1);
        wavg = zero + (DG_SR)0.5;
        if (d == 0) {
          const int le = s ? W - 1 : 0;
          if (nbl[le] < 0) wavg[le] = 1;
        } else if (nbl[0] < 0) {
          wavg = zero + (DG_SR)1;
        }
      } else {
        for (int l = 0; l < W; ++l) {
          const int pe = A->pdeg[e0 + l], pn = nbl[l] >= 0 ? A->pdeg[nbl[l]] : 0;
          const int pm = pn > pe ? pn : pe;
          pq[l] = (DG_SR)((pm + 1) * (pm + 1));
          wavg[l] = nbl[l] >= 0 ? (DG_SR)0.5 : (DG_SR)1;
        }
      }
      const V sigma = A->cpen * pq / h;
      for (int t1 = 0; t1 <= l1; ++t1)
        for (int t0 = 0; t0 <= r; ++t0) {
          const int t = t0 + DG_SNR * t1;
          const DG_SR mt = J * T->M[t0] * (td[1] >= 0 ? T->M[t1] : (DG_SR)1) * A->b;
          /* an absent neighbour's trace is zero: jo and av are then the
             element's own, as in dg_sipg_elem_r */
          const V jo = tr[s][t] - trn[t];
          const V av = wavg * dv[s][t] + wavg * dnn[t];
          const V g1 = mt * (sigma * jo - sg * av), g2 = ((-mt * sg) * jo * wavg) * ih2;
          const long yt = t0 * str[td[0]] + (td[1] >= 0 ? t1 * str[td[1]] : 0);
          for (int q = 0; q < n; ++q) Y[yt + q * str[d]] += T->Pe[s][q] * g1 + T->De[s][q] * g2;
        }
    }
  }
  DG_SN(dg_sl_store)(Y, m, y + A->off[e0]);
}

/* dg_sblock_solve on a run of DG_SLW elements of degree r that share the 1D
 * factors V, lam (the same keys); rv and z in element order from the run's
 * first element. */
static inline DG_SLINL void DG_SN(dg_sblock_lane_r)(int dim, const int r, const DG_SR *const V[3],
                                                    const DG_SR *const lam[3], DG_SR shift,
                                                    const DG_SR *rv, DG_SR *z) {
  const int n = r + 1, n2 = dim == 3 ? n : 1;
  const long str[3] = {1, n, (long)n * n};
  const int m = n * n * n2;
  DG_SN(dg_slv) X[DG_SLMAX], Z[DG_SLMAX];
  DG_SN(dg_sl_load)(rv, m, X);
  DG_SN(dg_slv) *w = X, *zz = Z;
  /* forward: V^T along every direction (ping-pong between X and Z) */
  for (int d = 0; d < dim; ++d) {
    const DG_SR *Vd = V[d];
    for (long i = 0; i < m; ++i) {
      const int id = (int)((i / str[d]) % n);
      const long base = i - id * str[d];
      DG_SN(dg_slv) s = Vd[id] * w[base];
      for (int k = 1; k < n; ++k) s += Vd[k * DG_SNR + id] * w[base + k * str[d]];
      zz[i] = s;
    }
    DG_SN(dg_slv) *t = w;
    w = zz;
    zz = t;
  }
  for (int i2 = 0; i2 < n2; ++i2)
    for (int i1 = 0; i1 < n; ++i1)
      for (int i0 = 0; i0 < n; ++i0) {
        const DG_SR lv = shift + lam[0][i0] + lam[1][i1] + (dim == 3 ? lam[2][i2] : (DG_SR)0);
        w[i0 + n * (i1 + n * i2)] *= 1 / lv;
      }
  for (int d = 0; d < dim; ++d) {
    const DG_SR *Vd = V[d];
    for (long i = 0; i < m; ++i) {
      const int id = (int)((i / str[d]) % n);
      const long base = i - id * str[d];
      DG_SN(dg_slv) s = Vd[id * DG_SNR] * w[base];
      for (int k = 1; k < n; ++k) s += Vd[id * DG_SNR + k] * w[base + k * str[d]];
      zz[i] = s;
    }
    DG_SN(dg_slv) *t = w;
    w = zz;
    zz = t;
  }
  DG_SN(dg_sl_store)(w, m, z);
}
