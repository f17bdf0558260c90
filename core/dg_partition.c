/* dg_partition.c - weighted recursive bisection of the structured grid into
 * one rectangular block per rank (dg_partition.h). */
#include "dg_partition.h"

#include "dg_error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Of the directions whose best cut balances within this fraction of the
 * best direction's, the one with the smallest cut face is taken. */
#define DG_PART_BALANCE_SLACK 0.005

/* How many levels below a cut are tried before it is chosen (each level
 * tries the best cut of every direction and its two neighbours): a greedy
 * bisection fixes each cut to a whole slab without seeing that the next
 * cuts then balance worse; three levels ahead is what keeps the largest
 * rank within the 5% of the mean on small blocks
 * (docs/ARCHITECTURE.md, "Runs across ranks"). */
#define DG_PART_LOOKAHEAD 3

typedef struct {
  const dg_grid *g;
  int n[3];
  double *sat; /* summed costs: sat[(k (n1 + 1) + j) (n0 + 1) + i] is the cost of
                  the elements below (i, j, k) in every direction */
  dg_partition *p;
} part_ctx;

static double sat_at(const part_ctx *c, int i, int j, int k) {
  return c->sat[((long)k * (c->n[1] + 1) + j) * (c->n[0] + 1) + i];
}

/* The cost of the box [lo, hi) by inclusion-exclusion of the sums. */
static double box_cost(const part_ctx *c, const int lo[3], const int hi[3]) {
  double s = 0;
  for (int m = 0; m < 8; ++m) {
    const int i = m & 1 ? lo[0] : hi[0], j = m & 2 ? lo[1] : hi[1], k = m & 4 ? lo[2] : hi[2];
    const int odd = ((m & 1) + (m >> 1 & 1) + (m >> 2 & 1)) & 1;
    s += odd ? -sat_at(c, i, j, k) : sat_at(c, i, j, k);
  }
  return s;
}

/* The cost of [lo, hi) with direction d cut at t: the first part's. */
static double left_cost(const part_ctx *c, const int lo[3], const int hi[3], int d, int t) {
  int h[3] = {hi[0], hi[1], hi[2]};
  h[d] = t;
  return box_cost(c, lo, h);
}

/* The best cut of [lo, hi) across d for n1 | n2 ranks: the first index of
 * the second part minimising the larger cost per rank (each part keeps an
 * element per rank); 0 when d cannot be cut. */
static int best_cut(const part_ctx *c, const int lo[3], const int hi[3], int d, int n1, int n2,
                    double total) {
  const int len = hi[d] - lo[d];
  long face = 1;
  for (int e = 0; e < 3; ++e)
    if (e != d) face *= hi[e] - lo[e];
  int cmin = lo[d] + (int)((n1 + face - 1) / face), cmax = hi[d] - (int)((n2 + face - 1) / face);
  if (cmin < lo[d] + 1) cmin = lo[d] + 1;
  if (len < 2 || cmin > cmax) return 0;
  /* the left cost rises with t: bisect for the first t with a / n1 >= b / n2 */
  int a = cmin, b = cmax;
  while (a < b) {
    const int t = a + (b - a) / 2;
    const double l = left_cost(c, lo, hi, d, t);
    if (l / n1 >= (total - l) / n2)
      b = t;
    else
      a = t + 1;
  }
  int cut = a;
  double load = INFINITY;
  for (int t = a - 1; t <= a; ++t) {
    if (t < cmin || t > cmax) continue;
    const double l = left_cost(c, lo, hi, d, t);
    const double x = l / n1 > (total - l) / n2 ? l / n1 : (total - l) / n2;
    if (x < load) {
      load = x;
      cut = t;
    }
  }
  return cut;
}

static double split(part_ctx *c, const int lo[3], const int hi[3], int r0, int np, int depth,
                    int commit);

/* Split [lo, hi) for np ranks: of the best cut of each direction and its
 * two neighbours, the one whose parts, split `depth` levels further the
 * same way (greedily below), give the smallest largest block; of those
 * within DG_PART_BALANCE_SLACK of it, the smallest cut face.  With commit
 * the blocks are stored for ranks r0 .. r0 + np - 1.  Returns the largest
 * block cost, or -1 when no direction can be cut (not seen: np is at most
 * the block's elements). */
static double split(part_ctx *c, const int lo[3], const int hi[3], int r0, int np, int depth,
                    int commit) {
  const double total = box_cost(c, lo, hi);
  if (np == 1) {
    if (commit) {
      dg_part_block *b = &c->p->block[r0];
      memcpy(b->lo, lo, sizeof b->lo);
      memcpy(b->hi, hi, sizeof b->hi);
    }
    return total;
  }
  const int n1 = np / 2, n2 = np - n1;
  int opt_d[9], opt_t[9], nopt = 0;
  long opt_face[9];
  double opt_val[9];
  for (int d = 0; d < c->g->dim; ++d) {
    const int t0 = best_cut(c, lo, hi, d, n1, n2, total);
    if (t0 == 0) continue;
    long face = 1;
    for (int e = 0; e < 3; ++e)
      if (e != d) face *= hi[e] - lo[e];
    for (int dt = 0; dt < (depth > 0 ? 3 : 1); ++dt) {
      const int t = t0 + (dt == 0 ? 0 : dt == 1 ? -1 : 1);
      /* a neighbour must keep an element per rank on both sides */
      if (t <= lo[d] || t >= hi[d] || (long)(t - lo[d]) * face < n1 ||
          (long)(hi[d] - t) * face < n2)
        continue;
      int h1[3] = {hi[0], hi[1], hi[2]}, l2[3] = {lo[0], lo[1], lo[2]};
      h1[d] = l2[d] = t;
      double v;
      if (depth > 0) {
        const double a = split(c, lo, h1, 0, n1, depth - 1, 0);
        const double b = split(c, l2, hi, 0, n2, depth - 1, 0);
        v = a < 0 || b < 0 ? -1 : a > b ? a : b;
      } else {
        const double a = left_cost(c, lo, hi, d, t);
        v = a / n1 > (total - a) / n2 ? a / n1 : (total - a) / n2; /* greedy: the ideal split */
      }
      if (v < 0) continue;
      opt_d[nopt] = d;
      opt_t[nopt] = t;
      opt_face[nopt] = face;
      opt_val[nopt++] = v;
    }
  }
  if (nopt == 0) return -1;
  int best = 0;
  for (int o = 1; o < nopt; ++o)
    if (opt_val[o] < opt_val[best]) best = o;
  const double bar = opt_val[best] * (1 + DG_PART_BALANCE_SLACK);
  for (int o = 0; o < nopt; ++o)
    if (opt_val[o] <= bar && opt_face[o] < opt_face[best]) best = o;
  int h1[3] = {hi[0], hi[1], hi[2]}, l2[3] = {lo[0], lo[1], lo[2]};
  h1[opt_d[best]] = l2[opt_d[best]] = opt_t[best];
  /* below the lookahead the parts are split greedily (depth 0); a committed
     split looks ahead again from each part */
  const int sub = commit ? DG_PART_LOOKAHEAD : depth > 0 ? depth - 1 : 0;
  const double a = split(c, lo, h1, r0, n1, sub, commit);
  const double b = split(c, l2, hi, r0 + n1, n2, sub, commit);
  if (a < 0 || b < 0) return -1;
  return a > b ? a : b;
}

/* Faces of block b whose neighbour across side (d, s) is another rank's
 * element.  A side on a non-periodic boundary (inflow, outflow, wall, pole)
 * has none: a pole face's flux is masked whatever its neighbour holds. */
static long block_halo(const dg_partition *p, const dg_grid *g, int r) {
  const dg_part_block *b = &p->block[r];
  long halo = 0;
  for (int d = 0; d < g->dim; ++d) {
    long face = 1;
    for (int e = 0; e < g->dim; ++e)
      if (e != d) face *= b->hi[e] - b->lo[e];
    const int periodic = dg_grid_periodic(g, d);
    for (int s = 0; s < 2; ++s) {
      const int at_end = s == 0 ? b->lo[d] == 0 : b->hi[d] == g->n[d];
      if (at_end && !periodic) continue;
      if (at_end && b->lo[d] == 0 && b->hi[d] == g->n[d]) continue; /* wraps onto itself */
      /* the neighbouring layer may belong to several ranks, none of them r */
      halo += face;
    }
  }
  return halo;
}

int dg_partition_create(dg_partition **p, const dg_grid *g, const dg_degree_map *m, int nranks,
                        const double *cost_per_degree) {
  if (!p) return dg_error(DG_ERR_ARG, "dg_partition_create: NULL handle");
  *p = NULL;
  if (!g || !m || !m->deg) return dg_error(DG_ERR_ARG, "dg_partition_create: NULL grid or map");
  if (m->nelem != g->nelem)
    return dg_error(DG_ERR_ARG, "partition: the degree map has %ld elements, the grid %ld",
                    m->nelem, g->nelem);
  if (nranks < 1) return dg_error(DG_ERR_ARG, "partition: %d ranks (at least 1)", nranks);
  if (nranks > g->nelem)
    return dg_error(DG_ERR_ARG,
                    "partition: %d ranks for %ld elements (at most one rank per element)", nranks,
                    g->nelem);
  dg_partition *q = calloc(1, sizeof *q);
  if (!q) return dg_error(DG_ERR_MEM, "partition: out of memory");
  q->dim = g->dim;
  for (int d = 0; d < 3; ++d) q->n[d] = d < g->dim ? g->n[d] : 1;
  q->nranks = nranks;
  q->default_cost = cost_per_degree == NULL;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    double w = 1;
    for (int d = 0; d < g->dim; ++d) w *= r + 1;
    if (cost_per_degree) w = cost_per_degree[r];
    if (!(w > 0) || !isfinite(w)) {
      free(q);
      return dg_error(DG_ERR_ARG, "partition: the cost of degree %d is %g (positive and finite)", r,
                      w);
    }
    q->cost_deg[r] = w;
  }
  const long n0 = q->n[0] + 1, n1 = q->n[1] + 1, n2 = q->n[2] + 1;
  q->block = calloc((size_t)nranks, sizeof *q->block);
  double *sat = calloc((size_t)(n0 * n1 * n2), sizeof *sat);
  if (!q->block || !sat) {
    free(q->block);
    free(q);
    free(sat);
    return dg_error(DG_ERR_MEM, "partition: out of memory for %ld elements", g->nelem);
  }
  /* the summed costs; default costs are integers, so the sums are exact */
  for (int k = 0; k < q->n[2]; ++k)
    for (int j = 0; j < q->n[1]; ++j)
      for (int i = 0; i < q->n[0]; ++i) {
        const long e = i + (long)q->n[0] * (j + (long)q->n[1] * k);
        const int r = m->deg[e];
        if (r > DG_MAX_DEGREE) {
          free(q->block);
          free(q);
          free(sat);
          return dg_error(DG_ERR_ARG, "partition: element %ld has degree %d (at most %d)", e, r,
                          DG_MAX_DEGREE);
        }
        const long at = ((long)(k + 1) * n1 + j + 1) * n0 + i + 1;
        sat[at] = q->cost_deg[r] + sat[at - 1] + sat[at - n0] + sat[at - n0 * n1] -
                  sat[at - 1 - n0] - sat[at - 1 - n0 * n1] - sat[at - n0 - n0 * n1] +
                  sat[at - 1 - n0 - n0 * n1];
      }
  part_ctx c = {g, {q->n[0], q->n[1], q->n[2]}, sat, q};
  const int lo[3] = {0, 0, 0};
  const double top = split(&c, lo, q->n, 0, nranks, DG_PART_LOOKAHEAD, 1);
  free(sat);
  if (top < 0) {
    free(q->block);
    free(q);
    return dg_error(DG_ERR_ARG, "partition: no split of %ld elements into %d blocks", g->nelem,
                    nranks);
  }
  /* each block's cost and size summed again element by element (not from
     the differences of sums, which round where costs are not integers) */
  for (int r = 0; r < nranks; ++r) {
    dg_part_block *b = &q->block[r];
    double s = 0;
    for (int k = b->lo[2]; k < b->hi[2]; ++k)
      for (int j = b->lo[1]; j < b->hi[1]; ++j)
        for (int i = b->lo[0]; i < b->hi[0]; ++i)
          s += q->cost_deg[m->deg[i + (long)q->n[0] * (j + (long)q->n[1] * k)]];
    b->cost = s;
    b->nelem = (long)(b->hi[0] - b->lo[0]) * (b->hi[1] - b->lo[1]) * (b->hi[2] - b->lo[2]);
  }
  for (int r = 0; r < nranks; ++r) {
    q->cost_total += q->block[r].cost;
    if (q->block[r].cost > q->cost_max) q->cost_max = q->block[r].cost;
    q->block[r].halo = block_halo(q, g, r);
  }
  *p = q;
  return 0;
}

void dg_partition_destroy(dg_partition **p) {
  if (!p || !*p) return;
  free((*p)->block);
  free(*p);
  *p = NULL;
}

double dg_partition_imbalance(const dg_partition *p) {
  return p->cost_max / (p->cost_total / p->nranks);
}

int dg_partition_owner(const dg_partition *p, const int ijk[3]) {
  for (int r = 0; r < p->nranks; ++r) {
    const dg_part_block *b = &p->block[r];
    int in = 1;
    for (int d = 0; d < 3; ++d) {
      const int i = d < p->dim ? ijk[d] : 0;
      in &= i >= b->lo[d] && i < b->hi[d];
    }
    if (in) return r;
  }
  return -1;
}

long dg_partition_halo_total(const dg_partition *p) {
  long s = 0;
  for (int r = 0; r < p->nranks; ++r) s += p->block[r].halo;
  return s;
}

/* Append to buf at *at; 1 when it did not fit. */
static int put(char *buf, size_t len, size_t *at, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int put(char *buf, size_t len, size_t *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = *at < len ? vsnprintf(buf + *at, len - *at, fmt, ap) : -1;
  va_end(ap);
  if (n < 0 || (size_t)n >= len - *at) return 1;
  *at += (size_t)n;
  return 0;
}

int dg_partition_describe(const dg_partition *p, int per_rank, char *buf, size_t len) {
  if (!p || !buf || len == 0) return dg_error(DG_ERR_ARG, "dg_partition_describe: NULL argument");
  size_t at = 0;
  long hmax = 0;
  for (int r = 0; r < p->nranks; ++r)
    if (p->block[r].halo > hmax) hmax = p->block[r].halo;
  int over = 0;
  over |= put(buf, len, &at, "partition: %d rank%s by recursive bisection, cost ", p->nranks,
              p->nranks == 1 ? "" : "s");
  if (p->default_cost)
    over |= put(buf, len, &at, "(r+1)^%d per element", p->dim);
  else
    over |= put(buf, len, &at, "given per degree");
  over |= put(buf, len, &at, ": max/mean %.4f, halo faces %ld (max %ld on a rank)",
              dg_partition_imbalance(p), dg_partition_halo_total(p), hmax);
  const double mean = p->cost_total / p->nranks;
  for (int r = 0; per_rank && r < p->nranks && !over; ++r) {
    const dg_part_block *b = &p->block[r];
    over |= put(buf, len, &at, "\n  rank %d: [%d,%d)x[%d,%d)", r, b->lo[0], b->hi[0], b->lo[1],
                b->hi[1]);
    if (p->dim == 3) over |= put(buf, len, &at, "x[%d,%d)", b->lo[2], b->hi[2]);
    over |= put(buf, len, &at, ", %ld elements, cost %.6g (%.4f of the mean), halo %ld", b->nelem,
                b->cost, b->cost / mean, b->halo);
  }
  if (over) {
    buf[len - 1] = '\0';
    return dg_error(DG_ERR_ARG, "partition: the description needs more than %zu bytes", len);
  }
  return 0;
}
