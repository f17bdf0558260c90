/* dg_spatch_cuda_team_t.h - the CUDA driver's team kernel of the vertex
 * patches, written once and included by dg_spatch_cuda.cu per precision
 * (DG_SR, DG_SN(name)); the first part (shapes, arguments) once.  No include
 * guard on purpose (the first part has its own).
 *
 * The plan: a team of threads per patch, one per line of the patch's 1D
 * transforms ((2n)^(dim-1) threads: 2n in 2D, 4n^2 in 3D), several patches per
 * block; the patch vector and the transform's second array in shared memory.
 * Phases, a block barrier between two:
 *   cells       the patch's cells' offsets into shared memory;
 *   gather      the patch vector from its cells' coefficients (entries
 *               divided between the team's threads);
 *   transforms  V^T along each direction, a line per thread
 *               (dg_spatch_lines_part of dg_spatch_t.h);
 *   scaling     by the eigenvalue sums (dg_spatch_eig), entries divided;
 *   transforms  V along each direction, a line per thread;
 *   scatter     added into z (a colour's patches share no element).
 * The arithmetic is dg_spatch_t.h's pieces, which dg_spatch_solve_r (the
 * host's) calls in its loops: the same operations on every entry as there. */

#ifndef DG_SPATCH_CUDA_TEAM_ONCE
#define DG_SPATCH_CUDA_TEAM_ONCE

/* What a patch kernel needs of the object, by value (dg_spatch_internal.h's
 * fields; the tables themselves are solver memory). */
struct dg_spatch_kargs {
  int n;        /* modes per direction */
  int nv[3];    /* vertices per direction */
  long voff[3]; /* direction d's vertices in vinfo from 3 voff[d] */
  long n0, n1;  /* elements in directions 0 and 1 */
  const int *vinfo;
  const long *off;
};

const int kPatchThreads = 128;    /* the team kernel's block, about */
const int kPatchSmem = 48 * 1024; /* static shared memory of a block, at most */

/* The team kernel's shape for N modes per direction in DIM dimensions with
   reals of RB bytes: m entries per patch line, len per patch, lines per
   direction (= threads per patch), ppb patches (threads threads) per block;
   ppb = 0: two patch arrays do not fit the shared memory (3D, n = 8, double):
   the one-thread-per-patch kernel runs instead. */
template <int N, int DIM, int RB> struct dg_spatch_team {
  static const int m = 2 * N;
  static const int len = DIM == 3 ? m * m * m : m * m;
  static const int lines = DIM == 3 ? m * m : m;
  static const int by_thr = lines > 0 && kPatchThreads / lines > 0 ? kPatchThreads / lines : 1;
  static const int by_mem = len > 0 ? kPatchSmem / (2 * len * RB) : 0;
  static const int ppb = by_thr < by_mem ? by_thr : by_mem;
  static const int threads = (ppb > 0 ? ppb : 1) * lines;
};

/* Entry k of a patch vector with m[d] entries per direction (cells of N
   modes): its cell (c0 + 2 c1 + 4 c2), its mode in the cell (a0 + N (a1 + N
   a2)) and its 1D indices kd[3]. */
template <int N>
__device__ inline void dg_spatch_entry(int k, const int m[3], int *cell, int *mode, int kd[3]) {
  kd[0] = k % m[0];
  kd[1] = (k / m[0]) % m[1];
  kd[2] = k / (m[0] * m[1]);
  const int c0 = kd[0] / N, c1 = kd[1] / N, c2 = kd[2] / N;
  *cell = c0 + 2 * c1 + 4 * c2;
  *mode = (kd[0] - c0 * N) + N * ((kd[1] - c1 * N) + N * (kd[2] - c2 * N));
}

#endif

/* Line t of direction d's transform of in into out (nothing when the patch
   has fewer lines: a boundary patch, or an idle thread). */
__device__ inline void DG_SN(spatch_team_line)(int d, const int m[3], const DG_SR *X,
                                               const DG_SR *in, DG_SR *out, int t, bool act) {
  const int nl = m[0] * m[1] * m[2] / m[d];
  if (!act || t >= nl) return;
  if (d == 0) {
    DG_SN(dg_spatch_lines_part)(0, m, X, in, out, t, t + 1, 0, 0);
    return;
  }
  const int st = d == 1 ? m[0] : m[0] * m[1], h = t / st, l = t - h * st;
  DG_SN(dg_spatch_lines_part)(d, m, X, in, out, h, h + 1, l, l + 1);
}

/* The np patches list[0..np) (one colour), N modes per direction:
   z += R_p^T A_p^-1 R_p r, a team per patch (every thread of the block
   reaches every barrier). */
template <int N, int DIM>
__global__ void __launch_bounds__(dg_spatch_team<N, DIM, sizeof(DG_SR)>::threads)
    DG_SN(dg_spatch_k_team)(dg_spatch_kargs a, const long *__restrict__ list, long np,
                            const DG_SR *__restrict__ Vs, const DG_SR *__restrict__ ls, DG_SR shift,
                            const DG_SR *__restrict__ r, DG_SR *__restrict__ z) {
  typedef dg_spatch_team<N, DIM, sizeof(DG_SR)> S;
  __shared__ DG_SR sw[S::ppb * S::len], su[S::ppb * S::len];
  __shared__ long so[S::ppb * 8]; /* the patch's cells' first coefficients */
  const int tid = threadIdx.x, lp = tid / S::lines, t = tid - lp * S::lines;
  const long q = (long)blockIdx.x * S::ppb + lp;
  const bool act = q < np;
  DG_SR *w = sw + lp * S::len, *u = su + lp * S::len;
  long el[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  int nc[3] = {1, 1, 1}, key[3] = {0, 0, 0};
  if (act) dg_spatch_cells_at(DIM, a.nv, a.voff, a.vinfo, a.n0, a.n1, list[q], el, nc, key);
  int m[3];
  for (int d = 0; d < 3; ++d) m[d] = d < DIM ? nc[d] * N : 1;
  const int len = act ? m[0] * m[1] * m[2] : 0;
  const DG_SR *V[3], *lam[3];
  for (int d = 0; d < 3; ++d) {
    V[d] = Vs + (long)key[d] * 2 * DG_SPATCH_LD * DG_SPATCH_LD;
    lam[d] = ls + (long)key[d] * DG_SPATCH_LD;
  }
  const long vq = (long)DG_SPATCH_LD * DG_SPATCH_LD; /* V after V^T */
  /* the cells' offsets into shared memory (a constant index into el: it
     stays in registers) */
  for (int c = 0; c < 8; ++c)
    if (c % S::lines == t) so[lp * 8 + c] = act && el[c] >= 0 ? a.off[el[c]] : 0;
  __syncthreads();
  const long *eo = so + lp * 8;
  int cell, mode, kd[3];
  /* gather */
  for (int k = t; k < len; k += S::lines) {
    dg_spatch_entry<N>(k, m, &cell, &mode, kd);
    w[k] = r[eo[cell] + mode];
  }
  __syncthreads();
  /* w -> u -> w (-> u in 3D): V^T along every direction */
  DG_SN(spatch_team_line)(0, m, V[0], w, u, t, act);
  __syncthreads();
  DG_SN(spatch_team_line)(1, m, V[1], u, w, t, act);
  __syncthreads();
  if (DIM == 3) {
    DG_SN(spatch_team_line)(2, m, V[2], w, u, t, act);
    __syncthreads();
  }
  DG_SR *f = DIM == 3 ? u : w, *g = DIM == 3 ? w : u;
  for (int k = t; k < len; k += S::lines) {
    dg_spatch_entry<N>(k, m, &cell, &mode, kd);
    f[k] /= DG_SN(dg_spatch_eig)(DIM, lam, shift, kd[0], kd[1], kd[2]);
  }
  __syncthreads();
  /* f -> g -> f (-> g in 3D): V along every direction, the result in w */
  DG_SN(spatch_team_line)(0, m, V[0] + vq, f, g, t, act);
  __syncthreads();
  DG_SN(spatch_team_line)(1, m, V[1] + vq, g, f, t, act);
  __syncthreads();
  if (DIM == 3) {
    DG_SN(spatch_team_line)(2, m, V[2] + vq, f, g, t, act);
    __syncthreads();
  }
  /* scatter, added */
  for (int k = t; k < len; k += S::lines) {
    dg_spatch_entry<N>(k, m, &cell, &mode, kd);
    z[eo[cell] + mode] += w[k];
  }
}
