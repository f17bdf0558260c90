/* dg_disc_part.c - a discretisation of one rank's block (dg_disc_part.h):
 * which elements it holds, the ghosts' exchange lists, the exchange before
 * each stage, and the gather into a discretisation of the whole grid
 * (--text-output).
 *
 * Ghosts are whole elements (docs/ARCHITECTURE.md, "Runs across ranks"):
 * each bucket's last microblocks hold the other ranks' elements that the
 * block's elements read across a face, as the neighbour tables of one
 * process name them (pole faces included: their flux is masked, but the
 * table reads the element across the pole).  A stage receives their
 * coefficients; where the updates read traces it then runs the trace pass
 * over the ghost microblocks alone, the same stage code on the same bits as
 * the owner's, so every owned element reads what it reads in one process.
 * The stages and the stencils do not change. */
#include "dg_disc_part.h"

#include "dg_arg.h"
#include "dg_disc_impl.h"
#include "dg_error.h"
#include "dg_field.h"
#include "dg_xlist.h"

#include <stdlib.h>
#include <string.h>

/* The ghosts' exchange (dg_xlist.h): per peer the storage indices of the
 * owned coefficients it reads and of the ghosts it owns, each list in
 * increasing global element order, per element every variable and mode in
 * storage order: both ranks of a pair compute the same order. */

void dg_disc_part_free(dg_disc *d) {
  if (d->x) {
    dg_xlist_free(d->x, d->backend, &dg_xlist_backend_mem);
    free(d->x);
  }
  free(d->held);
  free(d->owner);
  d->x = NULL;
  d->held = NULL;
  d->owner = NULL;
}

/* Whether element e has a face neighbour owned by rank q. */
static int reads_from(const dg_grid *g, const int *owner, long e, int q) {
  for (int side = 0; side < 2 * g->dim; ++side) {
    const long nb = dg_disc_face_nbr(g, e, side);
    if (nb >= 0 && owner[nb] == q) return 1;
  }
  return 0;
}

/* Coefficients of element e (every variable). */
static long elem_len(const dg_disc *d, long e) {
  return (long)d->nvar * dg_disc_ipow(d->map.deg[e] + 1, d->grid.dim);
}

/* Append e's storage indices to idx at *n. */
static void add_indices(const dg_disc *d, long e, long *idx, long *n) {
  const long M = dg_disc_ipow(d->map.deg[e] + 1, d->grid.dim);
  for (int v = 0; v < d->nvar; ++v)
    for (long k = 0; k < M; ++k) idx[(*n)++] = dg_disc_index(d, e, v, (int)k);
}

/* The exchange lists of rank me (d->held, d->owner set). */
static int build_xchg(dg_disc *d, int me, int nranks) {
  const dg_grid *g = &d->grid;
  dg_xlist *x = calloc(1, sizeof *x);
  if (!x) return dg_error(DG_ERR_MEM, "out of memory for the halo");
  d->x = x;
  long *scount = calloc((size_t)nranks, sizeof *scount),
       *rcount = calloc((size_t)nranks, sizeof *rcount);
  int rc = 0;
  if (!scount || !rcount) {
    rc = dg_error(DG_ERR_MEM, "out of memory for the halo");
    goto done;
  }
  /* counts per rank: an owned element goes to every rank it faces */
  for (long e = 0; e < g->nelem; ++e) {
    if (d->held[e] == DG_HELD_GHOST) rcount[d->owner[e]] += elem_len(d, e);
    if (d->held[e] != DG_HELD_OWN) continue;
    for (int q = 0; q < nranks; ++q)
      if (q != me && reads_from(g, d->owner, e, q)) scount[q] += elem_len(d, e);
  }
  if ((rc = dg_xlist_peers(x, nranks, scount, rcount, NULL, "the halo"))) goto done;
  for (int i = 0; i < x->npeer; ++i) {
    const int q = x->peer[i];
    long sn = x->soff[i], rn = x->roff[i];
    for (long e = 0; e < g->nelem; ++e) {
      if (d->held[e] == DG_HELD_GHOST && d->owner[e] == q) add_indices(d, e, x->ridx, &rn);
      if (d->held[e] == DG_HELD_OWN && reads_from(g, d->owner, e, q))
        add_indices(d, e, x->sidx, &sn);
    }
  }
  rc = dg_xlist_setup(x, d->backend, &dg_xlist_backend_mem, sizeof(dg_real));
done:
  free(scount);
  free(rcount);
  return rc;
}

int dg_disc_create_part(dg_disc **out, const dg_backend *be, const dg_grid *g,
                        const dg_degree_map *m, int q, const dg_model *model, dg_comm *c,
                        const dg_partition *p) {
  DG_ARG_NONNULL("dg_disc_create_part", out);
  *out = NULL;
  DG_ARG_NONNULL("dg_disc_create_part", be);
  DG_ARG_NONNULL("dg_disc_create_part", g);
  DG_ARG_NONNULL("dg_disc_create_part", c);
  DG_ARG_NONNULL("dg_disc_create_part", p);
  const int me = dg_comm_rank(c), nranks = dg_comm_size(c);
  if (p->nranks != nranks || p->dim != g->dim || p->n[0] != g->n[0] || p->n[1] != g->n[1] ||
      (g->dim == 3 && p->n[2] != g->n[2]))
    return dg_error(DG_ERR_ARG, "dg_disc_create_part: a partition of another grid or size");
  if (nranks > 1 && (!be->ops->pack || !be->ops->unpack))
    return dg_error(DG_ERR_ARG, "backend %s: not yet across ranks (run it on one rank)",
                    be->ops->name);
  unsigned char *held = calloc((size_t)g->nelem, 1);
  int *owner = malloc((size_t)g->nelem * sizeof *owner);
  if (!held || !owner) {
    free(held);
    free(owner);
    return dg_error(DG_ERR_MEM, "out of memory for %ld elements", g->nelem);
  }
  for (int r = 0; r < nranks; ++r) {
    const dg_part_block *b = &p->block[r];
    for (int k = b->lo[2]; k < (g->dim == 3 ? b->hi[2] : 1); ++k)
      for (int j = b->lo[1]; j < b->hi[1]; ++j)
        for (int i = b->lo[0]; i < b->hi[0]; ++i) owner[dg_grid_elem(g, i, j, k)] = r;
  }
  for (long e = 0; e < g->nelem; ++e)
    if (owner[e] == me) held[e] = DG_HELD_OWN;
  for (long e = 0; e < g->nelem; ++e)
    for (int side = 0; held[e] == DG_HELD_OWN && side < 2 * g->dim; ++side) {
      const long nb = dg_disc_face_nbr(g, e, side);
      if (nb >= 0 && owner[nb] != me) held[nb] = DG_HELD_GHOST;
    }
  dg_disc *d = NULL;
  int rc = dg_disc_create_held(&d, be, g, m, q, model, held);
  if (rc) {
    free(held);
    free(owner);
    return rc;
  }
  d->comm = c;
  d->held = held;
  d->owner = owner;
  if ((rc = build_xchg(d, me, nranks))) {
    dg_disc_destroy(&d);
    return rc;
  }
  *out = d;
  return 0;
}

int dg_disc_part_owner(const dg_disc *d, long e) { return d->owner ? d->owner[e] : 0; }

int dg_disc_counts(const dg_disc *d, long e) { return !d->held || d->held[e] == DG_HELD_OWN; }

dg_comm *dg_disc_comm(const dg_disc *d) { return d->held ? d->comm : NULL; }

int dg_disc_halo_path(const dg_disc *d) { return d->x && d->x->npeer > 0 ? d->x->path : -1; }

int dg_disc_exchange_start(dg_disc *d, dg_field *u) {
  const dg_xlist *x = d->x;
  if (!x || x->npeer == 0) return 0;
  const double t0 = d->timing ? dg_disc_now_s() : 0;
  /* pack: into the host buffer, through the device one where there is one;
     the device one alone where MPI reads it */
  DG_CALL(d->be->pack(x->path == DG_HALO_DEVICE ? NULL : x->sbuf, x->sdev, u->dev, x->sidx_dev,
                      (size_t)x->soff[x->npeer]));
  DG_CALL(dg_xlist_start(x, d->comm, sizeof(dg_real)));
  if (d->timing) d->t_post += dg_disc_now_s() - t0;
  return 0;
}

int dg_disc_exchange_wait(dg_disc *d, dg_field *u) {
  const dg_xlist *x = d->x;
  if (!x || x->npeer == 0) return 0;
  const double t0 = d->timing ? dg_disc_now_s() : 0;
  DG_CALL(dg_xlist_wait(x, d->comm));
  DG_CALL(d->be->unpack(u->dev, x->rdev, x->ridx_dev, x->path == DG_HALO_DEVICE ? NULL : x->rbuf,
                        (size_t)x->roff[x->npeer]));
  if (d->timing) d->t_wait += dg_disc_now_s() - t0;
  return 0;
}

int dg_disc_exchange(dg_disc *d, dg_field *u) {
  DG_CALL(dg_disc_exchange_start(d, u));
  return dg_disc_exchange_wait(d, u);
}

/* Whether dg is a discretisation of d's whole grid with the same map. */
static int check_whole(const char *fn, const dg_disc *d, dg_field *u, const dg_disc *dg,
                       dg_field *ug) {
  DG_ARG_CHECK(dg_arg_field(fn, d, u, "u"));
  DG_ARG_CHECK(dg_arg_field(fn, dg, ug, "ug"));
  if (dg->grid.nelem != d->grid.nelem || dg->nvar != d->nvar ||
      memcmp(dg->map.deg, d->map.deg, (size_t)d->grid.nelem) != 0)
    return dg_error(DG_ERR_ARG, "%s: the whole discretisation has another grid or map", fn);
  return 0;
}

int dg_disc_part_gather(const dg_disc *d, dg_field *u, const dg_disc *dg, dg_field *ug) {
  DG_CALL(check_whole("dg_disc_part_gather", d, u, dg, ug));
  DG_CALL(dg_field_to_host(u));
  DG_CALL(dg_field_to_host(ug)); /* its padding stays */
  const int nranks = d->comm ? dg_comm_size(d->comm) : 1, me = d->comm ? dg_comm_rank(d->comm) : 0;
  const long ne = d->grid.nelem;
  long *count = calloc((size_t)nranks + 1, sizeof *count), total = 0;
  if (!count) return dg_error(DG_ERR_MEM, "out of memory for the gather");
  for (long e = 0; e < ne; ++e) count[dg_disc_part_owner(d, e)] += elem_len(d, e);
  for (int r = 0; r < nranks; ++r) total += count[r];
  dg_real *mine = malloc((size_t)(count[me] + 1) * sizeof *mine);
  dg_real *all = malloc((size_t)(total + 1) * sizeof *all);
  long *pos = calloc((size_t)nranks + 1, sizeof *pos);
  int rc = 0;
  if (!mine || !all || !pos) {
    rc = dg_error(DG_ERR_MEM, "out of memory for the gather (%ld values)", total);
    goto done;
  }
  /* mine in element order; then each rank's run of all, read in element order */
  long n = 0;
  for (long e = 0; e < ne; ++e) {
    if (dg_disc_part_owner(d, e) != me) continue;
    const long M = dg_disc_ipow(d->map.deg[e] + 1, d->grid.dim);
    for (int v = 0; v < d->nvar; ++v)
      for (long k = 0; k < M; ++k) mine[n++] = u->h[dg_disc_index(d, e, v, (int)k)];
  }
  if (d->comm)
    rc = dg_comm_allgather(d->comm, mine, all, count, sizeof *all);
  else
    memcpy(all, mine, (size_t)n * sizeof *all);
  for (int r = 1; r <= nranks; ++r) pos[r] = pos[r - 1] + count[r - 1];
  for (long e = 0; e < ne && !rc; ++e) {
    long *at = &pos[dg_disc_part_owner(d, e)];
    const long M = dg_disc_ipow(d->map.deg[e] + 1, d->grid.dim);
    for (int v = 0; v < d->nvar; ++v)
      for (long k = 0; k < M; ++k) ug->h[dg_disc_index(dg, e, v, (int)k)] = all[(*at)++];
  }
  if (!rc) dg_field_host_modified(ug);
done:
  free(count);
  free(mine);
  free(all);
  free(pos);
  return rc;
}
