/* dg_sipg_elem_t.h - the per-element arithmetic of the solvers, written once
 * and instantiated per precision: the including file defines DG_SR (the real
 * type) and DG_SN(name) (the name with its precision suffix), includes this
 * file, and undefines both (dg_sipg_elem.h does it for float and double).
 * No include guard on purpose.
 *
 * Everything works on modal Legendre coefficients (P_a unnormalised, P_a(1) =
 * 1, the basis of stencils/dg_basis.h), element storage compact in element
 * order: element e holds (r_e+1)^dim modes from off[e], mode index
 * i0 + n i1 + n^2 i2 with n = r_e + 1 (direction 0 fastest, as core/dg_eval).
 * On the affine structured grid every integral is an exact product of 1D
 * integrals of Legendre polynomials, so the element operators contract modes
 * direction by direction with small 1D tables (built once with Gauss-Legendre
 * quadrature): O(d (r+1)^(d+1)) per element, no dense element matrices.
 *
 * Common subset of C and C++ (nvcc compiles it): no VLA, no restrict, no
 * compound literal, no host-only call. */

/* 1D reference tables on [-1,1], a, b <= DG_MAX_DEGREE. */
typedef struct {
  DG_SR K[DG_SNR][DG_SNR];    /* K[a][b] = int P_a' P_b' (zero unless a+b even) */
  DG_SR M[DG_SNR];            /* M[a] = int P_a^2 = 2/(2a+1) */
  DG_SR Pe[2][DG_SNR];        /* Pe[0][a] = P_a(-1), Pe[1][a] = P_a(+1) */
  DG_SR De[2][DG_SNR];        /* De[0][a] = P_a'(-1), De[1][a] = P_a'(+1) */
  DG_SR E[2][DG_SNR][DG_SNR]; /* E[c][a][b]: P_a on the parent = sum_b E P_b on child c */
} DG_SN(dg_stab);

/* One level's operator y = a M u + b K u (K the SIPG Laplacian, penalty
 * sigma = cpen (max(p-,p+)+1)^2 / h on each face, p the penalty degrees:
 * the degrees on a fine level, the fine level's on multigrid levels). */
typedef struct {
  int dim;
  int n[3];   /* elements per direction (n[2] = 1 in 2D) */
  int bc[3];  /* DG_SBC_PERIODIC or DG_SBC_DIRICHLET per direction */
  DG_SR h[3]; /* element size per direction */
  DG_SR a, b, cpen;
  const unsigned char *deg;  /* degree per element */
  const unsigned char *pdeg; /* penalty degree per element (= deg on the fine level) */
  int pdu1;                  /* 1 + the penalty degree of every element, 0 where they
                                differ (the lane apply's shortcut; memset: none) */
  const long *off;           /* first coefficient of each element */
} DG_SN(dg_sargs);

/* Neighbour of element e across side s of direction d along one line: e's
 * index i0 of nd elements, boundary rule bc, element stride st; -1 on a
 * Dirichlet boundary. */
DG_HD static inline long DG_SN(dg_snbr_line)(long e, long i0, int nd, int bc, long st, int s) {
  long i = i0 + (s ? 1 : -1);
  if (i < 0 || i >= nd) {
    if (bc != DG_SBC_PERIODIC) return -1;
    i = i < 0 ? nd - 1 : 0;
  }
  return e + (i - i0) * st;
}

/* Neighbour of element e at (i,j,k) = ijk across side s of direction d, or -1
 * on a Dirichlet boundary. */
DG_HD static inline long DG_SN(dg_snbr_ijk)(const DG_SN(dg_sargs) * A, long e, const long ijk[3],
                                            int d, int s) {
  const long st = d == 0 ? 1 : (d == 1 ? A->n[0] : (long)A->n[0] * A->n[1]);
  return DG_SN(dg_snbr_line)(e, ijk[d], A->n[d], A->bc[d], st, s);
}

/* Neighbour of element e across side s (0: lower, 1: upper) of direction d,
 * or -1 on a Dirichlet boundary. */
DG_HD static inline long DG_SN(dg_snbr)(const DG_SN(dg_sargs) * A, long e, int d, int s) {
  long ijk[3], st[3];
  ijk[0] = e % A->n[0];
  ijk[1] = (e / A->n[0]) % A->n[1];
  ijk[2] = e / ((long)A->n[0] * A->n[1]);
  st[0] = 1;
  st[1] = A->n[0];
  st[2] = (long)A->n[0] * A->n[1];
  long i = ijk[d] + (s ? 1 : -1);
  if (i < 0 || i >= A->n[d]) {
    if (A->bc[d] != DG_SBC_PERIODIC) return -1;
    i = i < 0 ? A->n[d] - 1 : 0;
  }
  return e + (i - ijk[d]) * st[d];
}

/* The two tangential directions of direction d (t[1] = -1 in 2D). */
DG_HD static inline void DG_SN(dg_stang)(int dim, int d, int t[2]) {
  if (dim == 2) {
    t[0] = 1 - d;
    t[1] = -1;
  } else {
    t[0] = d == 0 ? 1 : 0;
    t[1] = d == 2 ? 1 : 2;
  }
}

/* The pieces of the apply below, shared by every driver's thread
 * organisation (one thread per element, or a team of threads per element
 * contracting in shared memory): one 1D line of the trace, one row of the
 * volume term, the penalty of a face, one tangential mode's face terms. */

/* Element geometry in dim (= A->dim) dimensions: half sizes, volume weights
 * w_d = vol / half_d^2, vol. */
DG_HD static inline void DG_SN(dg_sgeom)(const DG_SN(dg_sargs) * A, int dim, DG_SR half[3],
                                         DG_SR w[3], DG_SR *vol) {
  for (int d = 0; d < 3; ++d) half[d] = d < dim ? A->h[d] / 2 : 1;
  for (int d = 0; d < dim; ++d) w[d] = half[0] * half[1] * half[2] / (half[d] * half[d]);
  *vol = half[0] * half[1] * half[2];
}

/* Along one line of an element of degree r (coefficients ut[a * sd]) on side
 * s: the value sum_a P_a(+-1) ut[a] and sc sum_a P_a'(+-1) ut[a]. */
DG_HD static inline void DG_SN(dg_sline_trace)(const DG_SN(dg_stab) * T, int s, int r,
                                               const DG_SR *ut, long sd, DG_SR sc, DG_SR *tr,
                                               DG_SR *dn) {
  DG_SR v = 0, g = 0;
  for (int a = 0; a <= r; ++a) {
    v += T->Pe[s][a] * ut[a * sd];
    g += T->De[s][a] * ut[a * sd];
  }
  *tr = v;
  *dn = sc * g;
}

/* Row ii (mode m, strides str) of the volume term a M + b sum_d w_d K_d of an
 * element of n = r + 1 modes per direction with coefficients ue. */
DG_HD static inline DG_SR DG_SN(dg_svol_row)(const DG_SN(dg_sargs) * A, const DG_SN(dg_stab) * T,
                                             int dim, int n, const long str[3], const int ii[3],
                                             const DG_SR w[3], DG_SR vol, const DG_SR *ue) {
  const long m = ii[0] + str[1] * ii[1] + str[2] * ii[2];
  DG_SR mt[3];
  for (int d = 0; d < 3; ++d) mt[d] = d < dim ? T->M[ii[d]] : 1;
  DG_SR acc = A->a * vol * mt[0] * mt[1] * mt[2] * ue[m];
  for (int d = 0; d < dim; ++d) {
    const long base = m - ii[d] * str[d];
    DG_SR k = 0;
    for (int q = ii[d] & 1; q < n; q += 2) k += T->K[ii[d]][q] * ue[base + q * str[d]];
    acc += A->b * w[d] * (mt[0] * mt[1] * mt[2] / mt[d]) * k;
  }
  return acc;
}

/* Penalty sigma = C (max(p-, p+) + 1)^2 / h of element e's face towards nb
 * (-1: a boundary face, e's penalty degree alone), h the element size
 * across the face. */
DG_HD static inline DG_SR DG_SN(dg_sface_sigma)(const DG_SN(dg_sargs) * A, long e, long nb,
                                                DG_SR h) {
  int pm = A->pdeg[e];
  if (nb >= 0) pm = A->pdeg[nb] > pm ? A->pdeg[nb] : pm;
  return A->cpen * (DG_SR)((pm + 1) * (pm + 1)) / h;
}

/* The face terms of tangential mode (t0, t1) (t1 unused when tang2 is 0) on
 * side sg = -+1: jump jo = tro - trn and average av = wavg (dno + dnn) (the
 * neighbour's terms only where nbr is set) give the weights g1 of the test
 * function's trace and g2 of its normal derivative; row q of the element then
 * gets Pe[s][q] g1 + De[s][q] g2 (dg_sface_row).  J: the face's Jacobian; ih2
 * = 2 / h, h the element size across the face (a product here, the division
 * once per face direction by the caller). */
DG_HD static inline void DG_SN(dg_sface_g)(const DG_SN(dg_stab) * T, DG_SR b, DG_SR J, DG_SR ih2,
                                           DG_SR sigma, DG_SR sg, DG_SR wavg, int t0, int t1,
                                           int tang2, int nbr, DG_SR tro, DG_SR dno, DG_SR trn,
                                           DG_SR dnn, DG_SR *g1, DG_SR *g2) {
  DG_SR jo = tro, av = wavg * dno;
  if (nbr) {
    jo -= trn;
    av += wavg * dnn;
  }
  const DG_SR mt = J * T->M[t0] * (tang2 ? T->M[t1] : (DG_SR)1) * b;
  *g1 = mt * (sigma * jo - sg * av);
  *g2 = ((-mt * sg) * jo * wavg) * ih2;
}

/* Row q's share of a face's terms g1, g2 on side s. */
DG_HD static inline DG_SR DG_SN(dg_sface_row)(const DG_SN(dg_stab) * T, int s, int q, DG_SR g1,
                                              DG_SR g2) {
  return T->Pe[s][q] * g1 + T->De[s][q] * g2;
}

/* Value and physical normal derivative on side s of direction d of an element
 * of degree r with coefficients u, for tangential modes up to lim (lim <= r):
 * tr[t0 + DG_SNR t1] = sum_a P_a(+-1) u[a,t], dn[...] = (2/h) sum_a P_a'(+-1) u[a,t]. */
DG_HD static inline void DG_SN(dg_sface_trace)(const DG_SN(dg_stab) * T, int dim, int d, int s,
                                               int r, int lim, DG_SR h, const DG_SR *u, DG_SR *tr,
                                               DG_SR *dn) {
  int td[2];
  DG_SN(dg_stang)(dim, d, td);
  const int n = r + 1;
  long str[3];
  str[0] = 1;
  str[1] = n;
  str[2] = (long)n * n;
  const long sd = str[d], s0 = str[td[0]], s1 = td[1] >= 0 ? str[td[1]] : 0;
  const int l1 = td[1] >= 0 ? lim : 0;
  const DG_SR sc = (DG_SR)2 / h;
  for (int t1 = 0; t1 <= l1; ++t1)
    for (int t0 = 0; t0 <= lim; ++t0) {
      const int t = t0 + DG_SNR * t1;
      DG_SN(dg_sline_trace)(T, s, r, u + t0 * s0 + t1 * s1, sd, sc, &tr[t], &dn[t]);
    }
}

/* y_e = (a M + b K) u restricted to the test functions of element e, whose
 * degree is r (a constant where the driver dispatches on the degree: the
 * loops then have constant trip counts). */
DG_HD static inline void DG_SN(dg_sipg_elem_r)(const DG_SN(dg_sargs) * A, const DG_SN(dg_stab) * T,
                                               long e, const DG_SR *u, DG_SR *y, const int r) {
  const int dim = A->dim, n = r + 1;
  const DG_SR *ue = u + A->off[e];
  DG_SR *ye = y + A->off[e];
  const int n1 = n, n2 = dim == 3 ? n : 1;
  /* the element's rows accumulate here and are stored once (registers on a
     GPU for a constant degree in 2D, no read-modify-write of y per face) */
  DG_SR yl[DG_SNR * DG_SNR * DG_SNR];
  const long str[3] = {1, n, (long)n * n};
  DG_SR half[3], w[3], vol;
  DG_SN(dg_sgeom)(A, dim, half, w, &vol);
  /* volume: sum_d w_d (K in d, M in the others) + a M */
  for (int i2 = 0; i2 < n2; ++i2)
    for (int i1 = 0; i1 < n1; ++i1)
      for (int i0 = 0; i0 < n; ++i0) {
        const int ii[3] = {i0, i1, i2};
        yl[i0 + str[1] * i1 + str[2] * i2] = DG_SN(dg_svol_row)(A, T, dim, n, str, ii, w, vol, ue);
      }
  /* faces: -{du/dn}[v] - {dv/dn}[u] + sigma [u][v], the neighbour's traces
     computed here (each face twice, no write conflicts) */
  DG_SR tro[DG_SNR * DG_SNR], dno[DG_SNR * DG_SNR], trn[DG_SNR * DG_SNR], dnn[DG_SNR * DG_SNR];
  long ijk[3];
  ijk[0] = e % A->n[0];
  ijk[1] = (e / A->n[0]) % A->n[1];
  ijk[2] = e / ((long)A->n[0] * A->n[1]);
  for (int d = 0; d < dim; ++d) {
    int td[2];
    DG_SN(dg_stang)(dim, d, td);
    const DG_SR h = A->h[d], ih2 = (DG_SR)2 / h;
    const DG_SR J = vol / half[d];
    for (int s = 0; s < 2; ++s) {
      const DG_SR sg = s ? (DG_SR)1 : (DG_SR)-1;
      const long nb = DG_SN(dg_snbr_ijk)(A, e, ijk, d, s);
      DG_SN(dg_sface_trace)(T, dim, d, s, r, r, h, ue, tro, dno);
      int rn = r, lim = r;
      DG_SR wavg = 1;
      if (nb >= 0) {
        rn = A->deg[nb];
        lim = rn < r ? rn : r;
        DG_SN(dg_sface_trace)(T, dim, d, 1 - s, rn, lim, h, u + A->off[nb], trn, dnn);
        wavg = (DG_SR)0.5;
      }
      const DG_SR sigma = DG_SN(dg_sface_sigma)(A, e, nb, h);
      const int l1 = td[1] >= 0 ? r : 0;
      for (int t1 = 0; t1 <= l1; ++t1)
        for (int t0 = 0; t0 <= r; ++t0) {
          const int t = t0 + DG_SNR * t1;
          DG_SR g1, g2;
          const int nbr = nb >= 0 && t0 <= lim && t1 <= lim;
          DG_SN(dg_sface_g)
          (T, A->b, J, ih2, sigma, sg, wavg, t0, t1, td[1] >= 0, nbr, tro[t], dno[t],
           nbr ? trn[t] : (DG_SR)0, nbr ? dnn[t] : (DG_SR)0, &g1, &g2);
          DG_SR *yt = yl + t0 * str[td[0]] + (td[1] >= 0 ? t1 * str[td[1]] : 0);
          for (int q = 0; q < n; ++q) yt[q * str[d]] += DG_SN(dg_sface_row)(T, s, q, g1, g2);
        }
    }
  }
  for (long m = 0; m < (long)n * n1 * n2; ++m) ye[m] = yl[m];
}

/* The same for any degree (read from the map). */
DG_HD static inline void DG_SN(dg_sipg_elem)(const DG_SN(dg_sargs) * A, const DG_SN(dg_stab) * T,
                                             long e, const DG_SR *u, DG_SR *y) {
  DG_SN(dg_sipg_elem_r)(A, T, e, u, y, A->deg[e]);
}

/* The diagonal of a M + b K on element e (for Jacobi). */
DG_HD static inline void DG_SN(dg_sipg_diag)(const DG_SN(dg_sargs) * A, const DG_SN(dg_stab) * T,
                                             long e, DG_SR *y) {
  const int dim = A->dim, r = A->deg[e], n = r + 1;
  DG_SR *ye = y + A->off[e];
  const int n2 = dim == 3 ? n : 1;
  DG_SR half[3], w[3];
  for (int d = 0; d < 3; ++d) half[d] = d < dim ? A->h[d] / 2 : 1;
  for (int d = 0; d < dim; ++d) w[d] = half[0] * half[1] * half[2] / (half[d] * half[d]);
  const DG_SR vol = half[0] * half[1] * half[2];
  DG_SR sig[3][2], wav[3][2];
  for (int d = 0; d < dim; ++d)
    for (int s = 0; s < 2; ++s) {
      const long nb = DG_SN(dg_snbr)(A, e, d, s);
      const int pe = A->pdeg[e], pn = nb >= 0 ? A->pdeg[nb] : pe, rm = pn > pe ? pn : pe;
      sig[d][s] = A->cpen * (DG_SR)((rm + 1) * (rm + 1)) / A->h[d];
      wav[d][s] = nb >= 0 ? (DG_SR)0.5 : (DG_SR)1;
    }
  for (int i2 = 0; i2 < n2; ++i2)
    for (int i1 = 0; i1 < n; ++i1)
      for (int i0 = 0; i0 < n; ++i0) {
        const int ii[3] = {i0, i1, i2};
        DG_SR mt[3];
        for (int d = 0; d < 3; ++d) mt[d] = d < dim ? T->M[ii[d]] : 1;
        const DG_SR mm = mt[0] * mt[1] * mt[2];
        DG_SR acc = A->a * vol * mm;
        for (int d = 0; d < dim; ++d) {
          const int a = ii[d];
          const DG_SR mtan = mm / mt[d], h = A->h[d], J = vol / half[d];
          acc += A->b * w[d] * mtan * T->K[a][a];
          for (int s = 0; s < 2; ++s) {
            const DG_SR sg = s ? (DG_SR)1 : (DG_SR)-1, p = T->Pe[s][a], dp = T->De[s][a];
            acc += A->b * J * mtan *
                   (p * (sig[d][s] * p - sg * wav[d][s] * (2 / h) * dp) -
                    dp * sg * p * wav[d][s] * 2 / h);
          }
        }
        ye[i0 + n * (i1 + n * i2)] = acc;
      }
}

/* Prolongation by agglomeration, added: fine element ef (degree rf) of the
 * coarse element with coefficients uc (degree rc <= rf), child position c[d]
 * in {0,1}: yf[b] += sum_a E[c0][a0][b0] E[c1][a1][b1] (E[c2]..) uc[a]. */
DG_HD static inline void DG_SN(dg_sh_prolong)(const DG_SN(dg_stab) * T, int dim, const int c[3],
                                              int rc, const DG_SR *uc, int rf, DG_SR *yf) {
  const int nc = rc + 1, nf = rf + 1, nc2 = dim == 3 ? nc : 1;
  for (int b2 = 0; b2 < nc2; ++b2)
    for (int b1 = 0; b1 < nc; ++b1)
      for (int b0 = 0; b0 < nc; ++b0) {
        DG_SR acc = 0;
        for (int a2 = b2; a2 < nc2; ++a2)
          for (int a1 = b1; a1 < nc; ++a1)
            for (int a0 = b0; a0 < nc; ++a0) {
              const DG_SR e2 = dim == 3 ? T->E[c[2]][a2][b2] : (DG_SR)1;
              acc += T->E[c[0]][a0][b0] * T->E[c[1]][a1][b1] * e2 * uc[a0 + nc * (a1 + nc * a2)];
            }
        yf[b0 + nf * (b1 + nf * b2)] += acc;
      }
}

/* Its transpose (restriction of a residual), added into the coarse element:
 * yc[a] += sum_b E[c0][a0][b0] ... rf[b]. */
DG_HD static inline void DG_SN(dg_sh_restrict)(const DG_SN(dg_stab) * T, int dim, const int c[3],
                                               int rf, const DG_SR *rfv, int rc, DG_SR *yc) {
  const int nc = rc + 1, nf = rf + 1, nc2 = dim == 3 ? nc : 1;
  for (int a2 = 0; a2 < nc2; ++a2)
    for (int a1 = 0; a1 < nc; ++a1)
      for (int a0 = 0; a0 < nc; ++a0) {
        DG_SR acc = 0;
        for (int b2 = 0; b2 <= (dim == 3 ? a2 : 0); ++b2)
          for (int b1 = 0; b1 <= a1; ++b1)
            for (int b0 = 0; b0 <= a0; ++b0) {
              const DG_SR e2 = dim == 3 ? T->E[c[2]][a2][b2] : (DG_SR)1;
              acc += T->E[c[0]][a0][b0] * T->E[c[1]][a1][b1] * e2 * rfv[b0 + nf * (b1 + nf * b2)];
            }
        yc[a0 + nc * (a1 + nc * a2)] += acc;
      }
}

/* The transfers of one element between a level (args Af) and the level
 * below it (Ac), for the drivers.  By degree (same grid): the modes of the
 * lower degree rl shared by coefficients a (degree ra) and b (degree rb):
 * b = a (restriction: the coarse element keeps the fine one's low modes) or
 * b += a (add: prolongation pads with zeros). */
DG_HD static inline void DG_SN(dg_sp_low_modes)(int dim, int rl, int ra, const DG_SR *a, int rb,
                                                DG_SR *b, int add) {
  const int nl = rl + 1, na = ra + 1, nb = rb + 1, nl2 = dim == 3 ? nl : 1;
  for (int i2 = 0; i2 < nl2; ++i2)
    for (int i1 = 0; i1 < nl; ++i1)
      for (int i0 = 0; i0 < nl; ++i0) {
        const DG_SR v = a[i0 + na * (i1 + na * i2)];
        DG_SR *t = b + i0 + nb * (i1 + nb * i2);
        *t = add ? *t + v : v;
      }
}

DG_HD static inline void DG_SN(dg_sp_restrict_elem)(const DG_SN(dg_sargs) * Af,
                                                    const DG_SN(dg_sargs) * Ac, long e,
                                                    const DG_SR *r, DG_SR *bc) {
  DG_SN(dg_sp_low_modes)
  (Af->dim, Ac->deg[e], Af->deg[e], r + Af->off[e], Ac->deg[e], bc + Ac->off[e], 0);
}

DG_HD static inline void DG_SN(dg_sp_prolong_elem)(const DG_SN(dg_sargs) * Af,
                                                   const DG_SN(dg_sargs) * Ac, long e,
                                                   const DG_SR *xc, DG_SR *x) {
  DG_SN(dg_sp_low_modes)
  (Af->dim, Ac->deg[e], Ac->deg[e], xc + Ac->off[e], Af->deg[e], x + Af->off[e], 1);
}

/* By agglomeration: the coarse element ec gathers the restriction of its
 * 2^dim children, the fine elements (fi + c0, fj + c1, fk + c2), c_d in
 * {0, 1}, in that order (the same sum wherever the grids' origins lie).
 * Linear elements (every h-level of a hierarchy) take the same arithmetic
 * with constant trip counts, which the compiler unrolls. */
DG_HD static inline void DG_SN(dg_sh_restrict_at)(const DG_SN(dg_sargs) * Af,
                                                  const DG_SN(dg_sargs) * Ac,
                                                  const DG_SN(dg_stab) * T, long ec, long fi,
                                                  long fj, long fk, const DG_SR *r, DG_SR *bc) {
  const int dim = Af->dim;
  const int rc = Ac->deg[ec], nc = rc + 1;
  const long m = (long)nc * nc * (dim == 3 ? nc : 1);
  DG_SR *yc = bc + Ac->off[ec];
  for (long q = 0; q < m; ++q) yc[q] = 0;
  for (int c2 = 0; c2 < (dim == 3 ? 2 : 1); ++c2)
    for (int c1 = 0; c1 < 2; ++c1)
      for (int c0 = 0; c0 < 2; ++c0) {
        int c[3];
        c[0] = c0;
        c[1] = c1;
        c[2] = c2;
        const long ef = (fi + c0) + Af->n[0] * ((fj + c1) + (long)Af->n[1] * (fk + c2));
        const int rf = Af->deg[ef];
        if (dim == 2 && rc == 1 && rf == 1)
          DG_SN(dg_sh_restrict)(T, 2, c, 1, r + Af->off[ef], 1, yc);
        else if (dim == 3 && rc == 1 && rf == 1)
          DG_SN(dg_sh_restrict)(T, 3, c, 1, r + Af->off[ef], 1, yc);
        else
          DG_SN(dg_sh_restrict)(T, dim, c, rf, r + Af->off[ef], rc, yc);
      }
}

/* The coarse element (i, j, k) of a grid whose children are (2i + c0, ...). */
DG_HD static inline void DG_SN(dg_sh_restrict_ijk)(const DG_SN(dg_sargs) * Af,
                                                   const DG_SN(dg_sargs) * Ac,
                                                   const DG_SN(dg_stab) * T, long i, long j, long k,
                                                   const DG_SR *r, DG_SR *bc) {
  DG_SN(dg_sh_restrict_at)
  (Af, Ac, T, i + Ac->n[0] * (j + (long)Ac->n[1] * k), 2 * i, 2 * j, 2 * k, r, bc);
}

DG_HD static inline void DG_SN(dg_sh_restrict_elem)(const DG_SN(dg_sargs) * Af,
                                                    const DG_SN(dg_sargs) * Ac,
                                                    const DG_SN(dg_stab) * T, long ec,
                                                    const DG_SR *r, DG_SR *bc) {
  DG_SN(dg_sh_restrict_ijk)
  (Af, Ac, T, ec % Ac->n[0], (ec / Ac->n[0]) % Ac->n[1], ec / ((long)Ac->n[0] * Ac->n[1]), r, bc);
}

/* The fine element ef, child c of the coarse element ec, adds the
 * prolongation of its parent's correction (linear elements: constant trip
 * counts, as above). */
DG_HD static inline void DG_SN(dg_sh_prolong_at)(const DG_SN(dg_sargs) * Af,
                                                 const DG_SN(dg_sargs) * Ac,
                                                 const DG_SN(dg_stab) * T, long ef, long ec,
                                                 const int c[3], const DG_SR *xc, DG_SR *x) {
  const int rc = Ac->deg[ec], rf = Af->deg[ef];
  if (Af->dim == 2 && rc == 1 && rf == 1)
    DG_SN(dg_sh_prolong)(T, 2, c, 1, xc + Ac->off[ec], 1, x + Af->off[ef]);
  else if (Af->dim == 3 && rc == 1 && rf == 1)
    DG_SN(dg_sh_prolong)(T, 3, c, 1, xc + Ac->off[ec], 1, x + Af->off[ef]);
  else
    DG_SN(dg_sh_prolong)(T, Af->dim, c, rc, xc + Ac->off[ec], rf, x + Af->off[ef]);
}

/* The fine element (i, j, k) of a grid whose parent is (i/2, j/2, k/2). */
DG_HD static inline void DG_SN(dg_sh_prolong_ijk)(const DG_SN(dg_sargs) * Af,
                                                  const DG_SN(dg_sargs) * Ac,
                                                  const DG_SN(dg_stab) * T, long i, long j, long k,
                                                  const DG_SR *xc, DG_SR *x) {
  int c[3];
  c[0] = (int)(i & 1);
  c[1] = (int)(j & 1);
  c[2] = (int)(k & 1);
  const long ef = i + Af->n[0] * (j + (long)Af->n[1] * k);
  const long ec = i / 2 + Ac->n[0] * (j / 2 + (long)Ac->n[1] * (k / 2));
  DG_SN(dg_sh_prolong_at)(Af, Ac, T, ef, ec, c, xc, x);
}

DG_HD static inline void DG_SN(dg_sh_prolong_elem)(const DG_SN(dg_sargs) * Af,
                                                   const DG_SN(dg_sargs) * Ac,
                                                   const DG_SN(dg_stab) * T, long ef,
                                                   const DG_SR *xc, DG_SR *x) {
  DG_SN(dg_sh_prolong_ijk)
  (Af, Ac, T, ef % Af->n[0], (ef / Af->n[0]) % Af->n[1], ef / ((long)Af->n[0] * Af->n[1]), xc, x);
}

/* The pieces of the block solve below, shared by the drivers' thread
 * organisations: entry id of V_d^T w (fwd set) or V_d w along a line w[k * sd]
 * of n entries; the eigenvalue of mode (i0, i1, i2) with the shift. */
DG_HD static inline DG_SR DG_SN(dg_sfd_line)(const DG_SR *Vd, int fwd, int id, int n,
                                             const DG_SR *w, long sd) {
  DG_SR s = 0;
  for (int k = 0; k < n; ++k) s += Vd[fwd ? k * DG_SNR + id : id * DG_SNR + k] * w[k * sd];
  return s;
}

DG_HD static inline DG_SR DG_SN(dg_sfd_eig)(int dim, const DG_SR *const lam[3], DG_SR shift, int i0,
                                            int i1, int i2) {
  return shift + lam[0][i0] + lam[1][i1] + (dim == 3 ? lam[2][i2] : (DG_SR)0);
}

/* Element-block Jacobi by fast diagonalisation: the element's diagonal block
 * of a M + b K is sum_d G_d (x) M_others + a vol M, so with
 * M^-1/2 G_d M^-1/2 = Q_d L_d Q_d^T and V_d = M^-1/2 Q_d its inverse is
 * (V (x) V (x) V) diag(1 / (sum_d L_d + a vol)) (V^T (x) V^T (x) V^T).
 * V[d][i * DG_SNR + j]: row i, column j; lam[d][j].  z may not alias rv. */
DG_HD static inline void DG_SN(dg_sblock_solve)(int dim, int r, const DG_SR *const V[3],
                                                const DG_SR *const lam[3], DG_SR shift,
                                                const DG_SR *rv, DG_SR *z) {
  const int n = r + 1, n2 = dim == 3 ? n : 1;
  const long str[3] = {1, n, (long)n * n}, m = (long)n * n * n2;
  DG_SR w[DG_SNR * DG_SNR * DG_SNR];
  for (long i = 0; i < m; ++i) w[i] = rv[i];
  /* forward: w = V^T along every direction (in place through z as scratch) */
  for (int d = 0; d < dim; ++d) {
    for (long i = 0; i < m; ++i) {
      const int id = (int)((i / str[d]) % n);
      z[i] = DG_SN(dg_sfd_line)(V[d], 1, id, n, w + (i - id * str[d]), str[d]);
    }
    for (long i = 0; i < m; ++i) w[i] = z[i];
  }
  for (int i2 = 0; i2 < n2; ++i2)
    for (int i1 = 0; i1 < n; ++i1)
      for (int i0 = 0; i0 < n; ++i0)
        w[i0 + n * (i1 + n * i2)] /= DG_SN(dg_sfd_eig)(dim, lam, shift, i0, i1, i2);
  for (int d = 0; d < dim; ++d) {
    for (long i = 0; i < m; ++i) {
      const int id = (int)((i / str[d]) % n);
      z[i] = DG_SN(dg_sfd_line)(V[d], 0, id, n, w + (i - id * str[d]), str[d]);
    }
    if (d < dim - 1)
      for (long i = 0; i < m; ++i) w[i] = z[i];
  }
}
