/* test_solvers_team_patch.cpp - the CUDA driver's team kernel of the vertex
 * patches (backends/cuda/dg_spatch_cuda_team_t.h) run on the host: one std::thread
 * per CUDA thread, a barrier for __syncthreads, static storage for
 * __shared__, a launch per colour as dg_spatch_cuda.cu does.  The sum of its
 * patch corrections must equal the OpenMP driver's (dg_spatch_apply_*, which
 * calls dg_spatch_solve_* per patch: the same operations in the same order)
 * to 1e-13 relative in double and 1e-5 in float, in 2D and 3D, n = 2..8
 * modes per direction, Dirichlet sides (patches of one cell in a direction)
 * and odd periodic directions (a third colour), idle threads in the last
 * block of a colour.  A check of the GPU plan that needs no GPU (the CUDA
 * build runs the kernel; gpu.solver_consistency compares the solves).
 * usage: test_solvers_team_patch */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "dg_backends.h"
#include "dg_error.h"
#include "dg_spatch_internal.h"
#include "dg_svec.h"

#include "team_emulation.h"

namespace {

#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_spatch_cuda_team_t.h"
#undef DG_SR
#undef DG_SN
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_spatch_cuda_team_t.h"
#undef DG_SR
#undef DG_SN

template <int N, int DIM>
void team(const dg_spatch *sp, const dg_spatch_kargs &a, long np, const long *list, const double *r,
          double *z) {
  typedef dg_spatch_team<N, DIM, sizeof(double)> S;
  const double *Vs = sp->V, *ls = sp->lam, shift = sp->shift;
  launch((int)((np + S::ppb - 1) / S::ppb), S::threads,
         [=] { dg_spatch_k_team_d<N, DIM>(a, list, np, Vs, ls, shift, r, z); });
}
template <int N, int DIM>
void team(const dg_spatch *sp, const dg_spatch_kargs &a, long np, const long *list, const float *r,
          float *z) {
  typedef dg_spatch_team<N, DIM, sizeof(float)> S;
  const float *Vs = sp->Vf, *ls = sp->lamf, shift = (float)sp->shift;
  launch((int)((np + S::ppb - 1) / S::ppb), S::threads,
         [=] { dg_spatch_k_team_f<N, DIM>(a, list, np, Vs, ls, shift, r, z); });
}

int apply(const dg_spatch *sp, const double *r, double *z) { return dg_spatch_apply_d(sp, r, z); }
int apply(const dg_spatch *sp, const float *r, float *z) { return dg_spatch_apply_f(sp, r, z); }

/* the largest difference relative to the largest entry of a */
template <typename R> double maxdiff(const std::vector<R> &a, const std::vector<R> &b) {
  double m = 0, s = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    m = std::fmax(m, std::fabs((double)a[i] - (double)b[i]));
    s = std::fmax(s, std::fabs((double)a[i]));
  }
  return m / s;
}

/* the OpenMP driver against the team kernel, colour by colour, on an
   nx x ny x nz grid of degree N - 1 (bc per direction: 0 periodic) */
template <typename R, int N, int DIM> int check(int nx, int ny, int nz, int bcx, int bcy, int bcz) {
  const int nn[3] = {nx, ny, nz};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 0.8, 1.3};
  dg_grid g;
  dg_sop *op = NULL;
  dg_spatch *sp = NULL;
  dg_backend *be = NULL;
  if (dg_grid_init(&g, DIM, nn, lo, hi) || dg_backend_create(&be, "omp")) return 1;
  std::vector<uint8_t> deg((size_t)g.nelem, (uint8_t)(N - 1));
  dg_sop_params p = dg_sop_default_params();
  p.bc[0] = bcx ? DG_SBC_DIRICHLET : DG_SBC_PERIODIC;
  p.bc[1] = bcy ? DG_SBC_DIRICHLET : DG_SBC_PERIODIC;
  p.bc[2] = bcz ? DG_SBC_DIRICHLET : DG_SBC_PERIODIC;
  p.a = 0.7;
  if (dg_sop_create(&op, be, &g, deg.data(), &p) || dg_spatch_create(&sp, op)) {
    fprintf(stderr, "test_solvers_team_patch: %s\n", dg_error_message());
    return 1;
  }
  const long len = dg_sop_len(op);
  std::vector<R> r(len), z0(len), z1(len, 0);
  for (long i = 0; i < len; ++i) r[i] = (R)(std::cos(0.3 + 1.7 * i) + 0.1 * std::sin(5.0 * i));
  int fail = apply(sp, r.data(), z0.data()) != 0;
  dg_spatch_kargs a;
  a.n = sp->n;
  for (int d = 0; d < 3; ++d) {
    a.nv[d] = sp->nv[d];
    a.voff[d] = sp->voff[d];
  }
  a.n0 = g.n[0];
  a.n1 = g.n[1];
  a.vinfo = sp->vinfo;
  a.off = dg_sop_offsets(op);
  for (int c = 0; c < dg_spatch_ncolours(sp); ++c) {
    const long *list;
    const long np = dg_spatch_colour(sp, c, &list);
    if (np) team<N, DIM>(sp, a, np, list, r.data(), z1.data());
  }
  const double d = maxdiff(z0, z1), tol = sizeof(R) == 8 ? 1e-13 : 1e-5;
  const int ok = !fail && d <= tol;
  printf("%s %s %dD n=%d %dx%dx%d bc %d%d%d: %ld patches, %d colours, team of %d, %d per block: "
         "%.1e\n",
         ok ? "ok  " : "FAIL", sizeof(R) == 8 ? "double" : "float ", DIM, N, nx, ny, nz, bcx, bcy,
         bcz, dg_spatch_npatches(sp), dg_spatch_ncolours(sp),
         dg_spatch_team<N, DIM, sizeof(R)>::lines, dg_spatch_team<N, DIM, sizeof(R)>::ppb, d);
  dg_spatch_destroy(&sp);
  dg_sop_destroy(&op);
  dg_backend_destroy(&be);
  return !ok;
}

} // namespace

int main(void) {
  int fail = 0;
  fail |= check<double, 2, 2>(7, 6, 1, 1, 1, 1);
  fail |= check<float, 2, 2>(7, 6, 1, 1, 1, 1);
  fail |= check<double, 4, 2>(5, 6, 1, 0, 1, 1);
  fail |= check<float, 4, 2>(5, 6, 1, 0, 1, 1);
  fail |= check<double, 7, 2>(4, 3, 1, 1, 0, 1);
  fail |= check<double, 8, 2>(3, 4, 1, 0, 1, 1);
  fail |= check<double, 2, 3>(4, 3, 3, 1, 1, 1);
  fail |= check<double, 3, 3>(3, 4, 3, 0, 1, 0);
  fail |= check<float, 3, 3>(3, 4, 3, 0, 1, 0);
  fail |= check<double, 4, 3>(3, 3, 2, 1, 1, 1);
  fail |= check<float, 8, 3>(2, 2, 1, 1, 1, 1);
  printf("%s\n", fail ? "FAILED" : "the team kernel agrees with the OpenMP driver");
  return fail;
}
