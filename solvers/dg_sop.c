/* dg_sop.c - the SIPG operator object: degrees, offsets, the 1D tables. */
#include "dg_sop_internal.h"

#include "dg_error.h"
#include "dg_quadrature.h"
#include "dg_spart.h"
#include "dg_svec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dg_sop_params dg_sop_default_params(void) {
  dg_sop_params p;
  memset(&p, 0, sizeof p);
  p.bc[0] = p.bc[1] = p.bc[2] = DG_SBC_PERIODIC;
  p.a = 0;
  p.b = 1;
  p.cpen = 2;
  return p;
}

int dg_stab_build(dg_stab_d *td, dg_stab_f *tf) {
  enum { R = DG_MAX_DEGREE, NQ = DG_MAX_DEGREE + 1 };
  double x[NQ], w[NQ], P[NQ * NQ], dP[NQ * NQ], xs[NQ], Ps[NQ * NQ], e1[2] = {-1, 1};
  double Pe[NQ * 2], De[NQ * 2];
  DG_CALL(dg_gauss_legendre(NQ, x, w));
  DG_CALL(dg_legendre_table(R, NQ, x, P, dP));
  DG_CALL(dg_legendre_table(R, 2, e1, Pe, De));
  memset(td, 0, sizeof *td);
  for (int a = 0; a <= R; ++a) {
    td->M[a] = 2.0 / (2 * a + 1);
    for (int s = 0; s < 2; ++s) {
      td->Pe[s][a] = Pe[a * 2 + s];
      td->De[s][a] = De[a * 2 + s];
    }
    for (int b = 0; b <= R; ++b) {
      double k = 0;
      for (int q = 0; q < NQ; ++q) k += w[q] * dP[a * NQ + q] * dP[b * NQ + q];
      td->K[a][b] = k;
    }
  }
  /* child c covers [-1,0] (c = 0) or [0,1] of the parent: xi_parent = (xi + 2c - 1) / 2 */
  for (int c = 0; c < 2; ++c) {
    for (int q = 0; q < NQ; ++q) xs[q] = 0.5 * (x[q] + (2 * c - 1));
    DG_CALL(dg_legendre_table(R, NQ, xs, Ps, NULL));
    for (int a = 0; a <= R; ++a)
      for (int b = 0; b <= R; ++b) {
        double s = 0;
        for (int q = 0; q < NQ; ++q) s += w[q] * Ps[a * NQ + q] * P[b * NQ + q];
        s *= (2 * b + 1) / 2.0;
        td->E[c][a][b] = b > a ? 0.0 : s; /* exactly zero above the diagonal */
      }
  }
  /* float: the same tables, rounded once */
  for (int a = 0; a <= R; ++a) {
    tf->M[a] = (float)td->M[a];
    for (int s = 0; s < 2; ++s) {
      tf->Pe[s][a] = (float)td->Pe[s][a];
      tf->De[s][a] = (float)td->De[s][a];
    }
    for (int b = 0; b <= R; ++b) {
      tf->K[a][b] = (float)td->K[a][b];
      for (int c = 0; c < 2; ++c) tf->E[c][a][b] = (float)td->E[c][a][b];
    }
  }
  return 0;
}

int dg_sop_create(dg_sop **op, const dg_backend *be, const dg_grid *g, const uint8_t *deg,
                  const dg_sop_params *p) {
  return dg_sop_create_pen(op, be, g, deg, deg, p);
}

int dg_sop_create_pen(dg_sop **op, const dg_backend *be, const dg_grid *g, const uint8_t *deg,
                      const uint8_t *pdeg, const dg_sop_params *p) {
  *op = NULL;
  if (!be || !g || !deg || !pdeg || !p) return dg_error(DG_ERR_ARG, "dg_sop_create: NULL argument");
  if (!(p->b > 0) || !(p->a >= 0) || !(p->cpen > 0))
    return dg_error(DG_ERR_ARG,
                    "dg_sop_create: need b > 0, a >= 0, C > 0 (got b = %g, a = %g, C = %g)", p->b,
                    p->a, p->cpen);
  for (int d = 0; d < g->dim; ++d) {
    if (p->bc[d] != DG_SBC_PERIODIC && p->bc[d] != DG_SBC_DIRICHLET)
      return dg_error(DG_ERR_ARG, "dg_sop_create: boundary rule %d of direction %d unknown",
                      p->bc[d], d);
    if (p->bc[d] == DG_SBC_PERIODIC && g->n[d] < 2)
      return dg_error(DG_ERR_ARG,
                      "dg_sop_create: periodic direction %d needs >= 2 elements, has %d", d,
                      g->n[d]);
  }
  dg_sop *o = calloc(1, sizeof *o);
  if (!o) return dg_error(DG_ERR_MEM, "dg_sop_create: out of memory");
  o->be = be;
  o->g = *g;
  o->p = *p;
  for (int d = 0; d < 3; ++d) o->xhi[d] = g->n[d]; /* owns the whole grid */
  /* host tables for the host's loops, and their copies in solver memory
     for the drivers (device memory on the CUDA backend) */
  const size_t ne = (size_t)g->nelem, offb = sizeof(long) * (ne + 1);
  o->deg = malloc(ne ? ne : 1);
  o->pdeg = malloc(ne ? ne : 1);
  o->off = malloc(offb);
  o->ddeg = dg_svec_alloc(be, ne);
  o->dpdeg = dg_svec_alloc(be, ne);
  o->doff = dg_svec_alloc(be, offb);
  o->m0 = dg_svec_alloc(be, sizeof(double) * ne);
  if (!o->deg || !o->pdeg || !o->off || !o->ddeg || !o->dpdeg || !o->doff || !o->m0) {
    dg_sop_destroy(&o);
    return dg_error(DG_ERR_MEM, "dg_sop_create: out of memory (%ld elements)", g->nelem);
  }
  long off = 0;
  for (long e = 0; e < g->nelem; ++e) {
    if (deg[e] > DG_MAX_DEGREE || pdeg[e] > DG_MAX_DEGREE) {
      int r = deg[e] > pdeg[e] ? deg[e] : pdeg[e];
      dg_sop_destroy(&o);
      return dg_error(DG_ERR_ARG, "dg_sop_create: element %ld has degree %d > %d", e, r,
                      DG_MAX_DEGREE);
    }
    o->deg[e] = deg[e];
    o->pdeg[e] = pdeg[e];
    o->off[e] = off;
    long m = 1;
    for (int d = 0; d < g->dim; ++d) m *= deg[e] + 1;
    off += m;
  }
  o->off[g->nelem] = off;
  o->len = off;
  int rc = dg_svec_to_device(be, o->ddeg, o->deg, ne);
  if (!rc) rc = dg_svec_to_device(be, o->dpdeg, o->pdeg, ne);
  if (!rc) rc = dg_svec_to_device(be, o->doff, o->off, offb);
  if (rc) {
    dg_sop_destroy(&o);
    return rc;
  }
  for (long e = 0; e < g->nelem; ++e) o->degmask |= 1u << deg[e];
  o->runi = g->nelem ? deg[0] : -1;
  for (long e = 0; e < g->nelem && o->runi >= 0; ++e)
    if (deg[e] != o->runi) o->runi = -1;
  rc = dg_stab_build(&o->tab_d, &o->tab_f);
  if (rc) {
    dg_sop_destroy(&o);
    return rc;
  }
  dg_sargs_d *A = &o->args_d;
  dg_sargs_f *F = &o->args_f;
  A->dim = F->dim = g->dim;
  for (int d = 0; d < 3; ++d) {
    A->n[d] = F->n[d] = d < g->dim ? g->n[d] : 1;
    A->bc[d] = F->bc[d] = d < g->dim ? p->bc[d] : DG_SBC_PERIODIC;
    A->h[d] = d < g->dim ? g->h[d] : 1;
    F->h[d] = (float)A->h[d];
  }
  A->a = p->a;
  A->b = p->b;
  A->cpen = p->cpen;
  F->a = (float)p->a;
  F->b = (float)p->b;
  F->cpen = (float)p->cpen;
  A->deg = F->deg = o->ddeg;
  A->pdeg = F->pdeg = o->dpdeg;
  int pu = g->nelem ? o->pdeg[0] : -1;
  for (long e = 1; e < g->nelem && pu >= 0; ++e)
    if (o->pdeg[e] != pu) pu = -1;
  A->pdu1 = F->pdu1 = pu + 1;
  A->off = F->off = o->doff;
  o->hargs_d = *A;
  o->hargs_f = *F;
  o->hargs_d.deg = o->hargs_f.deg = o->deg;
  o->hargs_d.pdeg = o->hargs_f.pdeg = o->pdeg;
  o->hargs_d.off = o->hargs_f.off = o->off;
  *op = o;
  return 0;
}

void dg_sop_destroy(dg_sop **op) {
  if (!op || !*op) return;
  const dg_backend *be = (*op)->be;
  dg_sop_part_free(*op);
  free((*op)->deg);
  free((*op)->pdeg);
  free((*op)->off);
  dg_svec_free(be, (*op)->ddeg);
  dg_svec_free(be, (*op)->dpdeg);
  dg_svec_free(be, (*op)->doff);
  dg_svec_free(be, (*op)->m0);
  free(*op);
  *op = NULL;
}

long dg_sop_len(const dg_sop *op) { return op->len; }
const dg_backend *dg_sop_backend(const dg_sop *op) { return op->be; }
const long *dg_sop_offsets(const dg_sop *op) { return op->off; }
const dg_grid *dg_sop_grid(const dg_sop *op) { return &op->g; }
const uint8_t *dg_sop_degrees(const dg_sop *op) { return op->deg; }
const uint8_t *dg_sop_penalty_degrees(const dg_sop *op) { return op->pdeg; }
const dg_sop_params *dg_sop_get_params(const dg_sop *op) { return &op->p; }

int dg_sop_mode0_get(const dg_sop *op, const double *x, double *h) {
  const long ne = op->g.nelem;
  dg_svec_gather_d(op->be, ne, op->doff, x, op->m0);
  DG_CALL(dg_svec_to_host(op->be, h, op->m0, sizeof(double) * (size_t)ne)); /* it waits */
  return dg_svec_status(op->be);
}

int dg_sop_mode0_add(const dg_sop *op, double c, double *x) {
  dg_svec_scatter_add_d(op->be, op->g.nelem, op->doff, c, x);
  return dg_svec_status(op->be);
}
const dg_stab_d *dg_sop_tab_d(const dg_sop *op) { return &op->tab_d; }
const dg_stab_f *dg_sop_tab_f(const dg_sop *op) { return &op->tab_f; }
