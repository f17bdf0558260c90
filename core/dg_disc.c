/* dg_disc.c - discretisation setup (buckets, layout, basis tables, device
 * arrays; the neighbour and geometry tables are dg_disc_geom.c's), the
 * stable step and the stage driver that hand buckets to the backend. */
#include "dg_disc.h"

#include "dg_arg.h"
#include "dg_comm.h"
#include "dg_disc_impl.h"
#include "dg_error.h"
#include "dg_field.h"
#include "dg_model_internal.h"
#include "dg_quadrature.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double dg_disc_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The tables of q Gauss-Legendre points (degrees up to q - 1). */
static int build_basis(int q, dg_basis *bs) {
  double x[DG_MAX_Q], w[DG_MAX_Q], P[DG_MAX_Q * DG_MAX_Q], D[DG_MAX_Q * DG_MAX_Q];
  double Ps[DG_MAX_Q * DG_MAX_Q], Ds[DG_MAX_Q * DG_MAX_Q]; /* the symmetrised P and Dw */
  const int rt = q - 1;                                    /* tables up to degree q-1 >= rmax */
  DG_CALL(dg_gauss_legendre(q, x, w));
  DG_CALL(dg_legendre_table(rt, q, x, P, D));
  memset(bs, 0, sizeof *bs);
  bs->q = q;
  for (int k = 0; k < q; ++k) {
    bs->x[k] = (dg_real)x[k];
    bs->w[k] = (dg_real)w[k];
  }
  /* The stages split every contraction into even and odd parts over the
     point pairs (k, q-1-k) and read only the first half of each table row, so
     the tables are made exactly symmetric here (GSL's nodes already are):
     x[q-1-k] = -x[k], P_a(-x) = (-1)^a P_a(x), P_a'(-x) = (-1)^(a+1) P_a'(x). */
  for (int k = 0; k < q / 2; ++k) {
    bs->x[q - 1 - k] = -bs->x[k];
    bs->w[q - 1 - k] = bs->w[k];
  }
  if (q % 2) bs->x[q / 2] = 0;
  for (int a = 0; a <= rt; ++a)
    for (int k = 0; k < q; ++k) {
      const int km = k < (q + 1) / 2 ? k : q - 1 - k; /* the mirror in the first half */
      const double sp = k == km || a % 2 == 0 ? 1.0 : -1.0, sd = k == km ? 1.0 : -sp;
      double p = sp * P[a * q + km], dp = sd * D[a * q + km];
      if (q % 2 && k == q / 2) { /* x = 0: odd functions vanish */
        if (a % 2)
          p = 0;
        else
          dp = 0;
      }
      bs->P[a][k] = (dg_real)p;
      bs->Pw[a][k] = (dg_real)(p * w[km]);
      bs->Dw[a][k] = (dg_real)(dp * w[km]);
      Ps[a * q + k] = p;
      Ds[a * q + k] = dp * w[km];
    }
  /* dg_basis.h: Dp and Lp, summed in double over a = 0 .. q - 1 */
  for (int k = 0; k < q; ++k) {
    for (int j = 0; j < q; ++j) {
      double s = 0;
      for (int a = 0; a <= rt; ++a) s += Ps[a * q + k] * (a + 0.5) * Ds[a * q + j];
      bs->Dp[j][k] = (dg_real)s;
    }
    double lm = 0, lp = 0;
    for (int a = 0; a <= rt; ++a) {
      lm += Ps[a * q + k] * (a + 0.5) * (a % 2 ? -1.0 : 1.0);
      lp += Ps[a * q + k] * (a + 0.5);
    }
    bs->Lp[0][k] = (dg_real)lm;
    bs->Lp[1][k] = (dg_real)lp;
  }
  return 0;
}

/* Microblocks of group grp of bucket b in a pass (0: the trace pass, whole
 * buckets as group 0; 1: the update, group 0 at degree changes, group 1 the
 * others under own_q, never the ghosts; 2: the ghosts' traces, group 0). */
static long group_blocks(const bucket *b, int pass, int grp) {
  if (pass == 0) return grp ? 0 : b->nblock - b->gblock; /* ghosts: pass 2 */
  if (pass == 2) return grp ? 0 : b->gblock;
  return grp ? b->nblock - b->gblock - b->eblock : b->eblock;
}

/* The first microblock of group grp of bucket b in a pass. */
static long group_first(const bucket *b, int pass, int grp) {
  if (pass == 2) return b->nblock - b->gblock;
  return pass == 1 && grp ? b->eblock : 0;
}

/* The launch of each pass that goes first: where the plan says largest
 * first, the group with the most DOFs, the rest in degree order; else plain
 * degree order.  The buckets of a pass are independent, so the order
 * changes no result. */
static void launch_first(dg_disc *d) {
  for (int pass = 0; pass < 2; ++pass) {
    long best = -1;
    d->first_r[pass] = d->first_g[pass] = 0; /* plain degree order */
    for (int r = 0; d->plan.largest_first && r <= DG_MAX_DEGREE; ++r)
      for (int grp = 0; grp < 2; ++grp) {
        const long dofs = group_blocks(&d->bk[r], pass, grp) * dg_disc_ipow(r + 1, d->grid.dim);
        if (dofs > best) best = dofs, d->first_r[pass] = r, d->first_g[pass] = grp;
      }
  }
}

/* Whether owned element e reads a ghost across a face (held: DG_HELD_*). */
static int near_rank(const dg_grid *g, const unsigned char *held, long e) {
  if (held[e] != DG_HELD_OWN) return 0;
  for (int side = 0; side < 2 * g->dim; ++side) {
    const long nb = dg_disc_face_nbr(g, e, side);
    if (nb >= 0 && held[nb] == DG_HELD_GHOST) return 1;
  }
  return 0;
}

/* Whether element e has a neighbour of another degree. */
static int at_degree_change(const dg_grid *g, const dg_degree_map *m, long e) {
  int ijk[3];
  dg_grid_ijk(g, e, ijk);
  for (int dd = 0; dd < g->dim; ++dd)
    for (int side = 0; side < 2; ++side) {
      int nb[3] = {ijk[0], ijk[1], ijk[2]};
      nb[dd] += side ? 1 : -1;
      if (m->deg[dg_grid_elem(g, nb[0], nb[1], nb[2])] != m->deg[e]) return 1;
    }
  return 0;
}

int dg_disc_create(dg_disc **out, const dg_backend *backend, const dg_grid *g,
                   const dg_degree_map *m, int q, const dg_model *model) {
  return dg_disc_create_held(out, backend, g, m, q, model, NULL);
}

int dg_disc_create_held(dg_disc **out, const dg_backend *backend, const dg_grid *g,
                        const dg_degree_map *m, int q, const dg_model *model,
                        const unsigned char *held) {
  DG_ARG_NONNULL("dg_disc_create", out);
  *out = NULL;
  DG_ARG_NONNULL("dg_disc_create", backend);
  DG_ARG_NONNULL("dg_disc_create", g);
  DG_ARG_NONNULL("dg_disc_create", m);
  DG_ARG_NONNULL("dg_disc_create", model);
  const dg_backend_ops *be = backend->ops;
  if (m->nelem != g->nelem)
    return dg_error(DG_ERR_ARG, "degree map has %ld elements, grid has %ld", m->nelem, g->nelem);
  if (q == 0) q = m->rmax + 1;
  if (q < m->rmax + 1 || q > DG_MAX_Q)
    return dg_error(DG_ERR_ARG, "q = %d: need max degree + 1 = %d <= q <= %d", q, m->rmax + 1,
                    DG_MAX_Q);
  dg_disc *d = calloc(1, sizeof *d);
  if (!d) return dg_error(DG_ERR_MEM, "out of memory");
  d->be = be;
  d->backend = backend;
  int rc = 0;
  int *nbr = NULL;
  dg_real *geom = NULL;
  unsigned char *edge = NULL; /* own_q: element at a degree change */
  d->grid = *g;
  if ((rc = dg_model_clone(&d->model, model))) goto fail;
  if (!dg_model_finished_for(d->model, g)) {
    if ((rc = dg_model_finish_grid(d->model, g))) goto fail;
  }
  d->q = q;
  d->nvar = dg_model_nvar(d->model);
  d->W = be->lane_width;
  d->map.nelem = m->nelem;
  d->map.rmin = m->rmin;
  d->map.rmax = m->rmax;
  d->map.deg = malloc((size_t)m->nelem);
  d->elem_slot = malloc((size_t)g->nelem * sizeof *d->elem_slot);
  if (!d->map.deg || !d->elem_slot) {
    rc = dg_error(DG_ERR_MEM, "out of memory for %ld elements", g->nelem);
    goto fail;
  }
  memcpy(d->map.deg, m->deg, (size_t)m->nelem);

  /* buckets by degree, each padded to whole microblocks (with own_q each
     of its two groups, across ranks the ghosts after them); the plan's
     input counts the whole map, so that every rank runs the same plan */
  dg_plan_in *pin = &d->pin;
  for (long e = 0; e < g->nelem; ++e) {
    if (m->deg[e] > DG_MAX_DEGREE) {
      rc = dg_error(DG_ERR_ARG, "degree map: element %ld has degree %d > %d", e, m->deg[e],
                    DG_MAX_DEGREE);
      goto fail;
    }
    pin->n[m->deg[e]]++;
    if (!held || held[e] == DG_HELD_OWN) d->bk[m->deg[e]].n++;
    if (held && held[e] == DG_HELD_GHOST) d->bk[m->deg[e]].ng++;
  }
  /* where own q could run, which elements are at degree changes */
  pin->dim = g->dim;
  pin->q = q;
  pin->rmin = m->rmin;
  pin->rmax = m->rmax;
  pin->nelem = g->nelem;
  d->metric = g->kind == DG_GRID_LATLON;
  if (d->metric && g->dim != 2) {
    rc = dg_error(DG_ERR_ARG, "option --grid latlon: the sphere is 2D");
    goto fail;
  }
  pin->mapped = d->metric;
  /* the sphere's angle table before the slots' geometry, whole microblock rows */
  if (d->metric) d->geom0 = (DG_TRIG_LEN + d->W - 1) / d->W * d->W;
  /* a box with boundaries: every side's kind must be one the model has */
  d->bnd = g->kind == DG_GRID_BOX && dg_grid_has_bc(g);
  if ((rc = dg_model_check_bc(d->model, g))) goto fail;
  for (int f = 0; d->bnd && f < 2 * g->dim; ++f) {
    const int k = g->bc[f];
    if (k != DG_BC_PERIODIC) d->bc |= (unsigned short)(k << (2 * f));
    if (k == DG_BC_INFLOW) {
      const long rb = (long)sizeof(dg_real) * d->W;
      d->geom0 = ((long)dg_model_bdata_size(d->model) + rb - 1) / rb * d->W;
    }
  }
  pin->bnd = d->bnd;
  pin->own_q_exact = dg_model_linear(d->model) && !dg_model_uses_x(d->model) &&
                     dg_model_naux(d->model) == 0 && !d->metric && !d->bnd;
  pin->aux = dg_model_naux(d->model) > 0;
  pin->nvar = d->nvar;
  const int own_ok = g->dim == 2 && m->rmin < m->rmax && pin->own_q_exact;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    d->bk[r].nedge = own_ok ? 0 : d->bk[r].n;
    pin->nedge[r] = own_ok ? 0 : pin->n[r];
  }
  if (own_ok) {
    if (!(edge = malloc((size_t)g->nelem))) {
      rc = dg_error(DG_ERR_MEM, "out of memory for %ld elements", g->nelem);
      goto fail;
    }
    for (long e = 0; e < g->nelem; ++e) {
      edge[e] = (unsigned char)at_degree_change(g, m, e);
      pin->nedge[m->deg[e]] += edge[e];
      if (!held || held[e] == DG_HELD_OWN) d->bk[m->deg[e]].nedge += edge[e];
    }
  }
  if ((rc = be->plan(pin, &d->plan))) goto fail;
  d->team = d->plan.team;
  d->nbr_coeffs = d->plan.nbr_coeffs;
  d->nbr_traces = d->plan.nbr_traces;
  d->reuse_traces = d->plan.reuse_traces;
  d->own_q = d->plan.own_q;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    if (!d->own_q || !d->plan.split[r]) d->bk[r].nedge = d->bk[r].n; /* one group */
  /* the kernels every launch of the plan needs are loaded (or compiled) at
     the first stage, not here: a discretisation that only projects or
     reads needs none (docs/ARCHITECTURE.md, "Kernels on demand") */
  if ((rc = be->model_slot(d->model->header, &d->kslot))) goto fail;
  long slot = 0, base = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    bucket *b = &d->bk[r];
    b->slot0 = slot;
    b->eblock = (b->nedge + d->W - 1) / d->W;
    b->gblock = (b->ng + d->W - 1) / d->W;
    b->nblock = b->eblock + (b->n - b->nedge + d->W - 1) / d->W + b->gblock;
    b->base = base;
    slot += b->nblock * d->W;
    base += b->nblock * d->W * d->nvar * dg_disc_ipow(r + 1, g->dim);
    d->ndofs += b->n * d->nvar * dg_disc_ipow(r + 1, g->dim);
  }
  d->nslots = slot;
  d->len = base;
  launch_first(d);
  d->slot_elem = malloc((size_t)(slot ? slot : 1) * sizeof *d->slot_elem);
  if (!d->slot_elem) {
    rc = dg_error(DG_ERR_MEM, "out of memory for slot table");
    goto fail;
  }
  for (long s = 0; s < slot; ++s) d->slot_elem[s] = -1;
  /* next slot: [0] at degree changes, [1] the others, [2] ghosts */
  long fill[3][DG_MAX_DEGREE + 1];
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    fill[0][r] = d->bk[r].slot0;
    fill[1][r] = d->bk[r].slot0 + d->bk[r].eblock * d->W;
    fill[2][r] = d->bk[r].slot0 + (d->bk[r].nblock - d->bk[r].gblock) * d->W;
  }
  /* across ranks each group's elements next to another rank's go first
     (bucket.bblock): the ghosts are placed in the same sweep */
  for (int first = 1; first >= 0; --first)
    for (long e = 0; e < g->nelem; ++e) {
      const bucket *b = &d->bk[m->deg[e]];
      if (held && held[e] == DG_HELD_NONE) {
        d->elem_slot[e] = -1;
        continue;
      }
      if ((held && (held[e] == DG_HELD_GHOST || near_rank(g, held, e))) != first) continue;
      const int grp = held && held[e] == DG_HELD_GHOST ? 2 : b->nedge < b->n && !edge[e];
      const long s = fill[grp][m->deg[e]]++;
      d->elem_slot[e] = s;
      d->slot_elem[s] = e;
      if (first && grp < 2) d->bk[m->deg[e]].bblock[grp]++; /* counted in elements here */
    }
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    for (int grp = 0; grp < 2; ++grp)
      d->bk[r].bblock[grp] = (d->bk[r].bblock[grp] + d->W - 1) / d->W;
  free(edge);
  edge = NULL;

  if ((rc = build_basis(q, &d->basis))) goto fail;
  if (d->metric && (rc = dg_disc_angle_table(d, d->basis.tt))) goto fail;
  if ((rc = be->basis_create(&d->basis_dev, &d->basis))) goto fail;
  for (int r = 0; d->own_q && r <= DG_MAX_DEGREE; ++r) {
    const bucket *b = &d->bk[r];
    if (b->eblock == b->nblock) continue;
    dg_basis own;
    if ((rc = build_basis(r + 1, &own)) || (rc = be->basis_create(&d->basis_own[r], &own)))
      goto fail;
  }
  if ((rc = dg_disc_build_tables(d, &nbr, &geom))) goto fail;
  {
    const int dim = g->dim, W = d->W;
    const size_t nb = (size_t)(d->nslots / W) * 2 * dim * W * sizeof(int);
    const size_t gb = (size_t)dg_disc_geom_len(d) * sizeof(dg_real);
    const size_t tb =
        (size_t)d->nslots * 2 * dim * d->nvar * dg_disc_ipow(q, dim - 1) * sizeof(dg_real);
    void *p;
    if ((rc = be->alloc(&p, nb))) goto fail;
    d->d_nbr = p;
    if ((rc = be->to_device(d->d_nbr, nbr, nb))) goto fail;
    {
      /* CFL rates: a weight per slot (0 for padding) and their output */
      dg_real *w = malloc((size_t)(d->nslots ? d->nslots : 1) * sizeof *w);
      if (!w) {
        rc = dg_error(DG_ERR_MEM, "out of memory for slot weights");
        goto fail;
      }
      for (long s2 = 0; s2 < d->nslots; ++s2) { /* ghosts are their owners' */
        const long e = d->slot_elem[s2];
        w[s2] = e >= 0 && (!held || held[e] == DG_HELD_OWN) ? 1 : 0;
      }
      const size_t wb = (size_t)(d->nslots ? d->nslots : 1) * sizeof(dg_real);
      if ((rc = be->alloc(&p, wb)) == 0) {
        d->d_weight = p;
        rc = be->to_device(d->d_weight, w, wb);
      }
      free(w);
      if (rc || (rc = be->alloc(&p, wb))) goto fail;
      d->d_rate = p;
    }
    if (geom) {
      if ((rc = be->alloc(&p, gb))) goto fail;
      d->d_geom = p;
      if ((rc = be->to_device(d->d_geom, geom, gb))) goto fail;
    }
    if (d->nbr_coeffs) {
      if ((rc = be->alloc(&p, (size_t)d->len * sizeof(dg_real)))) goto fail;
      d->d_spare = p;
    }
    if (dg_model_naux(d->model) > 0) {
      const int QF = (int)dg_disc_ipow(q, dim - 1);
      d->aux_size = dg_model_naux(d->model) * dg_disc_ipow(q, dim) +
                    dg_model_naux_face(d->model) * 2L * dim * QF;
      if ((rc = be->alloc(&p, (size_t)(d->nslots / W) * d->aux_size * W * sizeof(dg_real))))
        goto fail;
      d->d_aux = p;
      if (d->model->desc->aux && (rc = dg_disc_set_model_aux(d))) goto fail;
    }
    if (!d->nbr_coeffs || d->nbr_traces) {
      for (int b = 0; b < 2; ++b) {
        if ((rc = be->alloc(&p, tb))) goto fail;
        d->d_trace[b] = p;
      }
    }
  }
  free(nbr);
  free(geom);
  *out = d;
  return 0;
fail:
  free(nbr);
  free(geom);
  free(edge);
  dg_disc_destroy(&d);
  return rc;
}

/* Make the kernels of every launch of d's plan ready (once). */
static int disc_kernels_here(dg_disc *d) {
  const dg_backend_ops *be = d->be;
  int rq[2 * (DG_MAX_DEGREE + 1)][2], nrq = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    if (d->bk[r].n + d->bk[r].ng == 0) continue;
    rq[nrq][0] = r;
    rq[nrq++][1] = d->q;
    if (d->own_q && d->plan.split[r] && d->bk[r].nedge < d->bk[r].n && d->q != r + 1) {
      rq[nrq][0] = r;
      rq[nrq++][1] = r + 1;
    }
  }
  /* what the stage calls will hold besides the bucket: the backend may
     compile only the copies these need (the sphere's flux variant) */
  dg_stage_args like;
  memset(&like, 0, sizeof like);
  like.dim = d->grid.dim;
  dg_model_stage_params(d->model, 0, &like.model);
  like.model_id = (unsigned char)d->kslot;
  like.geom = d->d_geom ? d->d_geom + d->geom0 : NULL;
  like.metric = (unsigned char)d->metric;
  like.bc = d->bc;
  DG_CALL(be->prepare(d->kslot, d->grid.dim, nrq, (const int(*)[2])rq, &like));
  for (int i = 0; i < nrq; ++i)
    if (!be->available(d->kslot, d->grid.dim, rq[i][0], rq[i][1], &like))
      return dg_error(DG_ERR_BACKEND, "model %s: no stages for %dD, degree %d with q = %d",
                      dg_model_name(d->model), d->grid.dim, rq[i][0], rq[i][1]);
  return 0;
}

/* disc_kernels_here; across ranks every rank learns whether all have them
 * before any waits for another's ghosts (collective). */
static int disc_kernels(dg_disc *d) {
  if (d->kernels_ready) return 0;
  int rc = disc_kernels_here(d);
  if (d->comm) rc = dg_comm_agree(d->comm, rc);
  if (!rc) d->kernels_ready = 1;
  return rc;
}

void dg_disc_destroy(dg_disc **dp) {
  if (!dp || !*dp) return;
  dg_disc *d = *dp;
  const dg_backend_ops *be = d->be;
  if (d->basis_dev) be->basis_free(d->basis_dev);
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    if (d->basis_own[r]) be->basis_free(d->basis_own[r]);
  if (d->d_nbr) be->free(d->d_nbr);
  if (d->d_geom) be->free(d->d_geom);
  if (d->d_aux) be->free(d->d_aux);
  for (int b = 0; b < 2; ++b)
    if (d->d_trace[b]) be->free(d->d_trace[b]);
  if (d->d_spare) be->free(d->d_spare);
  if (d->d_weight) be->free(d->d_weight);
  if (d->d_rate) be->free(d->d_rate);
  if (d->d_watch_rows) be->free(d->d_watch_rows);
  if (d->d_watch_first) be->free(d->d_watch_first);
  dg_disc_part_free(d);
  dg_model_destroy(&d->model);
  free(d->map.deg);
  free(d->elem_slot);
  free(d->slot_elem);
  free(d);
  *dp = NULL;
}

const dg_grid *dg_disc_grid(const dg_disc *d) { return &d->grid; }
const dg_degree_map *dg_disc_degrees(const dg_disc *d) { return &d->map; }
const dg_model *dg_disc_model(const dg_disc *d) { return d->model; }
const dg_basis *dg_disc_basis(const dg_disc *d) { return &d->basis; }
int dg_disc_q(const dg_disc *d) { return d->q; }
int dg_disc_nvar(const dg_disc *d) { return d->nvar; }
long dg_disc_ndofs(const dg_disc *d) { return d->ndofs; }
long dg_disc_len(const dg_disc *d) { return d->len; }
int dg_disc_nbr_coeffs(const dg_disc *d) { return d->nbr_coeffs; }
int dg_disc_reuse_traces(const dg_disc *d) { return d->reuse_traces; }
int dg_disc_team(const dg_disc *d) { return d->team; }
int dg_disc_nbr_traces(const dg_disc *d) { return d->nbr_traces; }
int dg_disc_own_q(const dg_disc *d) { return d->own_q; }

long dg_disc_index(const dg_disc *d, long elem, int v, int mode) {
  const int r = d->map.deg[elem];
  const bucket *b = &d->bk[r];
  const long s = d->elem_slot[elem] - b->slot0;
  const long M = dg_disc_ipow(r + 1, d->grid.dim);
  return b->base + ((s / d->W) * d->nvar * M + (long)v * M + mode) * d->W + s % d->W;
}

/* Ids of the passes over the buckets (dg_stage_args.pass): consecutive
 * passes differ. */
static unsigned pass_id;

static int rates_and_step(dg_disc *d, dg_field *u, double t, double *dt, double *rates);

int dg_disc_stable_dt(dg_disc *d, dg_field *u, double t, double *dt) {
  DG_ARG_CHECK(dg_arg_field("dg_disc_stable_dt", d, u, "u"));
  DG_ARG_NONNULL("dg_disc_stable_dt", dt);
  return rates_and_step(d, u, t, dt, NULL);
}

int dg_disc_element_rates(dg_disc *d, dg_field *u, double t, double *rates) {
  DG_ARG_CHECK(dg_arg_field("dg_disc_element_rates", d, u, "u"));
  DG_ARG_NONNULL("dg_disc_element_rates", rates);
  double dt;
  return rates_and_step(d, u, t, &dt, rates);
}

static int rates_and_step(dg_disc *d, dg_field *u, double t, double *dt, double *rates) {
  const dg_backend_ops *be = d->be;
  if (u->n != d->len)
    return dg_error(DG_ERR_ARG, "stable step: field of %ld values, discretisation needs %ld", u->n,
                    d->len);
  DG_CALL(disc_kernels(d));
  DG_CALL(dg_field_to_device(u));
  DG_CALL(dg_disc_exchange(d, u)); /* across ranks: the ghosts' rates weigh 0, but finite */
  dg_stage_args a;
  memset(&a, 0, sizeof a);
  a.dim = d->grid.dim;
  for (int k = 0; k < 3; ++k) a.h[k] = (dg_real)d->grid.h[k];
  a.t = (dg_real)t;
  dg_model_stage_params(d->model, t, &a.model);
  a.model_id = (unsigned char)d->kslot;
  a.pass = (int)(++pass_id & 0x7fffffffu);
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    const bucket *b = &d->bk[r];
    if (b->nblock == 0) continue;
    a.u = u->dev + b->base;
    a.u_out = d->d_rate + b->slot0;
    a.k = d->d_weight + b->slot0;
    a.geom =
        d->d_geom ? d->d_geom + d->geom0 + (b->slot0 / d->W) * dg_disc_geom_stride(d) * d->W : NULL;
    a.metric = (unsigned char)d->metric;
    a.bc = d->bc;
    a.aux = d->d_aux ? d->d_aux + (b->slot0 / d->W) * d->aux_size * d->W : NULL;
    a.slot0 = b->slot0;
    a.nblock = (int)b->nblock;
    DG_CALL(be->rate(&a, d->basis_dev, r, d->q));
  }
  if (rates) {
    dg_real *h = malloc((size_t)(d->nslots ? d->nslots : 1) * sizeof *h);
    if (!h) return dg_error(DG_ERR_MEM, "out of memory for element rates");
    int rc = be->to_host(h, d->d_rate, (size_t)d->nslots * sizeof *h);
    for (long e = 0; e < d->grid.nelem && !rc; ++e)
      if (d->elem_slot[e] >= 0) rates[e] = (double)h[d->elem_slot[e]];
    free(h);
    DG_CALL(rc);
  }
  double rate = 0;
  DG_CALL(be->max(d->d_rate, (size_t)d->nslots, &rate));
  if (d->comm) DG_CALL(dg_comm_allreduce_max(d->comm, &rate, &rate, 1)); /* exact */
  if (rate != rate)
    return dg_error(DG_ERR_NUMERIC, "stable step: the wave speed is not finite at t = %g", t);
  *dt = rate > 0 ? 1.0 / rate : INFINITY;
  return 0;
}

const dg_backend *dg_disc_backend(const dg_disc *d) { return d->backend; }

void dg_disc_describe(const dg_disc *d, char *buf, size_t cap) {
  char plan[600];
  d->be->describe(&d->plan, &d->pin, plan, sizeof plan);
  snprintf(buf, cap, "plan: backend=%s model=%s nvar=%d q=%d %s", d->backend->resource,
           dg_model_name(d->model), d->nvar, d->q, plan);
}

void dg_disc_set_timing(dg_disc *d, int on) {
  d->timing = on;
  d->t_trace = d->t_update = d->t_post = d->t_wait = 0;
}

void dg_disc_timing(const dg_disc *d, double *trace_s, double *update_s) {
  *trace_s = d->t_trace;
  *update_s = d->t_update;
}

int dg_disc_overlap(const dg_disc *d) { return d->x && d->plan.overlap; }

void dg_disc_timing_halo(const dg_disc *d, double *post_s, double *wait_s) {
  *post_s = d->t_post;
  *wait_s = d->t_wait;
}

/* Which microblocks of each group an update pass runs: all of them, or
 * across ranks those after bucket.bblock (whose elements read no ghost) or
 * those before it (next to another rank's elements). */
enum { PART_ALL, PART_INNER, PART_RANKS };

/* One pass over the buckets: 0 the traces of the owned elements, 1 the
 * update (part: which microblocks), 2 the traces of the ghosts. */
static int run_pass(dg_disc *d, dg_stage_args *a, dg_field *u, dg_field *u0, dg_field *k, int pass,
                    int part) {
  const dg_backend_ops *be = d->be;
  const int dim = d->grid.dim, W = d->W, fp = pass == 2 ? 0 : pass; /* launch_first's pass */
  const double t0 = d->timing ? dg_disc_now_s() : 0;
  a->trace = d->d_trace[d->cur];
  dg_real *const tout = pass == 1 ? d->d_trace[1 - d->cur] : NULL;
  a->pass = (int)(++pass_id & 0x7fffffffu);
  /* the launches of the pass: the one launch_first chose (with own q the
     largest), then every other group in degree order */
  for (int i = -1; i < 2 * (DG_MAX_DEGREE + 1); ++i) {
    const int r = i < 0 ? d->first_r[fp] : i / 2, grp = i < 0 ? d->first_g[fp] : i % 2;
    if (i >= 0 && r == d->first_r[fp] && grp == d->first_g[fp]) continue;
    const bucket *b = &d->bk[r];
    /* group 0: the whole bucket (traces), or its elements at degree
       changes (update); group 1 (own_q updates): the others at r + 1 */
    const long nblk = group_blocks(b, pass, grp), blk0 = group_first(b, pass, grp);
    /* a part of the group: the launch's pointers stay at the group's first,
       whose neighbour offsets the table holds (dg_disc_build_tables) */
    const long bb = part == PART_ALL ? 0 : b->bblock[grp] < nblk ? b->bblock[grp] : nblk;
    a->blk0 = (int)(part == PART_INNER ? bb : 0);
    a->nblock = (int)(part == PART_ALL ? nblk : part == PART_INNER ? nblk - bb : bb);
    if (a->nblock <= 0) continue;
    const long off = blk0 * W * d->nvar * dg_disc_ipow(r + 1, dim), slot0 = b->slot0 + blk0 * W;
    a->u = u->dev + b->base + off;
    /* nbr_coeffs: the neighbours read the old u while the new one is made */
    a->u_out = d->nbr_coeffs ? d->d_spare + b->base + off : NULL;
    a->u0 = u0 ? u0->dev + b->base + off : NULL;
    a->k = k ? k->dev + b->base + off : NULL;
    a->nbr = d->d_nbr + (slot0 / W) * 2 * dim * W;
    a->geom = d->d_geom ? d->d_geom + d->geom0 + (slot0 / W) * dg_disc_geom_stride(d) * W : NULL;
    a->aux = d->d_aux ? d->d_aux + (slot0 / W) * d->aux_size * W : NULL;
    a->slot0 = slot0;
    a->team = (unsigned char)(grp ? d->plan.own_team[r] : d->team);
    a->nbr_traces = (unsigned char)(grp ? 0 : d->nbr_traces);
    a->trace_out = grp ? NULL : tout; /* no neighbour reads group 1's traces */
    DG_CALL(pass != 1 ? be->trace(a, d->basis_dev, r, d->q)
            : grp     ? be->update(a, d->basis_own[r], r, r + 1)
                      : be->update(a, d->basis_dev, r, d->q));
  }
  if (d->timing) {
    DG_CALL(be->sync());
    const double t1 = dg_disc_now_s();
    if (pass != 1)
      d->t_trace += t1 - t0;
    else
      d->t_update += t1 - t0;
  }
  return 0;
}

int dg_disc_stage(dg_disc *d, dg_field *u, dg_field *u0, dg_field *k, double t, double dt,
                  const dg_rk_coeffs *rk) {
  if ((rk->use_k && !k) || ((rk->save_u0 || rk->use_u0) && !u0))
    return dg_error(DG_ERR_ARG, "RK stage needs a register that was not given");
  DG_CALL(disc_kernels(d));
  DG_CALL(dg_field_to_device(u));
  if (k) DG_CALL(dg_field_to_device(k));
  if (u0) DG_CALL(dg_field_to_device(u0));
  dg_stage_args a;
  memset(&a, 0, sizeof a);
  a.dim = d->grid.dim;
  for (int e = 0; e < 3; ++e) a.h[e] = (dg_real)d->grid.h[e];
  a.dt = (dg_real)dt;
  a.t = (dg_real)t;
  a.rk = *rk;
  dg_model_stage_params(d->model, t, &a.model);
  a.model_id = (unsigned char)d->kslot;
  a.reuse_traces = (unsigned char)d->reuse_traces;
  a.nbr_coeffs = (unsigned char)d->nbr_coeffs;
  a.metric = (unsigned char)d->metric;
  a.bc = d->bc;
  if (u->n != d->len)
    return dg_error(DG_ERR_ARG, "RK stage: field of %ld values, discretisation needs %ld", u->n,
                    d->len);
  /* traces of u are normally left by the previous update; recompute them
     only when u changed otherwise (projection, restart, another field) */
  const int no_traces = d->nbr_coeffs && !d->nbr_traces;
  const int fresh = no_traces || (d->trace_src == u && d->trace_stamp == u->stamp);
  /* across ranks the ghosts' coefficients come, then (where the updates
     read traces) the ghosts' traces alone; with the overlap the updates
     that read no ghost run while the coefficients travel */
  const int ghost_traces = d->x && !no_traces, overlap = d->x && d->plan.overlap;
  int rc = overlap ? dg_disc_exchange_start(d, u) : dg_disc_exchange(d, u);
  if (!rc && !fresh) rc = run_pass(d, &a, u, u0, k, 0, PART_ALL);
  if (!rc && !overlap && ghost_traces) rc = run_pass(d, &a, u, u0, k, 2, PART_ALL);
  if (!rc) rc = run_pass(d, &a, u, u0, k, 1, overlap ? PART_INNER : PART_ALL);
  if (overlap) { /* the messages finish even after a failure: the buffers are d's */
    const int wrc = dg_disc_exchange_wait(d, u);
    if (!rc) rc = wrc;
    if (!rc && ghost_traces) rc = run_pass(d, &a, u, u0, k, 2, PART_ALL);
    if (!rc) rc = run_pass(d, &a, u, u0, k, 1, PART_RANKS);
  }
  if (rc) {
    d->trace_src = NULL; /* the buffers are in an unknown state */
    return rc;
  }
  if (d->nbr_coeffs) dg_field_swap_device(u, &d->d_spare); /* the new u is in the spare */
  dg_field_device_modified(u);
  if (u0 && rk->save_u0) dg_field_device_modified(u0);
  if (k && rk->use_k) dg_field_device_modified(k);
  d->cur = 1 - d->cur;
  d->trace_src = u;
  d->trace_stamp = u->stamp;
  return 0;
}
