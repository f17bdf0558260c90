/* dg_sop_cuda_team_t.h - the CUDA driver's team kernels, written once and
 * included by dg_sop_cuda_{d,f}.cu per precision (DG_SR, DG_SN(name) and DG_STAB_G,
 * the device copy of that precision's tables, defined there).  No include
 * guard on purpose.
 *
 * The plan (uniform-degree levels): a team of (r+1)^dim threads per element,
 * one thread per mode, team_shape<DEG, DIM>::epb elements per block.  The
 * block stages its elements' coefficients and the 1D tables in shared memory
 * (coalesced loads: the elements of a block are contiguous in memory); the
 * element arithmetic is the element functions' (dg_sipg_elem_t.h:
 * dg_svol_row, dg_sline_trace, dg_sface_g, dg_sface_row; dg_sfd_line and
 * dg_sfd_eig of the block solve), the team only divides the loops between
 * its threads:
 *   apply  1. one thread per (face, tangential mode) item: the line traces of
 *             the element (shared) and of the neighbour (shared when it is in
 *             the block, global otherwise) and the item's weights g1, g2;
 *          2. one thread per mode: its volume row plus its share of the
 *             2 dim faces' weights, stored once (coalesced).
 *   block  the 2 dim 1D contractions of the fast diagonalisation, one per
 *          phase, ping-ponging between two shared buffers (the eigenvalue
 *          scaling fused into the last forward phase). */

/* Copy the 1D tables' entries of degree <= DEG into shared memory. */
template <int DEG>
__device__ inline void DG_SN(team_tables)(DG_SN(dg_stab) * T, const DG_SN(dg_stab) * G, int tid,
                                          int nthr) {
  const int n = DEG + 1;
  for (int k = tid; k < n * n; k += nthr) T->K[k / n][k % n] = G->K[k / n][k % n];
  for (int k = tid; k < n; k += nthr) {
    T->M[k] = G->M[k];
    for (int s = 0; s < 2; ++s) {
      T->Pe[s][k] = G->Pe[s][k];
      T->De[s][k] = G->De[s][k];
    }
  }
}

/* The shared memory of the apply: the tables, the block's coefficients, the
 * faces' weights. */
template <int DEG, int DIM> struct DG_SN(team_apply_smem) {
  typedef team_shape<DEG, DIM> S;
  DG_SN(dg_stab) T;
  DG_SR su[S::threads];
  DG_SR g1s[S::epb * 2 * DIM * S::nt], g2s[S::epb * 2 * DIM * S::nt];
};

/* Row m of element e's y = (a M + b K) u, for the thread tid = le nm + m of
 * the block whose first element is e0 (act: e < ne; every thread of the
 * block calls it: it synchronises the block twice). */
template <int DEG, int DIM>
__device__ inline DG_SR DG_SN(team_apply_row)(DG_SN(team_apply_smem) < DEG, DIM > &sm,
                                              const DG_SN(dg_sargs) & args, int e0, bool act,
                                              const DG_SR *__restrict__ u) {
  typedef team_shape<DEG, DIM> S;
  const int n = S::n, nm = S::nm, nt = S::nt, nf = 2 * DIM;
  DG_SN(dg_sargs) A = args;
  A.dim = DIM;
  const int tid = threadIdx.x, le = tid / nm, m = tid - le * nm, e = e0 + le;
  DG_SN(team_tables)<DEG>(&sm.T, &DG_STAB_G, tid, S::threads);
  sm.su[tid] = act ? u[(long)e * nm + m] : (DG_SR)0;
  __syncthreads();
  const long str[3] = {1, n, (long)n * n};
  DG_SR half[3], w[3], vol;
  DG_SN(dg_sgeom)(&A, DIM, half, w, &vol);
  const DG_SR *ue = sm.su + le * nm;
  if (act) {
    /* the items' direction d is not a constant: every per-direction value
       is selected (sel3), never indexed, so nothing goes to local memory */
    long ijk[3], est[3];
    elem_ijk<long, DIM>(e, A.n, ijk, est);
    for (int k = m; k < nf * nt; k += nm) {
      const int f = k / nt, t = k - f * nt, d = f >> 1, s = f & 1;
      int td[2];
      DG_SN(dg_stang)(DIM, d, td);
      const int t0 = t % n, t1 = DIM == 3 ? t / n : 0;
      const long sd = sel3(str, d),
                 tb = t0 * sel3(str, td[0]) + (DIM == 3 ? t1 * sel3(str, td[1]) : 0);
      const DG_SR hd = sel3(A.h, d), sc = (DG_SR)2 / hd;
      DG_SR tro, dno, trn = 0, dnn = 0;
      DG_SN(dg_sline_trace)(&sm.T, s, DEG, ue + tb, sd, sc, &tro, &dno);
      const long nb =
          DG_SN(dg_snbr_line)(e, sel3(ijk, d), sel3(A.n, d), sel3(A.bc, d), sel3(est, d), s);
      if (nb >= 0) {
        const DG_SR *un = nb >= e0 && nb < e0 + S::epb ? sm.su + (nb - e0) * nm : u + nb * nm;
        DG_SN(dg_sline_trace)(&sm.T, 1 - s, DEG, un + tb, sd, sc, &trn, &dnn);
      }
      DG_SR g1, g2;
      DG_SN(dg_sface_g)
      (&sm.T, A.b, vol / (hd / 2), sc, DG_SN(dg_sface_sigma)(&A, e, nb, hd),
       s ? (DG_SR)1 : (DG_SR)-1, nb >= 0 ? (DG_SR)0.5 : (DG_SR)1, t0, t1, DIM == 3, nb >= 0, tro,
       dno, trn, dnn, &g1, &g2);
      sm.g1s[(le * nf + f) * nt + t] = g1;
      sm.g2s[(le * nf + f) * nt + t] = g2;
    }
  }
  __syncthreads();
  if (!act) return 0;
  int ii[3];
  ii[0] = m % n;
  ii[1] = (m / n) % n;
  ii[2] = DIM == 3 ? m / (n * n) : 0;
  DG_SR acc = DG_SN(dg_svol_row)(&A, &sm.T, DIM, n, str, ii, w, vol, ue);
  for (int d = 0; d < DIM; ++d) {
    int td[2];
    DG_SN(dg_stang)(DIM, d, td);
    const int t = ii[td[0]] + (DIM == 3 ? n * ii[td[1]] : 0);
    for (int s = 0; s < 2; ++s) {
      const int q = (le * nf + 2 * d + s) * nt + t;
      acc += DG_SN(dg_sface_row)(&sm.T, s, ii[d], sm.g1s[q], sm.g2s[q]);
    }
  }
  return acc;
}

/* Entry m of element e's block solve D_e^-1 r_e, r_e in wa[le nm ..] (wb:
 * scratch of the same size; both overwritten), for thread tid = le nm + m
 * (every thread of the block calls it: it synchronises the block). */
template <int DEG, int DIM>
__device__ inline DG_SR
DG_SN(team_block_row)(DG_SR *wa, DG_SR *wb, int e, bool act, const int *__restrict__ key,
                      const DG_SR *__restrict__ Vs, const DG_SR *__restrict__ ls, DG_SR shift) {
  typedef team_shape<DEG, DIM> S;
  const int n = S::n, nm = S::nm;
  const int tid = threadIdx.x, m = tid % nm;
  const DG_SR *V[3] = {0, 0, 0}, *lam[3] = {0, 0, 0};
  if (act)
    for (int d = 0; d < DIM; ++d) {
      V[d] = Vs + (long)key[3 * (long)e + d] * DG_SNR * DG_SNR;
      lam[d] = ls + (long)key[3 * (long)e + d] * DG_SNR;
    }
  const long str[3] = {1, n, (long)n * n};
  int ii[3];
  ii[0] = m % n;
  ii[1] = (m / n) % n;
  ii[2] = DIM == 3 ? m / (n * n) : 0;
  __syncthreads();
  DG_SR *in = wa, *out = wb;
  /* forward: V^T along every direction, then the eigenvalues */
  for (int d = 0; d < DIM; ++d) {
    if (act) {
      DG_SR v = DG_SN(dg_sfd_line)(V[d], 1, ii[d], n, in + (tid - ii[d] * str[d]), str[d]);
      if (d == DIM - 1) v /= DG_SN(dg_sfd_eig)(DIM, lam, shift, ii[0], ii[1], ii[2]);
      out[tid] = v;
    }
    __syncthreads();
    DG_SR *t = in;
    in = out;
    out = t;
  }
  /* backward: V along every direction, the last one returned */
  for (int d = 0; d < DIM - 1; ++d) {
    if (act) out[tid] = DG_SN(dg_sfd_line)(V[d], 0, ii[d], n, in + (tid - ii[d] * str[d]), str[d]);
    __syncthreads();
    DG_SR *t = in;
    in = out;
    out = t;
  }
  const int dl = DIM - 1;
  return act ? DG_SN(dg_sfd_line)(V[dl], 0, ii[dl], n, in + (tid - ii[dl] * str[dl]), str[dl])
             : (DG_SR)0;
}

/* y = (a M + b K) u */
template <int DEG, int DIM>
__global__ void __launch_bounds__(team_shape<DEG, DIM>::threads)
    DG_SN(dg_sop_k_team_apply)(DG_SN(dg_sargs) args, int ne, const DG_SR *__restrict__ u,
                               DG_SR *__restrict__ y) {
  typedef team_shape<DEG, DIM> S;
  __shared__ DG_SN(team_apply_smem)<DEG, DIM> sm;
  const int e0 = blockIdx.x * S::epb, e = e0 + (int)threadIdx.x / S::nm;
  const DG_SR acc = DG_SN(team_apply_row)<DEG, DIM>(sm, args, e0, e < ne, u);
  if (e < ne) y[(long)e0 * S::nm + threadIdx.x] = acc;
}

/* z = D_block^-1 r */
template <int DEG, int DIM>
__global__ void __launch_bounds__(team_shape<DEG, DIM>::threads)
    DG_SN(dg_sop_k_team_block)(int ne, const int *__restrict__ key, const DG_SR *__restrict__ Vs,
                               const DG_SR *__restrict__ ls, DG_SR shift,
                               const DG_SR *__restrict__ r, DG_SR *__restrict__ z) {
  typedef team_shape<DEG, DIM> S;
  __shared__ DG_SR wa[S::threads], wb[S::threads];
  const int e0 = blockIdx.x * S::epb, e = e0 + (int)threadIdx.x / S::nm;
  const long i = (long)e0 * S::nm + threadIdx.x;
  wa[threadIdx.x] = e < ne ? r[i] : (DG_SR)0;
  const DG_SR v = DG_SN(team_block_row)<DEG, DIM>(wa, wb, e, e < ne, key, Vs, ls, shift);
  if (e < ne) z[i] = v;
}

/* The smoother's step p = D_block^-1 (b - (a M + b K) x) in one pass: the
 * residual stays in shared memory. */
template <int DEG, int DIM>
__global__ void __launch_bounds__(team_shape<DEG, DIM>::threads)
    DG_SN(dg_sop_k_team_resid_block)(DG_SN(dg_sargs) args, int ne, const DG_SR *__restrict__ x,
                                     const DG_SR *__restrict__ b, const int *__restrict__ key,
                                     const DG_SR *__restrict__ Vs, const DG_SR *__restrict__ ls,
                                     DG_SR shift, DG_SR *__restrict__ p) {
  typedef team_shape<DEG, DIM> S;
  __shared__ DG_SN(team_apply_smem)<DEG, DIM> sm;
  __shared__ DG_SR wb[S::threads];
  const int e0 = blockIdx.x * S::epb, e = e0 + (int)threadIdx.x / S::nm;
  const long i = (long)e0 * S::nm + threadIdx.x;
  const DG_SR acc = DG_SN(team_apply_row)<DEG, DIM>(sm, args, e0, e < ne, x);
  /* b + (-1) acc: dg_cuda_svec_xpby's arithmetic, so the fused step equals the
     three kernels it replaces */
  const DG_SR res = e < ne ? b[i] + (DG_SR)-1 * acc : (DG_SR)0;
  __syncthreads(); /* the block's coefficients in su are read no more */
  sm.su[threadIdx.x] = res;
  const DG_SR v = DG_SN(team_block_row)<DEG, DIM>(sm.su, wb, e, e < ne, key, Vs, ls, shift);
  if (e < ne) p[i] = v;
}
