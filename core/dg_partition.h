/* dg_partition.h - the split of a structured grid into one rectangular block
 * of elements per rank, balanced by each element's cost (docs/ARCHITECTURE.md,
 * "Runs across ranks").  A pure function of the grid, the degree map and the
 * number of ranks: no MPI, the same answer on every rank and in every build.
 *
 * Cost model: an element of degree r costs w(r) = (r + 1)^dim by default
 * (its degrees of freedom: a stage streams each coefficient a fixed number
 * of times and the CPU stages are bound by memory traffic, BENCHMARKS.md),
 * or what the caller passes per degree (measured times per element where a
 * plan makes them differ, e.g. the common q at degree changes).  Blocks
 * come from recursive bisection: a block given p ranks is cut across one
 * direction into two blocks given p/2 and p - p/2 ranks.  The candidates
 * are the cut of each direction that balances cost per rank best and its
 * two neighbours; each is judged by the largest block it leads to, the
 * parts split three levels further the same way (greedily below); of the
 * candidates within 0.5% of the best, the one with the smallest cut face
 * is taken (the halo).  Costs are summed once into a summed-area table, so
 * a cut is found by bisection in O(log n) box sums. */
#ifndef DG_PARTITION_H
#define DG_PARTITION_H

#include "dg_degree_map.h"
#include "dg_grid.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One rank's block: elements lo[d] <= i_d < hi[d] (hi[2] = 1 in 2D). */
typedef struct {
  int lo[3], hi[3];
  long nelem;  /* elements of the block */
  double cost; /* the sum of their costs */
  long halo;   /* faces shared with another rank's block (periodic wraps
                  included; pole and other boundary sides excluded) */
} dg_part_block;

typedef struct {
  int dim, n[3];
  int nranks;
  dg_part_block *block; /* [nranks], block r is rank r's */
  double cost_total;
  double cost_max;                    /* the largest block's cost */
  double cost_deg[DG_MAX_DEGREE + 1]; /* the cost per element of each degree used */
  int default_cost;                   /* 1 when cost_deg is (r + 1)^dim */
} dg_partition;

/* Split `g` (with degree map `m`, one degree per element of g) into `nranks`
 * blocks.  cost_per_degree[r], r = 0..DG_MAX_DEGREE, positive and finite, or
 * NULL for (r + 1)^dim.  DG_ERR_ARG for nranks < 1, more ranks than
 * elements, a map of another size or a bad cost; DG_ERR_MEM. */
int dg_partition_create(dg_partition **p, const dg_grid *g, const dg_degree_map *m, int nranks,
                        const double *cost_per_degree);

void dg_partition_destroy(dg_partition **p);

/* The largest block's cost over the mean (1 is perfect balance). */
double dg_partition_imbalance(const dg_partition *p);

/* The rank whose block holds element (i, j, k); -1 outside the grid. */
int dg_partition_owner(const dg_partition *p, const int ijk[3]);

/* The sum of every block's halo faces (each face between two ranks counted
 * from both sides). */
long dg_partition_halo_total(const dg_partition *p);

/* The split as the one line `--verbose` prints:
 *   "partition: 4 ranks by recursive bisection, cost (r+1)^2 per element:
 *    max/mean 1.0012, halo faces 320 (max 80 on a rank)"
 * and, with per_rank, one more line per rank:
 *   "  rank 0: [0,80)x[0,40), 3200 elements, cost 45120 (1.0012 of the mean), halo 80"
 * Into buf (always NUL-terminated); DG_ERR_ARG when it does not fit. */
int dg_partition_describe(const dg_partition *p, int per_rank, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
