/* test_solvers_op.c - the SIPG operator (solvers/dg_sop.h) as a matrix:
 * symmetric, positive definite (Cholesky of the dense matrix; and indefinite
 * when the penalty is too small, so the check can fail), constants in the
 * kernel of the periodic Laplacian, the diagonal, the 1D stiffness against its
 * closed form, float against double, and the elements' mode 0 gathered and
 * added to on the backend (dg_sop_mode0_get/_add) bitwise as on the host. */
#include "dg_degree_map.h"
#include "dg_sblock.h"
#include "dg_sop.h"
#include "solver_test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double urand(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) / 9007199254740992.0 * 2 - 1;
}

/* In-place Cholesky of the n x n matrix; 0 when positive definite. */
static int cholesky(double *A, long n) {
  for (long j = 0; j < n; ++j) {
    double s = A[j * n + j];
    for (long k = 0; k < j; ++k) s -= A[j * n + k] * A[j * n + k];
    if (!(s > 0)) return 1;
    const double l = sqrt(s);
    A[j * n + j] = l;
    for (long i = j + 1; i < n; ++i) {
      double t = A[i * n + j];
      for (long k = 0; k < j; ++k) t -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = t / l;
    }
  }
  return 0;
}

/* Dense matrix column by column (A e_j), host memory. */
static double *dense(const dg_sop *op) {
  const long n = dg_sop_len(op);
  double *A = malloc(sizeof(double) * (size_t)(n * n)), *x = TALLOC(double, n);
  double *y = TALLOC(double, n);
  if (!A) t_die("dense: malloc");
  for (long j = 0; j < n; ++j) {
    TH(x)[j] = 1;
    TPUSH(x);
    OK(dg_sop_apply_d(op, x, y));
    TH(x)[j] = 0;
    const double *yh = TPULL(y);
    for (long i = 0; i < n; ++i) A[i * n + j] = yh[i];
  }
  TFREE(x);
  TFREE(y);
  return A;
}

static void check_case(int dim, int bc, double a, int rmin, int rmax, const char *name) {
  dg_grid g;
  const int nn[3] = {3, 2, 2};
  const double lo[3] = {0, 0, 0}, hi[3] = {1.0, 0.7, 1.3};
  OK(dg_grid_init(&g, dim, nn, lo, hi));
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_random(&m, &g, rmin, rmax, 7));
  dg_sop_params p = dg_sop_default_params();
  for (int d = 0; d < 3; ++d) p.bc[d] = bc;
  p.a = a;
  p.b = 1.5;
  dg_sop *op = NULL;
  OK(dg_sop_create(&op, TEST_BE, &g, m->deg, &p));
  const long n = dg_sop_len(op);
  double *A = dense(op), amax = 0;
  for (long i = 0; i < n * n; ++i) amax = fmax(amax, fabs(A[i]));
  double asym = 0;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < i; ++j) asym = fmax(asym, fabs(A[i * n + j] - A[j * n + i]));
  CHECK(asym <= 1e-13 * amax, "%s: max |A_ij - A_ji| = %g (max |A| %g)", name, asym, amax);
  /* x'Ay == y'Ax for random x, y through the matrix-free apply */
  uint64_t s = 42;
  double *x = TALLOC(double, n), *y = TALLOC(double, n);
  double *Ax = TALLOC(double, n), *Ay = TALLOC(double, n);
  double *xh = TH(x), *yh = TH(y);
  for (long i = 0; i < n; ++i) {
    xh[i] = urand(&s);
    yh[i] = urand(&s);
  }
  TPUSH(x);
  TPUSH(y);
  OK(dg_sop_apply_d(op, x, Ax));
  OK(dg_sop_apply_d(op, y, Ay));
  const double *Axh = TPULL(Ax), *Ayh = TPULL(Ay);
  double xAy = 0, yAx = 0, sc = 0;
  for (long i = 0; i < n; ++i) {
    xAy += xh[i] * Ayh[i];
    yAx += yh[i] * Axh[i];
    sc += fabs(xh[i] * Ayh[i]);
  }
  CHECK(fabs(xAy - yAx) <= 1e-13 * sc, "%s: x'Ay %.17g vs y'Ax %.17g", name, xAy, yAx);
  /* mode 0: x gathered at the offsets; y[off[e]] += 0.3 there and nowhere else */
  {
    const long *off = dg_sop_offsets(op);
    double *m0 = malloc(sizeof(double) * (size_t)g.nelem), *y0 = malloc(sizeof(double) * n);
    long bad = 0;
    if (!m0 || !y0) t_die("mode 0: malloc");
    memcpy(y0, yh, sizeof(double) * n); /* y before the add (yh is y itself on OpenMP) */
    OK(dg_sop_mode0_get(op, x, m0));
    for (long e = 0; e < g.nelem; ++e) bad += m0[e] != xh[off[e]];
    OK(dg_sop_mode0_add(op, 0.3, y));
    const double *y1 = TPULL(y);
    for (long e = 0, k = 0; k < n; ++k) {
      const int at = e < g.nelem && k == off[e];
      bad += y1[k] != (at ? y0[k] + 0.3 : y0[k]);
      e += at;
    }
    CHECK(bad == 0, "%s: %ld entries wrong after dg_sop_mode0_get/_add", name, bad);
    free(m0);
    free(y0);
  }
  /* the diagonal */
  double *dg = TALLOC(double, n), ddiff = 0;
  OK(dg_sop_diag_d(op, dg));
  const double *dgh = TPULL(dg);
  for (long i = 0; i < n; ++i) ddiff = fmax(ddiff, fabs(dgh[i] - A[i * n + i]));
  CHECK(ddiff <= 1e-13 * amax, "%s: diagonal off by %g", name, ddiff);
  /* element-block Jacobi: D_block^-1 (A x restricted to the blocks) == x */
  {
    dg_sblock *bj = NULL;
    OK(dg_sblock_create(&bj, op));
    const long *off = dg_sop_offsets(op);
    double *bx = TALLOC(double, n), *z = TALLOC(double, n), bd = 0, *bxh = TH(bx);
    for (long e = 0; e < g.nelem; ++e)
      for (long i = off[e]; i < off[e + 1]; ++i)
        for (long j = off[e]; j < off[e + 1]; ++j) bxh[i] += A[i * n + j] * xh[j];
    TPUSH(bx);
    OK(dg_sblock_apply_d(bj, bx, z));
    const double *zh = TPULL(z);
    for (long i = 0; i < n; ++i) bd = fmax(bd, fabs(zh[i] - xh[i]));
    CHECK(bd <= 1e-10, "%s: block Jacobi inverse off by %g (%d eigenproblems)", name, bd,
          dg_sblock_nkeys(bj));
    TFREE(bx);
    TFREE(z);
    dg_sblock_destroy(&bj);
  }
  /* float against double: the same source in both precisions */
  float *xf = TALLOC(float, n), *yf = TALLOC(float, n);
  for (long i = 0; i < n; ++i) TH(xf)[i] = (float)xh[i];
  TPUSH(xf);
  OK(dg_sop_apply_f(op, xf, yf));
  const float *yfh = TPULL(yf);
  double fd = 0, fn = 0;
  for (long i = 0; i < n; ++i) {
    fd = fmax(fd, fabs(yfh[i] - Axh[i]));
    fn = fmax(fn, fabs(Axh[i]));
  }
  CHECK(fd <= 2e-5 * fn && fd > 0, "%s: float apply differs from double by %g (max %g)", name, fd,
        fn);
  /* periodic Laplacian: constants in the kernel; fix them with a rank-one term */
  const int singular = bc == DG_SBC_PERIODIC && a == 0;
  if (singular) {
    const long *off = dg_sop_offsets(op);
    double *one = TALLOC(double, n), kmax = 0, *oneh = TH(one);
    for (long e = 0; e < g.nelem; ++e) oneh[off[e]] = 1; /* mode 0 = 1: the constant 1 */
    TPUSH(one);
    OK(dg_sop_apply_d(op, one, Ax));
    Axh = TPULL(Ax);
    for (long i = 0; i < n; ++i) kmax = fmax(kmax, fabs(Axh[i]));
    CHECK(kmax <= 1e-13 * amax, "%s: |A 1| = %g", name, kmax);
    for (long i = 0; i < n; ++i)
      for (long j = 0; j < n; ++j) A[i * n + j] += amax * oneh[i] * oneh[j];
    TFREE(one);
  }
  CHECK(cholesky(A, n) == 0, "%s: not positive definite%s", name,
        singular ? " on the complement of the constants" : "");
  free(A);
  dg_sop_destroy(&op);
  /* a penalty far too small makes SIPG indefinite: the check above can fail */
  if (rmax >= 2) {
    p.cpen = 0.02;
    p.a = 0;
    p.bc[0] = p.bc[1] = p.bc[2] = DG_SBC_DIRICHLET;
    OK(dg_sop_create(&op, TEST_BE, &g, m->deg, &p));
    A = dense(op);
    CHECK(cholesky(A, dg_sop_len(op)) != 0, "%s: C = 0.02 should be indefinite", name);
    free(A);
    dg_sop_destroy(&op);
  }
  printf("%-28s n = %4ld  max|A_ij-A_ji| = %.1e  |x'Ay-y'Ax|/sum = %.1e  float/double = %.1e\n",
         name, n, asym, fabs(xAy - yAx) / sc, fd / fn);
  TFREE(x);
  TFREE(y);
  TFREE(Ax);
  TFREE(Ay);
  TFREE(dg);
  TFREE(xf);
  TFREE(yf);
  dg_degree_map_destroy(&m);
}

int main(void) {
  /* the 1D stiffness int P_a' P_b' = min(a,b) (min(a,b)+1) for a+b even */
  dg_grid g;
  const int nn[3] = {2, 2, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 2, nn, lo, hi));
  uint8_t deg[4] = {1, 1, 1, 1};
  dg_sop *op = NULL;
  dg_sop_params p = dg_sop_default_params();
  OK(dg_sop_create(&op, TEST_BE, &g, deg, &p));
  const dg_stab_d *T = dg_sop_tab_d(op);
  double kd = 0;
  for (int a = 0; a <= DG_MAX_DEGREE; ++a)
    for (int b = 0; b <= DG_MAX_DEGREE; ++b) {
      const int mn = a < b ? a : b;
      const double ex = (a + b) % 2 ? 0.0 : mn * (mn + 1.0);
      kd = fmax(kd, fabs(T->K[a][b] - ex));
    }
  CHECK(kd <= 1e-11, "1D stiffness off its closed form by %g", kd);
  dg_sop_destroy(&op);
  /* a degree above the limit is refused with a message naming it */
  deg[2] = DG_MAX_DEGREE + 1;
  CHECK(dg_sop_create(&op, TEST_BE, &g, deg, &p) == 1 && op == NULL, "degree 11 accepted");
  CHECK(strstr(dg_error_message(), "element 2 has degree 11") != NULL, "message: %s",
        dg_error_message());

  check_case(2, DG_SBC_DIRICHLET, 0, 0, 4, "2D Dirichlet Laplacian");
  check_case(2, DG_SBC_PERIODIC, 0, 0, 4, "2D periodic Laplacian");
  check_case(2, DG_SBC_PERIODIC, 2.5, 1, 3, "2D periodic Helmholtz");
  check_case(3, DG_SBC_DIRICHLET, 0, 0, 3, "3D Dirichlet Laplacian");
  check_case(3, DG_SBC_PERIODIC, 0, 1, 2, "3D periodic Laplacian");
  check_case(3, DG_SBC_DIRICHLET, 1.0, 0, 2, "3D Dirichlet Helmholtz");
  return dg_test_done("test_solvers_op");
}
