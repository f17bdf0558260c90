/* test_partition.c - unit.partition: the weighted split of the grid into one
 * block per rank (core/dg_partition.h).  Blocks tile the grid exactly once,
 * the largest rank's cost is within 5% of the mean for the latitude and band
 * maps at 1..16 ranks, a hand-computed weighted cut, halos, the --verbose
 * line and the refusals. */
#include "dg_test.h"

#include "dg_degree_map.h"
#include "dg_grid.h"
#include "dg_partition.h"

#include <string.h>

/* Every element in exactly one block, the owner lookup agrees, and the
 * block costs add up to the map's cost counted here. */
static void check_tiling(const dg_partition *p, const dg_grid *g, const dg_degree_map *m,
                         const char *what) {
  int *seen = calloc((size_t)g->nelem, sizeof *seen);
  if (!seen) exit(1);
  long covered = 0;
  double cost = 0;
  for (int r = 0; r < p->nranks; ++r) {
    const dg_part_block *b = &p->block[r];
    CHECK(b->nelem >= 1, "%s: rank %d has no element", what, r);
    long n = 0;
    for (int k = b->lo[2]; k < b->hi[2]; ++k)
      for (int j = b->lo[1]; j < b->hi[1]; ++j)
        for (int i = b->lo[0]; i < b->hi[0]; ++i) {
          const long e = dg_grid_elem(g, i, j, k);
          seen[e]++;
          n++;
        }
    CHECK(n == b->nelem, "%s: rank %d counts %ld elements, its box holds %ld", what, r, b->nelem,
          n);
    covered += n;
  }
  long twice = 0, missed = 0, wrong_owner = 0;
  for (long e = 0; e < g->nelem; ++e) {
    if (seen[e] > 1) twice++;
    if (seen[e] == 0) missed++;
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    const int o = dg_partition_owner(p, ijk);
    if (o < 0 || ijk[0] < p->block[o].lo[0] || ijk[0] >= p->block[o].hi[0] ||
        ijk[1] < p->block[o].lo[1] || ijk[1] >= p->block[o].hi[1])
      wrong_owner++;
    int r = m->deg[e];
    double w = 1;
    for (int d = 0; d < g->dim; ++d) w *= r + 1;
    cost += p->default_cost ? w : p->cost_deg[r];
  }
  CHECK(covered == g->nelem && twice == 0 && missed == 0 && wrong_owner == 0,
        "%s: %ld elements covered of %ld, %ld twice, %ld missed, %ld with a wrong owner", what,
        covered, g->nelem, twice, missed, wrong_owner);
  CHECK_CLOSE(p->cost_total, cost, 0, 1e-14, what);
  free(seen);
}

static void grid2(dg_grid *g, int nx, int ny, int latlon) {
  if (latlon) {
    OK(dg_grid_init_latlon(g, nx, ny, 1.0));
  } else {
    const int n[3] = {nx, ny, 1};
    const double lo[3] = {0, 0, 0}, hi[3] = {2, 1, 1};
    OK(dg_grid_init(g, 2, n, lo, hi));
  }
}

/* The balance table: largest cost over the mean for 1..16 ranks; returns the worst. */
static double balance_row(const dg_grid *g, const dg_degree_map *m, const char *what) {
  double worst = 0;
  printf("%-36s", what);
  for (int np = 1; np <= 16; ++np) {
    dg_partition *p = NULL;
    OK(dg_partition_create(&p, g, m, np, NULL));
    char name[128];
    snprintf(name, sizeof name, "%s, %d ranks", what, np);
    check_tiling(p, g, m, name);
    const double ib = dg_partition_imbalance(p);
    printf(" %.3f", ib);
    if (ib > worst) worst = ib;
    CHECK(ib <= 1.05, "%s: max/mean %.4f above 1.05", name, ib);
    dg_partition_destroy(&p);
  }
  printf("  worst %.4f\n", worst);
  return worst;
}

static void test_balance(void) {
  printf("max/mean cost for 1..16 ranks:\n");
  const int sizes[][2] = {{160, 80}, {96, 48}, {320, 160}, {200, 100}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (int latlon = 0; latlon <= 1; ++latlon) {
      dg_grid g;
      grid2(&g, sizes[s][0], sizes[s][1], latlon);
      const int ranges[][2] = {{1, 4}, {1, 6}, {0, 7}};
      for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; ++k) {
        for (int band = 0; band <= 1; ++band) {
          dg_degree_map *m = NULL;
          if (band)
            OK(dg_degree_map_create_band(&m, &g, ranges[k][0], ranges[k][1]));
          else
            OK(dg_degree_map_create_latitude(&m, &g, ranges[k][0], ranges[k][1]));
          char what[96];
          snprintf(what, sizeof what, "%s %dx%d %s %d..%d", latlon ? "latlon" : "box", g.n[0],
                   g.n[1], band ? "band" : "latitude", ranges[k][0], ranges[k][1]);
          balance_row(&g, m, what);
          dg_degree_map_destroy(&m);
        }
      }
    }
  }
  /* 3D: a band map on 32^3 and 48x24x24 */
  const int n3[][3] = {{32, 32, 32}, {48, 24, 24}};
  for (int s = 0; s < 2; ++s) {
    dg_grid g;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    OK(dg_grid_init(&g, 3, n3[s], lo, hi));
    dg_degree_map *m = NULL;
    OK(dg_degree_map_create_band(&m, &g, 1, 4));
    char what[96];
    snprintf(what, sizeof what, "box %dx%dx%d band 1..4", n3[s][0], n3[s][1], n3[s][2]);
    balance_row(&g, m, what);
    dg_degree_map_destroy(&m);
  }
}

/* A random map is balanced too where blocks hold many elements. */
static void test_random(void) {
  dg_grid g;
  grid2(&g, 160, 80, 0);
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_random(&m, &g, 0, 6, 12345));
  balance_row(&g, m, "box 160x80 random 0..6");
  dg_degree_map_destroy(&m);
}

/* 8x2, degree 0 on the left half (cost 1), 3 on the right (cost 16): the x
 * cuts give 72 | 64 at best, a y cut 68 | 68: the weighting must pick y. */
static void test_weighted_cut(void) {
  dg_grid g;
  grid2(&g, 8, 2, 0);
  int row[2] = {0, 0};
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_rows(&m, &g, row));
  for (long e = 0; e < g.nelem; ++e) m->deg[e] = (e % 8) < 4 ? 0 : 3;
  m->rmax = 3;
  dg_partition *p = NULL;
  OK(dg_partition_create(&p, &g, m, 2, NULL));
  const dg_part_block *b = p->block;
  CHECK(b[0].lo[0] == 0 && b[0].hi[0] == 8 && b[0].lo[1] == 0 && b[0].hi[1] == 1,
        "rank 0 is [%d,%d)x[%d,%d), not [0,8)x[0,1)", b[0].lo[0], b[0].hi[0], b[0].lo[1],
        b[0].hi[1]);
  CHECK(b[0].cost == 68 && b[1].cost == 68, "costs %g and %g, not 68 and 68", b[0].cost, b[1].cost);
  /* by element count instead, the x cut at 4 is exact and has the smaller face */
  double ones[DG_MAX_DEGREE + 1];
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) ones[r] = 1;
  dg_partition_destroy(&p);
  OK(dg_partition_create(&p, &g, m, 2, ones));
  b = p->block;
  CHECK(b[0].lo[0] == 0 && b[0].hi[0] == 4 && b[0].lo[1] == 0 && b[0].hi[1] == 2,
        "unit cost: rank 0 is [%d,%d)x[%d,%d), not [0,4)x[0,2)", b[0].lo[0], b[0].hi[0], b[0].lo[1],
        b[0].hi[1]);
  CHECK(b[0].cost == 8 && b[1].cost == 8, "unit cost: costs %g and %g, not 8 and 8", b[0].cost,
        b[1].cost);
  dg_partition_destroy(&p);
  dg_degree_map_destroy(&m);
}

/* Halos on 160x80 at degree 2.  4 ranks: column strips [40 r, 40 r + 40) x
 * [0, 80) (an x cut has the smaller face at the first level and ties with y
 * at the second, where x comes first); a box wraps in x and y, and a strip
 * spans y, so its halo is its two x sides, 2 x 80; on the sphere (poles in
 * y) the same.  8 ranks: the strips are cut in y (a face of 40, not 80),
 * 40 x 40 blocks; on the box 4 x 40 each, on the sphere 3 x 40 (the pole
 * side exchanges nothing). */
static void test_halo(void) {
  for (int latlon = 0; latlon <= 1; ++latlon) {
    dg_grid g;
    grid2(&g, 160, 80, latlon);
    dg_degree_map *m = NULL;
    OK(dg_degree_map_create_uniform(&m, &g, 2));
    dg_partition *p = NULL;
    OK(dg_partition_create(&p, &g, m, 4, NULL));
    for (int r = 0; r < 4; ++r) {
      const dg_part_block *b = &p->block[r];
      CHECK(b->lo[0] == 40 * r && b->hi[0] == 40 * r + 40 && b->lo[1] == 0 && b->hi[1] == 80,
            "4 ranks: rank %d is [%d,%d)x[%d,%d)", r, b->lo[0], b->hi[0], b->lo[1], b->hi[1]);
      CHECK(b->halo == 160, "4 ranks %s: rank %d halo %ld, not 160", latlon ? "latlon" : "box", r,
            b->halo);
    }
    CHECK(dg_partition_halo_total(p) == 640, "4 ranks: halo total %ld, not 640",
          dg_partition_halo_total(p));
    dg_partition_destroy(&p);
    OK(dg_partition_create(&p, &g, m, 8, NULL));
    const long want = latlon ? 120 : 160;
    for (int r = 0; r < 8; ++r) {
      const dg_part_block *b = &p->block[r];
      CHECK(b->hi[0] - b->lo[0] == 40 && b->hi[1] - b->lo[1] == 40 && b->halo == want,
            "8 ranks %s: rank %d is [%d,%d)x[%d,%d) with halo %ld, not 40x40 with %ld",
            latlon ? "latlon" : "box", r, b->lo[0], b->hi[0], b->lo[1], b->hi[1], b->halo, want);
    }
    dg_partition_destroy(&p);
    dg_degree_map_destroy(&m);
  }
}

static void test_describe(void) {
  dg_grid g;
  grid2(&g, 8, 2, 0);
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_uniform(&m, &g, 1));
  dg_partition *p = NULL;
  OK(dg_partition_create(&p, &g, m, 2, NULL));
  char buf[512];
  OK(dg_partition_describe(p, 1, buf, sizeof buf));
  const char *want = "partition: 2 ranks by recursive bisection, cost (r+1)^2 per element: "
                     "max/mean 1.0000, halo faces 8 (max 4 on a rank)\n"
                     "  rank 0: [0,4)x[0,2), 8 elements, cost 32 (1.0000 of the mean), halo 4\n"
                     "  rank 1: [4,8)x[0,2), 8 elements, cost 32 (1.0000 of the mean), halo 4";
  CHECK(strcmp(buf, want) == 0, "describe:\n%s\nwanted\n%s", buf, want);
  printf("%s\n", buf);
  char small[40];
  CHECK(dg_partition_describe(p, 1, small, sizeof small) == DG_ERR_ARG &&
            strstr(dg_error_message(), "more than 40 bytes") && strlen(small) == 39,
        "a short buffer: %s", dg_error_message());
  dg_partition_destroy(&p);
  dg_degree_map_destroy(&m);
}

static void test_refusals(void) {
  dg_grid g;
  grid2(&g, 4, 2, 0);
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_uniform(&m, &g, 1));
  dg_partition *p = (dg_partition *)&g;
  CHECK(dg_partition_create(&p, &g, m, 0, NULL) == DG_ERR_ARG && p == NULL &&
            strcmp(dg_error_message(), "partition: 0 ranks (at least 1)") == 0,
        "0 ranks: %s", dg_error_message());
  CHECK(dg_partition_create(&p, &g, m, 9, NULL) == DG_ERR_ARG &&
            strcmp(dg_error_message(),
                   "partition: 9 ranks for 8 elements (at most one rank per element)") == 0,
        "9 ranks: %s", dg_error_message());
  double cost[DG_MAX_DEGREE + 1];
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) cost[r] = 1;
  cost[3] = 0;
  CHECK(dg_partition_create(&p, &g, m, 2, cost) == DG_ERR_ARG &&
            strcmp(dg_error_message(),
                   "partition: the cost of degree 3 is 0 (positive and finite)") == 0,
        "zero cost: %s", dg_error_message());
  dg_grid g2;
  grid2(&g2, 4, 4, 0);
  CHECK(dg_partition_create(&p, &g2, m, 2, NULL) == DG_ERR_ARG &&
            strcmp(dg_error_message(), "partition: the degree map has 8 elements, the grid 16") ==
                0,
        "map of another grid: %s", dg_error_message());
  /* every element its own rank: 8 ranks on 8 elements */
  OK(dg_partition_create(&p, &g, m, 8, NULL));
  check_tiling(p, &g, m, "8 ranks on 8 elements");
  CHECK(dg_partition_imbalance(p) == 1, "8 ranks on 8 elements: max/mean %g",
        dg_partition_imbalance(p));
  dg_partition_destroy(&p);
  CHECK(p == NULL, "destroy leaves the handle set");
  dg_degree_map_destroy(&m);
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  if (!*only || !strcmp(only, "weighted")) test_weighted_cut();
  if (!*only || !strcmp(only, "halo")) test_halo();
  if (!*only || !strcmp(only, "describe")) test_describe();
  if (!*only || !strcmp(only, "refuse")) test_refusals();
  if (!*only || !strcmp(only, "balance")) test_balance();
  if (!*only || !strcmp(only, "random")) test_random();
  return dg_test_done("unit.partition");
}
