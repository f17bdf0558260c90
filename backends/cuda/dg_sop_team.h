/* dg_sop_team.h - the shapes of the CUDA driver's team kernels
 * (dg_sop_cuda_team_t.h) and line kernels (dg_sop_cuda_line_t.h) and the
 * index helpers both use, shared by dg_sop_cuda_{d,f}.cu and the host emulation
 * test (tests/solvers/test_solvers_team.cpp, which defines __device__ and
 * __forceinline__ for the host).  C++ only. */
#ifndef DG_SOP_TEAM_H
#define DG_SOP_TEAM_H

/* the team kernels' block, about */
const int kTeamThreads = 256;

/* v[d] for a d that is not a constant, by selection: no local-memory copy
   of v (the team kernels' per-direction values). */
template <typename T> __device__ __forceinline__ T sel3(const T *v, int d) {
  return d == 0 ? v[0] : (d == 1 ? v[1] : v[2]);
}

/* Element e's position ijk on a grid of n[0] x n[1] (x n[2]) elements and
   the element strides est, in the type I of the caller's neighbour
   arithmetic (the index arithmetic itself stays int: the team and line
   levels have fewer than INT_MAX elements). */
template <typename I, int DIM>
__device__ __forceinline__ void elem_ijk(int e, const int *n, I ijk[3], I est[3]) {
  ijk[0] = e % n[0];
  ijk[1] = (e / n[0]) % n[1];
  ijk[2] = DIM == 3 ? e / (n[0] * n[1]) : 0;
  est[0] = 1;
  est[1] = n[0];
  est[2] = (I)n[0] * n[1];
}

/* The team kernels' shape for degree DEG in DIM dimensions: n modes per
   direction, nm modes (threads) per element, nt tangential modes per face,
   epb elements per block of threads threads. */
template <int DEG, int DIM> struct team_shape {
  static const int n = DEG + 1;
  static const int nm = DIM == 3 ? n * n * n : n * n;
  static const int nt = DIM == 3 ? n * n : n;
  static const int epb = nm >= kTeamThreads ? 1 : kTeamThreads / nm;
  static const int threads = epb * nm;
};

/* The line kernels' shape (dg_sop_cuda_line_t.h) for degree DEG in DIM
   dimensions: n modes per direction, nm modes per element, nl = n^(DIM-1)
   threads per element (one per line along each direction), epb elements per
   block of threads threads. */
const int kLineThreads = 128;
template <int DEG, int DIM> struct line_shape {
  static const int n = DEG + 1;
  static const int nm = DIM == 3 ? n * n * n : n * n;
  static const int nl = DIM == 3 ? n * n : n;
  static const int epb = nl >= kLineThreads ? 1 : kLineThreads / nl;
  static const int threads = epb * nl;
};

#endif
