/* dg_spatch.c - the vertex-patch Schwarz preconditioner: its 1D two-cell
 * eigenproblems and the patches' colouring (host, setup).  The backends'
 * drivers apply dg_spatch_solve_* per patch (dg_spatch_omp.c, dg_spatch_cuda.cu). */
#include "dg_spatch_internal.h"

#include "dg_error.h"
#include "dg_sblock_internal.h"
#include "dg_spart.h"
#include "dg_svec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NR = DG_SNR, LD = DG_SPATCH_LD };

int dg_spatch_supported(const dg_sop *op, char *why, size_t cap) {
  /* a rank's operator asks of the whole grid, so every rank decides alike */
  const dg_spart *part = dg_sop_part(op);
  const dg_grid *g = part ? dg_spart_global_grid(part) : &op->g;
  const dg_sop_params *p = part ? dg_spart_global_params(part) : &op->p;
  const uint8_t *deg = dg_sop_global_degrees(op), *pdeg = dg_sop_global_penalty_degrees(op);
  char buf[160];
  buf[0] = 0;
  if (op->runi < 0) snprintf(buf, sizeof buf, "the level has more than one degree");
  for (long e = 1; e < g->nelem && !buf[0]; ++e) {
    if (deg[e] != deg[0])
      snprintf(buf, sizeof buf, "the level has more than one degree");
    else if (pdeg[e] != pdeg[0])
      snprintf(buf, sizeof buf, "the level has more than one penalty degree");
  }
  for (int d = 0; d < g->dim && !buf[0]; ++d)
    if (p->bc[d] == DG_SBC_PERIODIC && g->n[d] < 3)
      snprintf(buf, sizeof buf, "periodic direction %d has %d < 3 elements", d, g->n[d]);
  if (why && cap) snprintf(why, cap, "%s", buf);
  return !buf[0];
}

/* Add to G (leading dimension LD, from row/column o) the 1D matrix of one
 * cell of direction d with degree r whose lower/upper sides have the side
 * codes lo, hi (penalty degree, + NR on a Dirichlet boundary): its volume
 * term and its faces' self terms, as dg_sblock's element blocks. */
static void cell_1d(const dg_sop *op, int d, int r, int lo, int hi, int o, double *G) {
  const dg_stab_d *T = &op->tab_d;
  const dg_grid *g = &op->g;
  double half[3], vol = 1;
  for (int e = 0; e < 3; ++e) half[e] = e < g->dim ? g->h[e] / 2 : 1;
  for (int e = 0; e < g->dim; ++e) vol *= half[e];
  const double h = g->h[d], w = vol / (half[d] * half[d]), J = vol / half[d];
  const int rs[2] = {lo, hi};
  for (int a = 0; a <= r; ++a)
    for (int c = 0; c <= r; ++c) {
      double v = w * T->K[a][c];
      for (int s = 0; s < 2; ++s) {
        const int bnd = rs[s] >= NR, rm = rs[s] % NR;
        const double sg = s ? 1 : -1, wav = bnd ? 1 : 0.5;
        const double sig = op->p.cpen * (rm + 1) * (rm + 1) / h;
        v += J * (sig * T->Pe[s][a] * T->Pe[s][c] -
                  sg * wav * (2 / h) * (T->Pe[s][a] * T->De[s][c] + T->De[s][a] * T->Pe[s][c]));
      }
      G[(o + a) * LD + o + c] += op->p.b * v;
    }
}

/* The 1D inverse k: ncell cells of degree r, penalty degree p, outer sides
 * lo, hi (side codes); an interior face between two cells couples them
 * (-{du/dn}[v] - {dv/dn}[u] + sigma [u][v] across it). */
static int key_setup(const dg_spatch *sp, double *Vh, double *lamh, int k, int d, int ncell, int r,
                     int p, int lo, int hi) {
  const dg_sop *op = sp->op;
  const dg_stab_d *T = &op->tab_d;
  const dg_grid *g = &op->g;
  const int n = r + 1, m = ncell * n;
  double G[LD * LD], Q[LD * LD];
  memset(G, 0, sizeof G);
  if (ncell == 1)
    cell_1d(op, d, r, lo, hi, 0, G);
  else {
    cell_1d(op, d, r, lo, p, 0, G);
    cell_1d(op, d, r, p, hi, n, G);
    double half[3], vol = 1;
    for (int e = 0; e < 3; ++e) half[e] = e < g->dim ? g->h[e] / 2 : 1;
    for (int e = 0; e < g->dim; ++e) vol *= half[e];
    const double h = g->h[d], J = vol / half[d];
    const double sig = op->p.cpen * (p + 1) * (p + 1) / h;
    /* left cell's test a (its upper side), right cell's trial c (its lower side) */
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < n; ++c) {
        const double v = J * (-sig * T->Pe[1][a] * T->Pe[0][c] - T->Pe[1][a] * T->De[0][c] / h +
                              T->De[1][a] * T->Pe[0][c] / h);
        G[a * LD + n + c] = op->p.b * v;
        G[(n + c) * LD + a] = op->p.b * v;
      }
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) G[i * LD + j] /= sqrt(T->M[i % n] * T->M[j % n]);
  double *V = Vh + (long)k * 2 * LD * LD, *lam = lamh + (long)k * LD;
  DG_CALL(dg_sym_eig(m, LD, G, Q, lam));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      V[i * LD + j] = Q[i * LD + j] / sqrt(T->M[i % n]);
      V[LD * LD + j * LD + i] = V[i * LD + j]; /* V^T */
    }
  return 0;
}

/* Every distinct key's 1D inverse into host views V, lam (dg_stables_fill):
   slot[d][two cells][outer lower][outer upper] holds the key, r the
   degree, p the penalty degree. */
typedef struct {
  const dg_spatch *sp;
  int (*slot)[3][2][2][2];
  int r, p;
} keys_ctx;

static int build_keys(void *ctx, double *V, double *lam) {
  const keys_ctx *c = (const keys_ctx *)ctx;
  const int r = c->r, p = c->p;
  for (int d = 0; d < c->sp->dim; ++d)
    for (int two = 0; two < 2; ++two)
      for (int lob = 0; lob < 2; ++lob)
        for (int hib = 0; hib < 2; ++hib) {
          const int k = (*c->slot)[d][two][lob][hib];
          if (k >= 0)
            DG_CALL(
                key_setup(c->sp, V, lam, k, d, two + 1, r, p, lob ? NR + p : p, hib ? NR + p : p));
        }
  return 0;
}

int dg_spatch_create(dg_spatch **spp, const dg_sop *op) {
  *spp = NULL;
  const dg_backend *be = op->be;
  char why[160];
  if (!dg_spatch_supported(op, why, sizeof why))
    return dg_error(DG_ERR_ARG, "vertex-patch smoother: %s", why);
  const dg_grid *g = &op->g;
  dg_spatch *sp = calloc(1, sizeof *sp);
  if (!sp) return dg_error(DG_ERR_MEM, "dg_spatch_create: out of memory");
  sp->op = op;
  sp->be = be;
  sp->dim = g->dim;
  sp->n = op->runi + 1;
  const int r = op->runi, p = op->pdeg[0];
  /* a rank's patches (dg_sop_part): those of the whole grid's vertices with
     an owned element, on every rank that owns one of their elements (the
     overlap computed twice, no message back), so an owned element's
     corrections are the same patches, added in the same colour order, as in
     one process; per direction the whole grid's count G, its rule, and the
     first vertex's whole-grid index v0 */
  const dg_spart *part = dg_sop_part(op);
  const dg_grid *gg = part ? dg_spart_global_grid(part) : g;
  const dg_sop_params *gp = part ? dg_spart_global_params(part) : &op->p;
  int v0[3] = {0, 0, 0}, spans[3] = {1, 1, 1};
  long nvt = 0;
  sp->npatch = 1;
  for (int d = 0; d < 3; ++d) {
    if (d < g->dim && part) {
      v0[d] = op->xorg[d] + op->xlo[d]; /* the block's first element */
      spans[d] = op->xlo[d] == 0 && op->xhi[d] == gg->n[d];
    }
    if (d >= g->dim)
      sp->nv[d] = 1;
    else if (!spans[d]) /* the vertices v0..v0 + owned count */
      sp->nv[d] = op->xhi[d] - op->xlo[d] + 1;
    else
      sp->nv[d] = op->p.bc[d] == DG_SBC_PERIODIC ? g->n[d] : g->n[d] + 1;
    sp->voff[d] = nvt;
    nvt += d < g->dim ? sp->nv[d] : 0;
    sp->npatch *= sp->nv[d];
  }
  /* the tables are built on the host (vinfo and list kept there for
     dg_spatch_cells and dg_spatch_colour; V and lam through views of
     solver memory, dg_svec_map) and go to the backend once */
  int rc = 0;
  const size_t vib = sizeof(int) * 3 * (size_t)nvt, lib = sizeof(long) * (size_t)sp->npatch;
  sp->vinfo = dg_svec_alloc(be, vib);
  sp->list = dg_svec_alloc(be, lib);
  sp->hvinfo = calloc(1, vib ? vib : 1);
  sp->hlist = calloc(1, lib ? lib : 1);
  if (!sp->vinfo || !sp->list || !sp->hvinfo || !sp->hlist) {
    rc = dg_error(DG_ERR_MEM, "dg_spatch_create: out of memory");
    goto fail;
  }
  /* per direction and vertex: the cells, the 1D key (ncell, outer sides) */
  int slot[3][2][2][2];
  memset(slot, -1, sizeof slot);
  for (int d = 0; d < g->dim; ++d) {
    const int nd = g->n[d], per = op->p.bc[d] == DG_SBC_PERIODIC;
    const int G = gg->n[d], gper = gp->bc[d] == DG_SBC_PERIODIC;
    for (int i = 0; i < sp->nv[d]; ++i) {
      int *vi = sp->hvinfo + 3 * (sp->voff[d] + i);
      int lob, hib; /* outer sides on the boundary */
      if (!spans[d]) {
        /* the block's vertex v (box cells below and above it: the ghost
           layers are there wherever a neighbour is) */
        const int v = v0[d] + i, lo = op->xlo[d] - 1 + i;
        lob = hib = 0;
        if (!gper && v == 0) {
          vi[0] = lo + 1;
          vi[1] = -1;
          lob = 1;
        } else if (!gper && v == G) {
          vi[0] = lo;
          vi[1] = -1;
          hib = 1;
        } else {
          vi[0] = lo;
          vi[1] = lo + 1;
          lob = !gper && v - 1 == 0;
          hib = !gper && v == G - 1;
        }
      } else if (per) {
        vi[0] = (i + nd - 1) % nd;
        vi[1] = i;
        lob = hib = 0;
      } else if (i == 0 || i == nd) {
        vi[0] = i == 0 ? 0 : nd - 1;
        vi[1] = -1;
        lob = i == 0 || nd == 1;
        hib = i == nd || nd == 1;
      } else {
        vi[0] = i - 1;
        vi[1] = i;
        lob = i - 1 == 0;
        hib = i == nd - 1;
      }
      int *sl = &slot[d][vi[1] >= 0][lob][hib];
      if (*sl < 0) *sl = sp->nkeys++;
      vi[2] = *sl;
    }
  }
  const size_t vn = (size_t)sp->nkeys * 2 * LD * LD, ln = (size_t)sp->nkeys * LD;
  sp->V = dg_svec_alloc(be, sizeof(double) * vn);
  sp->lam = dg_svec_alloc(be, sizeof(double) * ln);
  sp->Vf = dg_svec_alloc(be, sizeof(float) * vn);
  sp->lamf = dg_svec_alloc(be, sizeof(float) * ln);
  if (!sp->V || !sp->lam || !sp->Vf || !sp->lamf) {
    rc = dg_error(DG_ERR_MEM, "dg_spatch_create: out of memory");
    goto fail;
  }
  keys_ctx kc = {sp, &slot, r, p};
  if ((rc = dg_stables_fill(be, sp->V, sp->lam, sp->Vf, sp->lamf, vn, ln, build_keys, &kc)))
    goto fail;
  /* colours: the vertex's parity per direction (a third colour for the last
     vertex of an odd periodic direction): patches of one colour share no
     element, so a colour's corrections are added without conflicts (a
     rank's patches take the whole grid's colours, by its vertex index) */
  int ncd[3];
  for (int d = 0; d < 3; ++d)
    ncd[d] = d >= g->dim ? 1 : (gp->bc[d] == DG_SBC_PERIODIC && gg->n[d] % 2 ? 3 : 2);
  sp->ncol = ncd[0] * ncd[1] * ncd[2];
  long k = 0;
  for (int col = 0; col < sp->ncol; ++col) {
    sp->cstart[col] = k;
    for (long pv = 0; pv < sp->npatch; ++pv) {
      long iv[3];
      iv[0] = pv % sp->nv[0];
      iv[1] = (pv / sp->nv[0]) % sp->nv[1];
      iv[2] = pv / ((long)sp->nv[0] * sp->nv[1]);
      int c = 0;
      for (int d = 2; d >= 0; --d) {
        long v = d < g->dim ? v0[d] + iv[d] : 0;
        if (d < g->dim && gp->bc[d] == DG_SBC_PERIODIC) v %= gg->n[d];
        const int cd = ncd[d] == 3 && v == gg->n[d] - 1 ? 2 : (int)(v % 2);
        c = c * ncd[d] + cd;
      }
      if (c == col) sp->hlist[k++] = pv;
    }
  }
  sp->cstart[sp->ncol] = k;
  /* a rank's patches read the ghosts below and above the block, corners
     included: the lists of every ghost slot (the transfers' too) */
  if (part && (rc = dg_sop_part_corners((dg_sop *)op))) goto fail;
  if ((rc = dg_svec_to_device(be, sp->vinfo, sp->hvinfo, vib)) ||
      (rc = dg_svec_to_device(be, sp->list, sp->hlist, lib)))
    goto fail;
  sp->shift = op->p.a;
  for (int d = 0; d < g->dim; ++d) sp->shift *= g->h[d] / 2;
  *spp = sp;
  return 0;
fail:
  dg_spatch_destroy(&sp);
  return rc;
}

void dg_spatch_destroy(dg_spatch **sp) {
  if (!sp || !*sp) return;
  const dg_backend *be = (*sp)->be;
  dg_svec_free(be, (*sp)->vinfo);
  dg_svec_free(be, (*sp)->list);
  dg_svec_free(be, (*sp)->V);
  dg_svec_free(be, (*sp)->lam);
  dg_svec_free(be, (*sp)->Vf);
  dg_svec_free(be, (*sp)->lamf);
  free((*sp)->hvinfo);
  free((*sp)->hlist);
  free(*sp);
  *sp = NULL;
}

long dg_spatch_npatches(const dg_spatch *sp) { return sp->npatch; }
int dg_spatch_nkeys(const dg_spatch *sp) { return sp->nkeys; }
int dg_spatch_ncolours(const dg_spatch *sp) { return sp->ncol; }

long dg_spatch_colour(const dg_spatch *sp, int c, const long **list) {
  if (c < 0 || c >= sp->ncol) {
    *list = NULL;
    return 0;
  }
  *list = sp->hlist + sp->cstart[c];
  return sp->cstart[c + 1] - sp->cstart[c];
}

int dg_spatch_apply_one_d(const dg_spatch *sp, long patch, const double *r, double *z, long el[8],
                          int *ncells) {
  if (patch < 0 || patch >= sp->npatch)
    return dg_error(DG_ERR_ARG, "dg_spatch_apply_one_d: patch %ld not in 0..%ld", patch,
                    sp->npatch - 1);
  int nc[3], key[3];
  dg_spatch_cells(sp, patch, el, nc, key);
  /* host views of r, z and the inverses (copies on the CUDA backend: a
     test's reference, not a fast path) */
  const dg_backend *be = sp->be;
  const size_t nb = sizeof(double) * (size_t)dg_sop_len(sp->op);
  const size_t vb = sizeof(double) * (size_t)sp->nkeys * 2 * LD * LD,
               lb = sizeof(double) * (size_t)sp->nkeys * LD;
  double *rh = NULL, *zh = NULL, *Vh = NULL, *lh = NULL;
  int rc = dg_svec_sync(be);
  if (!rc) rc = dg_svec_map(be, r, nb, DG_SVEC_READ, (void **)&rh);
  if (!rc) rc = dg_svec_map(be, z, nb, DG_SVEC_READ | DG_SVEC_WRITE, (void **)&zh);
  if (!rc) rc = dg_svec_map(be, sp->V, vb, DG_SVEC_READ, (void **)&Vh);
  if (!rc) rc = dg_svec_map(be, sp->lam, lb, DG_SVEC_READ, (void **)&lh);
  if (!rc) {
    const double *V[3], *lam[3];
    for (int d = 0; d < 3; ++d) {
      V[d] = Vh + (long)key[d] * 2 * LD * LD;
      lam[d] = lh + (long)key[d] * LD;
    }
    dg_spatch_solve_d(sp->dim, sp->n, nc, el, sp->op->off, V, lam, sp->shift, rh, zh);
    *ncells = nc[0] * nc[1] * nc[2];
  }
  const int wrc = dg_svec_unmap(be, z, zh, nb, rc ? 0 : DG_SVEC_WRITE);
  dg_svec_unmap(be, r, rh, nb, 0);
  dg_svec_unmap(be, sp->V, Vh, vb, 0);
  dg_svec_unmap(be, sp->lam, lh, lb, 0);
  return rc ? rc : wrc;
}
