/* dg_disc_op.c - the explicit DG operator applied to a vector, and the
 * compact <-> microblock conversions. */
#include "dg_disc_op.h"

#include "dg_arg.h"
#include "dg_disc_internal.h"
#include "dg_error.h"
#include "dg_model.h"

#include <float.h>
#include <math.h>
#include <string.h>

int dg_disc_rhs(dg_disc *d, dg_field *u, double t, dg_field *out) {
  DG_ARG_CHECK(dg_arg_field("dg_disc_rhs", d, u, "u"));
  DG_ARG_CHECK(dg_arg_field("dg_disc_rhs", d, out, "out"));
  if (u == out) return dg_error(DG_ERR_ARG, "dg_disc_rhs: out must not be u");
  /* u <- 0 u + 1 dt L(u) with dt = 1: the forward-Euler stage's arithmetic
     with the old value weighted 0 (exact: 0 * finite = 0) */
  static const dg_rk_coeffs rk = {0, 0, 0, 0, 0, 1, 0, 0, 0};
  DG_CALL(dg_field_copy(out, u));
  return dg_disc_stage(d, out, NULL, NULL, t, 1.0, &rk);
}

static long ipow(long b, int e) {
  long p = 1;
  while (e-- > 0) p *= b;
  return p;
}

/* max |f| over the whole grid (f on the host): one process's storage, or a
 * rank's own elements reduced over the ranks (an exact maximum: the same
 * on every rank, so every rank takes the same difference step). */
static int field_amax(const dg_disc *d, dg_field *f, double *out) {
  double m = 0;
  dg_comm *c = dg_disc_comm(d);
  if (!c) {
    for (long i = 0; i < f->n; ++i) m = fmax(m, fabs((double)f->h[i]));
    *out = m;
    return 0;
  }
  const dg_grid *g = dg_disc_grid(d);
  const uint8_t *deg = dg_disc_degrees(d)->deg;
  for (long e = 0; e < g->nelem; ++e) {
    if (!dg_disc_counts(d, e)) continue;
    const long M = ipow(deg[e] + 1, g->dim);
    for (int v = 0; v < dg_disc_nvar(d); ++v)
      for (long k = 0; k < M; ++k) m = fmax(m, fabs((double)f->h[dg_disc_index(d, e, v, (int)k)]));
  }
  DG_CALL(dg_comm_allreduce_max(c, &m, out, 1));
  return 0;
}

int dg_disc_jacvec(dg_disc *d, dg_field *u0, dg_field *lu0, dg_field *v, double t, dg_field *work,
                   dg_field *out) {
  DG_ARG_CHECK(dg_arg_field("dg_disc_jacvec", d, v, "v"));
  DG_ARG_CHECK(dg_arg_field("dg_disc_jacvec", d, out, "out"));
  if (u0) DG_ARG_CHECK(dg_arg_field("dg_disc_jacvec", d, u0, "u0"));
  if (lu0) DG_ARG_CHECK(dg_arg_field("dg_disc_jacvec", d, lu0, "lu0"));
  if (work) DG_ARG_CHECK(dg_arg_field("dg_disc_jacvec", d, work, "work"));
  if (dg_model_linear(dg_disc_model(d))) return dg_disc_rhs(d, v, t, out);
  if (!u0 || !lu0 || !work)
    return dg_error(DG_ERR_ARG, "dg_disc_jacvec: a nonlinear model needs u0, L(u0) and work");
  DG_CALL(dg_field_to_host(u0));
  DG_CALL(dg_field_to_host(v));
  DG_CALL(dg_field_to_host(lu0));
  double vmax, u0max;
  DG_CALL(field_amax(d, v, &vmax));
  DG_CALL(dg_field_to_host(out));
  if (vmax == 0) {
    memset(out->h, 0, sizeof(dg_real) * (size_t)out->n);
    dg_field_host_modified(out);
    return 0;
  }
  DG_CALL(field_amax(d, u0, &u0max));
  const double eps = sqrt(DBL_EPSILON) * (1 + u0max) / vmax;
  DG_CALL(dg_field_to_host(work));
  for (long i = 0; i < work->n; ++i) work->h[i] = (dg_real)((double)u0->h[i] + eps * v->h[i]);
  dg_field_host_modified(work);
  DG_CALL(dg_disc_rhs(d, work, t, out));
  DG_CALL(dg_field_to_host(out));
  for (long i = 0; i < out->n; ++i)
    out->h[i] = (dg_real)(((double)out->h[i] - (double)lu0->h[i]) / eps);
  dg_field_host_modified(out);
  return 0;
}

long dg_disc_compact_len(const dg_disc *d) { return dg_disc_ndofs(d); }

/* The modes of (element, variable) are W apart in the microblock layout
 * (dg_disc.h), so each run is located once and walked with a stride; one
 * walk for both directions (to_field: x into f, else f into x).  Element
 * elem[i] (i itself where elem is NULL) has its modes of variable v at x +
 * v ns + at[i] (where at is NULL: one after the other, from 0). */
static void elems_walk(const dg_disc *d, dg_field *f, long n, const long *elem, const long *at,
                       long ns, double *x, int to_field) {
  const dg_grid *g = dg_disc_grid(d);
  const uint8_t *deg = dg_disc_degrees(d)->deg;
  const int nv = dg_disc_nvar(d);
  long o = 0;
  for (long i = 0; i < n; ++i) {
    const long e = elem ? elem[i] : i;
    const long M = ipow(deg[e] + 1, g->dim);
    if (at) o = at[i];
    for (int v = 0; v < nv; ++v) {
      const long i0 = dg_disc_index(d, e, v, 0);
      const long s = M > 1 ? dg_disc_index(d, e, v, 1) - i0 : 0;
      double *xv = x + v * ns + o;
      for (long m = 0; m < M; ++m)
        if (to_field)
          f->h[i0 + m * s] = (dg_real)xv[m];
        else
          xv[m] = (double)f->h[i0 + m * s];
    }
    o += M;
  }
}

/* Variable v is the v-th block of ndofs / nvar, the elements in order. */
static void compact_walk(const dg_disc *d, dg_field *f, double *x, int to_field) {
  elems_walk(d, f, dg_disc_grid(d)->nelem, NULL, NULL, dg_disc_ndofs(d) / dg_disc_nvar(d), x,
             to_field);
}

int dg_field_get_elems(const dg_disc *d, dg_field *f, long n, const long *elem, const long *at,
                       long ns, double *x) {
  DG_ARG_CHECK(dg_arg_field("dg_field_get_elems", d, f, "f"));
  DG_ARG_NONNULL("dg_field_get_elems", x);
  DG_CALL(dg_field_to_host(f));
  elems_walk(d, f, n, elem, at, ns, x, 0);
  return 0;
}

int dg_field_set_elems(const dg_disc *d, dg_field *f, long n, const long *elem, const long *at,
                       long ns, const double *x) {
  DG_ARG_CHECK(dg_arg_field("dg_field_set_elems", d, f, "f"));
  DG_ARG_NONNULL("dg_field_set_elems", x);
  DG_CALL(dg_field_to_host(f));
  elems_walk(d, f, n, elem, at, ns, (double *)x, 1);
  dg_field_host_modified(f);
  return 0;
}

int dg_field_get_compact(const dg_disc *d, dg_field *f, double *x) {
  DG_ARG_CHECK(dg_arg_field("dg_field_get_compact", d, f, "f"));
  DG_ARG_NONNULL("dg_field_get_compact", x);
  DG_CALL(dg_field_to_host(f));
  compact_walk(d, f, x, 0);
  return 0;
}

int dg_field_set_compact(const dg_disc *d, dg_field *f, const double *x) {
  DG_ARG_CHECK(dg_arg_field("dg_field_set_compact", d, f, "f"));
  DG_ARG_NONNULL("dg_field_set_compact", x);
  DG_CALL(dg_field_to_host(f));
  compact_walk(d, f, (double *)x, 1);
  dg_field_host_modified(f);
  return 0;
}
