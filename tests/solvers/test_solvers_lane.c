/* test_solvers_lane.c - the backend's operator apply and element-block solve
 * (on the OpenMP backend vectorised over runs of elements, one element per
 * SIMD lane: backends/omp/dg_sipg_lane_t.h) against the element functions called
 * one element at a time (dg_sipg_elem_r, dg_sblock_solve: the arithmetic
 * both are written after), in float and double, 2D and 3D, uniform, band
 * and random degree maps, periodic and Dirichlet: equal to round-off.  The
 * rows (32 and 35 elements) hold whole runs of 8 and 16 lanes and a tail
 * that the element functions take.  The smoother's step (dg_sblock_resid:
 * on CUDA the driver's fused kernels; on OpenMP the three calls) against the
 * apply, the residual and the block solve it stands for: equal to round-off
 * (to the bit with the line, team and element plans on the H200,
 * 2026-11-28). */
#include "dg_degree_map.h"
#include "dg_sblock.h"
#include "dg_sblock_internal.h"
#include "dg_sop.h"
#include "dg_sop_internal.h"
#include "solver_test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double urand(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0 * 2 - 1;
}

/* max |a - b| / max |b| */
static double rel_d(long n, const double *a, const double *b) {
  double d = 0, m = 0;
  for (long i = 0; i < n; ++i) {
    d = fmax(d, fabs(a[i] - b[i]));
    m = fmax(m, fabs(b[i]));
  }
  return d / m;
}
static double rel_f(long n, const float *a, const float *b) {
  double d = 0, m = 0;
  for (long i = 0; i < n; ++i) {
    d = fmax(d, fabs((double)a[i] - (double)b[i]));
    m = fmax(m, fabs((double)b[i]));
  }
  return d / m;
}

static void check(int dim, const int nn[3], const char *map, int r, int bc, double a) {
  dg_grid g;
  const double lo[3] = {0, 0, 0}, hi[3] = {1.0, 0.7, 1.3};
  OK(dg_grid_init(&g, dim, nn, lo, hi));
  dg_degree_map *m = NULL;
  if (!strcmp(map, "uniform"))
    OK(dg_degree_map_create_uniform(&m, &g, r));
  else if (!strcmp(map, "band"))
    OK(dg_degree_map_create_band(&m, &g, 1, r));
  else
    OK(dg_degree_map_create_random(&m, &g, r - 1, r, 11));
  dg_sop_params p = dg_sop_default_params();
  for (int d = 0; d < 3; ++d) p.bc[d] = bc;
  p.a = a;
  p.b = 1.5;
  dg_sop *op = NULL;
  OK(dg_sop_create(&op, TEST_BE, &g, m->deg, &p));
  dg_sblock *bj = NULL;
  OK(dg_sblock_create(&bj, op));
  const long n = dg_sop_len(op);
  double *x = TALLOC(double, n), *y = TALLOC(double, n), *yr = TALLOC(double, n);
  float *xf = TALLOC(float, n), *yf = TALLOC(float, n), *yfr = TALLOC(float, n);
  uint64_t s = 7;
  double *xh = TH(x), *yrh = TH(yr);
  float *xfh = TH(xf), *yfrh = TH(yfr);
  for (long i = 0; i < n; ++i) xfh[i] = (float)(xh[i] = urand(&s));
  TPUSH(x);
  TPUSH(xf);
  /* the apply, against the element functions on the host (the operator's
     host tables, hargs_d/_f) */
  OK(dg_sop_apply_d(op, x, y));
  OK(dg_sop_apply_f(op, xf, yf));
  for (long e = 0; e < g.nelem; ++e) {
    dg_sipg_elem_d(&op->hargs_d, &op->tab_d, e, xh, yrh);
    dg_sipg_elem_f(&op->hargs_f, &op->tab_f, e, xfh, yfrh);
  }
  const double ad = rel_d(n, TPULL(y), yrh), af = rel_f(n, TPULL(yf), yfrh);
  /* the block solve, against the same on the block tables' host copies */
  OK(dg_sblock_apply_d(bj, x, y));
  OK(dg_sblock_apply_f(bj, xf, yf));
  const size_t nk = (size_t)bj->nkeys;
  int *key;
  double *bV, *blam;
  float *bVf, *blamf;
  OK(dg_svec_map(TEST_BE, bj->key, sizeof(int) * 3 * (size_t)g.nelem, DG_SVEC_READ, (void **)&key));
  OK(dg_svec_map(TEST_BE, bj->V, sizeof(double) * nk * DG_SNR * DG_SNR, DG_SVEC_READ,
                 (void **)&bV));
  OK(dg_svec_map(TEST_BE, bj->lam, sizeof(double) * nk * DG_SNR, DG_SVEC_READ, (void **)&blam));
  OK(dg_svec_map(TEST_BE, bj->Vf, sizeof(float) * nk * DG_SNR * DG_SNR, DG_SVEC_READ,
                 (void **)&bVf));
  OK(dg_svec_map(TEST_BE, bj->lamf, sizeof(float) * nk * DG_SNR, DG_SVEC_READ, (void **)&blamf));
  for (long e = 0; e < g.nelem; ++e) {
    const double *V[3] = {0, 0, 0}, *lam[3] = {0, 0, 0};
    const float *Vf[3] = {0, 0, 0}, *lamf[3] = {0, 0, 0};
    for (int d = 0; d < dim; ++d) {
      const long k = key[3 * e + d];
      V[d] = bV + k * DG_SNR * DG_SNR;
      lam[d] = blam + k * DG_SNR;
      Vf[d] = bVf + k * DG_SNR * DG_SNR;
      lamf[d] = blamf + k * DG_SNR;
    }
    const long o = op->off[e];
    dg_sblock_solve_d(dim, op->deg[e], V, lam, bj->shift, xh + o, yrh + o);
    dg_sblock_solve_f(dim, op->deg[e], Vf, lamf, (float)bj->shift, xfh + o, yfrh + o);
  }
  dg_svec_unmap(TEST_BE, bj->key, key, 0, 0);
  dg_svec_unmap(TEST_BE, bj->V, bV, 0, 0);
  dg_svec_unmap(TEST_BE, bj->lam, blam, 0, 0);
  dg_svec_unmap(TEST_BE, bj->Vf, bVf, 0, 0);
  dg_svec_unmap(TEST_BE, bj->lamf, blamf, 0, 0);
  const double bd = rel_d(n, TPULL(y), yrh), bf = rel_f(n, TPULL(yf), yfrh);
  /* the smoother's step p = D^-1 (b - A x) in one call (the CUDA driver's
     fused kernel) against the three calls it stands for; b random, so that
     the residual does not cancel */
  double *b = TALLOC(double, n), *t = TALLOC(double, n);
  float *bfl = TALLOC(float, n), *tf = TALLOC(float, n);
  for (long i = 0; i < n; ++i) TH(bfl)[i] = (float)(TH(b)[i] = urand(&s));
  TPUSH(b);
  TPUSH(bfl);
  OK(dg_sblock_resid_d(bj, x, b, t, y));
  OK(dg_sblock_resid_f(bj, xf, bfl, tf, yf));
  OK(dg_sop_apply_d(op, x, t));
  OK(dg_sop_apply_f(op, xf, tf));
  dg_svec_xpby_d(TEST_BE, n, b, -1.0, t);
  dg_svec_xpby_f(TEST_BE, n, bfl, -1.0f, tf);
  OK(dg_sblock_apply_d(bj, t, yr));
  OK(dg_sblock_apply_f(bj, tf, yfr));
  const double sd = rel_d(n, TPULL(y), TPULL(yr)), sf = rel_f(n, TPULL(yf), TPULL(yfr));
  TFREE(b);
  TFREE(t);
  TFREE(bfl);
  TFREE(tf);
  char name[96];
  snprintf(name, sizeof name, "%dD %dx%dx%d %s r=%d %s a=%g", dim, nn[0], nn[1],
           dim == 3 ? nn[2] : 1, map, r, bc == DG_SBC_PERIODIC ? "periodic" : "Dirichlet", a);
  /* round-off: a few units of the last place of the largest entry (the
     contractions' sums in another order, products of the same factors) */
  CHECK(ad <= 1e-15 && af <= 1e-6,
        "%s: apply differs from the element function by %.2e (double), "
        "%.2e (float)",
        name, ad, af);
  CHECK(bd <= 4e-15 && bf <= 4e-6,
        "%s: block solve differs from the element function by %.2e "
        "(double), %.2e (float)",
        name, bd, bf);
  CHECK(sd <= 4e-15 && sf <= 4e-6,
        "%s: the smoother's step differs from apply, xpby and block solve by %.2e (double), "
        "%.2e (float)",
        name, sd, sf);
  printf("%-44s apply %.1e %.1e  block %.1e %.1e  step %.1e %.1e\n", name, ad, af, bd, bf, sd, sf);
  TFREE(x);
  TFREE(y);
  TFREE(yr);
  TFREE(xf);
  TFREE(yf);
  TFREE(yfr);
  dg_sblock_destroy(&bj);
  dg_sop_destroy(&op);
  dg_degree_map_destroy(&m);
}

int main(void) {
  const int n2a[3] = {32, 6, 1}, n2b[3] = {35, 5, 1}, n3[3] = {32, 3, 4};
  const char *maps[3] = {"uniform", "band", "random"};
  for (int k = 0; k < 3; ++k) {
    check(2, n2a, maps[k], 3, DG_SBC_DIRICHLET, 0);
    check(2, n2b, maps[k], 4, DG_SBC_PERIODIC, 0);
    check(2, n2a, maps[k], 6, DG_SBC_PERIODIC, 2.5);
    check(2, n2b, maps[k], 7, DG_SBC_DIRICHLET, 0.5);
    check(2, n2a, maps[k], 10, DG_SBC_PERIODIC, 1.0); /* the largest lane degree */
    check(3, n3, maps[k], 2, DG_SBC_DIRICHLET, 1.0);
    check(3, n3, maps[k], 3, DG_SBC_PERIODIC, 0);
  }
  check(2, n2b, "uniform", 1, DG_SBC_DIRICHLET, 0);
  check(2, n2a, "uniform", 2, DG_SBC_PERIODIC, 0);
  check(3, n3, "uniform", 1, DG_SBC_PERIODIC, 0);
  return dg_test_done("test_solvers_lane");
}
