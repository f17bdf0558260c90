/* dg_sop_cuda_line_t.h - the CUDA driver's line kernels (2D uniform levels),
 * written once and included by dg_sop_cuda.cu per precision (DG_SR,
 * DG_SN(name) and DG_STAB_C, the constant-memory copy of that precision's
 * tables, defined there).  No include guard on purpose.
 *
 * The plan: a thread per line of an element, n = r + 1 threads per element
 * (line_shape), several elements per block, the block's coefficients staged
 * in shared memory (coalesced loads).  Thread j of an element takes row j
 * (the n modes along direction 0 at mode j of direction 1) and column j (the
 * n modes along direction 1 at mode j of direction 0): every 1D contraction
 * then runs over a line held in registers with the degree a constant, so
 * the tables' entries are constant-bank operands and the loops unroll; the
 * team kernels (dg_sop_cuda_team_t.h, one thread per mode) spend most of
 * their instructions on the indices of one mode and on shared-memory reads
 * of the tables.  The element arithmetic is the element functions' pieces
 * (dg_sipg_elem_t.h: dg_sline_trace, dg_sface_g, dg_sface_row,
 * dg_sface_sigma, dg_sfd_line, dg_sfd_eig):
 *   apply  column j's direction-1 terms go through shared memory to the
 *          rows, row j adds its direction-0 terms and the mass term;
 *   block  the fast diagonalisation V^T along rows, then along columns with
 *          the eigenvalues and V back, then V along rows: one transpose
 *          each way through shared memory.
 * Same operations as the element functions, in another order: agreement to
 * round-off, not to the bit (test_solvers_team checks 1e-13). */

/* Direction d's share of y = (a M + b K) u on one line of element e: the
 * line's coefficients v[0..r] along d at mode t of the other direction, the
 * neighbours' lines across side s (pn[s], stride pst; null on a Dirichlet
 * side) whose element indices are nb[s]; the mass term too where mass is
 * set.  out[q] = row q of the line. */
template <int DEG>
__device__ __forceinline__ void
DG_SN(line_terms)(const DG_SN(dg_sargs) & A, const DG_SN(dg_stab) * T, int d, long e,
                  const long nb[2], const DG_SR *const pn[2], long pst, int t, const DG_SR *v,
                  bool mass, DG_SR *out) {
  const int n = DEG + 1;
  DG_SR half[3], w[3], vol;
  DG_SN(dg_sgeom)(&A, 2, half, w, &vol);
  const DG_SR mt = T->M[t];
  for (int q = 0; q < n; ++q) {
    DG_SR k = 0;
    for (int p = q & 1; p < n; p += 2) k += T->K[q][p] * v[p];
    out[q] = A.b * w[d] * mt * k;
    if (mass) out[q] += A.a * vol * T->M[q] * mt * v[q];
  }
  const DG_SR hd = A.h[d], sc = (DG_SR)2 / hd, J = vol / half[d];
  for (int s = 0; s < 2; ++s) {
    DG_SR tro, dno, trn = 0, dnn = 0;
    DG_SN(dg_sline_trace)(T, s, DEG, v, 1, sc, &tro, &dno);
    if (pn[s]) DG_SN(dg_sline_trace)(T, 1 - s, DEG, pn[s], pst, sc, &trn, &dnn);
    const DG_SR sigma =
        A.pdu1 ? A.cpen * (DG_SR)(A.pdu1 * A.pdu1) / hd : DG_SN(dg_sface_sigma)(&A, e, nb[s], hd);
    DG_SR g1, g2;
    DG_SN(dg_sface_g)
    (T, A.b, J, sc, sigma, s ? (DG_SR)1 : (DG_SR)-1, pn[s] ? (DG_SR)0.5 : (DG_SR)1, t, 0, 0,
     pn[s] != 0, tro, dno, trn, dnn, &g1, &g2);
    for (int q = 0; q < n; ++q) out[q] += DG_SN(dg_sface_row)(T, s, q, g1, g2);
  }
}

/* Row j of element e = e0 + le of y = (a M + b K) u, the block's
 * coefficients in su (element le from le nm) and sy scratch of the same
 * size (every thread of the block calls it: it synchronises the block once;
 * act: e < ne). */
template <int DEG>
__device__ __forceinline__ void DG_SN(line_apply_row)(const DG_SN(dg_sargs) & A, int e0, int le,
                                                      int j, bool act, const DG_SR *su, DG_SR *sy,
                                                      const DG_SR *__restrict__ u, DG_SR *yr) {
  typedef line_shape<DEG> S;
  const int n = S::n, nm = S::nm;
  const DG_SN(dg_stab) *T = &DG_STAB_C;
  const int e = e0 + le;
  const DG_SR *ue = su + le * nm;
  if (act) {
    /* column j: direction 1, the neighbours one grid row away (int
       arithmetic: the level has fewer than INT_MAX elements) */
    const int i = e % A.n[0], jr = e / A.n[0];
    long nb[2];
    const DG_SR *pn[2];
    DG_SR v[S::n], yc[S::n];
    for (int s = 0; s < 2; ++s) {
      nb[s] = DG_SN(dg_snbr_line)(e, jr, A.n[1], A.bc[1], A.n[0], s);
      pn[s] = nb[s] < 0 ? 0
                        : (nb[s] >= e0 && nb[s] < e0 + S::epb ? su + (nb[s] - e0) * nm + j
                                                              : u + nb[s] * nm + j);
    }
    for (int k = 0; k < n; ++k) v[k] = ue[j + n * k];
    DG_SN(line_terms)<DEG>(A, T, 1, e, nb, pn, n, j, v, false, yc);
    for (int k = 0; k < n; ++k) sy[le * nm + j + n * k] = yc[k];
    /* row j: direction 0, the neighbours mostly in the block */
    for (int s = 0; s < 2; ++s) {
      nb[s] = DG_SN(dg_snbr_line)(e, i, A.n[0], A.bc[0], 1, s);
      pn[s] = nb[s] < 0 ? 0
                        : (nb[s] >= e0 && nb[s] < e0 + S::epb ? su + (nb[s] - e0) * nm + n * j
                                                              : u + nb[s] * nm + n * j);
    }
    for (int k = 0; k < n; ++k) v[k] = ue[k + n * j];
    DG_SN(line_terms)<DEG>(A, T, 0, e, nb, pn, 1, j, v, true, yr);
  }
  __syncthreads();
  if (act) {
    for (int q = 0; q < n; ++q) yr[q] += sy[le * nm + q + n * j];
  }
}

/* The block solve D_e^-1 r_e of element e = e0 + le from its row j, rr (in
 * place: p's row j on return); sw scratch of the block's size whose entries
 * of this element nobody else reads now (every thread of the block calls
 * it: it synchronises the block twice). */
template <int DEG>
__device__ __forceinline__ void
DG_SN(line_block_row)(int le, int j, long e, bool act, DG_SR *sa, DG_SR *sb,
                      const int *__restrict__ key, const DG_SR *__restrict__ Vs,
                      const DG_SR *__restrict__ ls, DG_SR shift, DG_SR *rr) {
  typedef line_shape<DEG> S;
  const int n = S::n, nm = S::nm;
  const DG_SR *V0 = 0, *V1 = 0, *lam[3] = {0, 0, 0};
  if (act) {
    V0 = Vs + (long)key[3 * e] * DG_SNR * DG_SNR;
    V1 = Vs + (long)key[3 * e + 1] * DG_SNR * DG_SNR;
    lam[0] = ls + (long)key[3 * e] * DG_SNR;
    lam[1] = ls + (long)key[3 * e + 1] * DG_SNR;
    /* V0^T along the row */
    for (int i = 0; i < n; ++i) sa[le * nm + i + n * j] = DG_SN(dg_sfd_line)(V0, 1, i, n, rr, 1);
  }
  __syncthreads();
  if (act) {
    /* column j: V1^T, the eigenvalues, V1 */
    DG_SR c[S::n], z[S::n];
    for (int k = 0; k < n; ++k) c[k] = sa[le * nm + j + n * k];
    for (int k = 0; k < n; ++k)
      z[k] = DG_SN(dg_sfd_line)(V1, 1, k, n, c, 1) / DG_SN(dg_sfd_eig)(2, lam, shift, j, k, 0);
    for (int k = 0; k < n; ++k) sb[le * nm + j + n * k] = DG_SN(dg_sfd_line)(V1, 0, k, n, z, 1);
  }
  __syncthreads();
  if (act) {
    DG_SR c[S::n];
    for (int i = 0; i < n; ++i) c[i] = sb[le * nm + i + n * j];
    for (int q = 0; q < n; ++q) rr[q] = DG_SN(dg_sfd_line)(V0, 0, q, n, c, 1);
  }
}

/* The block's coefficients into shared memory, coalesced (zeros past the
   last element). */
template <int DEG>
__device__ __forceinline__ void DG_SN(line_stage)(DG_SR *su, int e0, int ne,
                                                  const DG_SR *__restrict__ u) {
  typedef line_shape<DEG> S;
  const long base = (long)e0 * S::nm, end = (long)ne * S::nm;
  for (int k = threadIdx.x; k < S::epb * S::nm; k += S::threads)
    su[k] = base + k < end ? u[base + k] : (DG_SR)0;
}

/* y = (a M + b K) u */
template <int DEG>
__global__ void __launch_bounds__(line_shape<DEG>::threads)
    DG_SN(k_line_apply)(DG_SN(dg_sargs) args, int ne, const DG_SR *__restrict__ u,
                        DG_SR *__restrict__ y) {
  typedef line_shape<DEG> S;
  __shared__ DG_SR su[S::epb * S::nm], sy[S::epb * S::nm];
  const int e0 = blockIdx.x * S::epb, le = (int)threadIdx.x / S::n, j = threadIdx.x - le * S::n;
  const bool act = e0 + le < ne;
  DG_SN(line_stage)<DEG>(su, e0, ne, u);
  __syncthreads();
  DG_SR yr[S::n];
  DG_SN(line_apply_row)<DEG>(args, e0, le, j, act, su, sy, u, yr);
  if (act) {
    DG_SR *ye = y + (long)(e0 + le) * S::nm + S::n * j;
    for (int q = 0; q < S::n; ++q) ye[q] = yr[q];
  }
}

/* z = D_block^-1 r */
template <int DEG>
__global__ void __launch_bounds__(line_shape<DEG>::threads)
    DG_SN(k_line_block)(int ne, const int *__restrict__ key, const DG_SR *__restrict__ Vs,
                        const DG_SR *__restrict__ ls, DG_SR shift, const DG_SR *__restrict__ r,
                        DG_SR *__restrict__ z) {
  typedef line_shape<DEG> S;
  __shared__ DG_SR sa[S::epb * S::nm], sb[S::epb * S::nm];
  const int e0 = blockIdx.x * S::epb, le = (int)threadIdx.x / S::n, j = threadIdx.x - le * S::n;
  const long e = e0 + le;
  const bool act = e < ne;
  DG_SR rr[S::n];
  if (act) {
    for (int q = 0; q < S::n; ++q) rr[q] = r[e * S::nm + S::n * j + q];
  }
  DG_SN(line_block_row)<DEG>(le, j, e, act, sa, sb, key, Vs, ls, shift, rr);
  if (act) {
    for (int q = 0; q < S::n; ++q) z[e * S::nm + S::n * j + q] = rr[q];
  }
}

/* The smoother's step p = D_block^-1 (b - (a M + b K) x) in one pass: the
   residual stays on chip. */
template <int DEG>
__global__ void __launch_bounds__(line_shape<DEG>::threads)
    DG_SN(k_line_resid_block)(DG_SN(dg_sargs) args, int ne, const DG_SR *__restrict__ x,
                              const DG_SR *__restrict__ b, const int *__restrict__ key,
                              const DG_SR *__restrict__ Vs, const DG_SR *__restrict__ ls,
                              DG_SR shift, DG_SR *__restrict__ p) {
  typedef line_shape<DEG> S;
  __shared__ DG_SR su[S::epb * S::nm], sy[S::epb * S::nm];
  const int e0 = blockIdx.x * S::epb, le = (int)threadIdx.x / S::n, j = threadIdx.x - le * S::n;
  const long e = e0 + le;
  const bool act = e < ne;
  DG_SN(line_stage)<DEG>(su, e0, ne, x);
  __syncthreads();
  DG_SR rr[S::n];
  DG_SN(line_apply_row)<DEG>(args, e0, le, j, act, su, sy, x, rr);
  if (act) {
    /* b + (-1) y: dg_svec_xpby's arithmetic */
    for (int q = 0; q < S::n; ++q) rr[q] = b[e * S::nm + S::n * j + q] + (DG_SR)-1 * rr[q];
  }
  /* su is read no more after the apply's barrier, sy after this one */
  DG_SN(line_block_row)<DEG>(le, j, e, act, su, sy, key, Vs, ls, shift, rr);
  if (act) {
    for (int q = 0; q < S::n; ++q) p[e * S::nm + S::n * j + q] = rr[q];
  }
}
