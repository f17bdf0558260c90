/* dg_grid.c - the periodic structured grid. */
#include "dg_grid.h"

#include "dg_error.h"

#include <math.h>
#include <stdio.h>

int dg_grid_init(dg_grid *g, int dim, const int n[3], const double lo[3], const double hi[3]) {
  static const char axis[3] = {'x', 'y', 'z'};
  if (dim != 2 && dim != 3) return dg_error(DG_ERR_ARG, "dimension %d: must be 2 or 3", dim);
  g->dim = dim;
  g->nelem = 1;
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
