/* dg_output.c - snapshots from fields, fields from snapshots. */
#include "dg_output.h"

#include "dg_arg.h"
#include "dg_disc_internal.h"
#include "dg_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long ipow(long b, int e) {
  long p = 1;
  for (int i = 0; i < e; ++i) p *= b;
  return p;
}

int dg_snapshot_from_field(dg_snapshot *s, const dg_disc *d, dg_field *u, double t, long step,
                           int view_s, int with_error) {
  DG_ARG_NONNULL("dg_snapshot_from_field", s);
  DG_ARG_CHECK(dg_arg_field("dg_snapshot_from_field", d, u, "u"));
  DG_ARG_CHECK(dg_arg_finite("dg_snapshot_from_field", "t", t));
  const dg_model *md = dg_disc_model(d);
  const dg_grid *g = dg_disc_grid(d);
  const dg_degree_map *m = dg_disc_degrees(d);
  const int dim = g->dim, nv = dg_disc_nvar(d), q = dg_disc_q(d);
  memset(s, 0, sizeof *s);
  s->dim = dim;
  s->nvar = nv;
  s->q = q;
  s->time = t;
  s->step = step;
  snprintf(s->model, sizeof s->model, "%s", dg_model_file_name(md));
  for (int v = 0, o = 0; v < nv && o < (int)sizeof s->variables; ++v)
    o += snprintf(s->variables + o, sizeof s->variables - (size_t)o, "%s%s", v ? "," : "",
                  dg_model_var_name(md, v));
  if (with_error) { /* the pointwise error only where the solution is known at t */
    double x0[3] = {g->lo[0], g->lo[1], g->lo[2]}, u0[DG_MAX_NVAR];
    with_error = dg_model_solution(md, x0, t, u0);
  }
  const int pb = with_error;
  for (int k = 0; k < 3; ++k) {
    s->cells[k] = g->n[k];
    s->lo[k] = g->lo[k];
    s->hi[k] = g->hi[k];
  }
  s->radius = g->kind == DG_GRID_LATLON ? g->radius : 0;
  s->nelem = g->nelem;
  const long nel = g->nelem;
  /* the elements d counts (a rank's own on its block: docs/ARCHITECTURE.md,
     "The I/O plan"), their box and their coefficients */
  int lo[3] = {g->n[0], g->n[1], g->n[2]}, hi[3] = {0, 0, 0};
  long nown = 0, ncoef = 0;
  for (long e = 0; e < nel; ++e) {
    if (!dg_disc_counts(d, e)) continue;
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    for (int k = 0; k < 3; ++k) {
      if (ijk[k] < lo[k]) lo[k] = ijk[k];
      if (ijk[k] + 1 > hi[k]) hi[k] = ijk[k] + 1;
    }
    ++nown;
    ncoef += nv * ipow(m->deg[e] + 1, dim);
  }
  s->degree = malloc((size_t)nel);
  s->coeff_offset = malloc((size_t)(nel + 1) * sizeof *s->coeff_offset);
  s->coeff = malloc((size_t)(ncoef ? ncoef : 1) * sizeof(double));
  const long NPq = ipow(q, dim);
  s->gauss_values = malloc((size_t)(nown * NPq * nv + 1) * sizeof(double));
  if (!s->degree || !s->coeff_offset || !s->coeff || !s->gauss_values) goto oom;
  memcpy(s->degree, m->deg, (size_t)nel);
  s->coeff_offset[0] = 0;
  for (long e = 0, at = 0; e < nel; ++e) {
    s->coeff_offset[e + 1] = s->coeff_offset[e] + nv * ipow(m->deg[e] + 1, dim);
    if (!dg_disc_counts(d, e)) continue;
    DG_CALL(dg_element_coeffs(d, u, e, s->coeff + at));
    at += nv * ipow(m->deg[e] + 1, dim);
  }
  double xq[DG_MAX_Q];
  for (int k = 0; k < q; ++k) xq[k] = (double)dg_disc_basis(d)->x[k];
  DG_CALL(dg_sample_own(d, u, q, xq, s->gauss_values));
  if (view_s > 0) {
    const long NPv = ipow(view_s, dim);
    double xv[64];
    for (int k = 0; k < view_s; ++k) xv[k] = -1.0 + (2.0 * k + 1.0) / view_s;
    double *vals = malloc((size_t)(nown * NPv * nv + 1) * sizeof(double));
    s->view_values = malloc((size_t)(nown * NPv * nv + 1) * sizeof(double));
    if (pb) s->view_error = malloc((size_t)(nown * NPv * nv + 1) * sizeof(double));
    if (!vals || !s->view_values || (pb && !s->view_error)) {
      free(vals);
      goto oom;
    }
    int rc = dg_sample_own(d, u, view_s, xv, vals);
    if (rc) {
      free(vals);
      dg_snapshot_free(s);
      return rc;
    }
    s->view_s = view_s;
    /* the box's view cells, [nvar][z][y][x] */
    const long sx = (long)(hi[0] - lo[0]) * view_s, sy = (long)(hi[1] - lo[1]) * view_s;
    const long sz = dim == 3 ? (long)(hi[2] - lo[2]) * view_s : 1, ncell = sx * sy * sz;
    for (long e = 0, i = 0; e < nel; ++e) {
      if (!dg_disc_counts(d, e)) continue;
      int ijk[3];
      dg_grid_ijk(g, e, ijk);
      for (long p = 0; p < NPv; ++p) {
        const int k[3] = {(int)(p % view_s), (int)((p / view_s) % view_s),
                          (int)(p / ((long)view_s * view_s))};
        const long I = (long)(ijk[0] - lo[0]) * view_s + k[0];
        const long J = (long)(ijk[1] - lo[1]) * view_s + k[1];
        const long K = dim == 3 ? (long)(ijk[2] - lo[2]) * view_s + k[2] : 0;
        double ex[DG_MAX_NVAR];
        if (pb) {
          double x[3] = {0, 0, 0};
          for (int t2 = 0; t2 < dim; ++t2)
            x[t2] = g->lo[t2] + (ijk[t2] + 0.5) * g->h[t2] + 0.5 * g->h[t2] * xv[k[t2]];
          dg_model_solution(md, x, t, ex);
        }
        for (int v = 0; v < nv; ++v) {
          const double val = vals[(i * NPv + p) * nv + v];
          const long idx = (long)v * ncell + I + sx * (J + sy * K);
          s->view_values[idx] = val;
          if (pb) s->view_error[idx] = val - ex[v];
        }
      }
      ++i;
    }
    free(vals);
  }
  return 0;
oom:
  dg_snapshot_free(s);
  return dg_error(DG_ERR_MEM, "snapshot: out of memory");
}

int dg_field_from_snapshot(const dg_disc *d, dg_field *u, const dg_snapshot *s, const char *path) {
  DG_ARG_CHECK(dg_arg_field("dg_field_from_snapshot", d, u, "u"));
  DG_ARG_NONNULL("dg_field_from_snapshot", s);
  if (!path) path = "(snapshot)";
  const dg_grid *g = dg_disc_grid(d);
  const dg_degree_map *m = dg_disc_degrees(d);
  static const char axis[3] = {'x', 'y', 'z'};
  if (s->dim != g->dim)
    return dg_error(DG_ERR_ARG, "restart %s: dimension %d, this run has %d", path, s->dim, g->dim);
  for (int k = 0; k < g->dim; ++k) {
    if (s->cells[k] != g->n[k])
      return dg_error(DG_ERR_ARG, "restart %s: %d cells in %c, this run has %d", path, s->cells[k],
                      axis[k], g->n[k]);
    const double tol = 1e-12 * (g->hi[k] - g->lo[k]);
    if (fabs(s->lo[k] - g->lo[k]) > tol || fabs(s->hi[k] - g->hi[k]) > tol)
      return dg_error(DG_ERR_ARG,
                      "restart %s: box in %c is [%.17g, %.17g], this run has [%.17g, %.17g]", path,
                      axis[k], s->lo[k], s->hi[k], g->lo[k], g->hi[k]);
  }
  {
    const double a = g->kind == DG_GRID_LATLON ? g->radius : 0;
    if (s->radius != a)
      return dg_error(DG_ERR_ARG, "restart %s: sphere radius %.17g, this run has %.17g (0: box)",
                      path, s->radius, a);
  }
  if (s->nvar != dg_disc_nvar(d))
    return dg_error(DG_ERR_ARG, "restart %s: nvar %d, this run has %d", path, s->nvar,
                    dg_disc_nvar(d));
  if (strcmp(s->model, dg_model_file_name(dg_disc_model(d))) != 0)
    return dg_error(DG_ERR_ARG, "restart %s: model '%s', this run has '%s'", path, s->model,
                    dg_model_file_name(dg_disc_model(d)));
  if (s->q != dg_disc_q(d))
    return dg_error(DG_ERR_ARG, "restart %s: q = %d Gauss points, this run has %d", path, s->q,
                    dg_disc_q(d));
  for (long e = 0; e < g->nelem; ++e)
    if (s->degree[e] != m->deg[e]) {
      char at[64];
      dg_grid_label(g, e, at, sizeof at);
      return dg_error(DG_ERR_ARG,
                      "restart %s: degree map differs at element %s: file has %d, this run has %d",
                      path, at, s->degree[e], m->deg[e]);
    }
  /* s->coeff: the coefficients of the elements d counts, in element order */
  for (long e = 0, at = 0; e < g->nelem; ++e) {
    if (!dg_disc_counts(d, e)) continue;
    const long len = (long)(s->coeff_offset[e + 1] - s->coeff_offset[e]);
    for (long i = at; i < at + len; ++i)
      if (!isfinite(s->coeff[i]))
        return dg_error(DG_ERR_ARG, "restart %s: non-finite coefficient in element %ld", path, e);
    DG_CALL(dg_element_set_coeffs(d, u, e, s->coeff + at));
    at += len;
  }
  return 0;
}
