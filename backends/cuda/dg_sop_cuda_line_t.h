/* dg_sop_cuda_line_t.h - the CUDA driver's line kernels (uniform levels, 2D
 * and 3D), written once and included by dg_sop_cuda_{d,f}.cu per precision (DG_SR,
 * DG_SN(name) and DG_STAB_C, the constant-memory copy of that precision's
 * tables, defined there; DG_UNROLL from stencils/dg_types.h).  No include
 * guard on purpose.
 *
 * The plan: a thread per line of an element, n^(dim-1) threads per element
 * (n = r + 1, line_shape), several elements per block, the block's
 * coefficients staged in shared memory (coalesced loads).  Thread (a, b) of
 * an element (b = 0 in 2D) takes the line along each direction d at the
 * tangential modes (a, b) of dg_stang's order: along 0 the modes (q, a, b),
 * along 1 (a, q, b), along 2 (a, b, q).  Every 1D contraction then runs over a
 * line held in registers with the degree a constant, so the tables' entries
 * are constant-bank operands and the loops unroll; the team kernels
 * (dg_sop_cuda_team_t.h, one thread per mode) spend most of their
 * instructions on one mode's indices and on shared-memory reads of the
 * tables.  The element arithmetic is the element functions' pieces
 * (dg_sipg_elem_t.h: dg_sline_trace, dg_sface_g, dg_sface_row,
 * dg_sface_sigma, dg_sfd_line, dg_sfd_eig):
 *   apply  the lines along 1 (and 2) hand their terms to the lines along 0
 *          through shared memory; those add their own and the mass term;
 *   block  the fast diagonalisation direction by direction: V^T along 0,
 *          (V^T along 1,) V^T along the last direction with the eigenvalues
 *          and V back, (V along 1,) V along 0, a transpose through shared
 *          memory between two directions.
 * Same operations as the element functions, in another order: agreement to
 * round-off, not to the bit (test_solvers_team checks 1e-13). */

/* Mode q of line d of thread (a, b): its index in the element (n per
   direction, nn = n^2). */
template <int DEG> __device__ __forceinline__ int DG_SN(line_idx)(int d, int a, int b, int q) {
  const int n = DEG + 1;
  return d == 0 ? q + n * a + n * n * b : (d == 1 ? a + n * q + n * n * b : a + n * b + n * n * q);
}

/* A level's constants of the line terms, per direction: formed once per
   launch on the host by the operations a thread would make (the same
   bits), so that no thread divides for them. */
typedef struct {
  DG_SR bw[3];  /* b w_d (dg_sgeom's w) */
  DG_SR avol;   /* a vol */
  DG_SR sc[3];  /* 2 / h_d */
  DG_SR J[3];   /* vol / half_d: the faces' Jacobian */
  DG_SR sig[3]; /* the penalty where the level has one penalty degree (pdu1) */
} DG_SN(line_geo);

static inline DG_SN(line_geo) DG_SN(line_geo_make)(const DG_SN(dg_sargs) * A, int dim) {
  DG_SN(line_geo) G;
  DG_SR half[3], w[3], vol;
  DG_SN(dg_sgeom)(A, dim, half, w, &vol);
  G.avol = A->a * vol;
  for (int d = 0; d < 3; ++d) {
    const DG_SR hd = d < dim ? A->h[d] : (DG_SR)1;
    G.bw[d] = A->b * w[d];
    G.sc[d] = (DG_SR)2 / hd;
    G.J[d] = vol / half[d];
    G.sig[d] = A->pdu1 ? A->cpen * (DG_SR)(A->pdu1 * A->pdu1) / hd : (DG_SR)0;
  }
  return G;
}

/* Direction d's share of y = (a M + b K) u on one line of element e: the
 * line's coefficients v[0..r] along d at the tangential modes (t0, t1) (t1
 * unused in 2D), the neighbours' lines across side s (pn[s], stride pst;
 * null on a Dirichlet side) whose element indices are nb[s]; the mass term
 * too where mass is set; G the level's constants (line_geo_make).  out[q] =
 * row q of the line. */
template <int DEG, int DIM>
__device__ __forceinline__ void
DG_SN(line_terms)(const DG_SN(dg_sargs) & A, const DG_SN(line_geo) & G, const DG_SN(dg_stab) * T,
                  int d, long e, const long nb[2], const DG_SR *const pn[2], long pst, int t0,
                  int t1, const DG_SR *v, bool mass, DG_SR *out) {
  const int n = DEG + 1;
  const DG_SR mt = DIM == 3 ? T->M[t0] * T->M[t1] : T->M[t0];
  for (int q = 0; q < n; ++q) {
    DG_SR k = 0;
    for (int p = q & 1; p < n; p += 2) k += T->K[q][p] * v[p];
    out[q] = G.bw[d] * mt * k;
    if (mass) out[q] += G.avol * T->M[q] * mt * v[q];
  }
  const DG_SR sc = G.sc[d], J = G.J[d];
  for (int s = 0; s < 2; ++s) {
    DG_SR tro, dno, trn = 0, dnn = 0;
    DG_SN(dg_sline_trace)(T, s, DEG, v, 1, sc, &tro, &dno);
    if (pn[s]) DG_SN(dg_sline_trace)(T, 1 - s, DEG, pn[s], pst, sc, &trn, &dnn);
    const DG_SR sigma = A.pdu1 ? G.sig[d] : DG_SN(dg_sface_sigma)(&A, e, nb[s], A.h[d]);
    DG_SR g1, g2;
    DG_SN(dg_sface_g)
    (T, A.b, J, sc, sigma, s ? (DG_SR)1 : (DG_SR)-1, pn[s] ? (DG_SR)0.5 : (DG_SR)1, t0, t1,
     DIM == 3, pn[s] != 0, tro, dno, trn, dnn, &g1, &g2);
    for (int q = 0; q < n; ++q) out[q] += DG_SN(dg_sface_row)(T, s, q, g1, g2);
  }
}

/* Line (a, b) along direction 0 of element e = e0 + le of y = (a M + b K)
 * u: the block's coefficients in su (element le from le nm), sy scratch of
 * (DIM - 1) times its size (every thread of the block calls it: it
 * synchronises the block once; act: e < ne). */
template <int DEG, int DIM>
__device__ __forceinline__ void
DG_SN(line_apply_row)(const DG_SN(dg_sargs) & A, const DG_SN(line_geo) & G, int e0, int le, int a,
                      int b, bool act, const DG_SR *su, DG_SR *sy, const DG_SR *__restrict__ u,
                      DG_SR *yr) {
  typedef line_shape<DEG, DIM> S;
  const int n = S::n, nm = S::nm;
  const DG_SN(dg_stab) *T = &DG_STAB_C;
  const int e = e0 + le;
  const DG_SR *ue = su + le * nm;
  if (act) {
    int ijk[3], est[3];
    elem_ijk<int, DIM>(e, A.n, ijk, est);
    long nb[2];
    const DG_SR *pn[2];
    DG_SR v[S::n], yc[S::n];
    /* the lines along 1 (and 2): their terms to the lines along 0 */
    DG_UNROLL
    for (int d = DIM - 1; d >= 0; --d) {
      const int base = DG_SN(line_idx)<DEG>(d, a, b, 0), st = DG_SN(line_idx)<DEG>(d, 0, 0, 1);
      for (int s = 0; s < 2; ++s) {
        nb[s] = DG_SN(dg_snbr_line)(e, ijk[d], A.n[d], A.bc[d], est[d], s);
        pn[s] = nb[s] < 0 ? 0
                          : (nb[s] >= e0 && nb[s] < e0 + S::epb ? su + (nb[s] - e0) * nm + base
                                                                : u + nb[s] * nm + base);
      }
      for (int k = 0; k < n; ++k) v[k] = ue[base + st * k];
      DG_SN(line_terms)<DEG, DIM>(A, G, T, d, e, nb, pn, st, a, b, v, d == 0, d ? yc : yr);
      if (d)
        for (int k = 0; k < n; ++k) sy[(d - 1) * S::epb * nm + le * nm + base + st * k] = yc[k];
    }
  }
  __syncthreads();
  if (act) {
    DG_UNROLL
    for (int d = 1; d < DIM; ++d)
      for (int q = 0; q < n; ++q)
        yr[q] += sy[(d - 1) * S::epb * nm + le * nm + DG_SN(line_idx) < DEG > (0, a, b, q)];
  }
}

/* The block solve D_e^-1 r_e of element e = e0 + le from its line (a, b)
 * along direction 0, rr (in place: the solution's line on return); sa and sb
 * scratch of the block's size whose entries of this element nobody else
 * reads now (every thread of the block calls it: it synchronises the block
 * DIM times). */
template <int DEG, int DIM>
__device__ __forceinline__ void
DG_SN(line_block_row)(int le, int a, int b, long e, bool act, DG_SR *sa, DG_SR *sb,
                      const int *__restrict__ key, const DG_SR *__restrict__ Vs,
                      const DG_SR *__restrict__ ls, DG_SR shift, DG_SR *rr) {
  typedef line_shape<DEG, DIM> S;
  const int n = S::n, nm = S::nm;
  const DG_SR *V[3] = {0, 0, 0}, *lam[3] = {0, 0, 0};
  if (act) {
    DG_UNROLL
    for (int d = 0; d < DIM; ++d) {
      V[d] = Vs + (long)key[3 * e + d] * DG_SNR * DG_SNR;
      lam[d] = ls + (long)key[3 * e + d] * DG_SNR;
    }
    /* V0^T along the line */
    for (int i = 0; i < n; ++i)
      sa[le * nm + DG_SN(line_idx) < DEG > (0, a, b, i)] = DG_SN(dg_sfd_line)(V[0], 1, i, n, rr, 1);
  }
  __syncthreads();
  DG_SR *in = sa, *out = sb;
  /* V_d^T along the other directions; the last one scales by the
     eigenvalues and goes back (V), then V along the middle one */
  DG_UNROLL
  for (int ph = 1; ph < 2 * DIM - 2; ++ph) {
    const int d = ph < DIM ? ph : 2 * DIM - 2 - ph;
    if (act) {
      const int base = DG_SN(line_idx)<DEG>(d, a, b, 0), st = DG_SN(line_idx)<DEG>(d, 0, 0, 1);
      DG_SR c[S::n], z[S::n];
      for (int k = 0; k < n; ++k) c[k] = in[le * nm + base + st * k];
      if (ph < DIM - 1) {
        for (int k = 0; k < n; ++k) z[k] = DG_SN(dg_sfd_line)(V[d], 1, k, n, c, 1);
      } else if (ph == DIM - 1) {
        for (int k = 0; k < n; ++k) {
          const int i1 = DIM == 3 ? b : k, i2 = DIM == 3 ? k : 0;
          z[k] = DG_SN(dg_sfd_line)(V[d], 1, k, n, c, 1) /
                 DG_SN(dg_sfd_eig)(DIM, lam, shift, a, i1, i2);
        }
        for (int k = 0; k < n; ++k) c[k] = z[k];
        for (int k = 0; k < n; ++k) z[k] = DG_SN(dg_sfd_line)(V[d], 0, k, n, c, 1);
      } else {
        for (int k = 0; k < n; ++k) z[k] = DG_SN(dg_sfd_line)(V[d], 0, k, n, c, 1);
      }
      for (int k = 0; k < n; ++k) out[le * nm + base + st * k] = z[k];
    }
    __syncthreads();
    DG_SR *t = in;
    in = out;
    out = t;
  }
  if (act) {
    DG_SR c[S::n];
    for (int i = 0; i < n; ++i) c[i] = in[le * nm + DG_SN(line_idx) < DEG > (0, a, b, i)];
    for (int q = 0; q < n; ++q) rr[q] = DG_SN(dg_sfd_line)(V[0], 0, q, n, c, 1);
  }
}

/* The block's coefficients into shared memory, coalesced (zeros past the
   last element). */
template <int DEG, int DIM>
__device__ __forceinline__ void DG_SN(line_stage)(DG_SR *su, int e0, int ne,
                                                  const DG_SR *__restrict__ u) {
  typedef line_shape<DEG, DIM> S;
  const long base = (long)e0 * S::nm, end = (long)ne * S::nm;
  for (int k = threadIdx.x; k < S::epb * S::nm; k += S::threads)
    su[k] = base + k < end ? u[base + k] : (DG_SR)0;
}

/* The block's coefficients of x staged in su, then line (a, b) of its
   element's y = (a M + b K) x into yr: the first half of every line kernel
   that applies the operator (every thread of the block calls it). */
template <int DEG, int DIM>
__device__ __forceinline__ void
DG_SN(line_apply_tile)(const DG_SN(dg_sargs) & A, const DG_SN(line_geo) & G, int e0, int ne, int le,
                       int a, int b, bool act, DG_SR *su, DG_SR *sy, const DG_SR *__restrict__ x,
                       DG_SR *yr) {
  DG_SN(line_stage)<DEG, DIM>(su, e0, ne, x);
  __syncthreads();
  DG_SN(line_apply_row)<DEG, DIM>(A, G, e0, le, a, b, act, su, sy, x, yr);
}

/* The thread's element in the block and its line (a, b). */
#define DG_LINE_THREAD(S)                                                                          \
  const int e0 = blockIdx.x * S::epb, le = (int)threadIdx.x / S::nl,                               \
            t_ = (int)threadIdx.x - le * S::nl, a = t_ % S::n, b = t_ / S::n;                      \
  const long e = e0 + le;                                                                          \
  const bool act = e < ne

/* y = (a M + b K) u */
template <int DEG, int DIM>
__global__ void __launch_bounds__(line_shape<DEG, DIM>::threads)
    DG_SN(dg_sop_k_line_apply)(DG_SN(dg_sargs) args, DG_SN(line_geo) geo, int ne,
                               const DG_SR *__restrict__ u, DG_SR *__restrict__ y) {
  typedef line_shape<DEG, DIM> S;
  __shared__ DG_SR su[S::epb * S::nm], sy[(DIM - 1) * S::epb * S::nm];
  DG_LINE_THREAD(S);
  DG_SR yr[S::n];
  DG_SN(line_apply_tile)<DEG, DIM>(args, geo, e0, ne, le, a, b, act, su, sy, u, yr);
  if (act)
    for (int q = 0; q < S::n; ++q) y[e * S::nm + DG_SN(line_idx) < DEG > (0, a, b, q)] = yr[q];
}

/* z = D_block^-1 r */
template <int DEG, int DIM>
__global__ void __launch_bounds__(line_shape<DEG, DIM>::threads)
    DG_SN(dg_sop_k_line_block)(int ne, const int *__restrict__ key, const DG_SR *__restrict__ Vs,
                               const DG_SR *__restrict__ ls, DG_SR shift,
                               const DG_SR *__restrict__ r, DG_SR *__restrict__ z) {
  typedef line_shape<DEG, DIM> S;
  __shared__ DG_SR sa[S::epb * S::nm], sb[S::epb * S::nm];
  DG_LINE_THREAD(S);
  DG_SR rr[S::n];
  if (act)
    for (int q = 0; q < S::n; ++q) rr[q] = r[e * S::nm + DG_SN(line_idx) < DEG > (0, a, b, q)];
  DG_SN(line_block_row)<DEG, DIM>(le, a, b, e, act, sa, sb, key, Vs, ls, shift, rr);
  if (act)
    for (int q = 0; q < S::n; ++q) z[e * S::nm + DG_SN(line_idx) < DEG > (0, a, b, q)] = rr[q];
}

/* The smoother's step p = D_block^-1 (b - (a M + b K) x) in one pass: the
   residual stays on chip. */
template <int DEG, int DIM>
__global__ void __launch_bounds__(line_shape<DEG, DIM>::threads)
    DG_SN(dg_sop_k_line_resid_block)(DG_SN(dg_sargs) args, DG_SN(line_geo) geo, int ne,
                                     const DG_SR *__restrict__ x, const DG_SR *__restrict__ bv,
                                     const int *__restrict__ key, const DG_SR *__restrict__ Vs,
                                     const DG_SR *__restrict__ ls, DG_SR shift,
                                     DG_SR *__restrict__ p) {
  typedef line_shape<DEG, DIM> S;
  __shared__ DG_SR su[S::epb * S::nm], sy[(DIM - 1) * S::epb * S::nm];
  DG_LINE_THREAD(S);
  DG_SR rr[S::n];
  DG_SN(line_apply_tile)<DEG, DIM>(args, geo, e0, ne, le, a, b, act, su, sy, x, rr);
  if (act) /* b + (-1) y: dg_cuda_svec_xpby's arithmetic */
    for (int q = 0; q < S::n; ++q)
      rr[q] = bv[e * S::nm + DG_SN(line_idx) < DEG > (0, a, b, q)] + (DG_SR)-1 * rr[q];
  /* su is read no more after the apply's barrier, sy after the block
     solve's first one */
  DG_SN(line_block_row)<DEG, DIM>(le, a, b, e, act, su, sy, key, Vs, ls, shift, rr);
  if (act)
    for (int q = 0; q < S::n; ++q) p[e * S::nm + DG_SN(line_idx) < DEG > (0, a, b, q)] = rr[q];
}

/* y = (float)(s (b - (a M + b K) x)) in one pass (dg_cuda_svec_resid_to_f's
   arithmetic): the mixed cycle's fp64 residual into float.  Launched in
   double only (a template is compiled where it is launched). */
template <int DEG, int DIM>
__global__ void __launch_bounds__(line_shape<DEG, DIM>::threads)
    DG_SN(dg_sop_k_line_resid_to_f)(DG_SN(dg_sargs) args, DG_SN(line_geo) geo, int ne,
                                    const DG_SR *__restrict__ x, const DG_SR *__restrict__ bv,
                                    double s, float *__restrict__ y) {
  typedef line_shape<DEG, DIM> S;
  __shared__ DG_SR su[S::epb * S::nm], sy[(DIM - 1) * S::epb * S::nm];
  DG_LINE_THREAD(S);
  DG_SR yr[S::n];
  DG_SN(line_apply_tile)<DEG, DIM>(args, geo, e0, ne, le, a, b, act, su, sy, x, yr);
  if (act)
    for (int q = 0; q < S::n; ++q) {
      const long i = e * S::nm + DG_SN(line_idx)<DEG>(0, a, b, q);
      y[i] = (float)(s * (bv[i] - yr[q]));
    }
}

#undef DG_LINE_THREAD
