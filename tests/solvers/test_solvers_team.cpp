/* test_solvers_team.cpp - the CUDA driver's team kernels
 * (backends/cuda/dg_sop_cuda_team_t.h) and line kernels
 * (backends/cuda/dg_sop_cuda_line_t.h) run on the host: one std::thread per CUDA
 * thread, a barrier for __syncthreads, static storage for __shared__.  The
 * apply, the block solve and the fused smoother step must give what the
 * element functions they divide between the threads give (dg_sipg_elem_r,
 * dg_sblock_solve; xpby's b + (-1) y) to 1e-13 relative (the same bits
 * without fma contraction: 0 measured at -O2), in 2D and 3D, degrees 1..7 (2D: 1..10), periodic
 * and Dirichlet sides, penalty degrees above the degrees, grids whose rows
 * are not multiples of a block's elements (neighbours in and out of the
 * block, idle threads in the last block); the line kernels (another order of
 * the same operations) on 2D and 3D grids of one and of several blocks, with
 * the one-penalty-degree shortcut and without.  A check that needs no GPU: the
 * CUDA build runs the same kernels (gpu.solver_consistency compares them with
 * the OpenMP build).  usage: test_solvers_team */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "dg_sipg_elem.h"

extern "C" int dg_stab_build(dg_stab_d *td, dg_stab_f *tf); /* dg_sop_internal.h */

#include "team_emulation.h"

#include "dg_sop_team.h"

namespace {

dg_stab_d g_tab_d;
dg_stab_f g_tab_f;
#define DG_SR     double
#define DG_SN(x)  x##_d
#define DG_STAB_G g_tab_d
#include "dg_sop_cuda_team_t.h"
#undef DG_STAB_G
#define DG_STAB_C g_tab_d
#include "dg_sop_cuda_line_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_STAB_C

double urand() { return rand() / (double)RAND_MAX - 0.5; }

/* the largest difference relative to the largest entry of a */
double maxdiff(const std::vector<double> &a, const std::vector<double> &b) {
  double m = 0, s = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    m = std::fmax(m, std::fabs(a[i] - b[i]));
    s = std::fmax(s, std::fabs(a[i]));
  }
  return m / s;
}

template <int DEG, int DIM> int check(int nx, int ny, int nz, int bcx, int bcy, int pen) {
  typedef team_shape<DEG, DIM> S;
  const long ne = (long)nx * ny * nz, nm = S::nm, len = ne * nm;
  std::vector<unsigned char> deg(ne, DEG), pdeg(ne, DEG);
  for (long e = 0; pen && e < ne; ++e) pdeg[e] = (unsigned char)(DEG + rand() % 3);
  std::vector<long> off(ne + 1);
  for (long e = 0; e <= ne; ++e) off[e] = e * nm;
  dg_sargs_d A;
  memset(&A, 0, sizeof A);
  A.dim = DIM;
  A.n[0] = nx;
  A.n[1] = ny;
  A.n[2] = nz;
  A.bc[0] = bcx;
  A.bc[1] = bcy;
  A.bc[2] = bcx;
  A.h[0] = 0.3;
  A.h[1] = 0.2;
  A.h[2] = 0.45;
  A.a = 0.7;
  A.b = 1.3;
  A.cpen = 2.5;
  A.deg = deg.data();
  A.pdeg = pdeg.data();
  A.off = off.data();
  if (!pen) A.pdu1 = DEG + 1; /* one penalty degree: the line kernels' shortcut */
  std::vector<double> u(len), b(len), y0(len), y1(len, 1e300), z0(len), z1(len, 1e300), p0(len),
      p1(len, 1e300), t(len);
  for (auto &v : u) v = urand();
  for (auto &v : b) v = urand();
  const int nkeys = 3;
  std::vector<double> V(nkeys * DG_SNR * DG_SNR), lam(nkeys * DG_SNR);
  for (auto &v : V) v = urand();
  for (auto &v : lam) v = 1 + std::fabs(urand());
  std::vector<int> key(3 * ne);
  for (auto &k : key) k = rand() % nkeys;
  const double shift = 0.4;
  /* the element functions */
  for (long e = 0; e < ne; ++e) dg_sipg_elem_r_d(&A, &g_tab_d, e, u.data(), y0.data(), DEG);
  for (long i = 0; i < len; ++i) t[i] = b[i] + -1.0 * y0[i];
  for (long e = 0; e < ne; ++e) {
    const double *Vp[3] = {0, 0, 0}, *lp[3] = {0, 0, 0};
    for (int d = 0; d < DIM; ++d) {
      Vp[d] = V.data() + key[3 * e + d] * DG_SNR * DG_SNR;
      lp[d] = lam.data() + key[3 * e + d] * DG_SNR;
    }
    dg_sblock_solve_d(DIM, DEG, Vp, lp, shift, u.data() + off[e], z0.data() + off[e]);
    dg_sblock_solve_d(DIM, DEG, Vp, lp, shift, t.data() + off[e], p0.data() + off[e]);
  }
  /* the team kernels */
  const int nb = (int)((ne + S::epb - 1) / S::epb), n = (int)ne;
  const double *up = u.data(), *bp = b.data(), *Vs = V.data(), *ls = lam.data();
  const int *kp = key.data();
  double *yp = y1.data(), *zp = z1.data(), *pp = p1.data();
  launch(nb, S::threads, [=] { dg_sop_k_team_apply_d<DEG, DIM>(A, n, up, yp); });
  launch(nb, S::threads, [=] { dg_sop_k_team_block_d<DEG, DIM>(n, kp, Vs, ls, shift, up, zp); });
  launch(nb, S::threads,
         [=] { dg_sop_k_team_resid_block_d<DEG, DIM>(A, n, up, bp, kp, Vs, ls, shift, pp); });
  double da = maxdiff(y0, y1), db = maxdiff(z0, z1), dr = maxdiff(p0, p1);
  {
    /* the line kernels */
    typedef line_shape<DEG, DIM> L;
    const int nl = (int)((ne + L::epb - 1) / L::epb);
    std::fill(y1.begin(), y1.end(), 1e300);
    std::fill(z1.begin(), z1.end(), 1e300);
    std::fill(p1.begin(), p1.end(), 1e300);
    const line_geo_d geo = line_geo_make_d(&A, DIM);
    launch(nl, L::threads, [=] { dg_sop_k_line_apply_d<DEG, DIM>(A, geo, n, up, yp); });
    launch(nl, L::threads, [=] { dg_sop_k_line_block_d<DEG, DIM>(n, kp, Vs, ls, shift, up, zp); });
    launch(nl, L::threads, [=] {
      dg_sop_k_line_resid_block_d<DEG, DIM>(A, geo, n, up, bp, kp, Vs, ls, shift, pp);
    });
    const double la = maxdiff(y0, y1), lb = maxdiff(z0, z1), lr = maxdiff(p0, p1);
    printf("     line kernels: apply %.1e, block %.1e, fused step %.1e\n", la, lb, lr);
    da = std::fmax(da, la);
    db = std::fmax(db, lb);
    dr = std::fmax(dr, lr);
  }
  /* the same operations in the same order: equal bits, but where the compiler
     contracts a * b + c into an fma in one loop nest and not in the other
     (-march=native: differences of 1e-16 .. 1e-14 measured) */
  const double tol = 1e-13;
  const int ok = da <= tol && db <= tol && dr <= tol;
  printf("%s %dD r=%d %dx%dx%d bc %d%d pen %d: apply %.1e, block %.1e, fused step %.1e\n",
         ok ? "ok  " : "FAIL", DIM, DEG, nx, ny, nz, bcx, bcy, pen, da, db, dr);
  return !ok;
}

} // namespace

int main(void) {
  if (dg_stab_build(&g_tab_d, &g_tab_f)) {
    fprintf(stderr, "test_solvers_team: the tables could not be built\n");
    return 1;
  }
  int fail = 0;
  fail |= check<1, 2>(9, 8, 1, 0, 1, 0);
  fail |= check<3, 2>(7, 5, 1, 1, 0, 1);
  fail |= check<3, 2>(5, 4, 1, 0, 0, 0);
  fail |= check<5, 2>(6, 3, 1, 1, 1, 1);
  fail |= check<7, 2>(3, 2, 1, 0, 1, 0);
  /* several blocks of the line kernels (neighbours in and out of a block) */
  fail |= check<3, 3>(5, 4, 3, 0, 1, 1);
  fail |= check<5, 3>(4, 3, 3, 1, 0, 0);
  fail |= check<7, 3>(3, 3, 2, 1, 1, 1);
  fail |= check<2, 2>(11, 9, 1, 1, 0, 0);
  fail |= check<4, 2>(10, 6, 1, 0, 1, 1);
  fail |= check<5, 2>(13, 7, 1, 1, 1, 0);
  fail |= check<6, 2>(8, 5, 1, 0, 0, 1);
  fail |= check<7, 2>(9, 5, 1, 1, 0, 0);
  fail |= check<1, 3>(5, 3, 2, 1, 0, 1);
  fail |= check<2, 3>(3, 2, 2, 0, 1, 0);
  fail |= check<4, 3>(2, 2, 2, 1, 1, 1);
  /* 2D degrees 8..10: the line kernels' own levels (the team kernels, not
     built for them on the GPU, checked too) */
  fail |= check<8, 2>(5, 4, 1, 1, 0, 1);
  fail |= check<9, 2>(4, 3, 1, 0, 1, 0);
  fail |= check<10, 2>(13, 3, 1, 1, 1, 0);
  printf("%s\n", fail ? "FAILED" : "the team and line kernels agree with the element functions");
  return fail;
}
