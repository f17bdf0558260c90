/* test_halo.c - unit.halo: the faces each rank exchanges (core/dg_halo.h).
 * For partitions of spheres, periodic boxes, a box with inflow and outflow
 * sides and 3D boxes at 1..8 ranks: rank p's send list to q is entry for
 * entry q's receive list from p (the same face seen from both sides), every
 * face to another rank is received exactly once, the counts agree with the
 * partition's own halo count, and a hand-computed case. */
#include "dg_test.h"

#include "dg_degree_map.h"
#include "dg_grid.h"
#include "dg_halo.h"
#include "dg_partition.h"

#include <string.h>

static int owner_of(const dg_partition *p, const dg_grid *g, long e) {
  int ijk[3];
  dg_grid_ijk(g, e, ijk);
  return dg_partition_owner(p, ijk);
}

static const dg_halo_peer *find_peer(const dg_halo *h, int rank) {
  for (int i = 0; i < h->npeer; ++i)
    if (h->peer[i].rank == rank) return &h->peer[i];
  return NULL;
}

static void check_halos(const dg_grid *g, const dg_degree_map *m, int np, const char *what) {
  dg_partition *p = NULL;
  OK(dg_partition_create(&p, g, m, np, NULL));
  dg_halo **h = calloc((size_t)np, sizeof *h);
  if (!h) exit(1);
  for (int r = 0; r < np; ++r) OK(dg_halo_create(&h[r], g, p, r));
  /* brute force over every element and side: faces to another rank, and
     elements with one */
  long foreign = 0, *boundary = calloc((size_t)np, sizeof *boundary);
  if (!boundary) exit(1);
  for (long e = 0; e < g->nelem; ++e) {
    const int o = owner_of(p, g, e);
    int any = 0;
    for (int s = 0; s < 2 * g->dim; ++s) {
      const long nb = dg_halo_neighbour(g, e, s);
      if (nb >= 0 && owner_of(p, g, nb) != o) {
        foreign++;
        any = 1;
      }
    }
    boundary[o] += any;
  }
  long total = 0, bad_pair = 0, bad_order = 0, bad_owner = 0;
  for (int r = 0; r < np; ++r) {
    total += h[r]->nface;
    CHECK(h[r]->nboundary == boundary[r],
          "%s, %d ranks: rank %d has %ld boundary elements, not %ld", what, np, r, h[r]->nboundary,
          boundary[r]);
    CHECK(h[r]->nface == p->block[r].halo,
          "%s, %d ranks: rank %d exchanges %ld faces, the "
          "partition counts %ld",
          what, np, r, h[r]->nface, p->block[r].halo);
    for (int i = 0; i < h[r]->npeer; ++i) {
      const dg_halo_peer *a = &h[r]->peer[i];
      CHECK(a->rank != r && (i == 0 || a->rank > h[r]->peer[i - 1].rank),
            "%s: rank %d's peers out of order", what, r);
      const dg_halo_peer *b = find_peer(h[a->rank], r);
      if (!b || b->nface != a->nface) {
        bad_pair++;
        continue;
      }
      for (long u = 0; u < a->nface; ++u) {
        /* what r sends as entry u is what a->rank receives as entry u */
        const long nb = dg_halo_neighbour(g, a->send_elem[u], a->send_side[u]);
        if (nb != b->recv_elem[u] || b->recv_side[u] != (a->send_side[u] ^ 1) ||
            dg_halo_neighbour(g, b->recv_elem[u], b->recv_side[u]) != a->send_elem[u])
          bad_pair++;
        if (owner_of(p, g, a->send_elem[u]) != r || owner_of(p, g, a->recv_elem[u]) != r ||
            owner_of(p, g, nb) != a->rank)
          bad_owner++;
        /* receive keys strictly increase: no face twice */
        if (u > 0 &&
            (a->recv_elem[u] < a->recv_elem[u - 1] ||
             (a->recv_elem[u] == a->recv_elem[u - 1] && a->recv_side[u] <= a->recv_side[u - 1])))
          bad_order++;
      }
    }
  }
  CHECK(total == foreign && total == dg_partition_halo_total(p),
        "%s, %d ranks: %ld faces in the halos, %ld to other ranks, the partition counts %ld", what,
        np, total, foreign, dg_partition_halo_total(p));
  CHECK(bad_pair == 0 && bad_order == 0 && bad_owner == 0,
        "%s, %d ranks: %ld faces unmatched between sender and receiver, %ld out of order, %ld "
        "with the wrong owner",
        what, np, bad_pair, bad_order, bad_owner);
  for (int r = 0; r < np; ++r) dg_halo_destroy(&h[r]);
  free(h);
  free(boundary);
  dg_partition_destroy(&p);
}

static void test_matching(void) {
  dg_grid g;
  dg_degree_map *m = NULL;
  OK(dg_grid_init_latlon(&g, 160, 80, 1.0));
  OK(dg_degree_map_create_latitude(&m, &g, 1, 6));
  for (int np = 1; np <= 8; ++np) check_halos(&g, m, np, "latlon 160x80 latitude 1..6");
  dg_degree_map_destroy(&m);

  const int n2[3] = {17, 9, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 2, n2, lo, hi));
  OK(dg_degree_map_create_random(&m, &g, 0, 5, 99));
  for (int np = 1; np <= 8; ++np) check_halos(&g, m, np, "box 17x9 random");
  /* inflow and outflow in x, periodic in y */
  const int bc[DG_GRID_SIDES] = {DG_BC_INFLOW, DG_BC_OUTFLOW, DG_BC_PERIODIC, DG_BC_PERIODIC, 0, 0};
  OK(dg_grid_set_bc(&g, bc));
  for (int np = 1; np <= 8; ++np) check_halos(&g, m, np, "box 17x9 inflow/outflow");
  dg_degree_map_destroy(&m);

  const int n3[3] = {12, 10, 8};
  OK(dg_grid_init(&g, 3, n3, lo, hi));
  OK(dg_degree_map_create_band(&m, &g, 1, 3));
  for (int np = 1; np <= 8; ++np) check_halos(&g, m, np, "box 12x10x8 band");
  dg_degree_map_destroy(&m);

  /* 2 x 2 periodic, an element per rank: each pair of neighbours shares two faces */
  const int nn[3] = {2, 2, 1};
  OK(dg_grid_init(&g, 2, nn, lo, hi));
  OK(dg_degree_map_create_uniform(&m, &g, 1));
  check_halos(&g, m, 4, "box 2x2");
  dg_partition *p = NULL;
  dg_halo *h = NULL;
  OK(dg_partition_create(&p, &g, m, 4, NULL));
  OK(dg_halo_create(&h, &g, p, 0));
  CHECK(h->npeer == 2 && h->nface == 4 && h->peer[0].nface == 2 && h->peer[1].nface == 2,
        "2x2: rank 0 has %d peers and %ld faces, not 2 and 4 (2 each)", h->npeer, h->nface);
  dg_halo_destroy(&h);
  dg_partition_destroy(&p);
  dg_degree_map_destroy(&m);
}

/* 160 x 80 sphere, degree 2, 8 ranks: 40 x 40 blocks (unit.partition);
 * rank 0 = [0,40)x[0,40) meets rank 1 above (40 faces), rank 2 to the east
 * (40) and, across lambda's wrap, rank 6 = [120,160)x[0,40) (40); its
 * south side is a pole: no ghost. */
static void test_hand(void) {
  dg_grid g;
  dg_degree_map *m = NULL;
  OK(dg_grid_init_latlon(&g, 160, 80, 1.0));
  OK(dg_degree_map_create_uniform(&m, &g, 2));
  dg_partition *p = NULL;
  OK(dg_partition_create(&p, &g, m, 8, NULL));
  CHECK(p->block[6].lo[0] == 120 && p->block[6].lo[1] == 0, "rank 6 starts at (%d,%d)",
        p->block[6].lo[0], p->block[6].lo[1]);
  dg_halo *h = NULL;
  OK(dg_halo_create(&h, &g, p, 0));
  CHECK(h->npeer == 3 && h->peer[0].rank == 1 && h->peer[1].rank == 2 && h->peer[2].rank == 6,
        "rank 0's peers: %d of them", h->npeer);
  for (int i = 0; i < h->npeer && i < 3; ++i)
    CHECK(h->peer[i].nface == 40, "rank 0 and %d share %ld faces, not 40", h->peer[i].rank,
          h->peer[i].nface);
  CHECK(h->nboundary == 40 + 40 + 40 - 2, "rank 0 has %ld boundary elements, not 118",
        h->nboundary);
  /* with rank 6 (x- wrap): rank 0 receives on the west side of column 0,
     rows 0..39 in element order; it sends the same elements' west traces */
  const dg_halo_peer *w = &h->peer[2];
  CHECK(w->recv_elem[0] == 0 && w->recv_side[0] == 0 && w->recv_elem[39] == 39 * 160 &&
            w->send_elem[5] == 5 * 160 && w->send_side[5] == 0,
        "the wrap's lists: recv %ld/%d .. %ld, send %ld/%d", w->recv_elem[0], w->recv_side[0],
        w->recv_elem[39], w->send_elem[5], w->send_side[5]);
  dg_halo_destroy(&h);
  CHECK(h == NULL, "destroy leaves the handle set");
  CHECK(dg_halo_create(&h, &g, p, 8) == DG_ERR_ARG &&
            strcmp(dg_error_message(), "halo: rank 8 outside 0..7") == 0,
        "rank 8 of 8: %s", dg_error_message());
  dg_partition_destroy(&p);
  dg_degree_map_destroy(&m);
}

int main(void) {
  test_hand();
  test_matching();
  return dg_test_done("unit.halo");
}
