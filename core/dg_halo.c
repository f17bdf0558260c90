/* dg_halo.c - the faces a rank exchanges, and their order (dg_halo.h). */
#include "dg_halo.h"

#include "dg_error.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  int peer;
  int side, nbside;
  long me, nb;
} face;

long dg_halo_neighbour(const dg_grid *g, long e, int side) {
  int ijk[3];
  dg_grid_ijk(g, e, ijk);
  const int d = side / 2, up = side % 2;
  const int i = ijk[d] + (up ? 1 : -1);
  if ((i < 0 || i >= g->n[d]) && !dg_grid_periodic(g, d)) return -1;
  long c[3] = {ijk[0], ijk[1], ijk[2]};
  c[d] = i;
  return dg_grid_elem(g, c[0], c[1], c[2]); /* wraps */
}

/* by (peer, my element, my side): the receive order */
static int by_recv(const void *a, const void *b) {
  const face *x = a, *y = b;
  if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
  if (x->me != y->me) return x->me < y->me ? -1 : 1;
  return (x->side > y->side) - (x->side < y->side);
}

/* by (peer, its element, its side): the order the peer receives in */
static int by_send(const void *a, const void *b) {
  const face *x = a, *y = b;
  if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
  if (x->nb != y->nb) return x->nb < y->nb ? -1 : 1;
  return (x->nbside > y->nbside) - (x->nbside < y->nbside);
}

void dg_halo_destroy(dg_halo **h) {
  if (!h || !*h) return;
  for (int i = 0; i < (*h)->npeer; ++i) {
    dg_halo_peer *q = &(*h)->peer[i];
    free(q->send_elem);
    free(q->send_side);
    free(q->recv_elem);
    free(q->recv_side);
  }
  free((*h)->peer);
  free(*h);
  *h = NULL;
}

int dg_halo_create(dg_halo **h, const dg_grid *g, const dg_partition *p, int rank) {
  if (!h) return dg_error(DG_ERR_ARG, "dg_halo_create: NULL handle");
  *h = NULL;
  if (!g || !p) return dg_error(DG_ERR_ARG, "dg_halo_create: NULL grid or partition");
  if (rank < 0 || rank >= p->nranks)
    return dg_error(DG_ERR_ARG, "halo: rank %d outside 0..%d", rank, p->nranks - 1);
  for (int d = 0; d < 3; ++d)
    if (p->dim != g->dim || p->n[d] != (d < g->dim ? g->n[d] : 1))
      return dg_error(DG_ERR_ARG, "halo: the partition is of another grid");
  const dg_part_block *b = &p->block[rank];
  /* faces on the block's surface: at most 2 per element and direction */
  long cap = 0;
  for (int d = 0; d < g->dim; ++d) cap += 2 * b->nelem / (b->hi[d] - b->lo[d]);
  face *f = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *f);
  dg_halo *o = calloc(1, sizeof *o);
  if (!f || !o) {
    free(f);
    free(o);
    return dg_error(DG_ERR_MEM, "halo: out of memory");
  }
  o->rank = rank;
  long nf = 0;
  for (int k = b->lo[2]; k < b->hi[2]; ++k)
    for (int j = b->lo[1]; j < b->hi[1]; ++j)
      for (int i = b->lo[0]; i < b->hi[0]; ++i) {
        const int ijk[3] = {i, j, k};
        const long e = dg_grid_elem(g, i, j, k);
        int boundary = 0;
        for (int side = 0; side < 2 * g->dim; ++side) {
          const int d = side / 2;
          /* only the block's outer layer can face another rank */
          if (ijk[d] != (side % 2 ? b->hi[d] - 1 : b->lo[d])) continue;
          const long nb = dg_halo_neighbour(g, e, side);
          if (nb < 0) continue;
          int nijk[3];
          dg_grid_ijk(g, nb, nijk);
          const int owner = dg_partition_owner(p, nijk);
          if (owner == rank) continue; /* a periodic wrap onto my own block */
          f[nf].peer = owner;
          f[nf].me = e;
          f[nf].side = side;
          f[nf].nb = nb;
          f[nf].nbside = side ^ 1;
          nf++;
          boundary = 1;
        }
        o->nboundary += boundary;
      }
  o->nface = nf;
  /* the peers, by rank */
  qsort(f, (size_t)nf, sizeof *f, by_recv);
  for (long t = 0; t < nf; ++t)
    if (t == 0 || f[t].peer != f[t - 1].peer) o->npeer++;
  o->peer = calloc((size_t)(o->npeer > 0 ? o->npeer : 1), sizeof *o->peer);
  int rc = o->peer ? 0 : dg_error(DG_ERR_MEM, "halo: out of memory");
  for (long t = 0, q = -1; rc == 0 && t < nf; ++t) {
    if (t == 0 || f[t].peer != f[t - 1].peer) {
      dg_halo_peer *pe = &o->peer[++q];
      pe->rank = f[t].peer;
      long n = 0;
      while (t + n < nf && f[t + n].peer == pe->rank) n++;
      pe->nface = n;
      pe->send_elem = malloc((size_t)n * sizeof *pe->send_elem);
      pe->recv_elem = malloc((size_t)n * sizeof *pe->recv_elem);
      pe->send_side = malloc((size_t)n);
      pe->recv_side = malloc((size_t)n);
      if (!pe->send_elem || !pe->recv_elem || !pe->send_side || !pe->recv_side) {
        rc = dg_error(DG_ERR_MEM, "halo: out of memory for %ld faces", n);
        break;
      }
      for (long u = 0; u < n; ++u) {
        pe->recv_elem[u] = f[t + u].me;
        pe->recv_side[u] = (unsigned char)f[t + u].side;
      }
      qsort(f + t, (size_t)n, sizeof *f, by_send);
      for (long u = 0; u < n; ++u) {
        pe->send_elem[u] = f[t + u].me;
        pe->send_side[u] = (unsigned char)f[t + u].side;
      }
      qsort(f + t, (size_t)n, sizeof *f, by_recv); /* back, for the peer scan */
    }
  }
  free(f);
  if (rc != 0) {
    dg_halo_destroy(&o);
    return rc;
  }
  *h = o;
  return 0;
}
