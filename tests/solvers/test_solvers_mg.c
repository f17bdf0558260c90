/* test_solvers_mg.c - hp-multigrid (solvers/dg_mg.h) on SIPG Poisson,
 * -lap u = f, u = prod sin(pi x_d), homogeneous Dirichlet:
 *   - CG preconditioned by one V(6,6) cycle (Chebyshev degree 6, element-block
 *     Jacobi) reaches a 1e-10 relative residual in at most 12 iterations for
 *     every degree asked for, and the cycle as a stationary iteration
 *     converges at a factor <= 0.15 per cycle; the F-cycle needs no more
 *     iterations than the V-cycle;
 *   - the transfers: R = P^T to round-off, the coarse space a subspace (P of
 *     the coarse projection of degree-1 data is its fine projection), and
 *     R A_f P against the rediscretised coarse operator printed;
 *   - mixed precision: fp64 CG around the fp32 cycle reaches the same L2
 *     error as the all-fp64 solve to 4 significant digits, and pure fp32 (CG
 *     in float around the float cycle) stalls above the 1e-10 residual.
 *   - with SMOOTHER patch (additive vertex-patch Schwarz, dg_spatch.h): the
 *     same bounds with the smoothing degree given (2: V(2,2)), and on a
 *     uniform map each patch inverse is exact: A applied to the inverse's
 *     output equals its input on the patch's unknowns (an interior, an edge
 *     and a corner patch, to 1e-9 relative); on a periodic grid with an odd
 *     direction every patch inverse is exact and the coloured apply equals
 *     the sum of the single patches.
 *   - the dense coarse solve (the coarsest operator's pseudo-inverse, the
 *     default on small coarse levels) gives the cycle of the coarse CG to
 *     1e-9 relative, on this Dirichlet problem and on a periodic one (a
 *     singular coarse operator: the CG's least-norm solution), and
 *     dg_mg_describe names the coarse solve used; a coarse_dense_max above
 *     DG_MG_DENSE_LIMIT is refused with the option in the message.
 *   test_solvers_mg DIM MAP RMIN RMAX N [SMOOTHING_DEGREE [block|patch]]   (MAP: uniform,
 *   band, random; band and random maps hold degrees max(1,r-1)..r) */
#include "dg_degree_map.h"
#include "dg_error.h"
#include "dg_krylov.h"
#include "dg_mg.h"
#include "dg_sop.h"
#include "dg_spatch.h"
#include "dg_svec.h"
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

static int apply_d(void *ctx, const double *x, double *y) { return dg_sop_apply_d(ctx, x, y); }
static int apply_f(void *ctx, const float *x, float *y) { return dg_sop_apply_f(ctx, x, y); }

/* ||b - A x|| / ||b|| in double */
static double true_rel(const dg_sop *op, const double *b, const double *x) {
  const long n = dg_sop_len(op);
  double *t = TALLOC(double, n);
  OK(dg_sop_apply_d(op, x, t));
  const double *bh = TPULL(b), *th = TPULL(t);
  double s = 0;
  for (long i = 0; i < n; ++i) s += (bh[i] - th[i]) * (bh[i] - th[i]);
  TFREE(t);
  return sqrt(s / dg_svec_dot_d(TEST_BE, n, b, b));
}

static double poly1(const double x[3], void *ctx) {
  const double z = g_dim == 3 ? x[2] : 0;
  return 1 + 0.3 * x[0] - 0.7 * x[1] + 1.1 * x[0] * x[1] + 0.5 * z - 0.2 * x[0] * x[1] * z;
}

/* Every transfer of the hierarchy: R = P^T (y'(P x) == (R y)'x for random
 * x, y), and the coarse space is a subspace: P of the coarse projection of a
 * polynomial of degree 1 per direction is its fine projection (degrees >= 1). */
static void check_transfers(dg_mg *mg, int exact_embedding, const char *what) {
  double worst_t = 0, worst_e = 0;
  for (int l = 0; l + 1 < dg_mg_nlevels(mg); ++l) {
    const dg_sop *F = dg_mg_level_op(mg, l), *C = dg_mg_level_op(mg, l + 1);
    const long nf = dg_sop_len(F), nc = dg_sop_len(C);
    double *xc = TALLOC(double, nc), *rc = TALLOC(double, nc);
    double *yf = TALLOC(double, (size_t)nf), *pf = TALLOC(double, nf);
    double *xch = TH(xc), *yfh = TH(yf), *pfh = TH(pf);
    for (long i = 0; i < nc; ++i) xch[i] = cos(1.0 + 3 * i);
    for (long i = 0; i < nf; ++i) yfh[i] = sin(2.0 + 5 * i);
    TPUSH(xc);
    TPUSH(yf);
    OK(dg_mg_prolong_add_d(mg, l, xc, pf));
    OK(dg_mg_restrict_d(mg, l, yf, rc));
    TPULL(pf);
    const double *rch = TPULL(rc);
    double a = 0, b = 0, sc = 0;
    for (long i = 0; i < nf; ++i) {
      a += yfh[i] * pfh[i];
      sc += fabs(yfh[i] * pfh[i]);
    }
    for (long i = 0; i < nc; ++i) b += rch[i] * xch[i];
    worst_t = fmax(worst_t, fabs(a - b) / sc);
    CHECK(fabs(a - b) <= 1e-13 * sc, "%s level %d (%c): y'Px %.17g vs (Ry)'x %.17g", what, l,
          dg_mg_level_kind(mg, l + 1), a, b);
    {
      /* Galerkin: R A_f P xc against A_c xc */
      double *af = TALLOC(double, nf), *ac = TALLOC(double, nc);
      dg_svec_zero_d(TEST_BE, nf, pf);
      OK(dg_mg_prolong_add_d(mg, l, xc, pf));
      OK(dg_sop_apply_d(F, pf, af));
      OK(dg_mg_restrict_d(mg, l, af, rc));
      OK(dg_sop_apply_d(C, xc, ac));
      const double *rch2 = TPULL(rc), *ach = TPULL(ac);
      double dmax = 0, amax = 0;
      for (long i = 0; i < nc; ++i) {
        dmax = fmax(dmax, fabs(rch2[i] - ach[i]));
        amax = fmax(amax, fabs(ach[i]));
      }
      printf("level %d (%c): |R A_f P x - A_c x| / |A_c x| = %.2e\n", l + 1,
             dg_mg_level_kind(mg, l + 1), dmax / amax);
      TFREE(af);
      TFREE(ac);
    }
    if (exact_embedding) {
      OK(dg_sop_project(C, poly1, NULL, xc));
      OK(dg_sop_project(F, poly1, NULL, yf));
      dg_svec_zero_d(TEST_BE, nf, pf);
      OK(dg_mg_prolong_add_d(mg, l, xc, pf));
      TPULL(pf);
      TPULL(yf);
      double d = 0;
      for (long i = 0; i < nf; ++i) d = fmax(d, fabs(pfh[i] - yfh[i]));
      worst_e = fmax(worst_e, d);
      CHECK(d <= 1e-12, "%s level %d (%c): P(coarse projection) off the fine one by %g", what, l,
            dg_mg_level_kind(mg, l + 1), d);
    }
    TFREE(xc);
    TFREE(rc);
    TFREE(yf);
    TFREE(pf);
  }
  printf("transfers: |y'Px - (Ry)'x| / sum <= %.1e, embedding of degree-1 data off by <= %.1e\n",
         worst_t, worst_e);
}

/* The patch inverses of op are exact: for patches p (interior, on an edge,
 * at a corner), z = R_p^T A_p^-1 R_p r, and (A z) on the patch equals r
 * there (A_p is the principal submatrix of A). */
static void check_patch_inverse(const dg_sop *op, int r) {
  dg_spatch *sp = NULL;
  OK(dg_spatch_create(&sp, op));
  const long n = dg_sop_len(op), np = dg_spatch_npatches(sp);
  const long *off = dg_sop_offsets(op);
  double *rv = TALLOC(double, n), *z = TALLOC(double, n), *y = TALLOC(double, n);
  double *rvh = TH(rv);
  for (long i = 0; i < n; ++i) rvh[i] = sin(1.0 + 7 * i);
  TPUSH(rv);
  const long pick[3] = {np / 2 + dg_sop_grid(op)->n[0] / 2, 1, 0};
  double worst = 0;
  for (int k = 0; k < 3; ++k) {
    long el[8];
    int nc;
    dg_svec_zero_d(TEST_BE, n, z);
    OK(dg_spatch_apply_one_d(sp, pick[k], rv, z, el, &nc));
    OK(dg_sop_apply_d(op, z, y));
    const double *yh = TPULL(y);
    double d = 0, a = 0;
    int cells = 0;
    for (int c = 0; c < 8; ++c) {
      if (el[c] < 0) continue;
      cells++;
      for (long i = off[el[c]]; i < off[el[c] + 1]; ++i) {
        d = fmax(d, fabs(yh[i] - rvh[i]));
        a = fmax(a, fabs(rvh[i]));
      }
    }
    CHECK(cells == nc && d <= 1e-9 * a, "r=%d patch %ld (%d cells): |A z - r| = %g on the patch", r,
          pick[k], nc, d / a);
    worst = fmax(worst, d / a);
  }
  printf("patch inverses (%ld patches, %d 1D eigenproblems): |A z - r| / |r| <= %.1e on the "
         "patch\n",
         np, dg_spatch_nkeys(sp), worst);
  TFREE(rv);
  TFREE(z);
  TFREE(y);
  dg_spatch_destroy(&sp);
}

/* The colouring on a periodic grid with an odd direction (a third colour):
 * Helmholtz on dim-D periodic 5 x 6 (x 5) elements of degree r; every patch
 * inverse is exact, and the coloured apply of all patches equals the sum of
 * the single-patch applies (no patch of a colour overlaps another). */
static void check_patch_periodic(int dim, int r) {
  dg_grid g;
  const int nn[3] = {5, 6, 5};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, dim, nn, lo, hi));
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_uniform(&m, &g, r));
  dg_sop_params p = dg_sop_default_params();
  p.a = 1;
  p.b = 0.01;
  dg_sop *op = NULL;
  OK(dg_sop_create(&op, TEST_BE, &g, m->deg, &p));
  dg_spatch *sp = NULL;
  OK(dg_spatch_create(&sp, op));
  const long n = dg_sop_len(op), np = dg_spatch_npatches(sp);
  const long *off = dg_sop_offsets(op);
  double *rv = TALLOC(double, n), *z = TALLOC(double, n), *y = TALLOC(double, n);
  double *sum = TALLOC(double, n), *rvh = TH(rv);
  for (long i = 0; i < n; ++i) rvh[i] = cos(0.5 + 3 * i);
  TPUSH(rv);
  double worst = 0;
  for (long q = 0; q < np; ++q) {
    long el[8];
    int nc;
    dg_svec_zero_d(TEST_BE, n, z);
    OK(dg_spatch_apply_one_d(sp, q, rv, z, el, &nc));
    OK(dg_spatch_apply_one_d(sp, q, rv, sum, el, &nc));
    OK(dg_sop_apply_d(op, z, y));
    const double *yh = TPULL(y);
    double d = 0, a = 0;
    for (int c = 0; c < 8; ++c)
      for (long i = el[c] >= 0 ? off[el[c]] : 0; el[c] >= 0 && i < off[el[c] + 1]; ++i) {
        d = fmax(d, fabs(yh[i] - rvh[i]));
        a = fmax(a, fabs(rvh[i]));
      }
    worst = fmax(worst, d / a);
  }
  /* the colours: every patch in one, no element twice in a colour */
  int *seen = calloc((size_t)g.nelem, sizeof(int)), clash = 0;
  long listed = 0;
  for (int c = 0; c < dg_spatch_ncolours(sp); ++c) {
    const long *list;
    const long k = dg_spatch_colour(sp, c, &list);
    listed += k;
    for (long j = 0; j < k; ++j) {
      long el[8];
      int nc;
      dg_svec_zero_d(TEST_BE, n, z);
      OK(dg_spatch_apply_one_d(sp, list[j], rv, z, el, &nc));
      for (int q = 0; q < 8; ++q) {
        if (el[q] < 0) continue;
        clash += seen[el[q]] == c + 1; /* already in a patch of this colour */
        seen[el[q]] = c + 1;
      }
    }
  }
  free(seen);
  OK(dg_spatch_apply_d(sp, rv, z));
  const double *zh = TPULL(z), *sumh = TPULL(sum);
  double d = 0, a = 0;
  for (long i = 0; i < n; ++i) {
    d = fmax(d, fabs(zh[i] - sumh[i]));
    a = fmax(a, fabs(sumh[i]));
  }
  CHECK(worst <= 1e-9 && np == (dim == 3 ? 150 : 30) && listed == np && !clash && d <= 1e-13 * a,
        "periodic %dD r=%d: %ld patches (%ld in colours, %d clashes), patch inverse off by %g, "
        "apply vs sum %g",
        dim, r, np, listed, clash, worst, d / a);
  printf("periodic %dD, %ld patches in %d colours: patch inverses exact to %.1e, coloured apply "
         "= sum of patches to %.1e\n",
         dim, np, dg_spatch_ncolours(sp), worst, d / a);
  TFREE(rv);
  TFREE(z);
  TFREE(y);
  TFREE(sum);
  dg_spatch_destroy(&sp);
  dg_sop_destroy(&op);
  dg_degree_map_destroy(&m);
}

typedef struct {
  double err, rel;
  int its;
} result;

static double wave(const double x[3], void *ctx) {
  double u = 1;
  for (int d = 0; d < g_dim; ++d) u *= sin(2 * M_PI * x[d] + 0.3 * d);
  return u;
}

/* One cycle with the dense coarse solve against one with the coarse CG
   (coarse_dense_max 0) on the same levels, the same right-hand side; bc:
   every side. */
static void check_dense_coarse(const dg_grid *g, const uint8_t *deg, int bc, const char *what) {
  dg_sop_params p = dg_sop_default_params();
  p.bc[0] = p.bc[1] = p.bc[2] = bc;
  dg_sop *op = NULL;
  OK(dg_sop_create(&op, TEST_BE, g, deg, &p));
  dg_mg_opts mo = dg_mg_default_opts();
  mo.precisions = DG_MG_DOUBLE;
  dg_mg *md = NULL, *mc = NULL;
  OK(dg_mg_create(&md, op, &mo));
  mo.coarse_dense_max = DG_MG_DENSE_LIMIT + 1; /* refused, with the option in the message */
  dg_mg *bad = NULL;
  CHECK(dg_mg_create(&bad, op, &mo) == DG_ERR_ARG && !bad &&
            strstr(dg_error_message(), "dense coarse solve up to 2049 unknowns, at most 2048"),
        "%s: coarse_dense_max %d accepted or reported as '%s'", what, DG_MG_DENSE_LIMIT + 1,
        dg_error_message());
  /* the coarse CG on the same levels: the dense hierarchy stops its
     h-coarsening at the first level the dense solve takes, the CG one at
     coarse_min */
  mo.coarse_dense_max = 0;
  mo.coarse_min = dg_sop_grid(dg_mg_level_op(md, dg_mg_nlevels(md) - 1))->n[0];
  OK(dg_mg_create(&mc, op, &mo));
  CHECK(dg_mg_nlevels(mc) == dg_mg_nlevels(md), "%s: %d levels with the coarse CG, %d dense", what,
        dg_mg_nlevels(mc), dg_mg_nlevels(md));
  char buf[4096];
  dg_mg_describe(md, buf, sizeof buf);
  CHECK(strstr(buf, "fp64 dense pseudo-inverse") != NULL, "%s: no dense coarse solve:\n%s", what,
        buf);
  dg_mg_describe(mc, buf, sizeof buf);
  CHECK(strstr(buf, "fp64 CG") != NULL, "%s: no coarse CG:\n%s", what, buf);
  const long n = dg_sop_len(op);
  double *b = TALLOC(double, n), *xd = TALLOC(double, n), *xc = TALLOC(double, n);
  OK(dg_sop_load(op, bc == DG_SBC_PERIODIC ? wave : rhs, NULL, b));
  OK(dg_mg_cycle_d(md, b, xd));
  OK(dg_mg_cycle_d(mc, b, xc));
  const double *xdh = TPULL(xd), *xch = TPULL(xc);
  double m = 0, s = 0;
  for (long i = 0; i < n; ++i) {
    m = fmax(m, fabs(xdh[i] - xch[i]));
    s = fmax(s, fabs(xch[i]));
  }
  printf("    dense coarse solve against coarse CG, %s: %.1e\n", what, m / s);
  CHECK(m <= 1e-9 * s, "%s: dense coarse cycle off the CG one by %g relative", what, m / s);
  TFREE(b);
  TFREE(xd);
  TFREE(xc);
  dg_mg_destroy(&md);
  dg_mg_destroy(&mc);
  dg_sop_destroy(&op);
}

int main(int argc, char **argv) {
  if (argc < 6 || argc > 8 || (argc == 8 && strcmp(argv[7], "block") && strcmp(argv[7], "patch"))) {
    printf("usage: %s DIM uniform|band|random RMIN RMAX N [SMOOTHING_DEGREE [block|patch]]\n",
           argv[0]);
    return 2;
  }
  const int sdeg = argc >= 7 ? atoi(argv[6]) : 6;
  const int patch = argc == 8 && !strcmp(argv[7], "patch");
  const int dim = atoi(argv[1]), rmin = atoi(argv[3]), rmax = atoi(argv[4]), nel = atoi(argv[5]);
  const char *kind = argv[2];
  g_dim = dim;
  printf("SIPG Poisson %dD, %d^%d elements, %s map, CG + one V(%d,%d) per iteration to 1e-10, "
         "%s smoother\n",
         dim, nel, dim, kind, sdeg, sdeg, patch ? "vertex-patch" : "element-block");
  printf("%3s %9s %6s %8s %12s %12s %12s %10s %12s\n", "r", "unknowns", "levels", "its(fp64)",
         "factor/cycle", "L2 (fp64)", "L2 (mixed)", "its(mixed)", "fp32 stall");
  for (int r = rmin; r <= rmax; ++r) {
    dg_grid g;
    const int nn[3] = {nel, nel, nel};
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    OK(dg_grid_init(&g, dim, nn, lo, hi));
    dg_degree_map *m = NULL;
    if (!strcmp(kind, "uniform"))
      OK(dg_degree_map_create_uniform(&m, &g, r));
    else if (!strcmp(kind, "band"))
      OK(dg_degree_map_create_band(&m, &g, r > 1 ? r - 1 : 1, r));
    else
      OK(dg_degree_map_create_random(&m, &g, r > 1 ? r - 1 : 1, r, 99));
    dg_sop_params p = dg_sop_default_params();
    p.bc[0] = p.bc[1] = p.bc[2] = DG_SBC_DIRICHLET;
    dg_sop *op = NULL;
    OK(dg_sop_create(&op, TEST_BE, &g, m->deg, &p));
    dg_mg *mg = NULL;
    dg_mg_opts mo = dg_mg_default_opts();
    mo.smooth_deg = sdeg;
    if (patch) mo.smoother = DG_MG_PATCH;
    OK(dg_mg_create(&mg, op, &mo));
    if (patch && !strcmp(kind, "uniform")) check_patch_inverse(op, r);
    if (patch && r == rmin) check_patch_periodic(dim, r);
    if (r == rmin) check_transfers(mg, 1, kind);
    if (r == rmin && !patch) {
      check_dense_coarse(&g, m->deg, DG_SBC_DIRICHLET, "Dirichlet");
      check_dense_coarse(&g, m->deg, DG_SBC_PERIODIC, "periodic");
    }
    const long n = dg_sop_len(op);
    double *b = TALLOC(double, (size_t)n), *x = TALLOC(double, n);
    double *t = TALLOC(double, n), *c = TALLOC(double, n);
    OK(dg_sop_load(op, rhs, NULL, b));
    /* 1. fp64 CG + fp64 V-cycle */
    dg_krylov_opts ko = {1e-10, 100, NULL, NULL, 0};
    dg_krylov_stats st;
    OK(dg_cg_d(TEST_BE, n, apply_d, op, dg_mg_precond_d, mg, b, x, &ko, &st));
    result rd = {0, true_rel(op, b, x), st.its};
    OK(dg_sop_l2_error(op, x, exact, NULL, &rd.err));
    CHECK(st.converged && st.its <= 12, "r=%d: fp64 CG+MG %d iterations (rel %g)", r, st.its,
          st.rel);
    CHECK(rd.rel <= 2e-10, "r=%d: true residual %g", r, rd.rel);
    /* 1b. the F-cycle (fp64): as good or better */
    {
      dg_mg *mf = NULL;
      dg_mg_opts fo = mo;
      fo.cycle = DG_MG_F;
      fo.precisions = DG_MG_DOUBLE;
      OK(dg_mg_create(&mf, op, &fo));
      dg_svec_zero_d(TEST_BE, n, x);
      dg_krylov_stats sf;
      OK(dg_cg_d(TEST_BE, n, apply_d, op, dg_mg_precond_d, mf, b, x, &ko, &sf));
      CHECK(sf.converged && sf.its <= rd.its, "r=%d: F-cycle CG %d iterations, V-cycle %d", r,
            sf.its, rd.its);
      printf("    F-cycle: %d CG iterations\n", sf.its);
      dg_mg_destroy(&mf);
    }
    /* 2. the cycle as a stationary iteration: x += B (b - A x), 8 cycles */
    dg_svec_zero_d(TEST_BE, n, x);
    double r0 = sqrt(dg_svec_dot_d(TEST_BE, n, b, b)), rk = r0;
    const int ncyc = 8;
    const double *bh = TPULL(b);
    double *th = TH(t), *xh = TPULL(x), *ch = TH(c);
    for (int k = 0; k < ncyc; ++k) {
      OK(dg_sop_apply_d(op, x, t));
      TPULL(t);
      for (long i = 0; i < n; ++i) th[i] = bh[i] - th[i];
      TPUSH(t);
      OK(dg_mg_cycle_d(mg, t, c));
      TPULL(c);
      for (long i = 0; i < n; ++i) xh[i] += ch[i];
      TPUSH(x);
    }
    OK(dg_sop_apply_d(op, x, t));
    TPULL(t);
    for (long i = 0; i < n; ++i) th[i] = bh[i] - th[i];
    TPUSH(t);
    rk = sqrt(dg_svec_dot_d(TEST_BE, n, t, t));
    const double factor = pow(rk / r0, 1.0 / ncyc);
    CHECK(factor <= 0.15, "r=%d: convergence factor %g per cycle", r, factor);
    /* 3. mixed: fp64 CG, fp32 cycle, to 1e-10 */
    dg_svec_zero_d(TEST_BE, n, x);
    OK(dg_cg_d(TEST_BE, n, apply_d, op, dg_mg_precond_mixed, mg, b, x, &ko, &st));
    result rm = {0, true_rel(op, b, x), st.its};
    OK(dg_sop_l2_error(op, x, exact, NULL, &rm.err));
    CHECK(st.converged, "r=%d: mixed CG did not converge (%g after %d)", r, st.rel, st.its);
    /* the same error to 5e-5, or to 1e-16 absolute: at r = 6 the error (1.7e-13)
       nears the round-off of the L2 norm of an O(1) solution, and the float
       cycle's rounding (which the compiler's contraction of the lane units
       changes: -O1 units in the sanitizer build) moves it by 1.5e-17 */
    CHECK(dg_close(rm.err, rd.err, 1e-16, 5e-5), "r=%d: mixed L2 %.6e vs fp64 %.6e", r, rm.err,
          rd.err);
    /* the fp64 residuals per level keep the mixed residual history on the fp64 one
       (a plain fp32 cycle took one more iteration on larger grids) */
    CHECK(rm.its <= rd.its, "r=%d: mixed CG %d iterations, fp64 %d", r, rm.its, rd.its);
    /* 3b. mixed with the F-cycle: the fp64 F-cycle's iterations and error */
    {
      dg_mg *mf = NULL;
      dg_mg_opts fo = mo;
      fo.cycle = DG_MG_F;
      fo.precisions = DG_MG_DOUBLE | DG_MG_FLOAT;
      OK(dg_mg_create(&mf, op, &fo));
      dg_krylov_stats sd, sm;
      dg_svec_zero_d(TEST_BE, n, x);
      OK(dg_cg_d(TEST_BE, n, apply_d, op, dg_mg_precond_d, mf, b, x, &ko, &sd));
      double ed, em;
      OK(dg_sop_l2_error(op, x, exact, NULL, &ed));
      dg_svec_zero_d(TEST_BE, n, x);
      OK(dg_cg_d(TEST_BE, n, apply_d, op, dg_mg_precond_mixed, mf, b, x, &ko, &sm));
      OK(dg_sop_l2_error(op, x, exact, NULL, &em));
      CHECK(sm.converged && sm.its <= sd.its, "r=%d: mixed F-cycle CG %d iterations, fp64 %d", r,
            sm.its, sd.its);
      CHECK(dg_close(em, ed, 0, 5e-5), "r=%d: mixed F-cycle L2 %.6e vs fp64 %.6e", r, em, ed);
      dg_mg_destroy(&mf);
    }
    /* 4. pure fp32: CG in float around the float cycle, 40 iterations */
    float *bf = TALLOC(float, (size_t)n), *xf = TALLOC(float, n);
    for (long i = 0; i < n; ++i) TH(bf)[i] = (float)bh[i];
    TPUSH(bf);
    dg_krylov_opts kf = {1e-10, 40, NULL, NULL, 0};
    OK(dg_cg_f(TEST_BE, n, apply_f, op, dg_mg_precond_f, mg, bf, xf, &kf, &st));
    const float *xfh = TPULL(xf);
    for (long i = 0; i < n; ++i) xh[i] = xfh[i];
    TPUSH(x);
    const double stall = true_rel(op, b, x);
    CHECK(stall > 1e-9, "r=%d: pure fp32 reached %g (no stall?)", r, stall);
    printf("%3d %9ld %6d %8d %12.3f %12.6e %12.6e %10d %12.2e\n", r, n, dg_mg_nlevels(mg), rd.its,
           factor, rd.err, rm.err, rm.its, stall);
    if (r == rmin) {
      char buf[2048];
      dg_mg_describe(mg, buf, sizeof buf);
      printf("%s", buf);
    }
    TFREE(bf);
    TFREE(xf);
    TFREE(b);
    TFREE(x);
    TFREE(t);
    TFREE(c);
    dg_mg_destroy(&mg);
    dg_sop_destroy(&op);
    dg_degree_map_destroy(&m);
  }
  return dg_test_done("test_solvers_mg");
}
