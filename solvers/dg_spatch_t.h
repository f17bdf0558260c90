/* dg_spatch_t.h - the per-patch arithmetic of the vertex-patch Schwarz
 * smoother, written once and instantiated per precision by dg_sipg_elem.h
 * (DG_SR, DG_SN as in dg_sipg_elem_t.h).  No include guard on purpose.
 *
 * A patch is the 2 x 2 (x 2) elements around a grid vertex (1 element in a
 * direction where the vertex lies on a Dirichlet boundary), all of one
 * degree r.  Its local problem, the SIPG operator restricted to the patch's
 * unknowns (outer faces' self terms kept, couplings to the outside
 * dropped), is on the affine grid sum_d G_d (x) M_others + a vol M with G_d
 * the 1D SIPG matrix of the patch's cells in direction d (size nc_d (r+1)):
 * with M^-1/2 G_d M^-1/2 = Q_d L_d Q_d^T and V_d = M^-1/2 Q_d its inverse is
 * (V (x) V (x) V) diag(1 / (sum_d L_d + a vol)) (V^T (x) V^T (x) V^T), as
 * for the element blocks, one level up.
 *
 * Patch-local numbering: 1D index k = c n + a (cell c of the patch, mode a,
 * n = r + 1), the patch vector w[k0 + m0 (k1 + m1 k2)], m_d = nc_d n.
 * V[d][k * DG_SPATCH_LD + j]: row k, column j, followed by V^T
 * (V[d][DG_SPATCH_LD^2 + j * DG_SPATCH_LD + k]); lam[d][j].
 * Common subset of C and C++ (nvcc compiles it). */

/* Lines [h0, h1) x [l0, l1) of one 1D transform along direction d (m[d]
 * entries per line) of in into out: out_line[k] = sum_j X[j][k] in_line[j]
 * (X = V for V^T, X = V^T for V).  Line (h, l) holds the entries
 * (h m[d] + k) st + l, st the stride of direction d; for d = 0 (st = 1) the
 * lines are h alone and l0, l1 are not read.  A team of threads takes a line
 * each (the CUDA driver); dg_spatch_lines takes them all, and the innermost
 * loop runs along the contiguous index (k for d = 0, l otherwise), so it
 * vectorises. */
DG_HD static inline void DG_SN(dg_spatch_lines_part)(int d, const int m[3], const DG_SR *X,
                                                     const DG_SR *in, DG_SR *out, long h0, long h1,
                                                     long l0, long l1) {
  const int md = m[d];
  if (d == 0) {
    for (long q = h0; q < h1; ++q) {
      const DG_SR *iq = in + q * md;
      DG_SR *oq = out + q * md;
      for (int k = 0; k < md; ++k) oq[k] = 0;
      for (int j = 0; j < md; ++j) {
        const DG_SR a = iq[j], *xj = X + j * DG_SPATCH_LD;
        for (int k = 0; k < md; ++k) oq[k] += a * xj[k];
      }
    }
    return;
  }
  const long st = d == 1 ? m[0] : (long)m[0] * m[1];
  for (long h = h0; h < h1; ++h)
    for (int k = 0; k < md; ++k) {
      DG_SR *o = out + (h * md + k) * st;
      for (long l = l0; l < l1; ++l) o[l] = 0;
      for (int j = 0; j < md; ++j) {
        const DG_SR x = X[j * DG_SPATCH_LD + k], *i = in + (h * md + j) * st;
        for (long l = l0; l < l1; ++l) o[l] += x * i[l];
      }
    }
}

/* Every line of direction d's transform: (m[1] m[2]) x 1 lines for d = 0,
 * m[2] x m[0] for d = 1, 1 x m[0] m[1] for d = 2. */
DG_HD static inline void DG_SN(dg_spatch_lines)(int d, const int m[3], const DG_SR *X,
                                                const DG_SR *in, DG_SR *out) {
  const long nh = d == 0 ? (long)m[1] * m[2] : (d == 1 ? m[2] : 1);
  const long st = d == 0 ? 1 : (d == 1 ? m[0] : (long)m[0] * m[1]);
  DG_SN(dg_spatch_lines_part)(d, m, X, in, out, 0, nh, 0, st);
}

/* The patch operator's eigenvalue of the 1D eigenvectors (k0, k1, k2). */
DG_HD static inline DG_SR DG_SN(dg_spatch_eig)(int dim, const DG_SR *const lam[3], DG_SR shift,
                                               int k0, int k1, int k2) {
  return shift + lam[0][k0] + lam[1][k1] + (dim == 3 ? lam[2][k2] : (DG_SR)0);
}

/* z += R_p^T A_p^-1 R_p rv for the patch whose cells are el[c0 + 2 c1 + 4 c2]
 * (nc[d] cells in direction d), elements of n = r + 1 modes per direction
 * stored from off[e].  With full set every direction has two cells (the
 * drivers pass constants n and full where they dispatch on the degree: the
 * loops then have constant trip counts).  Host drivers only: the work
 * arrays of the largest patch are on the stack (the CUDA team kernel calls
 * the pieces above instead). */
DG_HD static inline void DG_SN(dg_spatch_solve_r)(int dim, const int nc[3], const long el[8],
                                                  const long *off, const DG_SR *const V[3],
                                                  const DG_SR *const lam[3], DG_SR shift,
                                                  const DG_SR *rv, DG_SR *z, const int n,
                                                  const int full) {
  DG_SR w[DG_SPATCH_LD * DG_SPATCH_LD * DG_SPATCH_LD],
      u[DG_SPATCH_LD * DG_SPATCH_LD * DG_SPATCH_LD];
  int m[3], c3[3];
  for (int d = 0; d < 3; ++d) {
    c3[d] = d < dim ? (full ? 2 : nc[d]) : 1;
    m[d] = d < dim ? c3[d] * n : 1;
  }
  const int n2 = dim == 3 ? n : 1;
  /* gather */
  for (int c2 = 0; c2 < c3[2]; ++c2)
    for (int c1 = 0; c1 < c3[1]; ++c1)
      for (int c0 = 0; c0 < c3[0]; ++c0) {
        const DG_SR *re = rv + off[el[c0 + 2 * c1 + 4 * c2]];
        for (int a2 = 0; a2 < n2; ++a2)
          for (int a1 = 0; a1 < n; ++a1)
            for (int a0 = 0; a0 < n; ++a0)
              w[(c0 * n + a0) + m[0] * ((c1 * n + a1) + (long)m[1] * (c2 * n + a2))] =
                  re[a0 + n * (a1 + n * a2)];
      }
  /* w -> u -> w (-> u in 3D): V^T along every direction */
  DG_SN(dg_spatch_lines)(0, m, V[0], w, u);
  DG_SN(dg_spatch_lines)(1, m, V[1], u, w);
  if (dim == 3) DG_SN(dg_spatch_lines)(2, m, V[2], w, u);
  DG_SR *f = dim == 3 ? u : w, *g = dim == 3 ? w : u;
  for (int k2 = 0; k2 < m[2]; ++k2)
    for (int k1 = 0; k1 < m[1]; ++k1)
      for (int k0 = 0; k0 < m[0]; ++k0) {
        f[k0 + m[0] * (k1 + (long)m[1] * k2)] /= DG_SN(dg_spatch_eig)(dim, lam, shift, k0, k1, k2);
      }
  /* f -> g -> f (-> g in 3D): V along every direction, the result in w */
  const long q = (long)DG_SPATCH_LD * DG_SPATCH_LD;
  DG_SN(dg_spatch_lines)(0, m, V[0] + q, f, g);
  DG_SN(dg_spatch_lines)(1, m, V[1] + q, g, f);
  if (dim == 3) DG_SN(dg_spatch_lines)(2, m, V[2] + q, f, g);
  /* scatter, added */
  for (int c2 = 0; c2 < c3[2]; ++c2)
    for (int c1 = 0; c1 < c3[1]; ++c1)
      for (int c0 = 0; c0 < c3[0]; ++c0) {
        DG_SR *ze = z + off[el[c0 + 2 * c1 + 4 * c2]];
        for (int a2 = 0; a2 < n2; ++a2)
          for (int a1 = 0; a1 < n; ++a1)
            for (int a0 = 0; a0 < n; ++a0)
              ze[a0 + n * (a1 + n * a2)] +=
                  w[(c0 * n + a0) + m[0] * ((c1 * n + a1) + (long)m[1] * (c2 * n + a2))];
      }
}

/* The same for any patch (n and the cell counts read at run time). */
DG_HD static inline void DG_SN(dg_spatch_solve)(int dim, int n, const int nc[3], const long el[8],
                                                const long *off, const DG_SR *const V[3],
                                                const DG_SR *const lam[3], DG_SR shift,
                                                const DG_SR *rv, DG_SR *z) {
  DG_SN(dg_spatch_solve_r)(dim, nc, el, off, V, lam, shift, rv, z, n, 0);
}
