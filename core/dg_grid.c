/* dg_grid.c - the structured grid, its sides' boundary kinds and the
 * latitude-longitude sphere's per-row metric. */
#include "dg_grid.h"

#include "dg_arg.h"
#include "dg_error.h"
#include "dg_quadrature.h"
#include "dg_types.h"

#include <math.h>
#include <stdio.h>

int dg_grid_init(dg_grid *g, int dim, const int n[3], const double lo[3], const double hi[3]) {
  DG_ARG_NONNULL("dg_grid_init", g);
  DG_ARG_NONNULL("dg_grid_init", n);
  DG_ARG_NONNULL("dg_grid_init", lo);
  DG_ARG_NONNULL("dg_grid_init", hi);
  static const char axis[3] = {'x', 'y', 'z'};
  if (dim != 2 && dim != 3) return dg_error(DG_ERR_ARG, "dimension %d: must be 2 or 3", dim);
  g->dim = dim;
  g->nelem = 1;
  g->kind = DG_GRID_BOX;
  g->radius = 0;
  for (int f = 0; f < DG_GRID_SIDES; ++f) g->bc[f] = DG_BC_PERIODIC;
  for (int d = 0; d < 3; ++d) {
    const int active = d < dim;
    g->n[d] = active ? n[d] : 1;
    g->lo[d] = active ? lo[d] : 0.0;
    g->hi[d] = active ? hi[d] : 1.0;
    if (g->n[d] < 1)
      return dg_error(DG_ERR_ARG, "cells: %d elements in %c, must be >= 1", n[d], axis[d]);
    if (!isfinite(g->lo[d]) || !isfinite(g->hi[d]) || !(g->hi[d] > g->lo[d]))
      return dg_error(DG_ERR_ARG, "box: %c range [%g, %g] is empty or not finite", axis[d],
                      g->lo[d], g->hi[d]);
    g->h[d] = (g->hi[d] - g->lo[d]) / g->n[d];
    if (g->nelem > (1L << 40) / g->n[d]) return dg_error(DG_ERR_ARG, "cells: too many elements");
    g->nelem *= g->n[d];
  }
  return 0;
}

int dg_grid_init_latlon(dg_grid *g, int n1, int n2, double radius) {
  DG_ARG_NONNULL("dg_grid_init_latlon", g);
  if (n2 < 1 || n2 > (1 << 20)) return dg_error(DG_ERR_ARG, "cells: %d rows, must be 1..2^20", n2);
  if (n1 == 0) n1 = 2 * n2;
  if (n1 < 1) return dg_error(DG_ERR_ARG, "cells: %d elements in longitude, must be >= 1", n1);
  if (!isfinite(radius) || !(radius > 0))
    return dg_error(DG_ERR_ARG, "option --radius: %g must be positive and finite", radius);
  const int n[3] = {n1, n2, 1};
  const double lo[3] = {0, -0.5 * M_PI, 0}, hi[3] = {2 * M_PI, 0.5 * M_PI, 1};
  DG_CALL(dg_grid_init(g, 2, n, lo, hi));
  g->kind = DG_GRID_LATLON;
  g->radius = radius;
  g->bc[2] = g->bc[3] = DG_BC_POLE;
  return 0;
}

const char *dg_bc_name(int kind) {
  static const char *const names[] = {"periodic", "inflow", "outflow", "wall", "pole"};
  return kind >= 0 && kind <= DG_BC_POLE ? names[kind] : "?";
}

const char *dg_bc_side_name(int side) {
  static const char *const names[] = {"x-", "x+", "y-", "y+", "z-", "z+"};
  return side >= 0 && side < DG_GRID_SIDES ? names[side] : "?";
}

int dg_grid_set_bc(dg_grid *g, const int bc[DG_GRID_SIDES]) {
  DG_ARG_NONNULL("dg_grid_set_bc", g);
  DG_ARG_NONNULL("dg_grid_set_bc", bc);
  int same = 1;
  for (int f = 0; f < 2 * g->dim; ++f) same &= bc[f] == g->bc[f];
  if (g->kind == DG_GRID_LATLON) {
    if (same) return 0;
    return dg_error(DG_ERR_ARG, "boundaries: the sphere's sides are fixed (lambda periodic, "
                                "poles at theta = +-pi/2)");
  }
  for (int f = 0; f < 2 * g->dim; ++f)
    if (bc[f] < DG_BC_PERIODIC || bc[f] > DG_BC_WALL)
      return dg_error(DG_ERR_ARG,
                      "boundary %s: kind %s is not one of periodic, inflow, outflow, "
                      "wall",
                      dg_bc_side_name(f), dg_bc_name(bc[f]));
  for (int d = 0; d < g->dim; ++d) {
    const int lo = bc[2 * d], hi = bc[2 * d + 1];
    if ((lo == DG_BC_PERIODIC) != (hi == DG_BC_PERIODIC))
      return dg_error(DG_ERR_ARG,
                      "boundary %c: periodic on one side only (%s %s, %s %s); a periodic "
                      "direction is periodic on both sides",
                      "xyz"[d], dg_bc_side_name(2 * d), dg_bc_name(lo), dg_bc_side_name(2 * d + 1),
                      dg_bc_name(hi));
  }
  for (int f = 0; f < DG_GRID_SIDES; ++f) g->bc[f] = f < 2 * g->dim ? bc[f] : DG_BC_PERIODIC;
  return 0;
}

int dg_grid_periodic(const dg_grid *g, int d) {
  return d >= g->dim || (g->bc[2 * d] == DG_BC_PERIODIC && g->bc[2 * d + 1] == DG_BC_PERIODIC);
}

int dg_grid_has_bc(const dg_grid *g) {
  for (int f = 0; f < 2 * g->dim; ++f)
    if (g->bc[f] >= DG_BC_INFLOW && g->bc[f] <= DG_BC_WALL) return 1;
  return 0;
}

double dg_grid_theta(const dg_grid *g, int row, double eta) {
  return g->lo[1] + (row + 0.5 * (eta + 1)) * g->h[1];
}

int dg_grid_row_winv(const dg_grid *g, int row, int r, int q, const double *x, const double *w,
                     double *winv) {
  enum { NMAX = DG_MAX_DEGREE + 1 };
  const int N = r + 1;
  double P[NMAX * DG_MAX_Q], W[NMAX][NMAX], L[NMAX][NMAX], Li[NMAX][NMAX];
  if (r > DG_MAX_DEGREE || q > DG_MAX_Q || q < N)
    return dg_error(DG_ERR_ARG, "row mass: degree %d with %d points", r, q);
  DG_CALL(dg_legendre_table(r, q, x, P, NULL));
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < N; ++m) {
      double s = 0;
      for (int k = 0; k < q; ++k)
        s += w[k] * cos(dg_grid_theta(g, row, x[k])) * P[n * q + k] * P[m * q + k];
      W[n][m] = s;
    }
  /* W = L L^T, then W^-1 = L^-T L^-1 */
  for (int j = 0; j < N; ++j) {
    double d = W[j][j];
    for (int k = 0; k < j; ++k) d -= L[j][k] * L[j][k];
    if (!(d > 0))
      return dg_error(DG_ERR_NUMERIC, "row %d: weighted mass matrix of degree %d is singular", row,
                      r);
    L[j][j] = sqrt(d);
    for (int i = j + 1; i < N; ++i) {
      double s = W[i][j];
      for (int k = 0; k < j; ++k) s -= L[i][k] * L[j][k];
      L[i][j] = s / L[j][j];
    }
  }
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      if (i < j) {
        Li[i][j] = 0;
        continue;
      }
      double s = i == j ? 1 : 0;
      for (int k = j; k < i; ++k) s -= L[i][k] * Li[k][j];
      Li[i][j] = s / L[i][i];
    }
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < N; ++m) {
      double s = 0;
      for (int k = n > m ? n : m; k < N; ++k) s += Li[k][n] * Li[k][m];
      winv[n * N + m] = s;
    }
  return 0;
}

static long wrap(long i, int n) {
  i %= n;
  return i < 0 ? i + n : i;
}

long dg_grid_elem(const dg_grid *g, long i, long j, long k) {
  return wrap(i, g->n[0]) + g->n[0] * (wrap(j, g->n[1]) + (long)g->n[1] * wrap(k, g->n[2]));
}

void dg_grid_ijk(const dg_grid *g, long e, int ijk[3]) {
  ijk[0] = (int)(e % g->n[0]);
  ijk[1] = (int)((e / g->n[0]) % g->n[1]);
  ijk[2] = (int)(e / ((long)g->n[0] * g->n[1]));
}

const char *dg_grid_label(const dg_grid *g, long e, char *buf, unsigned long len) {
  int ijk[3];
  dg_grid_ijk(g, e, ijk);
  if (g->dim == 3)
    snprintf(buf, len, "(%d,%d,%d)", ijk[0], ijk[1], ijk[2]);
  else
    snprintf(buf, len, "(%d,%d)", ijk[0], ijk[1]);
  return buf;
}

int dg_grid_trig_interp(int K, double x0, double x1, int q, const double *xr, double *out,
                        int stride) {
  enum { NMAX = 64 };
  long double gl[NMAX], f[4][NMAX], L[NMAX], dL[NMAX];
  if (K < 1 || K >= NMAX) return dg_error(DG_ERR_ARG, "trigonometric interpolant of degree %d", K);
  DG_CALL(dg_gauss_lobatto(K + 1, gl));
  const long double a = x0, h = (long double)x1 - (long double)x0;
  for (int l = 0; l <= K; ++l) {
    /* the end nodes at exactly x0 and x1, as the faces are */
    const long double x = l == 0 ? a : (l == K ? (long double)x1 : a + h * (1 + gl[l]) / 2);
    f[0][l] = cosl(x), f[1][l] = sinl(x), f[2][l] = cosl(2 * x), f[3][l] = sinl(2 * x);
  }
  for (int k = 0; k < q; ++k) {
    dg_lagrange_eval(K + 1, gl, (long double)xr[k], L, dL);
    for (int m = 0; m < 2; ++m)
      for (int cs = 0; cs < 2; ++cs) {
        long double v = 0, dv = 0;
        for (int l = 0; l <= K; ++l) {
          v += f[2 * m + cs][l] * L[l];
          dv += f[2 * m + cs][l] * dL[l];
        }
        out[(4 * m + cs) * stride + k] = (double)v;
        out[(4 * m + 2 + cs) * stride + k] = (double)(dv * 2 / h);
      }
  }
  return 0;
}
