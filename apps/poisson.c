/* poisson.c - SIPG Poisson -lap u = f on the unit square/cube with the
 * manufactured solution u = prod sin(k pi x_d) (homogeneous Dirichlet), solved
 * by CG preconditioned by the hp-multigrid of solvers/, in fp64, mixed
 * precision (fp64 CG around the fp32 cycle) or pure fp32.
 *
 *   poisson [--dim 2] [--n 32] [--r 3] [--map uniform|band|random]
 *           [--solver fp64|mixed|fp32] [--smooth 6] [--smoother block|patch]
 *           [--rtol 1e-10] [--k 1] [--quiet] [--verbose] [--out u.h5]
 *   poisson --table [--dim 2] [--rmin 1] [--rmax 6] [--nmin 16] [--nmax 256]
 *           [--repeat 3] [--smooth 6] [--smoother block|patch]
 *   poisson --throughput [--dim 2] [--n 32] [--r 3] [--repeat 3]
 *   (--table and --throughput take --clock wall|cpu: wall by default; --smoother:
 *   what the Chebyshev smoother accelerates, element-block Jacobi or the
 *   additive vertex-patch Schwarz method, docs/MULTIGRID.md; every form takes
 *   --coarse-dense N: the coarsest level is solved by its dense pseudo-inverse
 *   up to N unknowns, by CG above, 0: always CG; default 256; and --k K, the
 *   solution's wave number: with k = 1 a fine grid at a high degree resolves u
 *   to round-off, and a larger k keeps its error measurable there)
 *
 * One solve prints a progress line per iteration (relative residual) and the
 * L2 error; --out writes the solution as a dgrid snapshot (HDF5,
 * docs/FILE_FORMAT.md: the solver vector is the snapshot's coefficient
 * array, same basis and order), readable by apps/compare and tools/.  --table prints, per degree
 * and grid, the fp64 iterations, the cycle's convergence factor, the L2 errors of fp64 and mixed,
 * the fp32 stall level and the solve times of fp64 and mixed (interleaved runs after one untimed
 * solve of each, medians; setup excluded).
 *
 * Under mpirun with several ranks (an MPI build) one solve runs across them
 * (docs/ARCHITECTURE.md, "The solvers across ranks"): each rank's operator on
 * its block, the coarse levels gathered onto rank 0 (the "coarse:" line says
 * which); the printed levels and numbers are
 * the whole grid's, and --out gathers the solution for rank 0 to write. */
#include "dg_app_ranks.h"
#include "dg_backend.h"
#include "dg_backends.h"
#include "dg_degree_map.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io.h"
#include "dg_krylov.h"
#include "dg_mg.h"
#include "dg_sop.h"
#include "dg_spart.h"
#include "dg_spatch.h"
#include "dg_svec.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int g_dim = 2, g_k = 1; /* --dim, --k */
static dg_backend *g_be;       /* --backend: runs the solves */
/* Under mpirun with several ranks (docs/ARCHITECTURE.md, "The solvers across
   ranks"): the ranks, and g_be's copy that reduces over them */
static dg_app_ranks *g_rk;
static dg_backend g_rank_be;

static double exact(const double x[3], void *ctx) {
  double u = 1;
  for (int d = 0; d < g_dim; ++d) u *= sin(g_k * M_PI * x[d]);
  return u;
}

static double rhs(const double x[3], void *ctx) {
  return g_dim * (g_k * M_PI) * (g_k * M_PI) * exact(x, ctx);
}

static int apply_d(void *ctx, const double *x, double *y) { return dg_sop_apply_d(ctx, x, y); }
static int apply_f(void *ctx, const float *x, float *y) { return dg_sop_apply_f(ctx, x, y); }

static void monitor(void *ctx, int it, double rel) {
  printf("  %s it %3d  relative residual %.3e\n", (const char *)ctx, it, rel);
}

static int g_smoother = DG_MG_BLOCK; /* --smoother */
static long g_coarse_dense = -1;     /* --coarse-dense (-1: the library's default) */

static int g_cpu_clock; /* --clock cpu: process CPU time (a shared machine's wall time
                           measures the other users' load; use with one thread) */

static double now(void) {
  struct timespec t;
  clock_gettime(g_cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
  dg_degree_map *map;
  dg_partition *part; /* across ranks: the blocks, */
  dg_spart *sp;       /* this rank's share (op is its operator) */
  dg_sop *op;
  dg_mg *mg;
  double *b;
  long n;
} problem;

/* precisions: the multigrid's cycles (DG_MG_DOUBLE, DG_MG_FLOAT); an fp64
 * solve sets up no float cycle, so no float kernel is compiled for it. */
static int problem_create(problem *P, int dim, int nel, int r, const char *map, int smooth,
                          int precisions) {
  memset(P, 0, sizeof *P);
  dg_grid g;
  const int nn[3] = {nel, nel, nel};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  DG_CALL(dg_grid_init(&g, dim, nn, lo, hi));
  if (!strcmp(map, "uniform"))
    DG_CALL(dg_degree_map_create_uniform(&P->map, &g, r));
  else if (!strcmp(map, "band"))
    DG_CALL(dg_degree_map_create_band(&P->map, &g, r > 1 ? r - 1 : 1, r));
  else if (!strcmp(map, "random"))
    DG_CALL(dg_degree_map_create_random(&P->map, &g, r > 1 ? r - 1 : 1, r, 99));
  else
    return dg_error(DG_ERR_ARG, "--map %s: expected uniform, band or random", map);
  if (P->map->rmax < r) /* too few rows for the band to reach --r: said, not silent */
    fprintf(stderr,
            "poisson: note: --map %s reaches degree %d, not --r %d, on %d rows in y (it needs "
            "3)\n",
            map, P->map->rmax, r, nel);
  dg_sop_params p = dg_sop_default_params();
  p.bc[0] = p.bc[1] = p.bc[2] = DG_SBC_DIRICHLET;
  if (g_rk && g_rk->size > 1) {
    DG_CALL(dg_partition_create(&P->part, &g, P->map, g_rk->size, NULL));
    DG_CALL(dg_spart_create(&P->sp, g_rk->comm, P->part, &g, &p));
    g_rank_be = *g_be;
    g_rank_be.comm = g_rk->comm;
    DG_CALL(dg_sop_create_part(&P->op, &g_rank_be, P->sp, P->map->deg, P->map->deg));
  } else
    DG_CALL(dg_sop_create(&P->op, g_be, &g, P->map->deg, &p));
  dg_mg_opts mo = dg_mg_default_opts();
  mo.smooth_deg = smooth;
  mo.smoother = g_smoother;
  mo.precisions = precisions;
  if (g_coarse_dense >= 0) mo.coarse_dense_max = g_coarse_dense;
  DG_CALL(dg_mg_create(&P->mg, P->op, &mo));
  P->n = dg_sop_len(P->op);
  P->b = dg_svec_alloc(dg_sop_backend(P->op), sizeof(double) * (size_t)P->n);
  if (!P->b) return dg_error(DG_ERR_MEM, "out of memory (%ld unknowns)", P->n);
  return dg_sop_load(P->op, rhs, NULL, P->b);
}

static void problem_destroy(problem *P) {
  if (P->op) dg_svec_free(dg_sop_backend(P->op), P->b);
  dg_mg_destroy(&P->mg);
  dg_sop_destroy(&P->op);
  dg_spart_destroy(&P->sp);
  dg_partition_destroy(&P->part);
  dg_degree_map_destroy(&P->map);
}

/* Solve with `solver` from zero; its, final relative residual (true, fp64),
 * L2 error and seconds. */
static int solve(problem *P, const char *solver, double rtol, int verbose, int *its, double *rel,
                 double *err, double *secs, double **keep) {
  const long n = P->n;
  const dg_backend *be = dg_sop_backend(P->op); /* across ranks: reduces over them */
  double *x = dg_svec_alloc(be, sizeof(double) * (size_t)n),
         *t = dg_svec_alloc(be, sizeof(double) * (size_t)n);
  if (!x || !t) {
    dg_svec_free(be, x);
    dg_svec_free(be, t);
    return dg_error(DG_ERR_MEM, "out of memory");
  }
  dg_krylov_opts o = {rtol, 100, verbose ? monitor : NULL, (void *)solver, 0};
  dg_krylov_stats st;
  int rc = 0;
  const double t0 = now();
  if (!strcmp(solver, "fp64"))
    rc = dg_cg_d(be, n, apply_d, P->op, dg_mg_precond_d, P->mg, P->b, x, &o, &st);
  else if (!strcmp(solver, "mixed"))
    rc = dg_cg_d(be, n, apply_d, P->op, dg_mg_precond_mixed, P->mg, P->b, x, &o, &st);
  else if (!strcmp(solver, "fp32")) {
    float *bf = dg_svec_alloc(be, sizeof(float) * (size_t)n),
          *xf = dg_svec_alloc(be, sizeof(float) * (size_t)n);
    if (!bf || !xf) rc = dg_error(DG_ERR_MEM, "out of memory");
    if (!rc) {
      o.maxit = 40;
      dg_svec_to_f(be, n, 1, P->b, bf);
      rc = dg_cg_f(be, n, apply_f, P->op, dg_mg_precond_f, P->mg, bf, xf, &o, &st);
      dg_svec_from_f(be, n, 1, xf, x);
    }
    dg_svec_free(be, bf);
    dg_svec_free(be, xf);
  } else
    rc = dg_error(DG_ERR_ARG, "--solver %s: expected fp64, mixed or fp32", solver);
  if (!rc) rc = dg_svec_sync(be);
  *secs = now() - t0;
  if (!rc) {
    *its = st.its;
    rc = dg_sop_apply_d(P->op, x, t);
  }
  if (!rc) {
    dg_svec_xpby_d(be, n, P->b, -1, t); /* b - A x */
    *rel = sqrt(dg_svec_dot_d(be, n, t, t) / dg_svec_dot_d(be, n, P->b, P->b));
    rc = dg_sop_l2_error(P->op, x, exact, NULL, err);
  }
  if (keep && !rc) {
    *keep = x;
    x = NULL;
  }
  dg_svec_free(be, x);
  dg_svec_free(be, t);
  return rc;
}

/* Write u as a dgrid snapshot (one variable "u", q = rmax + 1); across
 * ranks the whole solution gathered, and rank 0 writes it. */
static int write_snapshot(const problem *P, const double *u, int dim, const char *path) {
  const dg_grid *g = P->sp ? dg_spart_global_grid(P->sp) : dg_sop_grid(P->op);
  double *ug = NULL;
  if (P->sp) {
    ug = malloc(sizeof(double) * (size_t)(dg_sop_global_len(P->op) + 1));
    if (!ug) return dg_error(DG_ERR_MEM, "out of memory");
    const int rc = dg_sop_gather_d(P->op, u, ug);
    if (rc || g_rk->rank > 0) {
      free(ug);
      return rc;
    }
    u = ug;
  }
  dg_snapshot s;
  memset(&s, 0, sizeof s);
  s.dim = dim;
  s.nvar = 1;
  for (int d = 0; d < 3; ++d) {
    s.cells[d] = d < dim ? g->n[d] : 1;
    s.lo[d] = g->lo[d];
    s.hi[d] = g->hi[d];
  }
  s.q = P->map->rmax + 1;
  snprintf(s.model, sizeof s.model, "poisson-sipg");
  snprintf(s.variables, sizeof s.variables, "u");
  s.nelem = g->nelem;
  s.degree = P->map->deg;
  const dg_backend *be = dg_sop_backend(P->op);
  int rc = dg_svec_sync(be); /* no kernel may still write u */
  int64_t *off = malloc(sizeof(int64_t) * (size_t)(g->nelem + 1));
  if (!rc && !off) rc = dg_error(DG_ERR_MEM, "out of memory");
  for (long e = 0; e <= g->nelem && !rc; ++e) off[e] = dg_sop_global_offsets(P->op)[e];
  s.coeff_offset = off;
  /* u on the host: across ranks the gathered whole vector, else a view of
     solver memory (a copy on the CUDA backend) */
  const size_t nb = sizeof(double) * (size_t)dg_sop_len(P->op);
  double *uh = ug;
  if (!rc && !ug) rc = dg_svec_map(be, u, nb, DG_SVEC_READ, (void **)&uh);
  s.coeff = uh;
  if (!rc) rc = dg_snapshot_write(path, &s);
  if (!ug) dg_svec_unmap(be, u, uh, nb, 0);
  free(off);
  free(ug);
  return rc;
}

/* The cycle as a stationary iteration: geometric mean reduction over 8 cycles. */
static int factor(problem *P, double *f) {
  const long n = P->n;
  double *x = dg_svec_alloc(g_be, sizeof(double) * (size_t)n),
         *t = dg_svec_alloc(g_be, sizeof(double) * (size_t)n);
  double *c = dg_svec_alloc(g_be, sizeof(double) * (size_t)n);
  int rc = (!x || !t || !c) ? dg_error(DG_ERR_MEM, "out of memory") : 0;
  const double r0 = sqrt(dg_svec_dot_d(g_be, n, P->b, P->b));
  for (int k = 0; k <= 8 && !rc; ++k) {
    rc = dg_sop_apply_d(P->op, x, t);
    if (rc) break;
    dg_svec_xpby_d(g_be, n, P->b, -1, t);
    if (k == 8) break;
    rc = dg_mg_cycle_d(P->mg, t, c);
    if (!rc) dg_svec_axpy_d(g_be, n, 1, c, x);
  }
  if (!rc) *f = pow(sqrt(dg_svec_dot_d(g_be, n, t, t)) / r0, 1.0 / 8);
  if (!rc) rc = dg_svec_status(g_be);
  dg_svec_free(g_be, x);
  dg_svec_free(g_be, t);
  dg_svec_free(g_be, c);
  return rc;
}

/* The memory bandwidth of the backend's vector kernel a = b + a / 2 (GB/s,
 * 3 x 8 bytes per entry, best of reps). */
static double triad_d(long n, int reps) {
  double *a = dg_svec_alloc(g_be, sizeof(double) * (size_t)n),
         *b = dg_svec_alloc(g_be, sizeof(double) * (size_t)n);
  double best = 1e30;
  if (!a || !b) {
    dg_svec_free(g_be, a);
    dg_svec_free(g_be, b);
    return 0;
  }
  /* filled on the host, sent once */
  double *h = malloc(sizeof(double) * (size_t)n);
  int rc = h ? 0 : 1;
  for (long i = 0; i < n && !rc; ++i) h[i] = 1.0 + (double)(i % 7);
  if (!rc) rc = dg_svec_to_device(g_be, a, h, sizeof(double) * (size_t)n);
  if (!rc) rc = dg_svec_to_device(g_be, b, h, sizeof(double) * (size_t)n);
  free(h);
  for (int k = 0; k < reps && !rc; ++k) {
    const double t0 = now();
    dg_svec_xpby_d(g_be, n, b, 0.5, a);
    if (dg_svec_sync(g_be)) break;
    const double t = now() - t0;
    best = t < best ? t : best;
  }
  dg_svec_free(g_be, a);
  dg_svec_free(g_be, b);
  return 3.0 * 8.0 * (double)n / best / 1e9;
}

static int throughput(int dim, int nel, int r, int reps, int smooth) {
  problem P;
  DG_CALL(problem_create(&P, dim, nel, r, "uniform", smooth, DG_MG_DOUBLE | DG_MG_FLOAT));
  const long n = P.n;
  double *x = dg_svec_alloc(g_be, sizeof(double) * (size_t)n),
         *y = dg_svec_alloc(g_be, sizeof(double) * (size_t)n);
  float *xf = dg_svec_alloc(g_be, sizeof(float) * (size_t)n),
        *yf = dg_svec_alloc(g_be, sizeof(float) * (size_t)n);
  if (!x || !y || !xf || !yf) return dg_error(DG_ERR_MEM, "out of memory");
  dg_svec_copy_d(g_be, n, P.b, x);
  dg_svec_to_f(g_be, n, 1, P.b, xf);
  DG_CALL(dg_svec_sync(g_be));
  double bd = 1e30, bf = 1e30;
  for (int k = 0; k < reps; ++k) { /* interleaved, best of */
    double t0 = now();
    DG_CALL(dg_sop_apply_d(P.op, x, y));
    DG_CALL(dg_svec_sync(g_be));
    double t = now() - t0;
    bd = t < bd ? t : bd;
    t0 = now();
    DG_CALL(dg_sop_apply_f(P.op, xf, yf));
    DG_CALL(dg_svec_sync(g_be));
    t = now() - t0;
    bf = t < bf ? t : bf;
  }
  const double triad = triad_d(n, reps);
  const double gd = 16.0 * (double)n / bd / 1e9, gf = 8.0 * (double)n / bf / 1e9;
  printf("SIPG apply, %dD, %d^%d elements, degree %d, %ld DOFs (best of %d)\n", dim, nel, dim, r, n,
         reps);
  printf("  double: %.3e DOF/s, %.2f GB/s = %.0f%% of the triad's %.2f GB/s\n", (double)n / bd, gd,
         100 * gd / triad, triad);
  printf("  float:  %.3e DOF/s, %.2f GB/s = %.0f%% of the triad's %.2f GB/s; float/double %.2fx\n",
         (double)n / bf, gf, 100 * gf / triad, triad, bd / bf);
  double w, cd = 1e30, cf = 1e30, cm = 1e30;
  long cyc;
  for (int k = 0; k < reps; ++k) { /* one cycle of each kind, interleaved, best of */
    double t0 = now();
    DG_CALL(dg_mg_cycle_d(P.mg, P.b, y));
    DG_CALL(dg_svec_sync(g_be));
    double t = now() - t0;
    cd = t < cd ? t : cd;
    t0 = now();
    DG_CALL(dg_mg_cycle_f(P.mg, xf, yf));
    DG_CALL(dg_svec_sync(g_be));
    t = now() - t0;
    cf = t < cf ? t : cf;
    t0 = now();
    DG_CALL(dg_mg_precond_mixed(P.mg, P.b, y));
    DG_CALL(dg_svec_sync(g_be));
    t = now() - t0;
    cm = t < cm ? t : cm;
  }
  printf("  one V(%d,%d) cycle: double %.3e s, float %.3e s, mixed %.3e s; float/double %.2fx, "
         "mixed/double %.2fx\n",
         smooth, smooth, cd, cf, cm, cd / cf, cd / cm);
  dg_mg_reset_work(P.mg);
  DG_CALL(dg_mg_cycle_d(P.mg, P.b, x));
  dg_mg_work(P.mg, &w, &cyc);
  printf("  one V(%d,%d) cycle = %.2f fine-level operator applications (all levels, coarse solve "
         "included); its time = %.1f fine-level applications' (double)\n",
         smooth, smooth, w, cd / bd);
  dg_svec_free(g_be, x);
  dg_svec_free(g_be, y);
  dg_svec_free(g_be, xf);
  dg_svec_free(g_be, yf);
  problem_destroy(&P);
  return 0;
}

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int table(int dim, int rmin, int rmax, int nmin, int nmax, int repeat, int smooth,
                 const char *map, double rtol) {
  printf("SIPG Poisson %dD, %s map, k = %d, CG + V(%d,%d) to %g, %s smoother; times: solve only, "
         "median of %d interleaved runs\n",
         dim, map, g_k, smooth, smooth, rtol,
         g_smoother == DG_MG_PATCH ? "vertex-patch" : "element-block", repeat);
  printf("%2s %5s %10s %4s %7s %13s %13s %9s %4s %9s %9s %6s %9s\n", "r", "n", "unknowns", "its",
         "factor", "L2 fp64", "L2 mixed", "rel.diff", "itsm", "t fp64", "t mixed", "speedup",
         "fp32 stall");
  for (int r = rmin; r <= rmax; ++r)
    for (int nel = nmin; nel <= nmax; nel *= 2) {
      problem P;
      DG_CALL(problem_create(&P, dim, nel, r, map, smooth, DG_MG_DOUBLE | DG_MG_FLOAT));
      double f = 0, td[16], tm[16], ed = 0, em = 0, rel, es, s;
      int itd = 0, itm = 0, its;
      DG_CALL(factor(&P, &f));
      /* one untimed solve of each first: the first solve of a problem takes
         its work vectors from the allocator fresh (first touch; on CUDA a
         cudaMalloc, which waits for the device), the later ones reuse freed blocks, so
         with --repeat 1 the first-timed fp64 solve paid for both */
      DG_CALL(solve(&P, "fp64", rtol, 0, &itd, &rel, &ed, &td[0], NULL));
      DG_CALL(solve(&P, "mixed", rtol, 0, &itm, &rel, &em, &tm[0], NULL));
      for (int k = 0; k < repeat; ++k) {
        DG_CALL(solve(&P, "fp64", rtol, 0, &itd, &rel, &ed, &td[k], NULL));
        DG_CALL(solve(&P, "mixed", rtol, 0, &itm, &rel, &em, &tm[k], NULL));
      }
      DG_CALL(solve(&P, "fp32", rtol, 0, &its, &rel, &es, &s, NULL));
      qsort(td, (size_t)repeat, sizeof(double), cmp);
      qsort(tm, (size_t)repeat, sizeof(double), cmp);
      const double md = td[repeat / 2], mm = tm[repeat / 2];
      printf("%2d %5d %10ld %4d %7.3f %13.6e %13.6e %9.1e %4d %8.3fs %8.3fs %6.2fx %9.1e\n", r, nel,
             P.n, itd, f, ed, em, fabs(em - ed) / ed, itm, md, mm, md / mm, rel);
      fflush(stdout);
      problem_destroy(&P);
    }
  return 0;
}

static const char usage[] =
    "poisson: SIPG Poisson -lap u = f on the unit square/cube, CG + hp-multigrid\n"
    "  poisson [options]            one solve (progress per iteration, L2 error)\n"
    "  poisson --table [options]    iterations, errors and times per degree and grid\n"
    "  poisson --throughput [...]   operator and vector throughput\n"
    "  --dim N               2 | 3                                         [2]\n"
    "  --n N                 elements per direction                        [32]\n"
    "  --r N                 degree (0..10)                                [3]\n"
    "  --map KIND            uniform | band | random (degrees r-1..r)      [uniform]\n"
    "  --solver KIND         fp64 | mixed | fp32 (one solve only)          [fp64]\n"
    "  --rtol X              CG's relative residual, in [1e-16, 1)         [1e-10]\n"
    "  --smooth N            Chebyshev smoothing steps                     [6]\n"
    "  --smoother KIND       block | patch                                 [block]\n"
    "  --coarse-dense N      dense coarsest solve up to N unknowns         [256]\n"
    "  --k K                 the solution's wave number                    [1]\n"
    "  --out FILE            write the solution as a snapshot (one solve)\n"
    "  --quiet               no progress lines (one solve)\n"
    "  --verbose             each kernel compiled or loaded, and its time (stderr)\n"
    "  --rmin, --rmax N      --table's degrees                             [1, 6]\n"
    "  --nmin, --nmax N      --table's grids                               [16, 256]\n"
    "  --repeat N            timed runs (--table: at most 16)              [3]\n"
    "  --clock wall|cpu      --table and --throughput's clock              [wall]\n"
    "  --backend NAME        omp | cuda | cuda:N (cuda: a CUDA build)      [the build's]\n"
    "  --help                this text\n"
    "CG stops at its iteration limit (100; fp32: 40) if --rtol is not reached: a warning\n"
    "on stderr with the default --rtol (fp32 stalls above it by design), an error (exit\n"
    "2, nothing written) where --rtol was given: a tolerance asked for and not met is\n"
    "not a result.\n"
    "Under mpirun (an MPI build) one solve runs across the ranks, each on its block of\n"
    "the grid; --table and --throughput refuse there, and --smoother patch on the CUDA\n"
    "backend.\n";

enum { POISSON_HELP = 100 };

typedef struct {
  int dim, nel, r, smooth, quiet, verbose, tab, rmin, rmax, nmin, nmax, repeat;
  int given_map, given_solver, given_rtol, given_quiet;
  int given_int; /* bit k: inames[k] given */
  double rtol;
  const char *map, *solver, *out, *backend;
} poisson_opts;

/* The options, every value checked here (one line naming the option and
 * its value, escaped) and every combination that would ignore one. */
static int parse(int argc, char **argv, poisson_opts *o) {
  char esc[160];
  *o = (poisson_opts){.dim = 2,
                      .nel = 32,
                      .r = 3,
                      .smooth = 6,
                      .rmin = 1,
                      .rmax = 6,
                      .nmin = 16,
                      .nmax = 256,
                      .repeat = 3,
                      .rtol = 1e-10,
                      .map = "uniform",
                      .solver = "fp64"};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return POISSON_HELP;
    static const char *const inames[] = {"--dim",  "--n",    "--r",    "--smooth", "--rmin",
                                         "--rmax", "--nmin", "--nmax", "--repeat", "--k"};
    int *const ivars[] = {&o->dim,  &o->nel,  &o->r,    &o->smooth, &o->rmin,
                          &o->rmax, &o->nmin, &o->nmax, &o->repeat, &g_k};
    static const char *const flags[] = {"--quiet", "--table", "--throughput", "--verbose"};
    int is_flag = 0;
    for (int k = 0; k < 4; ++k) is_flag |= !strcmp(a, flags[k]);
    if (!is_flag && v && !strncmp(v, "--", 2)) /* "--out --quiet": not a file named --quiet */
      return dg_error(DG_ERR_ARG, "option %s needs a value (the next argument is the option %s)",
                      dg_escape(esc, sizeof esc, a), dg_escape(esc + 80, 80, v));
    int done = 0;
    for (int k = 0; k < 10 && !done; ++k)
      if (!strcmp(a, inames[k]) && v) {
        char *end;
        const long x = strtol(v, &end, 10);
        if (end == v || *end || x < INT_MIN || x > INT_MAX)
          return dg_error(DG_ERR_ARG, "option %s: '%s' is not an integer", a,
                          dg_escape(esc, sizeof esc, v));
        *ivars[k] = (int)x;
        o->given_int |= 1 << k;
        done = 1;
      }
    if (done)
      ++i;
    else if (!strcmp(a, "--rtol") && v) {
      char *end;
      o->rtol = strtod(v, &end);
      /* below 1e-16 the fp64 residual cannot get: CG would stop for another reason */
      if (end == v || *end || !(o->rtol >= 1e-16 && o->rtol < 1))
        return dg_error(DG_ERR_ARG, "option --rtol: '%s' is not a number in [1e-16, 1)",
                        dg_escape(esc, sizeof esc, v));
      o->given_rtol = 1;
      ++i;
    } else if (!strcmp(a, "--map") && v) {
      if (strcmp(v, "uniform") && strcmp(v, "band") && strcmp(v, "random"))
        return dg_error(DG_ERR_ARG, "option --map: '%s' is not one of uniform, band, random",
                        dg_escape(esc, sizeof esc, v));
      o->map = v;
      o->given_map = 1;
      ++i;
    } else if (!strcmp(a, "--solver") && v) {
      if (strcmp(v, "fp64") && strcmp(v, "mixed") && strcmp(v, "fp32"))
        return dg_error(DG_ERR_ARG, "option --solver: '%s' is not one of fp64, mixed, fp32",
                        dg_escape(esc, sizeof esc, v));
      o->solver = v;
      o->given_solver = 1;
      ++i;
    } else if (!strcmp(a, "--backend") && v) {
      o->backend = v;
      ++i;
    } else if (!strcmp(a, "--clock") && v) {
      if (strcmp(v, "cpu") && strcmp(v, "wall"))
        return dg_error(DG_ERR_ARG, "option --clock: '%s' is not one of wall, cpu",
                        dg_escape(esc, sizeof esc, v));
      g_cpu_clock = !strcmp(v, "cpu");
      ++i;
    } else if (!strcmp(a, "--smoother") && v) {
      if (strcmp(v, "block") && strcmp(v, "patch"))
        return dg_error(DG_ERR_ARG, "option --smoother: '%s' is not one of block, patch",
                        dg_escape(esc, sizeof esc, v));
      g_smoother = !strcmp(v, "patch") ? DG_MG_PATCH : DG_MG_BLOCK;
      ++i;
    } else if (!strcmp(a, "--coarse-dense") && v) {
      char *end;
      g_coarse_dense = strtol(v, &end, 10);
      if (end == v || *end || g_coarse_dense < 0 || g_coarse_dense > DG_MG_DENSE_LIMIT)
        return dg_error(DG_ERR_ARG, "option --coarse-dense: '%s' is not a count 0..%d",
                        dg_escape(esc, sizeof esc, v), DG_MG_DENSE_LIMIT);
      ++i;
    } else if (!strcmp(a, "--out") && v) {
      o->out = v;
      ++i;
    } else if (!strcmp(a, "--quiet")) {
      o->quiet = o->given_quiet = 1;
    } else if (!strcmp(a, "--verbose")) {
      o->verbose = 1;
    } else if (!strcmp(a, "--table")) {
      o->tab = 1;
    } else if (!strcmp(a, "--throughput")) {
      o->tab = 2;
    } else {
      return dg_error(DG_ERR_ARG, "unknown or incomplete option '%s' (see --help)",
                      dg_escape(esc, sizeof esc, a));
    }
  }
  if (strcmp(o->map, "uniform") != 0 && o->r < 1)
    return dg_error(DG_ERR_ARG, "option --r: %d is below 1, the lowest degree of --map %s", o->r,
                    o->map);
  if ((o->dim != 2 && o->dim != 3) || o->nel < 1 || o->r < 0 || o->r > DG_MAX_DEGREE ||
      o->repeat < 1 || g_k < 1)
    return dg_error(DG_ERR_ARG, "need --dim 2|3, --n >= 1, --r 0..%d, --repeat >= 1, --k >= 1",
                    DG_MAX_DEGREE);
  /* --rmin .. --nmax (inames[4..7]) are --table's; --n and --r (1, 2) its single
     problem's */
  static const char *const ranged[] = {"--rmin", "--rmax", "--nmin", "--nmax"};
  for (int k = 0; k < 4; ++k)
    if (o->tab != 1 && (o->given_int >> (4 + k) & 1))
      return dg_error(DG_ERR_ARG, "option %s: only --table runs a range of %s", ranged[k],
                      k < 2 ? "degrees" : "grids");
  if (o->tab == 1) {
    for (int k = 1; k <= 2; ++k)
      if (o->given_int >> k & 1)
        return dg_error(DG_ERR_ARG, "option %s: --table runs %s", k == 1 ? "--n" : "--r",
                        k == 1 ? "--nmin to --nmax" : "--rmin to --rmax");
    for (int k = 0; k < 2; ++k) {
      const int x = k ? o->rmax : o->rmin;
      if (x < 0 || x > DG_MAX_DEGREE)
        return dg_error(DG_ERR_ARG, "option %s: %d is not a degree in 0..%d", ranged[k], x,
                        DG_MAX_DEGREE);
    }
    if (o->rmin > o->rmax)
      return dg_error(DG_ERR_ARG, "option --rmin: %d is above --rmax %d", o->rmin, o->rmax);
    if (o->nmin < 1) return dg_error(DG_ERR_ARG, "option --nmin: %d is below 1", o->nmin);
    if (o->nmin > o->nmax)
      return dg_error(DG_ERR_ARG, "option --nmin: %d is above --nmax %d", o->nmin, o->nmax);
  }
  if (o->tab) { /* what --table and --throughput would ignore */
    const char *mode = o->tab == 1 ? "--table" : "--throughput";
    if (o->out)
      return dg_error(DG_ERR_ARG, "option --out: %s writes no solution (run one solve for it)",
                      mode);
    if (o->given_solver)
      return dg_error(DG_ERR_ARG, "option --solver: %s runs %s", mode,
                      o->tab == 1 ? "fp64, mixed and fp32 each" : "no solve");
    if (o->given_quiet)
      return dg_error(DG_ERR_ARG, "option --quiet: %s prints no progress lines", mode);
    if (o->tab == 2 && o->given_map)
      return dg_error(DG_ERR_ARG, "option --map: --throughput measures the uniform map");
    if (o->tab == 2 && o->given_rtol)
      return dg_error(DG_ERR_ARG, "option --rtol: --throughput runs no solve");
    if (o->tab == 1 && o->repeat > 16)
      return dg_error(DG_ERR_ARG, "option --repeat: %d is above the 16 timed runs --table keeps",
                      o->repeat);
  }
  return 0;
}

/* The one line of an error, escaped, and the status. */
static int fail(void) {
  char line[4200];
  fflush(stdout);
  fprintf(stderr, "poisson: %s\n", dg_escape_message(line, sizeof line, dg_error_message()));
  return 2;
}

/* Standard output written in full (a full device, a closed pipe): else one line. */
static int stdout_ok(void) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return 1;
  const int e = errno;
  fprintf(stderr, "poisson: cannot write to standard output%s%s%s\n", e ? " (" : "",
          e ? strerror(e) : "", e ? ")" : "");
  return 0;
}

static void free_backend(void) { dg_backend_destroy(&g_be); }

/* What does not run across ranks yet: one line naming the option. */
static int refuse_ranks(const poisson_opts *o) {
  if (o->tab)
    return dg_error(DG_ERR_ARG, "option %s: runs on one rank only (not across ranks yet)",
                    o->tab == 1 ? "--table" : "--throughput");
  return 0;
}

/* The same for what the backend's solvers do not run across ranks. */
static int refuse_ranks_backend(const dg_backend *be) {
  if (g_smoother == DG_MG_PATCH && !dg_spatch_on_ranks(be))
    return dg_error(DG_ERR_ARG,
                    "option --smoother: patch does not run across ranks on the %s "
                    "backend yet (use block or --backend omp)",
                    dg_backend_name(be));
  return 0;
}

/* "level A" or "levels A..B" into buf. */
static const char *level_range(char *buf, size_t cap, int a, int b) {
  if (b > a)
    snprintf(buf, cap, "levels %d..%d", a, b);
  else
    snprintf(buf, cap, "level %d", a);
  return buf;
}

static int run(dg_app_ranks *rk, int argc, char **argv) {
  poisson_opts o;
  int rc = parse(argc, argv, &o);
  if (rc == POISSON_HELP) {
    fputs(usage, stdout);
    return stdout_ok() ? 0 : 2;
  }
  if (!rc && rk->size > 1) rc = refuse_ranks(&o);
  g_dim = o.dim;
  if (!rc && o.verbose) dg_backend_verbose(1); /* the solver kernels compiled, their times */
  if (!rc) {
    /* one GPU per rank where the node has several (cuda without a device) */
    rc = dg_backend_create_on_node(&g_be, o.backend, rk->node_rank);
    if (rc && o.backend) dg_error_prefix(rc, "option --backend");
    if (!rc) atexit(free_backend);
    if (!rc && rk->size > 1) rc = refuse_ranks_backend(g_be);
  }
  if (dg_app_ranks_agree(rk, rc)) return fail();
  if (o.tab == 2) {
    if (throughput(o.dim, o.nel, o.r, o.repeat, o.smooth)) return fail();
    return stdout_ok() ? 0 : 2;
  }
  if (o.tab) {
    if (table(o.dim, o.rmin, o.rmax, o.nmin, o.nmax, o.repeat, o.smooth, o.map, o.rtol))
      return fail();
    return stdout_ok() ? 0 : 2;
  }
  problem P;
  int its;
  double rel, err, secs, *u = NULL;
  rc = problem_create(&P, o.dim, o.nel, o.r, o.map, o.smooth,
                      strcmp(o.solver, "fp64") ? DG_MG_DOUBLE | DG_MG_FLOAT : DG_MG_DOUBLE);
  if (!rc && rk->size > 1 && !o.quiet && dg_sop_part_halo_path(P.op) >= 0) {
    char line[256]; /* how the ghosts reach MPI (rank 0's; every rank chose alike) */
    dg_comm_halo_describe(dg_sop_backend(P.op), dg_sop_part_halo_path(P.op), line, sizeof line);
    printf("%s\n", line);
  }
  if (!rc) rc = solve(&P, o.solver, o.rtol, !o.quiet, &its, &rel, &err, &secs, &u);
  /* memory, MPI or the device failing on one rank leaves the others waiting
     in a collective: this rank ends the job; every other failure (options
     the setup rejects, a solve that fails on the reduced numbers) is every
     rank's alike, agreed on below */
  if (rc && rk->size > 1 && (rc == DG_ERR_MEM || rc == DG_ERR_LIB || rc == DG_ERR_BACKEND)) {
    char line[4200], full[4300];
    snprintf(full, sizeof full, "poisson: %s",
             dg_escape_message(line, sizeof line, dg_error_message()));
    dg_app_ranks_fail(rk, full);
  }
  /* every rank holds the same reduced residual: they decide alike */
  if (!rc && !(rel <= o.rtol)) {
    if (o.given_rtol)
      rc = dg_error(DG_ERR_NUMERIC,
                    "option --rtol: %s CG stopped after %d iterations at relative residual %.3e, "
                    "above --rtol %g%s",
                    o.solver, its, rel, o.rtol, o.out ? " (no file written)" : "");
    else
      fprintf(stderr,
              "poisson: warning: %s CG stopped after %d iterations at relative residual %.3e, "
              "above --rtol %g\n",
              o.solver, its, rel, o.rtol);
  }
  rc = dg_app_ranks_agree(rk, rc);
  if (!rc && o.out) rc = dg_app_ranks_agree(rk, write_snapshot(&P, u, o.dim, o.out));
  const dg_backend *be = P.op ? dg_sop_backend(P.op) : g_be;
  if (rc) {
    dg_svec_free(be, u);
    const int status = fail(); /* the message before the teardown's */
    problem_destroy(&P);       /* problem_create zeroes P first: a partial one too */
    return status;
  }
  char buf[4096];
  dg_mg_describe(P.mg, buf, sizeof buf);
  printf("%s", buf);
  int c0 = 0, c1 = 0;
  const int ncoarse = dg_mg_coarse_ranks(P.mg, &c0, &c1);
  if (ncoarse) {
    char lv[64];
    if (c0 > 0)
      printf("multigrid across %d ranks: %s on the ranks' blocks\n", rk->size,
             level_range(lv, sizeof lv, 0, c0 - 1));
    printf("coarse: %s on %d of %d ranks (rank %d)\n", level_range(lv, sizeof lv, c0, c1), ncoarse,
           rk->size, DG_MG_COARSE_ROOT);
  }
  printf("%s: %ld unknowns, %d iterations, relative residual %.3e, L2 error %.6e, %.3f s\n",
         o.solver, dg_sop_global_len(P.op), its, rel, err, secs);
  if (o.out) printf("wrote %s\n", dg_escape(buf, sizeof buf, o.out));
  dg_svec_free(be, u);
  problem_destroy(&P);
  return stdout_ok() ? 0 : 2;
}

int main(int argc, char **argv) {
  dg_app_ranks rk;
  if (dg_app_ranks_start(&rk, &argc, &argv)) {
    const int status = fail();
    dg_app_ranks_stop(&rk);
    return status;
  }
  g_rk = &rk;
  /* fault injection for tests (dg_spart.h) */
  const int status =
      dg_spart_set_fault(getenv("DGRID_SPART_NO_EXCHANGE")) ? fail() : run(&rk, argc, argv);
  dg_app_ranks_stop(&rk);
  return status;
}
