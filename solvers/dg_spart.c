/* dg_spart.c - a rank's share of a solver grid and its operator
 * (dg_spart.h): the extended box, the ghosts' exchange lists (core/dg_xlist.h), the gather
 * and scatter of whole vectors. */
#include "dg_spart.h"

#include "dg_backend.h"
#include "dg_error.h"
#include "dg_sop_internal.h"
#include "dg_svec.h"
#include "dg_xlist.h"

#include <stdlib.h>
#include <string.h>

/* A rank's box: its block [blo, bhi) per direction, a ghost layer below
 * (glo) and above (ghi) where the block has a neighbour there, ne elements
 * per direction in all. */
typedef struct {
  int blo[3], bhi[3], glo[3], ghi[3], ne[3];
} sbox;

struct dg_spart {
  dg_comm *comm;
  int rank, size;
  dg_grid g, gl;       /* the whole grid, the rank's box */
  dg_sop_params p, pl; /* their boundary rules */
  sbox *box;           /* [size] */
  long *l2g;           /* [box nelem]: the whole grid's element (corners too) */
  unsigned char *own;  /* [box nelem]: 1 owned, else 0 */
  long nown, *owned;   /* the owned box elements, in increasing global order */
};

/* Per operator: the whole grid's degrees and offsets, the exchange lists
 * of the face ghosts (the applies) and of every ghost slot, corners and
 * edges included (the transfers by agglomeration, built on request), and
 * the runs of reals outside the owned elements. */
struct dg_spx {
  const dg_spart *sp;
  long glen;
  uint8_t *gdeg, *gpdeg;
  long *goff;
  dg_xlist face, all; /* in reals, both in the receiver's box order */
  int has_all;
  long nz, *zrun; /* [2 nz]: start, length */
  long *rcount;   /* [size]: owned reals per rank */
  int off;        /* fault "1": no exchange (dg_spart_set_fault) */
  int off_all;    /* fault "transfer" (or "1"): none for the transfers */
};

static void box_of(const dg_grid *g, const dg_sop_params *p, const dg_part_block *b, sbox *x) {
  for (int d = 0; d < 3; ++d) {
    x->blo[d] = d < g->dim ? b->lo[d] : 0;
    x->bhi[d] = d < g->dim ? b->hi[d] : 1;
    x->glo[d] = x->ghi[d] = 0;
    if (d < g->dim) {
      const int spans = x->blo[d] == 0 && x->bhi[d] == g->n[d];
      const int per = p->bc[d] == DG_SBC_PERIODIC;
      x->glo[d] = x->blo[d] > 0 || (per && !spans);
      x->ghi[d] = x->bhi[d] < g->n[d] || (per && !spans);
    }
    x->ne[d] = x->bhi[d] - x->blo[d] + x->glo[d] + x->ghi[d];
  }
}

/* Box element (i, j, k) of x: the whole grid's (i, j, k) in gijk and the
 * number of directions in which it lies outside the block. */
static int box_global(const dg_grid *g, const sbox *x, const int l[3], int gi[3]) {
  int out = 0;
  for (int d = 0; d < 3; ++d) {
    int i = x->blo[d] - x->glo[d] + l[d];
    out += l[d] < x->glo[d] || l[d] >= x->glo[d] + x->bhi[d] - x->blo[d];
    if (d < g->dim) {
      if (i < 0) i += g->n[d];
      if (i >= g->n[d]) i -= g->n[d];
    }
    gi[d] = i;
  }
  return out;
}

static long ipow(int b, int e) {
  long m = 1;
  for (int i = 0; i < e; ++i) m *= b;
  return m;
}

int dg_spart_create(dg_spart **spp, dg_comm *c, const dg_partition *p, const dg_grid *g,
                    const dg_sop_params *prm) {
  *spp = NULL;
  if (!c || !p || !g || !prm) return dg_error(DG_ERR_ARG, "dg_spart_create: NULL argument");
  if (p->nranks != dg_comm_size(c) || p->dim != g->dim || p->n[0] != g->n[0] ||
      p->n[1] != g->n[1] || p->n[2] != g->n[2])
    return dg_error(DG_ERR_ARG, "dg_spart_create: the partition is not of this grid and ranks");
  dg_spart *sp = calloc(1, sizeof *sp);
  if (!sp) return dg_error(DG_ERR_MEM, "dg_spart_create: out of memory");
  sp->comm = c;
  sp->rank = dg_comm_rank(c);
  sp->size = dg_comm_size(c);
  sp->g = *g;
  sp->p = *prm;
  sp->box = calloc((size_t)sp->size, sizeof *sp->box);
  int rc = sp->box ? 0 : dg_error(DG_ERR_MEM, "dg_spart_create: out of memory");
  for (int r = 0; r < sp->size && !rc; ++r) box_of(g, prm, &p->block[r], &sp->box[r]);
  if (!rc) {
    const sbox *x = &sp->box[sp->rank];
    double lo[3], hi[3];
    sp->pl = *prm;
    for (int d = 0; d < 3; ++d) {
      lo[d] = d < g->dim ? g->lo[d] + (x->blo[d] - x->glo[d]) * g->h[d] : 0;
      hi[d] = d < g->dim ? lo[d] + x->ne[d] * g->h[d] : 1;
      /* a direction the block spans keeps its rule; else the box ends in
         ghosts (whose results nobody reads) or at the grid's own boundary */
      if (d < g->dim && !(x->blo[d] == 0 && x->bhi[d] == g->n[d])) sp->pl.bc[d] = DG_SBC_DIRICHLET;
    }
    rc = dg_grid_init(&sp->gl, g->dim, x->ne, lo, hi);
    for (int d = 0; d < g->dim && !rc; ++d) sp->gl.h[d] = g->h[d]; /* the same bits */
  }
  const long nl = sp->gl.nelem;
  if (!rc) {
    sp->l2g = malloc(sizeof(long) * (size_t)nl);
    sp->own = calloc((size_t)nl, 1);
    sp->owned = malloc(sizeof(long) * (size_t)(nl ? nl : 1));
    if (!sp->l2g || !sp->own || !sp->owned)
      rc = dg_error(DG_ERR_MEM, "dg_spart_create: out of memory");
  }
  for (long e = 0; e < nl && !rc; ++e) {
    int l[3], gi[3];
    dg_grid_ijk(&sp->gl, e, l);
    const int out = box_global(g, &sp->box[sp->rank], l, gi);
    sp->l2g[e] = dg_grid_elem(g, gi[0], gi[1], gi[2]);
    sp->own[e] = out == 0;
    if (out == 0) sp->owned[sp->nown++] = e;
  }
  if (rc) {
    dg_spart_destroy(&sp);
    return rc;
  }
  *spp = sp;
  return 0;
}

void dg_spart_destroy(dg_spart **spp) {
  if (!spp || !*spp) return;
  dg_spart *sp = *spp;
  free(sp->box);
  free(sp->l2g);
  free(sp->own);
  free(sp->owned);
  free(sp);
  *spp = NULL;
}

const dg_grid *dg_spart_grid(const dg_spart *sp) { return &sp->gl; }
const dg_sop_params *dg_spart_params(const dg_spart *sp) { return &sp->pl; }
const dg_grid *dg_spart_global_grid(const dg_spart *sp) { return &sp->g; }
const dg_sop_params *dg_spart_global_params(const dg_spart *sp) { return &sp->p; }
dg_comm *dg_spart_comm(const dg_spart *sp) { return sp->comm; }
const unsigned char *dg_spart_owned(const dg_spart *sp) { return sp->own; }
const long *dg_spart_owned_elems(const dg_spart *sp, long *n) {
  *n = sp->nown;
  return sp->owned;
}
const long *dg_spart_global_elems(const dg_spart *sp) { return sp->l2g; }

void dg_spart_localise(const dg_spart *sp, const uint8_t *glob, uint8_t *loc) {
  for (long e = 0; e < sp->gl.nelem; ++e) loc[e] = glob[sp->l2g[e]];
}

int dg_sop_create_part(dg_sop **op, const dg_backend *be, const dg_spart *sp, const uint8_t *deg,
                       const uint8_t *pdeg) {
  *op = NULL;
  const long nl = sp->gl.nelem;
  uint8_t *dl = malloc((size_t)nl), *pl = malloc((size_t)nl);
  int rc = dl && pl ? 0 : dg_error(DG_ERR_MEM, "dg_sop_create_part: out of memory");
  if (!rc) {
    dg_spart_localise(sp, deg, dl);
    dg_spart_localise(sp, pdeg, pl);
    rc = dg_sop_create_pen(op, be, &sp->gl, dl, pl, &sp->pl);
  }
  free(dl);
  free(pl);
  if (!rc && (rc = dg_sop_set_part(*op, sp))) dg_sop_destroy(op);
  return rc;
}

/* The lists' memory: the solvers' (dg_svec), where their kernels gather
 * and scatter. */
static int svec_alloc(const dg_backend *be, void **p, size_t bytes) {
  return (*p = dg_svec_alloc(be, bytes)) ? 0 : DG_ERR_MEM; /* dg_svec_alloc recorded why */
}
static const dg_xlist_mem svec_mem = {svec_alloc, dg_svec_free, dg_svec_to_device};

static void lists_free(const dg_sop *op, dg_xlist *l) { dg_xlist_free(l, op->be, &svec_mem); }

void dg_sop_part_free(dg_sop *op) {
  struct dg_spx *x = op->px;
  if (!x) return;
  free(x->gdeg);
  free(x->gpdeg);
  free(x->goff);
  lists_free(op, &x->face);
  lists_free(op, &x->all);
  free(x->zrun);
  free(x->rcount);
  free(x);
  op->px = NULL;
}

/* The whole grid's array of one byte per element from every rank's owned
 * elements' loc values (collective). */
static int gather_bytes(const dg_spart *sp, const uint8_t *loc, uint8_t *glob) {
  long *counts = malloc(sizeof(long) * (size_t)sp->size);
  long tot = 0;
  uint8_t *s = malloc((size_t)(sp->nown ? sp->nown : 1)), *all = NULL;
  int rc = counts && s ? 0 : dg_error(DG_ERR_MEM, "dg_sop_set_part: out of memory");
  for (int r = 0; r < sp->size && !rc; ++r) {
    const sbox *x = &sp->box[r];
    counts[r] = (long)(x->bhi[0] - x->blo[0]) * (x->bhi[1] - x->blo[1]) * (x->bhi[2] - x->blo[2]);
    tot += counts[r];
  }
  if (!rc && !(all = malloc((size_t)(tot ? tot : 1))))
    rc = dg_error(DG_ERR_MEM, "dg_sop_set_part: out of memory");
  for (long i = 0; i < sp->nown && !rc; ++i) s[i] = loc[sp->owned[i]];
  if (!rc) rc = dg_comm_allgather(sp->comm, s, all, counts, 1);
  long pos = 0;
  for (int r = 0; r < sp->size && !rc; ++r) {
    const sbox *x = &sp->box[r];
    for (int k = x->blo[2]; k < x->bhi[2]; ++k)
      for (int j = x->blo[1]; j < x->bhi[1]; ++j)
        for (int i = x->blo[0]; i < x->bhi[0]; ++i)
          glob[dg_grid_elem(&sp->g, i, j, k)] = all[pos++];
  }
  free(counts);
  free(s);
  free(all);
  return rc;
}

/* The owner of the whole grid's element (i, j, k). */
static int owner_of(const dg_spart *sp, const int gi[3]) {
  for (int r = 0; r < sp->size; ++r) {
    const sbox *x = &sp->box[r];
    int in = 1;
    for (int d = 0; d < 3; ++d) in = in && gi[d] >= x->blo[d] && gi[d] < x->bhi[d];
    if (in) return r;
  }
  return -1;
}

/* One walk over every rank's ghosts (outside the block in at most maxout
 * directions: 1 the faces' ghosts, 3 every slot of the box): those of this
 * rank owned by rank o (receive from o), and those of rank q this rank owns
 * (send to q), each in the receiver's box order.  Without lists yet
 * (x->sidx NULL) it counts reals into ns, nr; else it fills the lists, ns
 * and nr the cursors. */
static void halo_walk(const dg_sop *op, const dg_spart *sp, dg_xlist *x, int maxout, long *ns,
                      long *nr, const int *slot) {
  const int me = sp->rank;
  const sbox *mb = &sp->box[me];
  for (int q = 0; q < sp->size; ++q) {
    const sbox *qb = &sp->box[q];
    for (int k = 0; k < qb->ne[2]; ++k)
      for (int j = 0; j < qb->ne[1]; ++j)
        for (int i = 0; i < qb->ne[0]; ++i) {
          const int l[3] = {i, j, k};
          int gi[3];
          const int out = box_global(&sp->g, qb, l, gi);
          if (out < 1 || out > maxout) continue;
          const int o = owner_of(sp, gi);
          long le, *list, *cur;
          if (q == me && o != me && o >= 0) { /* one of my ghosts */
            le = dg_grid_elem(&sp->gl, i, j, k);
            list = x->ridx ? x->ridx + x->roff[slot[o]] : NULL;
            cur = &nr[o];
          } else if (q != me && o == me) { /* one of q's ghosts that I own */
            le = dg_grid_elem(&sp->gl, gi[0] - mb->blo[0] + mb->glo[0],
                              gi[1] - mb->blo[1] + mb->glo[1], gi[2] - mb->blo[2] + mb->glo[2]);
            list = x->sidx ? x->sidx + x->soff[slot[q]] : NULL;
            cur = &ns[q];
          } else
            continue;
          for (long t = op->off[le]; t < op->off[le + 1]; ++t) {
            if (list) list[*cur] = t;
            ++*cur;
          }
        }
  }
}

/* The exchange lists x of op's ghosts out of the block in at most maxout
 * directions: per peer (increasing rank) the reals it receives from this
 * rank and those this rank receives from it. */
static int build_lists(const dg_sop *op, const dg_spart *sp, dg_xlist *x, int maxout) {
  const int P = sp->size;
  long *ns = calloc((size_t)P, sizeof(long)), *nr = calloc((size_t)P, sizeof(long));
  int *slot = calloc((size_t)P, sizeof(int));
  int rc = ns && nr && slot ? 0 : dg_error(DG_ERR_MEM, "dg_sop_set_part: out of memory");
  if (!rc) halo_walk(op, sp, x, maxout, ns, nr, slot);
  if (!rc) rc = dg_xlist_peers(x, P, ns, nr, slot, "dg_sop_set_part");
  if (!rc) {
    memset(ns, 0, sizeof(long) * (size_t)P);
    memset(nr, 0, sizeof(long) * (size_t)P);
    halo_walk(op, sp, x, maxout, ns, nr, slot);
  }
  free(ns);
  free(nr);
  free(slot);
  /* only the ghosts' entries move between the solver's memory and MPI,
     gathered and scattered by the solver's kernels, through page-locked host
     memory where MPI does not read device memory (docs/ARCHITECTURE.md, "The
     CUDA exchange"); room for doubles */
  return rc ? rc : dg_xlist_setup(x, op->be, &svec_mem, sizeof(double));
}

/* The exchange a test leaves out on purpose (dg_spart_set_fault): 0 none,
 * 1 every exchange, 2 the transfers' only. */
static int spart_fault;

int dg_spart_set_fault(const char *what) {
  if (!what || !what[0])
    spart_fault = 0;
  else if (!strcmp(what, "1"))
    spart_fault = 1;
  else if (!strcmp(what, "transfer"))
    spart_fault = 2;
  else
    return dg_error(DG_ERR_ARG, "DGRID_SPART_NO_EXCHANGE: '%s' is not 1 or transfer", what);
  return 0;
}

int dg_sop_set_part(dg_sop *op, const dg_spart *sp) {
  if (!op || !sp) return dg_error(DG_ERR_ARG, "dg_sop_set_part: NULL argument");
  const dg_grid *g = &op->g;
  for (int d = 0; d < 3; ++d)
    if (g->n[d] != sp->gl.n[d] || (d < g->dim && op->p.bc[d] != sp->pl.bc[d]))
      return dg_error(DG_ERR_ARG, "dg_sop_set_part: the operator is not on the rank's box");
  dg_sop_part_free(op);
  struct dg_spx *x = calloc(1, sizeof *x);
  if (!x) return dg_error(DG_ERR_MEM, "dg_sop_set_part: out of memory");
  op->px = x;
  x->sp = sp;
  x->off = spart_fault == 1;
  x->off_all = spart_fault != 0;
  const long N = sp->g.nelem;
  x->gdeg = malloc((size_t)N);
  x->gpdeg = malloc((size_t)N);
  x->goff = malloc(sizeof(long) * (size_t)(N + 1));
  x->rcount = calloc((size_t)sp->size, sizeof(long));
  if (!x->gdeg || !x->gpdeg || !x->goff || !x->rcount) {
    dg_sop_part_free(op);
    return dg_error(DG_ERR_MEM, "dg_sop_set_part: out of memory");
  }
  int rc = gather_bytes(sp, op->deg, x->gdeg);
  if (!rc) rc = gather_bytes(sp, op->pdeg, x->gpdeg);
  if (rc) {
    dg_sop_part_free(op);
    return rc;
  }
  x->goff[0] = 0;
  for (long e = 0; e < N; ++e) x->goff[e + 1] = x->goff[e] + ipow(x->gdeg[e] + 1, g->dim);
  x->glen = x->goff[N];
  for (int r = 0; r < sp->size; ++r) {
    const sbox *b = &sp->box[r];
    for (int k = b->blo[2]; k < b->bhi[2]; ++k)
      for (int j = b->blo[1]; j < b->bhi[1]; ++j)
        for (int i = b->blo[0]; i < b->bhi[0]; ++i)
          x->rcount[r] += ipow(x->gdeg[dg_grid_elem(&sp->g, i, j, k)] + 1, g->dim);
  }
  rc = build_lists(op, sp, &x->face, 1);
  /* the owned range in the box and the box's origin (the transfers) */
  const sbox *b = &sp->box[sp->rank];
  for (int d = 0; d < 3; ++d) {
    op->xorg[d] = b->blo[d] - b->glo[d];
    op->xlo[d] = b->glo[d];
    op->xhi[d] = b->glo[d] + b->bhi[d] - b->blo[d];
  }
  /* the runs of reals outside the owned elements */
  long nz = 0;
  for (long e = 0; e < g->nelem; ++e)
    if (!sp->own[e] && (e == 0 || sp->own[e - 1])) ++nz;
  if (!rc && !(x->zrun = malloc(sizeof(long) * (size_t)(2 * nz + 2))))
    rc = dg_error(DG_ERR_MEM, "dg_sop_set_part: out of memory");
  for (long e = 0; e < g->nelem && !rc; ++e) {
    if (sp->own[e]) continue;
    if (e == 0 || sp->own[e - 1]) {
      x->zrun[2 * x->nz] = op->off[e];
      x->zrun[2 * x->nz + 1] = 0;
      x->nz++;
    }
    x->zrun[2 * x->nz - 1] += op->off[e + 1] - op->off[e];
  }
  if (rc) dg_sop_part_free(op);
  return rc;
}

int dg_sop_part_halo_path(const dg_sop *op) {
  return op->px && op->px->face.npeer > 0 ? op->px->face.path : -1;
}

int dg_sop_part_corners(dg_sop *op) {
  struct dg_spx *x = op->px;
  if (!x) return dg_error(DG_ERR_ARG, "dg_sop_part_corners: not a rank's operator");
  if (x->has_all) return 0;
  const int rc = build_lists(op, x->sp, &x->all, 3);
  if (rc) {
    lists_free(op, &x->all);
    return rc;
  }
  x->has_all = 1;
  return 0;
}

/* Coarse element I (per direction) belongs to the owner of its first
   child 2I: fine block [lo, hi) gives [ceil(lo/2), ceil(hi/2)). */
static int coarse_lo(int lo) { return (lo + 1) / 2; }

int dg_spart_coarse_extent(const dg_spart *sp) {
  int m = -1;
  for (int r = 0; r < sp->size; ++r)
    for (int d = 0; d < sp->g.dim; ++d) {
      const int e = coarse_lo(sp->box[r].bhi[d]) - coarse_lo(sp->box[r].blo[d]);
      m = m < 0 || e < m ? e : m;
    }
  return m;
}

int dg_spart_create_coarse(dg_spart **c, const dg_spart *f, const dg_sop_params *prm) {
  *c = NULL;
  const dg_grid *gf = &f->g;
  int nc[3];
  for (int d = 0; d < 3; ++d) nc[d] = d < gf->dim ? gf->n[d] / 2 : 1;
  for (int d = 0; d < gf->dim; ++d)
    if (gf->n[d] % 2)
      return dg_error(DG_ERR_ARG, "dg_spart_create_coarse: %d elements in direction %d", gf->n[d],
                      d);
  dg_grid gc;
  DG_CALL(dg_grid_init(&gc, gf->dim, nc, gf->lo, gf->hi));
  dg_partition p;
  memset(&p, 0, sizeof p);
  p.dim = gf->dim;
  p.nranks = f->size;
  for (int d = 0; d < 3; ++d) p.n[d] = gc.n[d];
  p.block = calloc((size_t)f->size, sizeof *p.block);
  if (!p.block) return dg_error(DG_ERR_MEM, "dg_spart_create_coarse: out of memory");
  for (int r = 0; r < f->size; ++r)
    for (int d = 0; d < 3; ++d) {
      p.block[r].lo[d] = d < gf->dim ? coarse_lo(f->box[r].blo[d]) : 0;
      p.block[r].hi[d] = d < gf->dim ? coarse_lo(f->box[r].bhi[d]) : 1;
    }
  const int rc = dg_spart_create(c, f->comm, &p, &gc, prm);
  free(p.block);
  return rc;
}

const dg_spart *dg_sop_part(const dg_sop *op) { return op->px ? op->px->sp : NULL; }
long dg_sop_global_len(const dg_sop *op) { return op->px ? op->px->glen : op->len; }
const long *dg_sop_global_offsets(const dg_sop *op) { return op->px ? op->px->goff : op->off; }
const uint8_t *dg_sop_global_degrees(const dg_sop *op) { return op->px ? op->px->gdeg : op->deg; }
const uint8_t *dg_sop_global_penalty_degrees(const dg_sop *op) {
  return op->px ? op->px->gpdeg : op->pdeg;
}

/* The owned entries of x (solver memory, a host view) in owned order into
 * s. */
static int owned_get(const dg_sop *op, const double *x, double *s) {
  const dg_spart *sp = op->px->sp;
  DG_CALL(dg_svec_sync(op->be)); /* no kernel may still write x */
  const size_t nb = sizeof(double) * (size_t)op->len;
  const double *xh = NULL;
  DG_CALL(dg_svec_map(op->be, x, nb, DG_SVEC_READ, (void **)&xh));
  long pos = 0;
  for (long i = 0; i < sp->nown; ++i) {
    const long e = sp->owned[i];
    for (long t = op->off[e]; t < op->off[e + 1]; ++t) s[pos++] = xh[t];
  }
  return dg_svec_unmap(op->be, x, (void *)xh, nb, 0);
}

/* Between the ranks' owned entries concatenated in rank order (each
 * rank's part after `skip` leading items) and the whole vector xg: out 0
 * places all into xg, 1 takes xg into all. */
static void ranks_order(const dg_sop *op, int skip, double *all, double *xg, int out) {
  const struct dg_spx *px = op->px;
  const dg_spart *sp = px->sp;
  long pos = 0;
  for (int r = 0; r < sp->size; ++r) {
    const sbox *b = &sp->box[r];
    pos += skip;
    for (int k = b->blo[2]; k < b->bhi[2]; ++k)
      for (int j = b->blo[1]; j < b->bhi[1]; ++j)
        for (int i = b->blo[0]; i < b->bhi[0]; ++i) {
          const long ge = dg_grid_elem(&sp->g, i, j, k);
          for (long t = px->goff[ge]; t < px->goff[ge + 1]; ++t, ++pos)
            if (out)
              all[pos] = xg[t];
            else
              xg[t] = all[pos];
        }
  }
}

int dg_sop_gather_d(const dg_sop *op, const double *x, double *xg) {
  const struct dg_spx *px = op->px;
  if (!px) return dg_error(DG_ERR_ARG, "dg_sop_gather_d: not a rank's operator");
  const dg_spart *sp = px->sp;
  const long mine = px->rcount[sp->rank];
  double *s = malloc(sizeof(double) * (size_t)(mine + 1)),
         *all = malloc(sizeof(double) * (size_t)(px->glen + 1));
  int rc = s && all ? 0 : dg_error(DG_ERR_MEM, "dg_sop_gather_d: out of memory");
  if (!rc) rc = owned_get(op, x, s);
  if (!rc) rc = dg_comm_allgather(sp->comm, s, all, px->rcount, sizeof(double));
  if (!rc) ranks_order(op, 0, all, xg, 0);
  free(s);
  free(all);
  return rc;
}

/* The parts of a gather or scatter to one rank: each rank's owned reals
 * after one leading status; [size], freed by the caller. */
static long *status_counts(const struct dg_spx *px) {
  long *cnt = malloc(sizeof(long) * (size_t)px->sp->size);
  for (int r = 0; cnt && r < px->sp->size; ++r) cnt[r] = 1 + px->rcount[r];
  return cnt;
}

int dg_sop_gather_root_d(const dg_sop *op, int root, int rc, const double *x, double *xg) {
  const struct dg_spx *px = op->px;
  if (!px) return dg_error(DG_ERR_ARG, "dg_sop_gather_root_d: not a rank's operator");
  const dg_spart *sp = px->sp;
  const int me = sp->rank == root;
  long *cnt = status_counts(px);
  double *s = malloc(sizeof(double) * (size_t)(px->rcount[sp->rank] + 1)),
         *all = me ? malloc(sizeof(double) * (size_t)(px->glen + sp->size)) : NULL;
  if (!cnt || !s || (me && !all)) { /* no part to send: the job ends from here (the caller) */
    free(cnt);
    free(s);
    free(all);
    return dg_error(DG_ERR_MEM, "dg_sop_gather_root_d: out of memory");
  }
  if (!rc) rc = owned_get(op, x, s + 1);
  s[0] = rc; /* a failure travels with the part: root never waits for a part that is not sent */
  int mrc = dg_comm_gather(sp->comm, root, s, all, cnt, sizeof(double));
  if (!mrc && me) {
    long pos = 0;
    for (int r = 0; r < sp->size && !rc; pos += cnt[r++])
      if (all[pos] != 0)
        rc = dg_error((int)all[pos], "rank %d failed before the coarse levels' gather", r);
    if (!rc) ranks_order(op, 1, all, xg, 0);
  }
  free(cnt);
  free(s);
  free(all);
  return mrc ? mrc : rc;
}

int dg_sop_scatter_root_d(const dg_sop *op, int root, int rc, const double *xg, double *x) {
  const struct dg_spx *px = op->px;
  if (!px) return dg_error(DG_ERR_ARG, "dg_sop_scatter_root_d: not a rank's operator");
  const dg_spart *sp = px->sp;
  const int me = sp->rank == root;
  const long mine = px->rcount[sp->rank];
  long *cnt = status_counts(px);
  double *s = malloc(sizeof(double) * (size_t)(mine + 1)),
         *all = me ? malloc(sizeof(double) * (size_t)(px->glen + sp->size)) : NULL;
  if (!cnt || !s || (me && !all)) {
    free(cnt);
    free(s);
    free(all);
    return dg_error(DG_ERR_MEM, "dg_sop_scatter_root_d: out of memory");
  }
  if (me) {
    if (rc) /* no result: the parts carry the status alone */
      memset(all, 0, sizeof(double) * (size_t)(px->glen + sp->size));
    else
      ranks_order(op, 1, all, (double *)xg, 1);
    long pos = 0;
    for (int r = 0; r < sp->size; pos += cnt[r++]) all[pos] = rc; /* root's status to each */
  }
  int mrc = dg_comm_scatter(sp->comm, root, all, s, cnt, sizeof(double));
  if (!mrc && !me && s[0] != 0)
    rc = dg_error((int)s[0], "rank %d: the coarse levels' solve failed there", root);
  if (!mrc && !rc) { /* the owned entries, zeros in the runs outside them */
    const size_t nb = sizeof(double) * (size_t)op->len;
    double *xh = NULL;
    mrc = dg_svec_sync(op->be); /* no kernel may still use x */
    if (!mrc) mrc = dg_svec_map(op->be, x, nb, DG_SVEC_WRITE, (void **)&xh);
    long pos = 1;
    for (long i = 0; i < sp->nown && !mrc; ++i) {
      const long e = sp->owned[i];
      for (long t = op->off[e]; t < op->off[e + 1]; ++t) xh[t] = s[pos++];
    }
    if (!mrc) {
      dg_sop_part_clear_host_d(op, xh);
      mrc = dg_svec_unmap(op->be, x, xh, nb, DG_SVEC_WRITE);
    }
  }
  free(cnt);
  free(s);
  free(all);
  return mrc ? mrc : rc;
}

int dg_sop_scatter_d(const dg_sop *op, const double *xg, double *x) {
  const struct dg_spx *px = op->px;
  if (!px) return dg_error(DG_ERR_ARG, "dg_sop_scatter_d: not a rank's operator");
  const dg_spart *sp = px->sp;
  DG_CALL(dg_svec_sync(op->be)); /* no kernel may still use x */
  /* x is solver memory: the host writes every byte of a view (the owned
     entries, then zeros in the runs outside them) */
  const size_t nb = sizeof(double) * (size_t)op->len;
  double *xh = NULL;
  DG_CALL(dg_svec_map(op->be, x, nb, DG_SVEC_WRITE, (void **)&xh));
  for (long i = 0; i < sp->nown; ++i) {
    const long e = sp->owned[i], ge = sp->l2g[e];
    for (long t = 0; t < op->off[e + 1] - op->off[e]; ++t)
      xh[op->off[e] + t] = xg[px->goff[ge] + t];
  }
  dg_sop_part_clear_host_d(op, xh);
  return dg_svec_unmap(op->be, x, xh, nb, DG_SVEC_WRITE);
}

void dg_sop_part_clear_host_d(const dg_sop *op, double *xh) {
  const struct dg_spx *px = op->px;
  if (!px) return;
  for (long z = 0; z < px->nz; ++z)
    memset(xh + px->zrun[2 * z], 0, sizeof(double) * (size_t)px->zrun[2 * z + 1]);
}

/* defines (dg_spart_t.h): dg_sop_part_clear_d dg_sop_part_exchange_d dg_sop_part_exchange_all_d
   part_exchange_d */
#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_spart_t.h"
#undef DG_SR
#undef DG_SN

/* defines (dg_spart_t.h): dg_sop_part_clear_f dg_sop_part_exchange_f dg_sop_part_exchange_all_f
   part_exchange_f */
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_spart_t.h"
#undef DG_SR
#undef DG_SN
