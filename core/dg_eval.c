/* dg_eval.c - host-side projection, sampling and norms (sum-factorised). */
#include "dg_eval.h"

#include "dg_arg.h"
#include "dg_disc_internal.h"
#include "dg_error.h"
#include "dg_quadrature.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN (DG_MAX_Q + 8)
#define MAXP (MAXN * MAXN * MAXN)

static long ipow(long b, int e) {
  long p = 1;
  for (int i = 0; i < e; ++i) p *= b;
  return p;
}

/* Contract `in` (extents n0,n1,n2) along dir with T (T[a*ld + k], a mode,
 * k point): to_points maps modes to points, otherwise points to modes. */
static void contract(const double *in, double *out, int n0, int n1, int n2, int dir, int nout,
                     const double *T, int ld, int to_points) {
  const int nin = dir == 0 ? n0 : (dir == 1 ? n1 : n2);
  const int npre = dir == 0 ? 1 : (dir == 1 ? n0 : n0 * n1);
  const int npost = dir == 0 ? n1 * n2 : (dir == 1 ? n2 : 1);
  for (int ip = 0; ip < npost; ++ip)
    for (int k = 0; k < nout; ++k)
      for (int i = 0; i < npre; ++i) {
        double acc = 0;
        for (int a = 0; a < nin; ++a)
          acc += in[i + npre * (a + nin * ip)] * (to_points ? T[a * ld + k] : T[k * ld + a]);
        out[i + npre * (k + nout * ip)] = acc;
      }
}

/* Tensor apply along all dims, dim t through its own table T[t]: in has
 * extents n^dim, out m^dim. */
static void tensor_dims(int dim, const double *in, double *out, int n, int m,
                        const double *const T[3], int ld, int to_points) {
  double t1[MAXP], t2[MAXP];
  if (dim == 2) {
    contract(in, t1, n, n, 1, 0, m, T[0], ld, to_points);
    contract(t1, out, m, n, 1, 1, m, T[1], ld, to_points);
  } else {
    contract(in, t1, n, n, n, 0, m, T[0], ld, to_points);
    contract(t1, t2, m, n, n, 1, m, T[1], ld, to_points);
    contract(t2, out, m, m, n, 2, m, T[2], ld, to_points);
  }
}

/* Tensor apply along all dims with one table T. */
static void tensor(int dim, const double *in, double *out, int n, int m, const double *T, int ld,
                   int to_points) {
  const double *const Ts[3] = {T, T, T};
  tensor_dims(dim, in, out, n, m, Ts, ld, to_points);
}

int dg_element_coeffs(const dg_disc *d, dg_field *f, long e, double *out) {
  DG_ARG_CHECK(dg_arg_field("dg_element_coeffs", d, f, "f"));
  DG_ARG_CHECK(dg_arg_elem("dg_element_coeffs", d, e));
  DG_ARG_NONNULL("dg_element_coeffs", out);
  DG_CALL(dg_field_to_host(f));
  const int r = dg_disc_degrees(d)->deg[e], nv = dg_disc_nvar(d);
  const long M = ipow(r + 1, dg_disc_grid(d)->dim);
  for (int v = 0; v < nv; ++v)
    for (long m = 0; m < M; ++m) out[v * M + m] = (double)f->h[dg_disc_index(d, e, v, (int)m)];
  return 0;
}

int dg_element_set_coeffs(const dg_disc *d, dg_field *f, long e, const double *in) {
  DG_ARG_CHECK(dg_arg_field("dg_element_set_coeffs", d, f, "f"));
  DG_ARG_CHECK(dg_arg_elem("dg_element_set_coeffs", d, e));
  DG_ARG_NONNULL("dg_element_set_coeffs", in);
  DG_CALL(dg_field_to_host(f));
  const int r = dg_disc_degrees(d)->deg[e], nv = dg_disc_nvar(d);
  const long M = ipow(r + 1, dg_disc_grid(d)->dim);
  for (int v = 0; v < nv; ++v)
    for (long m = 0; m < M; ++m) f->h[dg_disc_index(d, e, v, (int)m)] = (dg_real)in[v * M + m];
  dg_field_host_modified(f);
  return 0;
}

/* Element geometry: physical point of reference point (xi) in element e. */
static void phys(const dg_grid *g, const int ijk[3], const double *xi, double *x) {
  for (int t = 0; t < 3; ++t)
    x[t] = t < g->dim ? g->lo[t] + (ijk[t] + 0.5) * g->h[t] + 0.5 * g->h[t] * xi[t] : 0.0;
}

int dg_project(const dg_disc *d, dg_field *f, dg_point_fn fn, void *ctx) {
  DG_ARG_CHECK(dg_arg_field("dg_project", d, f, "f"));
  DG_ARG_NONNULL("dg_project", fn);
  const dg_grid *g = dg_disc_grid(d);
  const dg_basis *B = dg_disc_basis(d);
  const int dim = g->dim, q = B->q, nv = dg_disc_nvar(d);
  DG_CALL(dg_field_to_host(f));
  double xq[DG_MAX_Q], P[DG_MAX_Q * DG_MAX_Q], w[DG_MAX_Q];
  for (int k = 0; k < q; ++k) {
    xq[k] = (double)B->x[k];
    w[k] = (double)B->w[k];
  }
  DG_CALL(dg_legendre_table(q - 1, q, xq, P, NULL));
  const long NP = ipow(q, dim);
  double *vals = malloc(sizeof(double) * (size_t)NP), *c = malloc(sizeof(double) * MAXP);
  if (!vals || !c) {
    free(vals);
    free(c);
    return dg_error(DG_ERR_MEM, "projection: out of memory");
  }
  const int sphere = g->kind == DG_GRID_LATLON;
  double winv[(DG_MAX_DEGREE + 1) * (DG_MAX_DEGREE + 1)];
  int rc = 0;
  for (long e = 0; e < g->nelem && !rc; ++e) {
    if (!dg_disc_counts(d, e)) continue; /* a rank's ghosts come from their owners */
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    const int r = dg_disc_degrees(d)->deg[e], N = r + 1;
    const long M = ipow(N, dim);
    /* the sphere: c = M_e^-1 b with the weight cos(theta) in b and the
       row's exact inverse W_{j,r}^-1 in the theta index (the stages' mass) */
    if (sphere && (rc = dg_grid_row_winv(g, ijk[1], r, q, xq, w, winv))) break;
    for (int v = 0; v < nv; ++v) {
      for (long p = 0; p < NP; ++p) {
        const int k[3] = {(int)(p % q), (int)((p / q) % q), (int)(p / ((long)q * q))};
        double xi[3] = {xq[k[0]], xq[k[1]], dim == 3 ? xq[k[2]] : 0}, x[3];
        phys(g, ijk, xi, x);
        double wt = w[k[0]] * w[k[1]] * (dim == 3 ? w[k[2]] : 1.0);
        if (sphere) wt *= cos(x[1]);
        vals[p] = wt * fn(x, v, ctx);
      }
      tensor(dim, vals, c, q, N, P, q, 0);
      if (sphere) {
        for (int a = 0; a < N; ++a)
          for (int b = 0; b < N; ++b) {
            double s = 0;
            for (int bb = 0; bb < N; ++bb) s += winv[b * N + bb] * c[a + N * bb];
            f->h[dg_disc_index(d, e, v, a + N * b)] = (dg_real)((2 * a + 1) / 2.0 * s);
          }
        continue;
      }
      for (long m = 0; m < M; ++m) {
        const int a = (int)(m % N), b = (int)((m / N) % N), cc = (int)(m / ((long)N * N));
        double s = (2 * a + 1) * (2 * b + 1) / 4.0;
        if (dim == 3) s *= (2 * cc + 1) / 2.0;
        f->h[dg_disc_index(d, e, v, (int)m)] = (dg_real)(s * c[m]);
      }
    }
  }
  free(vals);
  free(c);
  dg_field_host_modified(f);
  return rc;
}

typedef struct {
  const dg_model *m;
  double t;
  int known;
} solution_ctx;

static double solution_fn(const double x[3], int v, void *ctx) {
  solution_ctx *c = (solution_ctx *)ctx;
  double u[DG_MAX_NVAR];
  if (!dg_model_solution(c->m, x, c->t, u)) {
    c->known = 0;
    return 0;
  }
  return u[v];
}

int dg_project_solution(const dg_disc *d, dg_field *f, double t) {
  DG_ARG_CHECK(dg_arg_field("dg_project_solution", d, f, "f"));
  DG_ARG_CHECK(dg_arg_finite("dg_project_solution", "t", t));
  solution_ctx c = {dg_disc_model(d), t, 1};
  DG_CALL(dg_project(d, f, solution_fn, &c));
  if (!c.known)
    return dg_error(DG_ERR_ARG, "model %s: its solution at t = %g is not known", dg_model_name(c.m),
                    t);
  return 0;
}

/* The values of element e at the np^dim tensor points of the Legendre table
 * P (np points, degrees up to rmax): out[p * nvar + v], points x-fastest. */
static void sample_elem(const dg_disc *d, const dg_field *f, long e, int np, const double *P,
                        double *out) {
  const int dim = dg_disc_grid(d)->dim, nv = dg_disc_nvar(d), r = dg_disc_degrees(d)->deg[e];
  const long M = ipow(r + 1, dim), NP = ipow(np, dim);
  double c[DG_MAX_Q * DG_MAX_Q * DG_MAX_Q], val[MAXP];
  for (int v = 0; v < nv; ++v) {
    for (long m = 0; m < M; ++m) c[m] = (double)f->h[dg_disc_index(d, e, v, (int)m)];
    tensor(dim, c, val, r + 1, np, P, np, 1);
    for (long p = 0; p < NP; ++p) out[p * nv + v] = val[p];
  }
}

/* dg_sample and dg_sample_own: element e's values at out + e * NP * nvar,
 * or with `packed` at the next NP * nvar of the counted ones. */
static int sample(const char *fn, const dg_disc *d, dg_field *f, int np, const double *x1d,
                  double *out, int packed) {
  DG_ARG_CHECK(dg_arg_field(fn, d, f, "f"));
  DG_ARG_NONNULL(fn, x1d);
  DG_ARG_NONNULL(fn, out);
  const dg_grid *g = dg_disc_grid(d);
  const int nv = dg_disc_nvar(d), rmax = dg_disc_degrees(d)->rmax;
  if (np < 1 || np > MAXN) return dg_error(DG_ERR_ARG, "sample: %d points, need 1..%d", np, MAXN);
  DG_CALL(dg_field_to_host(f));
  double P[(DG_MAX_DEGREE + 1) * MAXN];
  DG_CALL(dg_legendre_table(rmax, np, x1d, P, NULL));
  const long NP = ipow(np, g->dim);
  long i = 0;
  for (long e = 0; e < g->nelem; ++e)
    if (dg_disc_counts(d, e)) sample_elem(d, f, e, np, P, out + (packed ? i++ : e) * NP * nv);
  return 0;
}

int dg_sample(const dg_disc *d, dg_field *f, int np, const double *x1d, double *out) {
  return sample("dg_sample", d, f, np, x1d, out, 0);
}

int dg_sample_own(const dg_disc *d, dg_field *f, int np, const double *x1d, double *out) {
  return sample("dg_sample_own", d, f, np, x1d, out, 1);
}

/* Exact sums over the ranks of the counted elements' terms (dg_xsum: the
 * same bits for any number of ranks and in one process). */
static int reduce_sums(const dg_disc *d, dg_xsum *s, int n) {
  dg_comm *c = dg_disc_comm(d);
  return c ? dg_comm_allreduce_xsum(c, s, n) : 0;
}

/* Maxima over the ranks (exact; a NaN on one rank is a NaN on all). */
static int reduce_max(const dg_disc *d, double *x, int n) {
  dg_comm *c = dg_disc_comm(d);
  return c ? dg_comm_allreduce_max(c, x, x, n) : 0;
}

/* Sums of the errors of each variable against the model's solution at t:
 * integrals of |e|, e^2, |exact|, exact^2 and the largest |e| and |exact|,
 * with qe Gauss points per direction (the box: Q + 3; the sphere: 8, and the
 * area weight a^2 cos(theta)).  Returns 0 with *known 0 where the solution
 * is not known at t. */
typedef struct {
  double e1[DG_MAX_NVAR], e2[DG_MAX_NVAR], x1[DG_MAX_NVAR], x2[DG_MAX_NVAR];
  double emax[DG_MAX_NVAR], xmax[DG_MAX_NVAR];
} error_sums;

static int error_sums_of(const dg_disc *d, dg_field *f, double t, error_sums *es, int *known) {
  const dg_grid *g = dg_disc_grid(d);
  const dg_model *md = dg_disc_model(d);
  const int nv = dg_disc_nvar(d), sphere = g->kind == DG_GRID_LATLON;
  memset(es, 0, sizeof *es);
  {
    double x0[3] = {g->lo[0], g->lo[1], g->lo[2]}, u0[DG_MAX_NVAR];
    *known = dg_model_solution(md, x0, t, u0);
    if (!*known) return 0;
  }
  DG_CALL(dg_field_to_host(f));
  const int dim = g->dim, qe = sphere ? 8 : dg_disc_q(d) + 3, rmax = dg_disc_degrees(d)->rmax;
  double xe[MAXN], we[MAXN], P[(DG_MAX_DEGREE + 1) * MAXN];
  DG_CALL(dg_gauss_legendre(qe, xe, we));
  DG_CALL(dg_legendre_table(rmax, qe, xe, P, NULL));
  const long NP = ipow(qe, dim);
  double *vals = malloc(sizeof(double) * (size_t)(NP * nv));
  dg_xsum *sum = malloc(sizeof *sum * 4 * (size_t)nv); /* e1, e2, x1, x2 of each variable */
  if (!vals || !sum) {
    free(vals);
    free(sum);
    return dg_error(DG_ERR_MEM, "error norms: out of memory");
  }
  for (int i = 0; i < 4 * nv; ++i) dg_xsum_init(&sum[i]);
  double jac = g->h[0] * g->h[1] * (dim == 3 ? g->h[2] : 1.0) / (dim == 3 ? 8.0 : 4.0);
  if (sphere) jac *= g->radius * g->radius;
  double ex[DG_MAX_NVAR];
  for (long e = 0; e < g->nelem; ++e) {
    if (!dg_disc_counts(d, e)) continue;
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    sample_elem(d, f, e, qe, P, vals);
    for (long p = 0; p < NP; ++p) {
      const int k[3] = {(int)(p % qe), (int)((p / qe) % qe), (int)(p / ((long)qe * qe))};
      double xi[3] = {xe[k[0]], xe[k[1]], dim == 3 ? xe[k[2]] : 0}, x[3];
      phys(g, ijk, xi, x);
      double wt = we[k[0]] * we[k[1]] * (dim == 3 ? we[k[2]] : 1.0) * jac;
      if (sphere) wt *= cos(x[1]);
      dg_model_solution(md, x, t, ex);
      for (int v = 0; v < nv; ++v) {
        const double err = vals[p * nv + v] - ex[v];
        dg_xsum_add(&sum[4 * v], wt * fabs(err));
        dg_xsum_add(&sum[4 * v + 1], wt * err * err);
        dg_xsum_add(&sum[4 * v + 2], wt * fabs(ex[v]));
        dg_xsum_add(&sum[4 * v + 3], wt * ex[v] * ex[v]);
        if (fabs(err) > es->emax[v] || err != err) es->emax[v] = fabs(err);
        if (fabs(ex[v]) > es->xmax[v]) es->xmax[v] = fabs(ex[v]);
      }
    }
  }
  free(vals);
  int rc = reduce_sums(d, sum, 4 * nv);
  if (!rc) rc = reduce_max(d, es->emax, nv);
  if (!rc) rc = reduce_max(d, es->xmax, nv);
  for (int v = 0; v < nv && !rc; ++v) {
    es->e1[v] = dg_xsum_value(&sum[4 * v]);
    es->e2[v] = dg_xsum_value(&sum[4 * v + 1]);
    es->x1[v] = dg_xsum_value(&sum[4 * v + 2]);
    es->x2[v] = dg_xsum_value(&sum[4 * v + 3]);
  }
  free(sum);
  return rc;
}

int dg_error_norms(const dg_disc *d, dg_field *f, double t, double *l2, double *linf) {
  DG_ARG_CHECK(dg_arg_field("dg_error_norms", d, f, "f"));
  DG_ARG_CHECK(dg_arg_finite("dg_error_norms", "t", t));
  DG_ARG_NONNULL("dg_error_norms", l2);
  DG_ARG_NONNULL("dg_error_norms", linf);
  error_sums es;
  int known;
  DG_CALL(error_sums_of(d, f, t, &es, &known));
  for (int v = 0; v < dg_disc_nvar(d); ++v) {
    l2[v] = known ? sqrt(es.e2[v]) : NAN;
    linf[v] = known ? es.emax[v] : NAN;
  }
  return 0;
}

int dg_error_norms_rel(const dg_disc *d, dg_field *f, double t, double *l1, double *l2,
                       double *linf) {
  DG_ARG_CHECK(dg_arg_field("dg_error_norms_rel", d, f, "f"));
  DG_ARG_CHECK(dg_arg_finite("dg_error_norms_rel", "t", t));
  DG_ARG_NONNULL("dg_error_norms_rel", l1);
  DG_ARG_NONNULL("dg_error_norms_rel", l2);
  DG_ARG_NONNULL("dg_error_norms_rel", linf);
  error_sums es;
  int known;
  DG_CALL(error_sums_of(d, f, t, &es, &known));
  for (int v = 0; v < dg_disc_nvar(d); ++v) {
    l1[v] = known ? es.e1[v] / es.x1[v] : NAN;
    l2[v] = known ? sqrt(es.e2[v]) / sqrt(es.x2[v]) : NAN;
    linf[v] = known ? es.emax[v] / es.xmax[v] : NAN;
  }
  return 0;
}

/* The sphere's mass: sum_e (dlam dth / 4) a^2 sum_k w_k cos(theta_k) 2 u_0(eta_k),
 * u_0 the lambda-mean (modes (0, b)) at the q Gauss points of the stages:
 * exactly 1^T M_e c, the quantity the update conserves. */
static int sphere_mass(const dg_disc *d, dg_field *f, double *mass) {
  const dg_grid *g = dg_disc_grid(d);
  const dg_basis *B = dg_disc_basis(d);
  const int q = B->q, rmax = dg_disc_degrees(d)->rmax;
  double xq[DG_MAX_Q], w[DG_MAX_Q], P[(DG_MAX_DEGREE + 1) * DG_MAX_Q];
  for (int k = 0; k < q; ++k) {
    xq[k] = (double)B->x[k];
    w[k] = (double)B->w[k];
  }
  DG_CALL(dg_legendre_table(rmax, q, xq, P, NULL));
  const double jac = g->h[0] * g->h[1] / 4 * g->radius * g->radius;
  const int nv = dg_disc_nvar(d);
  dg_xsum s[DG_MAX_NVAR];
  for (int v = 0; v < nv; ++v) {
    dg_xsum_init(&s[v]);
    for (long e = 0; e < g->nelem; ++e) {
      if (!dg_disc_counts(d, e)) continue;
      int ijk[3];
      dg_grid_ijk(g, e, ijk);
      const int N = dg_disc_degrees(d)->deg[e] + 1;
      for (int k = 0; k < q; ++k) {
        double u0 = 0;
        for (int b = 0; b < N; ++b)
          u0 += (double)f->h[dg_disc_index(d, e, v, N * b)] * P[b * q + k];
        dg_xsum_add(&s[v], 2 * w[k] * cos(dg_grid_theta(g, ijk[1], xq[k])) * u0);
      }
    }
  }
  DG_CALL(reduce_sums(d, s, nv));
  for (int v = 0; v < nv; ++v) mass[v] = dg_xsum_value(&s[v]) * jac;
  return 0;
}

int dg_mass(const dg_disc *d, dg_field *f, double *mass) {
  DG_ARG_CHECK(dg_arg_field("dg_mass", d, f, "f"));
  DG_ARG_NONNULL("dg_mass", mass);
  const dg_grid *g = dg_disc_grid(d);
  DG_CALL(dg_field_to_host(f));
  if (g->kind == DG_GRID_LATLON) return sphere_mass(d, f, mass);
  const double vol = g->h[0] * g->h[1] * (g->dim == 3 ? g->h[2] : 1.0);
  const int nv = dg_disc_nvar(d);
  dg_xsum s[DG_MAX_NVAR];
  for (int v = 0; v < nv; ++v) {
    dg_xsum_init(&s[v]);
    for (long e = 0; e < g->nelem; ++e)
      if (dg_disc_counts(d, e)) dg_xsum_add(&s[v], (double)f->h[dg_disc_index(d, e, v, 0)]);
  }
  DG_CALL(reduce_sums(d, s, nv));
  for (int v = 0; v < nv; ++v) mass[v] = dg_xsum_value(&s[v]) * vol;
  return 0;
}

int dg_integrals(const dg_disc *d, dg_field *f, double *out) {
  const dg_grid *g = dg_disc_grid(d);
  const dg_model *md = dg_disc_model(d);
  const int ni = dg_model_ninteg(md), nv = dg_disc_nvar(d), dim = g->dim;
  const int sphere = g->kind == DG_GRID_LATLON, naux = dg_model_naux(md);
  for (int i = 0; i < ni; ++i) out[i] = 0;
  if (ni == 0) return 0;
  if (ni > 16 || naux > 64) return dg_error(DG_ERR_ARG, "integrals: too many values");
  DG_CALL(dg_field_to_host(f));
  const int qe = sphere ? 8 : dg_disc_q(d) + 3, rmax = dg_disc_degrees(d)->rmax;
  double xe[MAXN], we[MAXN], P[(DG_MAX_DEGREE + 1) * MAXN], dP[3][(DG_MAX_DEGREE + 1) * MAXN];
  DG_CALL(dg_gauss_legendre(qe, xe, we));
  DG_CALL(dg_legendre_table(rmax, qe, xe, P, dP[0]));
  /* the derivative tables in physical units, one per direction (dP[0]
     last: the others are made from it unscaled) */
  for (int t = dim - 1; t >= 0; --t)
    for (int i = 0; i < (rmax + 1) * qe; ++i) dP[t][i] = dP[0][i] * 2 / g->h[t];
  const long NP = ipow(qe, dim);
  double jac = g->h[0] * g->h[1] * (dim == 3 ? g->h[2] : 1.0) / (dim == 3 ? 8.0 : 4.0);
  if (sphere) jac *= g->radius * g->radius;
  /* every variable's value and dim derivatives at the points, sum-factorised
     ((1 + dim) tensor applies a variable, not a sum over modes per point) */
  double *val = malloc(sizeof(double) * (size_t)(NP * nv * (1 + dim)));
  double *c = malloc(sizeof(double) * MAXP);
  if (!val || !c) {
    free(val);
    free(c);
    return dg_error(DG_ERR_MEM, "integrals: out of memory");
  }
  dg_xsum sum[16];
  for (int i = 0; i < ni; ++i) dg_xsum_init(&sum[i]);
  int rc = 0;
  for (long e = 0; e < g->nelem && !rc; ++e) {
    if (!dg_disc_counts(d, e)) continue;
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    const int N = dg_disc_degrees(d)->deg[e] + 1;
    const long M = ipow(N, dim);
    for (int v = 0; v < nv; ++v) {
      for (long m = 0; m < M; ++m) c[m] = (double)f->h[dg_disc_index(d, e, v, (int)m)];
      for (int s = 0; s <= dim; ++s) { /* s = 0 the value, s = 1 + t d/dx_t */
        const double *T[3] = {P, P, P};
        if (s) T[s - 1] = dP[s - 1];
        tensor_dims(dim, c, val + (s * nv + v) * NP, N, qe, T, qe, 1);
      }
    }
    for (long p = 0; p < NP && !rc; ++p) {
      const int k[3] = {(int)(p % qe), (int)((p / qe) % qe), (int)(p / ((long)qe * qe))};
      double xi[3] = {xe[k[0]], xe[k[1]], dim == 3 ? xe[k[2]] : 0}, x[3];
      phys(g, ijk, xi, x);
      double u[DG_MAX_NVAR], du[3 * DG_MAX_NVAR], aux[64], dens[16];
      for (int v = 0; v < nv; ++v) {
        u[v] = val[v * NP + p];
        for (int s = 0; s < dim; ++s) du[s * nv + v] = val[((s + 1) * nv + v) * NP + p];
      }
      if (naux && (rc = dg_model_aux(md, x, aux))) break;
      dg_model_integrand(md, x, u, du, naux ? aux : NULL, dens);
      double wt = we[k[0]] * we[k[1]] * (dim == 3 ? we[k[2]] : 1.0) * jac;
      if (sphere) wt *= cos(x[1]);
      for (int i = 0; i < ni; ++i) dg_xsum_add(&sum[i], wt * dens[i]);
    }
  }
  free(val);
  free(c);
  /* across ranks every rank learns of a failure before the collective sum,
     so that none waits in it for one that left */
  if (dg_disc_comm(d)) rc = dg_comm_agree(dg_disc_comm(d), rc);
  DG_CALL(rc);
  DG_CALL(reduce_sums(d, sum, ni));
  for (int i = 0; i < ni; ++i) out[i] = dg_xsum_value(&sum[i]);
  return 0;
}

int dg_check_finite(const dg_disc *d, dg_field *f) {
  DG_ARG_CHECK(dg_arg_field("dg_check_finite", d, f, "f"));
  const dg_grid *g = dg_disc_grid(d);
  const int nv = dg_disc_nvar(d);
  DG_CALL(dg_field_to_host(f));
  /* the first element in grid order, so that every number of ranks names
     the same one: the lowest over the ranks, an exact maximum of -e */
  long first = -1;
  for (long e = 0; e < g->nelem && first < 0; ++e) {
    if (!dg_disc_counts(d, e)) continue;
    const long M = ipow(dg_disc_degrees(d)->deg[e] + 1, g->dim);
    for (int v = 0; v < nv && first < 0; ++v)
      for (long m = 0; m < M && first < 0; ++m)
        if (!isfinite((double)f->h[dg_disc_index(d, e, v, (int)m)])) first = e;
  }
  double neg = first >= 0 ? -(double)first : -INFINITY;
  DG_CALL(reduce_max(d, &neg, 1));
  if (neg > -INFINITY) {
    char at[64];
    dg_grid_label(g, (long)-neg, at, sizeof at);
    return dg_error(DG_ERR_NUMERIC, "non-finite coefficient in element %s", at);
  }
  /* one process holds every slot: the rest is padding (a rank's block
     also holds ghosts, whose owners have looked at them) */
  for (long i = 0; !dg_disc_comm(d) && i < f->n; ++i)
    if (!isfinite((double)f->h[i]))
      return dg_error(DG_ERR_NUMERIC, "non-finite value in padding at index %ld", i);
  return 0;
}
