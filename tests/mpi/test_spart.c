/* test_spart.c - mpi.spart_npN: a rank's share of a solver grid
 * (solvers/dg_spart.h) on 1..4 ranks against the whole grid's operator of
 * one process: y = A x of the same random whole vector in double and in
 * float, its owned entries gathered from the ranks against one process's
 * (1e-13 of max |y| in double, 1e-5 in float), zeros outside the owned
 * elements after the apply (its input's ghost slots too), the dot product
 * x'y reduced over the ranks (1e-13), gather after scatter the identity
 * (onto every rank, and onto one rank with failures carried: root_case).
 * Cases: a 2D box periodic in x and Dirichlet in y, a 3D box periodic in
 * every direction, and 2 x 2 periodic elements (from 2 ranks on, a block of
 * one element in a direction has the same element as ghost on both sides);
 * random degree maps, a mass term.  Each case runs twice: on the test's
 * backend, and on OpenMP with views that are host copies (as on CUDA:
 * host_is_device off, so the exchange is staged through host buffers where
 * MPI is not CUDA-aware: the lists copied to solver memory, the gathered
 * entries copied out and the received ones in), which must give the same
 * x'Ax to the bit (a view or a staged copy not filled or not sent back
 * where the exchange, gather or scatter needs it would not).  The transfers
 * by agglomeration and the vertex patches across ranks: bitwise one
 * process's; a backend whose driver does not run a rank's patches: the
 * multigrid refuses them in one message. */
#include "dg_test.h"

#include "dg_backend.h"
#include "dg_comm.h"
#include "dg_degree_map.h"
#include "dg_mg.h"
#include "dg_partition.h"
#include "dg_sop.h"
#include "dg_spart.h"
#include "dg_solver_ops.h"
#include "dg_spatch.h"
#include "dg_svec.h"

#include <stdint.h>
#include <string.h>

static double rnd(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (double)(*s >> 11) / 9007199254740992.0 - 0.5;
}

/* 1 when every entry of x (solver memory) outside the rank's owned
 * elements is zero */
static int ghosts_zero(const dg_sop *op, const double *x) {
  const unsigned char *own = dg_spart_owned(dg_sop_part(op));
  const long *off = dg_sop_offsets(op);
  const size_t nb = sizeof(double) * (size_t)dg_sop_len(op);
  double *h = NULL; /* a host view */
  OK(dg_svec_map(dg_sop_backend(op), x, nb, DG_SVEC_READ, (void **)&h));
  int zero = 1;
  for (long e = 0; e < dg_sop_grid(op)->nelem; ++e)
    for (long t = off[e]; t < off[e + 1] && !own[e]; ++t)
      if (h[t] != 0) zero = 0;
  OK(dg_svec_unmap(dg_sop_backend(op), x, h, nb, 0));
  return zero;
}

/* One process's operator G of an n[0] x n[1] (x n[2]) box with boundary
 * rules bc, random degrees rmin..rmax and a mass term, and the rank's L
 * (on rbe: be reducing over the ranks). */
typedef struct {
  dg_degree_map *m;
  dg_partition *part;
  dg_spart *sp;
  dg_sop *G, *L;
} op_pair;

static void pair_create(op_pair *q, const dg_backend *be, const dg_backend *rbe, dg_comm *c,
                        int dim, const int n[3], const int bc[3], int rmin, int rmax) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 1};
  dg_grid g;
  OK(dg_grid_init(&g, dim, n, lo, hi));
  OK(dg_degree_map_create_random(&q->m, &g, rmin, rmax, 7));
  dg_sop_params p = dg_sop_default_params();
  p.a = 0.5;
  for (int d = 0; d < 3; ++d) p.bc[d] = bc[d];
  OK(dg_partition_create(&q->part, &g, q->m, dg_comm_size(c), NULL));
  OK(dg_spart_create(&q->sp, c, q->part, &g, &p));
  OK(dg_sop_create(&q->G, be, &g, q->m->deg, &p));
  OK(dg_sop_create_part(&q->L, rbe, q->sp, q->m->deg, q->m->deg));
}

static void pair_destroy(op_pair *q) {
  dg_sop_destroy(&q->L);
  dg_sop_destroy(&q->G);
  dg_spart_destroy(&q->sp);
  dg_partition_destroy(&q->part);
  dg_degree_map_destroy(&q->m);
}

/* The gather onto one rank (the last: not rank 0) and the scatter from
 * it (the multigrid's coarse levels): the whole vector xh there alone, xl
 * back; a rank's failure before the gather reaches the root, the root's
 * failure every rank, each with its code and one message, and no rank
 * waits (the test's timeout). */
static void root_case(const dg_sop *L, const char *name, const double *xl, const double *xh,
                      double *yl, double *xr) {
  dg_comm *c = dg_spart_comm(dg_sop_part(L));
  const int rank = dg_comm_rank(c), root = dg_comm_size(c) - 1, me = rank == root;
  const size_t gb = sizeof(double) * (size_t)dg_sop_global_len(L);
  memset(xr, 0, gb);
  OK(dg_sop_gather_root_d(L, root, 0, xl, me ? xr : NULL));
  CHECK(!me || memcmp(xr, xh, gb) == 0, "%s: the gather onto rank %d is not x", name, root);
  OK(dg_sop_scatter_root_d(L, root, 0, me ? xh : NULL, yl));
  OK(dg_sop_gather_d(L, yl, xr));
  CHECK(memcmp(xr, xh, gb) == 0, "%s: gather(scatter from rank %d) != x", name, root);
  int rc = rank == 0 ? dg_error(DG_ERR_NUMERIC, "a failure of rank 0") : 0;
  rc = dg_sop_gather_root_d(L, root, rc, xl, me ? xr : NULL);
  const char *want = rank == 0 ? "a failure of rank 0"
                     : me      ? "rank 0 failed before the coarse levels' gather"
                               : NULL;
  CHECK(want ? rc == DG_ERR_NUMERIC && !strcmp(dg_error_message(), want) : rc == 0,
        "%s: rank %d's gather returned %d (%s)", name, rank, rc, rc ? dg_error_message() : "");
  rc = dg_sop_scatter_root_d(L, root, me ? dg_error(DG_ERR_NUMERIC, "the root's failure") : 0,
                             me ? xh : NULL, yl);
  char msg[128];
  snprintf(msg, sizeof msg, "rank %d: the coarse levels' solve failed there", root);
  CHECK(rc == DG_ERR_NUMERIC && !strcmp(dg_error_message(), me ? "the root's failure" : msg),
        "%s: rank %d's scatter returned %d (%s)", name, rank, rc, dg_error_message());
}

static double run_case(const dg_backend *be, dg_comm *c, const char *name, int dim, const int n[3],
                       const int bc[3], int rmin, int rmax) {
  dg_backend rbe = *be; /* the rank's backend: reduces over the ranks */
  rbe.comm = c;
  op_pair q;
  pair_create(&q, be, &rbe, c, dim, n, bc, rmin, rmax);
  dg_sop *G = q.G, *L = q.L;
  const long ng = dg_sop_len(G), nl = dg_sop_len(L);
  CHECK(dg_sop_global_len(L) == ng, "%s: whole length %ld, not %ld", name, dg_sop_global_len(L),
        ng);
  double *xg = dg_svec_alloc(be, sizeof(double) * (size_t)ng);
  double *yg = dg_svec_alloc(be, sizeof(double) * (size_t)ng);
  const size_t gb = sizeof(double) * (size_t)ng;
  /* host memory: the whole vectors the ranks gather and scatter, y = A x of
     one process read back */
  double *yr = malloc(gb), *xr = malloc(gb), *xh = malloc(gb), *yh = malloc(gb);
  double *xl = dg_svec_alloc(&rbe, sizeof(double) * (size_t)nl);
  double *yl = dg_svec_alloc(&rbe, sizeof(double) * (size_t)nl);
  float *xgf = dg_svec_alloc(be, sizeof(float) * (size_t)ng);
  float *ygf = dg_svec_alloc(be, sizeof(float) * (size_t)ng);
  float *xlf = dg_svec_alloc(&rbe, sizeof(float) * (size_t)nl);
  float *ylf = dg_svec_alloc(&rbe, sizeof(float) * (size_t)nl);
  if (!xg || !yg || !yr || !xr || !xh || !yh || !xl || !yl || !xgf || !ygf || !xlf || !ylf) exit(1);
  uint64_t s = 88172645463325252ULL; /* the same on every rank */
  for (long i = 0; i < ng; ++i) xh[i] = rnd(&s);
  OK(dg_svec_to_device(be, xg, xh, gb));
  OK(dg_sop_apply_d(G, xg, yg));
  OK(dg_sop_scatter_d(L, xh, xl));
  OK(dg_sop_gather_d(L, xl, xr));
  CHECK(memcmp(xr, xh, gb) == 0, "%s: gather(scatter(x)) != x", name);
  root_case(L, name, xl, xh, yl, xr);
  OK(dg_sop_apply_d(L, xl, yl));
  OK(dg_svec_sync(&rbe));
  CHECK(ghosts_zero(L, xl) && ghosts_zero(L, yl), "%s: non-zero ghost slots after the apply", name);
  OK(dg_sop_gather_d(L, yl, yr));
  OK(dg_svec_to_host(be, yh, yg, gb));
  double ymax = 0, dmax = 0;
  for (long i = 0; i < ng; ++i) {
    ymax = fmax(ymax, fabs(yh[i]));
    dmax = fmax(dmax, fabs(yr[i] - yh[i]));
  }
  CHECK(dmax <= 1e-13 * ymax, "%s: double apply differs by %g (max |y| %g)", name, dmax, ymax);
  const double dot1 = dg_svec_dot_d(be, ng, xg, yg), dotr = dg_svec_dot_d(&rbe, nl, xl, yl);
  CHECK_CLOSE(dotr, dot1, 0, 1e-13, "x'Ax over the ranks");
  /* float: the same apply with the ghosts' floats exchanged */
  dg_svec_to_f(be, ng, 1, xg, xgf);
  dg_svec_to_f(&rbe, nl, 1, xl, xlf);
  OK(dg_sop_apply_f(G, xgf, ygf));
  OK(dg_sop_apply_f(L, xlf, ylf));
  dg_svec_from_f(&rbe, nl, 1, ylf, yl);
  dg_svec_from_f(be, ng, 1, ygf, yg);
  OK(dg_sop_gather_d(L, yl, yr));
  OK(dg_svec_to_host(be, yh, yg, gb));
  dmax = 0;
  for (long i = 0; i < ng; ++i) dmax = fmax(dmax, fabs(yr[i] - yh[i]));
  CHECK(dmax <= 1e-5 * ymax, "%s: float apply differs by %g (max |y| %g)", name, dmax, ymax);
  if (dg_comm_rank(c) == 0)
    printf("%s%s: %d ranks, %ld unknowns, float apply within %.2g of max |y|, x'Ax %.17g\n", name,
           be->ops->host_is_device ? "" : " (copied views)", dg_comm_size(c), ng, dmax / ymax,
           dotr);
  dg_svec_free(be, xg);
  dg_svec_free(be, yg);
  dg_svec_free(&rbe, xl);
  dg_svec_free(&rbe, yl);
  dg_svec_free(be, xgf);
  dg_svec_free(be, ygf);
  dg_svec_free(&rbe, xlf);
  dg_svec_free(&rbe, ylf);
  free(xr);
  free(yr);
  free(xh);
  free(yh);
  pair_destroy(&q);
  return dotr;
}

/* The transfers by agglomeration across ranks (dg_spart_create_coarse)
 * against one process's, bit for bit: the restriction of a random whole
 * fine vector and the prolongation of a random coarse one, added to a
 * random fine one, gathered from the ranks; zeros outside the owned
 * elements after them.  n (even) per direction, random degrees of the fine
 * level, the coarse level's from its children (the lowest); a rank whose
 * coarse block would be empty skips the case (dg_mg does not coarsen
 * there). */
static void run_transfer(const dg_backend *be, dg_comm *c, const char *name, int dim,
                         const int n[3], const int bc[3], int rmax) {
  dg_backend rbe = *be;
  rbe.comm = c;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 1};
  dg_grid g, gc;
  int nc[3];
  for (int d = 0; d < 3; ++d) nc[d] = d < dim ? n[d] / 2 : 1;
  OK(dg_grid_init(&g, dim, n, lo, hi));
  OK(dg_grid_init(&gc, dim, nc, lo, hi));
  dg_degree_map *m;
  OK(dg_degree_map_create_random(&m, &g, 1, rmax, 11));
  uint8_t *dc = malloc((size_t)gc.nelem);
  if (!dc) exit(1);
  for (long e = 0; e < gc.nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(&gc, e, ijk);
    dc[e] = DG_MAX_DEGREE;
    for (int q = 0; q < (dim == 3 ? 8 : 4); ++q) {
      const long ef = dg_grid_elem(&g, 2 * ijk[0] + (q & 1), 2 * ijk[1] + ((q >> 1) & 1),
                                   dim == 3 ? 2 * ijk[2] + (q >> 2) : 0);
      if (m->deg[ef] < dc[e]) dc[e] = m->deg[ef];
    }
  }
  dg_sop_params p = dg_sop_default_params();
  for (int d = 0; d < 3; ++d) p.bc[d] = bc[d];
  dg_partition *part;
  OK(dg_partition_create(&part, &g, m, dg_comm_size(c), NULL));
  dg_spart *sp, *spc;
  OK(dg_spart_create(&sp, c, part, &g, &p));
  if (dg_spart_coarse_extent(sp) < 1) {
    if (dg_comm_rank(c) == 0)
      printf("%s: %d ranks: a coarse block is empty, skipped\n", name, dg_comm_size(c));
    dg_spart_destroy(&sp);
    dg_partition_destroy(&part);
    dg_degree_map_destroy(&m);
    free(dc);
    return;
  }
  OK(dg_spart_create_coarse(&spc, sp, &p));
  dg_sop *GF, *GC, *LF, *LC;
  OK(dg_sop_create(&GF, be, &g, m->deg, &p));
  OK(dg_sop_create(&GC, be, &gc, dc, &p));
  OK(dg_sop_create_part(&LF, &rbe, sp, m->deg, m->deg));
  OK(dg_sop_create_part(&LC, &rbe, spc, dc, dc));
  OK(dg_sop_part_corners(LF));
  OK(dg_sop_part_corners(LC));
  const long nf = dg_sop_len(GF), ncg = dg_sop_len(GC);
  const long lf = dg_sop_len(LF), lc = dg_sop_len(LC);
  const size_t fb = sizeof(double) * (size_t)nf, cb = sizeof(double) * (size_t)ncg;
  double *hf = malloc(fb), *hc = malloc(cb), *rf = malloc(fb), *rc = malloc(cb);
  double *xf = dg_svec_alloc(be, fb), *xc = dg_svec_alloc(be, cb);
  double *yf = dg_svec_alloc(&rbe, sizeof(double) * (size_t)lf);
  double *yc = dg_svec_alloc(&rbe, sizeof(double) * (size_t)lc);
  if (!hf || !hc || !rf || !rc || !xf || !xc || !yf || !yc) exit(1);
  uint64_t s = 1234567ULL;
  for (long i = 0; i < nf; ++i) hf[i] = rnd(&s);
  for (long i = 0; i < ncg; ++i) hc[i] = rnd(&s);
  /* restriction */
  OK(dg_svec_to_device(be, xf, hf, fb));
  OK(dg_sop_scatter_d(LF, hf, yf));
  OK(dg_sop_restrict_d(GF, GC, 0, xf, xc));
  OK(dg_sop_restrict_d(LF, LC, 0, yf, yc));
  OK(dg_svec_sync(&rbe));
  CHECK(ghosts_zero(LF, yf) && ghosts_zero(LC, yc), "%s: non-zero ghost slots (restriction)", name);
  OK(dg_sop_gather_d(LC, yc, rc));
  OK(dg_svec_to_host(be, hc, xc, cb));
  CHECK(memcmp(rc, hc, cb) == 0, "%s: the restriction across ranks is not one process's", name);
  /* prolongation, added */
  for (long i = 0; i < ncg; ++i) hc[i] = rnd(&s);
  OK(dg_svec_to_device(be, xf, hf, fb));
  OK(dg_sop_scatter_d(LF, hf, yf));
  OK(dg_svec_to_device(be, xc, hc, cb));
  OK(dg_sop_scatter_d(LC, hc, yc));
  OK(dg_sop_prolong_add_d(GF, GC, 0, xc, xf));
  OK(dg_sop_prolong_add_d(LF, LC, 0, yc, yf));
  OK(dg_svec_sync(&rbe));
  CHECK(ghosts_zero(LF, yf) && ghosts_zero(LC, yc), "%s: non-zero ghost slots (prolongation)",
        name);
  OK(dg_sop_gather_d(LF, yf, rf));
  OK(dg_svec_to_host(be, hf, xf, fb));
  CHECK(memcmp(rf, hf, fb) == 0, "%s: the prolongation across ranks is not one process's", name);
  if (dg_comm_rank(c) == 0)
    printf("%s: %d ranks, %ld fine and %ld coarse unknowns, both transfers bitwise one process's\n",
           name, dg_comm_size(c), nf, ncg);
  dg_svec_free(be, xf);
  dg_svec_free(be, xc);
  dg_svec_free(&rbe, yf);
  dg_svec_free(&rbe, yc);
  free(hf);
  free(hc);
  free(rf);
  free(rc);
  free(dc);
  dg_sop_destroy(&LF);
  dg_sop_destroy(&LC);
  dg_sop_destroy(&GF);
  dg_sop_destroy(&GC);
  dg_spart_destroy(&spc);
  dg_spart_destroy(&sp);
  dg_partition_destroy(&part);
  dg_degree_map_destroy(&m);
}

/* The vertex patches (solvers/dg_spatch.h) of a uniform level of degree r
 * with a mass term: z = sum_p R_p^T A_p^-1 R_p r of the same random whole
 * vector on the ranks, gathered, against one process's to the bit (a rank
 * computes every patch with an owned element, in the whole grid's colour
 * order), and zeros outside the owned elements (r's ghost slots too). */
static void run_patch(const dg_backend *be, dg_comm *c, const char *name, int dim, const int n[3],
                      const int bc[3], int r) {
  if (!dg_spatch_on_ranks(be)) {
    if (dg_comm_rank(c) == 0) printf("%s: the backend's patches do not run across ranks\n", name);
    return;
  }
  dg_backend rbe = *be;
  rbe.comm = c;
  op_pair q;
  pair_create(&q, be, &rbe, c, dim, n, bc, r, r);
  dg_sop *G = q.G, *L = q.L;
  dg_spatch *PG, *PL;
  OK(dg_spatch_create(&PG, G));
  OK(dg_spatch_create(&PL, L));
  const long ng = dg_sop_len(G), nl = dg_sop_len(L);
  const size_t gb = sizeof(double) * (size_t)ng;
  double *rh = malloc(gb), *zh = malloc(gb), *zr = malloc(gb);
  double *rg = dg_svec_alloc(be, gb), *zg = dg_svec_alloc(be, gb);
  double *rl = dg_svec_alloc(&rbe, sizeof(double) * (size_t)nl);
  double *zl = dg_svec_alloc(&rbe, sizeof(double) * (size_t)nl);
  if (!rh || !zh || !zr || !rg || !zg || !rl || !zl) exit(1);
  uint64_t s = 7046029254386353131ULL; /* the same on every rank */
  for (long i = 0; i < ng; ++i) rh[i] = rnd(&s);
  OK(dg_svec_to_device(be, rg, rh, gb));
  OK(dg_spatch_apply_d(PG, rg, zg));
  OK(dg_sop_scatter_d(L, rh, rl));
  OK(dg_spatch_apply_d(PL, rl, zl));
  OK(dg_svec_sync(&rbe));
  CHECK(ghosts_zero(L, rl) && ghosts_zero(L, zl), "%s: non-zero ghost slots after the patches",
        name);
  OK(dg_sop_gather_d(L, zl, zr));
  OK(dg_svec_to_host(be, zh, zg, gb));
  const int same = memcmp(zr, zh, gb) == 0;
  CHECK(same, "%s: the patches across ranks are not one process's", name);
  if (same && dg_comm_rank(c) == 0)
    printf("%s: %d ranks, %ld patches of the whole grid, bitwise one process's\n", name,
           dg_comm_size(c), dg_spatch_npatches(PG));
  dg_svec_free(be, rg);
  dg_svec_free(be, zg);
  dg_svec_free(&rbe, rl);
  dg_svec_free(&rbe, zl);
  free(rh);
  free(zh);
  free(zr);
  dg_spatch_destroy(&PL);
  dg_spatch_destroy(&PG);
  pair_destroy(&q);
}

/* A backend whose driver does not run a rank's patches (as CUDA's): the
 * multigrid with the patch smoother refuses on a rank's operator, with one
 * message, and builds on one process's. */
static void run_patch_refusal(const dg_backend *be, dg_comm *c) {
  dg_solver_ops sops = *be->ops->solver;
  sops.patch_on_ranks = 0;
  dg_backend_ops bops = *be->ops;
  bops.solver = &sops;
  dg_backend nbe = *be, rbe = *be;
  nbe.ops = rbe.ops = &bops;
  rbe.comm = c;
  const int n[3] = {8, 8, 1}, bc[3] = {DG_SBC_DIRICHLET, DG_SBC_DIRICHLET, DG_SBC_DIRICHLET};
  op_pair q;
  pair_create(&q, &nbe, &rbe, c, 2, n, bc, 2, 2);
  dg_mg_opts o = dg_mg_default_opts();
  o.smoother = DG_MG_PATCH;
  dg_mg *mg = NULL;
  OK(dg_mg_create(&mg, q.G, &o));
  dg_mg_destroy(&mg);
  const int rc = dg_mg_create(&mg, q.L, &o);
  const char *want = "dg_mg_create: the vertex patches do not run across ranks on this backend yet";
  CHECK(rc == DG_ERR_ARG && !strcmp(dg_error_message(), want), "patch refusal: %d '%s'", rc,
        dg_error_message());
  dg_mg_destroy(&mg);
  pair_destroy(&q);
}

/* A case on be and on cbe (copied views): x'Ax the same to the bit. */
static void run_both(const dg_backend *be, const dg_backend *cbe, dg_comm *c, const char *name,
                     int dim, const int n[3], const int bc[3], int rmin, int rmax) {
  const double d0 = run_case(be, c, name, dim, n, bc, rmin, rmax);
  const double d1 = run_case(cbe, c, name, dim, n, bc, rmin, rmax);
  CHECK(d0 == d1, "%s: x'Ax %.17g with copied views, %.17g without", name, d1, d0);
}

int main(int argc, char **argv) {
  dg_comm *c;
  if (dg_comm_create_world(&c, &argc, &argv) != 0) {
    printf("FAIL: %s\n", dg_error_message());
    return 1;
  }
  const int want = argc > 1 ? atoi(argv[1]) : 1;
  CHECK(dg_comm_size(c) == want, "%d ranks, mpirun started %d", dg_comm_size(c), want);
  const int n2[3] = {9, 7, 1}, bc2[3] = {DG_SBC_PERIODIC, DG_SBC_DIRICHLET, DG_SBC_PERIODIC};
  const dg_backend *be = dg_test_backend();
  dg_backend_ops cops = *be->ops; /* host copies for views, as on CUDA */
  cops.host_is_device = 0;
  dg_backend cbe = *be;
  cbe.ops = &cops;
  run_both(be, &cbe, c, "2D periodic x, Dirichlet y", 2, n2, bc2, 1, 3);
  const int n3[3] = {5, 4, 3}, bc3[3] = {DG_SBC_PERIODIC, DG_SBC_PERIODIC, DG_SBC_PERIODIC};
  run_both(be, &cbe, c, "3D periodic", 3, n3, bc3, 1, 2);
  const int nt[3] = {2, 2, 1}, bct[3] = {DG_SBC_PERIODIC, DG_SBC_PERIODIC, DG_SBC_PERIODIC};
  run_both(be, &cbe, c, "2D periodic, 2 x 2 elements", 2, nt, bct, 2, 3);
  /* the transfers by agglomeration: odd block boundaries (22 on 3 ranks),
     a periodic wrap across ranks, 3D */
  const int nh[3] = {22, 10, 1}, bch[3] = {DG_SBC_DIRICHLET, DG_SBC_PERIODIC, DG_SBC_PERIODIC};
  run_transfer(be, c, "transfers 2D", 2, nh, bch, 3);
  const int nh3[3] = {6, 8, 6}, bch3[3] = {DG_SBC_PERIODIC, DG_SBC_DIRICHLET, DG_SBC_PERIODIC};
  run_transfer(be, c, "transfers 3D", 3, nh3, bch3, 2);
  /* the vertex patches: an odd periodic direction (three colours) wrapped
     across ranks, odd block boundaries, 3D */
  run_patch(be, c, "patches 2D", 2, n2, bc2, 2);
  const int np3[3] = {5, 4, 3}, bcp3[3] = {DG_SBC_PERIODIC, DG_SBC_DIRICHLET, DG_SBC_PERIODIC};
  run_patch(be, c, "patches 3D", 3, np3, bcp3, 1);
  run_patch_refusal(be, c);
  /* every rank's verdict: the exit status of the job is any rank's */
  double bad = dg_test_failures, worst = bad;
  OK(dg_comm_allreduce_max(c, &bad, &worst, 1));
  const int status = worst > 0 ? 1 : (dg_comm_rank(c) == 0 ? dg_test_done("mpi.spart") : 0);
  dg_comm_destroy(&c);
  return status;
}
