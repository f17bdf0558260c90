/* test_solvers_helmholtz.c - the periodic Helmholtz operator a M + b K of an
 * implicit diffusion step (a = 1, b = nu dt = 0.01): (a - b lap) u = f on the
 * periodic unit square/cube with u = 1 + prod sin(2 pi x_d), solved by CG +
 * hp-multigrid (fp64 and mixed).  Asserts at most 12 iterations to 1e-10,
 * the L2 rate r+1 within 0.2 between n and 2n elements per direction, and
 * mixed == fp64 to 4 significant digits.
 *   test_solvers_helmholtz DIM RMIN RMAX N */
#include "dg_degree_map.h"
#include "dg_krylov.h"
#include "dg_mg.h"
#include "dg_sop.h"
#include "solver_test.h"

#include <math.h>
#include <stdlib.h>

static int g_dim;
static const double A_ = 1.0, B_ = 0.01;

static double wave(const double x[3]) {
  double u = 1;
  for (int d = 0; d < g_dim; ++d) u *= sin(2 * M_PI * x[d]);
  return u;
}
static double exact(const double x[3], void *ctx) { return 1 + wave(x); }
static double rhs(const double x[3], void *ctx) {
  return A_ * (1 + wave(x)) + B_ * g_dim * 4 * M_PI * M_PI * wave(x);
}
static int apply_d(void *ctx, const double *x, double *y) { return dg_sop_apply_d(ctx, x, y); }

static double solve(int dim, int r, int n, const char *prec, int *its) {
  dg_grid g;
  const int nn[3] = {n, n, n};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, dim, nn, lo, hi));
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_uniform(&m, &g, r));
  dg_sop_params p = dg_sop_default_params(); /* periodic */
  p.a = A_;
  p.b = B_;
  dg_sop *op = NULL;
  OK(dg_sop_create(&op, TEST_BE, &g, m->deg, &p));
  dg_mg *mg = NULL;
  dg_mg_opts mo = dg_mg_default_opts();
  OK(dg_mg_create(&mg, op, &mo));
  const long len = dg_sop_len(op);
  double *b = TALLOC(double, (size_t)len), *x = TALLOC(double, len);
  OK(dg_sop_load(op, rhs, NULL, b));
  dg_krylov_opts o = {1e-10, 100, NULL, NULL, 0};
  dg_krylov_stats st;
  OK(dg_cg_d(TEST_BE, len, apply_d, op, prec[0] == 'm' ? dg_mg_precond_mixed : dg_mg_precond_d, mg,
             b, x, &o, &st));
  CHECK(st.converged && st.its <= 12, "r=%d n=%d %s: %d iterations (rel %g)", r, n, prec, st.its,
        st.rel);
  double err = 0;
  OK(dg_sop_l2_error(op, x, exact, NULL, &err));
  *its = st.its;
  TFREE(b);
  TFREE(x);
  dg_mg_destroy(&mg);
  dg_sop_destroy(&op);
  dg_degree_map_destroy(&m);
  return err;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    printf("usage: %s DIM RMIN RMAX N\n", argv[0]);
    return 2;
  }
  const int dim = atoi(argv[1]), rmin = atoi(argv[2]), rmax = atoi(argv[3]), n = atoi(argv[4]);
  g_dim = dim;
  printf("periodic Helmholtz (1 - 0.01 lap) u = f, %dD, CG + V(6,6) to 1e-10\n", dim);
  printf("%3s %12s %4s %12s %4s %6s %12s\n", "r", "L2 (n)", "its", "L2 (2n)", "its", "rate",
         "L2 mixed(2n)");
  for (int r = rmin; r <= rmax; ++r) {
    int i1, i2, i3;
    const double e1 = solve(dim, r, n, "fp64", &i1), e2 = solve(dim, r, 2 * n, "fp64", &i2);
    const double e3 = solve(dim, r, 2 * n, "mixed", &i3), rate = log(e1 / e2) / log(2.0);
    printf("%3d %12.4e %4d %12.4e %4d %6.2f %12.4e\n", r, e1, i1, e2, i2, rate, e3);
    CHECK(fabs(rate - (r + 1)) <= 0.2, "r=%d: rate %.3f", r, rate);
    CHECK(dg_close(e3, e2, 0, 5e-5), "r=%d: mixed %.6e vs fp64 %.6e", r, e3, e2);
  }
  return dg_test_done("test_solvers_helmholtz");
}
