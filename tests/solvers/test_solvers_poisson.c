/* test_solvers_poisson.c - SIPG Poisson with a manufactured solution:
 * -lap u = f on the unit square/cube, u = prod sin(pi x_d), homogeneous
 * Dirichlet (Nitsche) boundaries, solved by fp64 CG with the fp64 multigrid to a
 * 1e-12 relative residual.  Asserts the L2 error rate between two grids is
 * r+1 within 0.2 for every degree r asked for, on uniform maps, band maps
 * (r..r+1 by rows) and random maps (r..r+1, drawn on the coarser grid and
 * inherited by the children on the finer one), where the lowest degree r sets
 * the rate.
 *   test_solvers_poisson DIM MAP RMIN RMAX   (MAP: uniform, band, random) */
#include "dg_degree_map.h"
#include "dg_krylov.h"
#include "dg_mg.h"
#include "dg_sop.h"
#include "solver_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int g_dim;

static double exact(const double x[3], void *ctx) {
  double u = 1;
  for (int d = 0; d < g_dim; ++d) u *= sin(M_PI * x[d]);
  return u;
}

static double rhs(const double x[3], void *ctx) { return g_dim * M_PI * M_PI * exact(x, ctx); }

/* the random map of the coarse grid, each element's degree inherited by its
   2^dim children on the refined grid: the same map at both resolutions */
typedef struct {
  const dg_degree_map *coarse;
  const dg_grid *gc;
} inherit_ctx;

static int inherit(const int ijk[3], const double centre[3], void *ctx) {
  const inherit_ctx *c = (const inherit_ctx *)ctx;
  return c->coarse->deg[dg_grid_elem(c->gc, ijk[0] / 2, ijk[1] / 2, ijk[2] / 2)];
}

static int apply(void *ctx, const double *x, double *y) { return dg_sop_apply_d(ctx, x, y); }

/* L2 error of the SIPG solution on n^dim elements with the map of kind. */
static double solve(int dim, const char *kind, int r, int n, int *its) {
  dg_grid g;
  const int nn[3] = {n, n, n};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, dim, nn, lo, hi));
  dg_degree_map *m = NULL;
  if (!strcmp(kind, "uniform"))
    OK(dg_degree_map_create_uniform(&m, &g, r));
  else if (!strcmp(kind, "band"))
    OK(dg_degree_map_create_band(&m, &g, r, r + 1));
  else {
    /* random on the grid of n/2 per direction, inherited (n is even) */
    dg_grid gc;
    const int nc[3] = {n / 2, n / 2, n / 2};
    OK(dg_grid_init(&gc, dim, nc, lo, hi));
    dg_degree_map *mc = NULL;
    OK(dg_degree_map_create_random(&mc, &gc, r, r + 1, 1234u));
    inherit_ctx c = {mc, &gc};
    OK(dg_degree_map_create_callback(&m, &g, inherit, &c));
    dg_degree_map_destroy(&mc);
  }
  dg_sop_params p = dg_sop_default_params();
  p.bc[0] = p.bc[1] = p.bc[2] = DG_SBC_DIRICHLET;
  dg_sop *op = NULL;
  OK(dg_sop_create(&op, TEST_BE, &g, m->deg, &p));
  const long len = dg_sop_len(op);
  double *b = TALLOC(double, (size_t)len), *x = TALLOC(double, len);
  OK(dg_sop_load(op, rhs, NULL, b));
  dg_mg *mg = NULL;
  dg_mg_opts mo = dg_mg_default_opts();
  mo.precisions = DG_MG_DOUBLE;
  OK(dg_mg_create(&mg, op, &mo));
  dg_krylov_opts o = {1e-12, 200, NULL, NULL, 0};
  dg_krylov_stats st;
  OK(dg_cg_d(TEST_BE, len, apply, op, dg_mg_precond_d, mg, b, x, &o, &st));
  dg_mg_destroy(&mg);
  CHECK(st.converged, "%s r=%d n=%d: CG did not converge (%g after %d)", kind, r, n, st.rel,
        st.its);
  double err = 0;
  OK(dg_sop_l2_error(op, x, exact, NULL, &err));
  *its = st.its;
  TFREE(b);
  TFREE(x);
  dg_sop_destroy(&op);
  dg_degree_map_destroy(&m);
  return err;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    printf("usage: %s DIM uniform|band|random RMIN RMAX\n", argv[0]);
    return 2;
  }
  const int dim = atoi(argv[1]), rmin = atoi(argv[3]), rmax = atoi(argv[4]);
  const char *kind = argv[2];
  g_dim = dim;
  printf("SIPG Poisson, %dD, %s map (degrees r..%s), CG + hp-multigrid to 1e-12\n", dim, kind,
         strcmp(kind, "uniform") ? "r+1" : "r");
  printf("%3s %5s %12s %5s %12s %5s %6s\n", "r", "n1", "L2 error", "its", "L2 error(2n)", "its",
         "rate");
  for (int r = rmin; r <= rmax; ++r) {
    /* coarse enough for CI, fine enough to be asymptotic (checked by the rate) */
    int n = dim == 2 ? (r <= 1 ? 16 : (r <= 3 ? 8 : 4)) : 4;
    if (!strcmp(kind, "random"))
      n *= (r >= 4 ? 4 : 2); /* half the elements change degree: later asymptotics */
    int i1, i2;
    const double e1 = solve(dim, kind, r, n, &i1), e2 = solve(dim, kind, r, 2 * n, &i2);
    const double rate = log(e1 / e2) / log(2.0);
    printf("%3d %5d %12.4e %5d %12.4e %5d %6.2f\n", r, n, e1, i1, e2, i2, rate);
    CHECK(fabs(rate - (r + 1)) <= 0.2, "%dD %s r=%d: rate %.3f, expected %d +- 0.2", dim, kind, r,
          rate, r + 1);
  }
  return dg_test_done("test_solvers_poisson");
}
