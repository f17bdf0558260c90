/* dg_sop_eval.c - host-side setup and diagnostics of solver vectors: load
 * vectors, L2 projection and L2 errors of point functions (Gauss-Legendre
 * with r+3 points per direction, sum-factorised per element). */
#include "dg_sop_internal.h"

#include "dg_comm.h"
#include "dg_error.h"
#include "dg_spart.h"
#include "dg_svec.h"
#include "dg_quadrature.h"

#include <math.h>
#include <stdlib.h>

#define NQX (DG_MAX_DEGREE + 4)
#define NQ3 (NQX * NQX * NQX)

typedef struct {
  int q;
  double x[NQX], w[NQX];
  double P[(DG_MAX_DEGREE + 1) * NQX]; /* P[a*q + k] */
} rule1d;

static int rules_build(rule1d *R) {
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    R[r].q = r + 3;
    DG_CALL(dg_gauss_legendre(R[r].q, R[r].x, R[r].w));
    DG_CALL(dg_legendre_table(r, R[r].q, R[r].x, R[r].P, NULL));
  }
  return 0;
}

/* out[k..] = sum_a P[a][k] in[a..] along dir (modes -> points) or its
 * transpose weighted (points -> modes, tw = 1); extents n[3] in, changed. */
static void contract(const double *in, double *out, int n[3], int dir, int nout, const rule1d *R,
                     int to_points) {
  const int nin = n[dir];
  const int npre = dir == 0 ? 1 : (dir == 1 ? n[0] : n[0] * n[1]);
  const int npost = dir == 0 ? n[1] * n[2] : (dir == 1 ? n[2] : 1);
  for (int ip = 0; ip < npost; ++ip)
    for (int k = 0; k < nout; ++k)
      for (int i = 0; i < npre; ++i) {
        double acc = 0;
        for (int a = 0; a < nin; ++a) {
          const double t = to_points ? R->P[a * R->q + k] : R->P[k * R->q + a] * R->w[a];
          acc += in[i + npre * (a + nin * ip)] * t;
        }
        out[i + npre * (k + nout * ip)] = acc;
      }
  n[dir] = nout;
}

static void points(const dg_grid *g, long e, const rule1d *R, double *xs /* [3][NQX] */) {
  int ijk[3];
  dg_grid_ijk(g, e, ijk);
  for (int d = 0; d < 3; ++d)
    for (int k = 0; k < R->q; ++k)
      xs[d * NQX + k] =
          d < g->dim ? g->lo[d] + (ijk[d] + 0.5) * g->h[d] + 0.5 * g->h[d] * R->x[k] : 0.0;
}

/* The bytes of a vector of op. */
static size_t vec_bytes(const dg_sop *op) { return sizeof(double) * (size_t)op->len; }

/* dg_sop_load into host memory b. */
static int load_host(const dg_sop *op, dg_sfn f, void *ctx, double *b) {
  rule1d R[DG_MAX_DEGREE + 1];
  DG_CALL(rules_build(R));
  const dg_grid *g = &op->g;
  const int dim = g->dim;
  double vol = 1;
  for (int d = 0; d < dim; ++d) vol *= g->h[d] / 2;
#pragma omp parallel for schedule(dynamic, 64)
  for (long e = 0; e < g->nelem; ++e) {
    const int r = op->deg[e];
    const rule1d *Rr = &R[r];
    const int q = Rr->q, q2 = dim == 3 ? q : 1;
    double xs[3 * NQX], F[NQ3], T1[NQ3];
    points(g, e, Rr, xs);
    for (int k2 = 0; k2 < q2; ++k2)
      for (int k1 = 0; k1 < q; ++k1)
        for (int k0 = 0; k0 < q; ++k0) {
          const double x[3] = {xs[k0], xs[NQX + k1], xs[2 * NQX + k2]};
          F[k0 + q * (k1 + q * k2)] = vol * f(x, ctx);
        }
    int n[3] = {q, q, q2};
    double *out = b + op->off[e];
    if (dim == 2) {
      contract(F, T1, n, 0, r + 1, Rr, 0);
      contract(T1, out, n, 1, r + 1, Rr, 0);
    } else {
      contract(F, T1, n, 0, r + 1, Rr, 0);
      contract(T1, F, n, 1, r + 1, Rr, 0);
      contract(F, out, n, 2, r + 1, Rr, 0);
    }
  }
  dg_sop_part_clear_host_d(op, b); /* a rank's vectors: zero outside its elements */
  return 0;
}

/* The host builds b (every coefficient) in a view of solver memory: a copy
   on the CUDA backend, sent once. */
int dg_sop_load(const dg_sop *op, dg_sfn f, void *ctx, double *b) {
  DG_CALL(dg_svec_sync(op->be)); /* no kernel may still use b */
  double *bh;
  DG_CALL(dg_svec_map(op->be, b, vec_bytes(op), DG_SVEC_WRITE, (void **)&bh));
  const int rc = load_host(op, f, ctx, bh);
  const int wrc = dg_svec_unmap(op->be, b, bh, vec_bytes(op), rc ? 0 : DG_SVEC_WRITE);
  return rc ? rc : wrc;
}

/* dg_sop_mass_d (host memory y). */
static void mass_host(const dg_sop *op, double *y) {
  const dg_grid *g = &op->g;
  const int dim = g->dim;
  double vol = 1;
  for (int d = 0; d < dim; ++d) vol *= g->h[d] / 2;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < g->nelem; ++e) {
    const int n = op->deg[e] + 1, n2 = dim == 3 ? n : 1;
    double *ye = y + op->off[e];
    for (int i2 = 0; i2 < n2; ++i2)
      for (int i1 = 0; i1 < n; ++i1)
        for (int i0 = 0; i0 < n; ++i0)
          ye[i0 + n * (i1 + n * i2)] =
              vol * op->tab_d.M[i0] * op->tab_d.M[i1] * (dim == 3 ? op->tab_d.M[i2] : 1.0);
  }
}

int dg_sop_mass_d(const dg_sop *op, double *y) {
  mass_host(op, y);
  return 0;
}

int dg_sop_project(const dg_sop *op, dg_sfn f, void *ctx, double *u) {
  const long n = dg_sop_len(op);
  double *m = malloc(sizeof(double) * (size_t)n), *uh = NULL;
  if (!m) return dg_error(DG_ERR_MEM, "dg_sop_project: out of memory (%ld reals)", n);
  int rc = dg_svec_sync(op->be);
  if (!rc) rc = dg_svec_map(op->be, u, vec_bytes(op), DG_SVEC_WRITE, (void **)&uh);
  if (!rc) rc = load_host(op, f, ctx, uh);
  if (!rc) {
    mass_host(op, m);
    for (long i = 0; i < n; ++i) uh[i] /= m[i];
  }
  const int wrc = dg_svec_unmap(op->be, u, uh, vec_bytes(op), rc ? 0 : DG_SVEC_WRITE);
  free(m);
  return rc ? rc : wrc;
}

/* dg_sop_l2_error of host memory u. */
static int l2_error_host(const dg_sop *op, const double *u, dg_sfn f, void *ctx, double *err) {
  rule1d R[DG_MAX_DEGREE + 1];
  DG_CALL(rules_build(R));
  const dg_grid *g = &op->g;
  const int dim = g->dim;
  double vol = 1, sum = 0;
  for (int d = 0; d < dim; ++d) vol *= g->h[d] / 2;
  /* a rank's operator sums its own elements, then over the ranks */
  const unsigned char *own = dg_sop_part(op) ? dg_spart_owned(dg_sop_part(op)) : NULL;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : sum)
  for (long e = 0; e < g->nelem; ++e) {
    if (own && !own[e]) continue;
    const int r = op->deg[e], nm = r + 1;
    const rule1d *Rr = &R[r];
    const int q = Rr->q, q2 = dim == 3 ? q : 1;
    double xs[3 * NQX], U[NQ3], T1[NQ3], T2[NQ3];
    points(g, e, Rr, xs);
    int n[3] = {nm, nm, dim == 3 ? nm : 1};
    const double *ue = u + op->off[e];
    const double *res;
    if (dim == 2) {
      contract(ue, T1, n, 0, q, Rr, 1);
      contract(T1, U, n, 1, q, Rr, 1);
      res = U;
    } else {
      contract(ue, T1, n, 0, q, Rr, 1);
      contract(T1, T2, n, 1, q, Rr, 1);
      contract(T2, U, n, 2, q, Rr, 1);
      res = U;
    }
    double s = 0;
    for (int k2 = 0; k2 < q2; ++k2)
      for (int k1 = 0; k1 < q; ++k1)
        for (int k0 = 0; k0 < q; ++k0) {
          const double x[3] = {xs[k0], xs[NQX + k1], xs[2 * NQX + k2]};
          const double dv = res[k0 + q * (k1 + q * k2)] - f(x, ctx);
          s += Rr->w[k0] * Rr->w[k1] * (dim == 3 ? Rr->w[k2] : 1.0) * dv * dv;
        }
    sum += vol * s;
  }
  if (own) DG_CALL(dg_comm_allreduce_sum(dg_spart_comm(dg_sop_part(op)), &sum, &sum, 1));
  if (!isfinite(sum)) return dg_error(DG_ERR_NUMERIC, "dg_sop_l2_error: the error is not finite");
  *err = sqrt(sum);
  return 0;
}

/* u comes to the host once (a copy on the CUDA backend). */
int dg_sop_l2_error(const dg_sop *op, const double *u, dg_sfn f, void *ctx, double *err) {
  DG_CALL(dg_svec_sync(op->be));
  double *uh;
  DG_CALL(dg_svec_map(op->be, u, vec_bytes(op), DG_SVEC_READ, (void **)&uh));
  const int rc = l2_error_host(op, uh, f, ctx, err);
  dg_svec_unmap(op->be, u, uh, vec_bytes(op), 0);
  return rc;
}
