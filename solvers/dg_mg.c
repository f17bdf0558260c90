/* dg_mg.c - the multigrid hierarchy: levels by degree, then by
 * agglomeration; Jacobi diagonals and Lanczos eigenvalue estimates. */
#include "dg_mg_internal.h"

#include "dg_backend.h"
#include "dg_comm.h"
#include "dg_error.h"
#include "dg_solver_ops.h"
#include "dg_spart.h"
#include "dg_svec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dg_mg_opts dg_mg_default_opts(void) {
  dg_mg_opts o;
  memset(&o, 0, sizeof o);
  o.smooth_deg = 6;
  o.smooth_range = 0;
  o.eig_safety = 1.1;
  o.eig_its = 12;
  o.cycle = DG_MG_V;
  o.coarse_min = 2;
  o.coarse_rtol = 1e-12;
  o.coarse_dense_max = 256;
  o.precisions = DG_MG_DOUBLE | DG_MG_FLOAT;
  o.smoother = DG_MG_BLOCK;
  return o;
}

/* Largest eigenvalue of the symmetric tridiagonal (diag a, off-diagonal b)
 * by bisection on the Sturm count. */
static double tridiag_max(int k, const double *a, const double *b) {
  double lo = 0, hi = 0;
  for (int i = 0; i < k; ++i) {
    const double rad = (i > 0 ? fabs(b[i - 1]) : 0) + (i < k - 1 ? fabs(b[i]) : 0);
    hi = fmax(hi, a[i] + rad);
  }
  for (int it = 0; it < 100; ++it) {
    const double mid = 0.5 * (lo + hi);
    int cnt = 0; /* eigenvalues below mid */
    double q = 1;
    for (int i = 0; i < k; ++i) {
      q = a[i] - mid - (i > 0 ? b[i - 1] * b[i - 1] / q : 0);
      if (q == 0) q = 1e-300;
      if (q < 0) cnt++;
    }
    if (cnt == k)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

/* The Lanczos start: pseudo-random entries in [-0.5, 0.5), the same
 * sequence on every level. */
static void start_vector(long n, double *r) {
  uint64_t s = 88172645463325252ULL;
  for (long i = 0; i < n; ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    r[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
  }
}

/* Estimate lmax(D^-1 A) on level L from `its` steps of Jacobi-CG (Lanczos). */
static int estimate_lmax(dg_mg_level *L, int its) {
  const long n = L->n;
  const dg_backend *be = dg_sop_backend(L->op);
  double *x = L->vd[MG_X], *r = L->vd[MG_R], *z = L->vd[MG_D], *p = L->vd[MG_T];
  double *q = L->vd[MG_B];
  DG_CALL(dg_svec_sync(be)); /* no kernel may still use r or x */
  if (dg_sop_part(L->op)) {  /* a rank's share of one process's start */
    const long ng = dg_sop_global_len(L->op);
    double *rg = malloc(sizeof(double) * (size_t)(ng + 1));
    if (!rg) return dg_error(DG_ERR_MEM, "multigrid: out of memory");
    start_vector(ng, rg);
    const int rc = dg_sop_scatter_d(L->op, rg, r);
    free(rg);
    DG_CALL(rc);
  } else { /* the start vector built on the host and sent once */
    double *rh;
    DG_CALL(dg_svec_map(be, r, sizeof(double) * (size_t)n, DG_SVEC_WRITE, (void **)&rh));
    start_vector(n, rh);
    DG_CALL(dg_svec_unmap(be, r, rh, sizeof(double) * (size_t)n, DG_SVEC_WRITE));
  }
  dg_svec_zero_d(be, n, x);
  double al[64], bt[64], ta[64], tb[64], rz = 0;
  if (its > 64) its = 64;
  int k = 0;
  for (; k < its; ++k) {
    if (L->sp)
      DG_CALL(dg_spatch_apply_d(L->sp, r, z));
    else if (L->bj)
      DG_CALL(dg_sblock_apply_d(L->bj, r, z));
    else
      dg_svec_mul_d(be, n, L->dinv_d, r, z);
    const double rzn = dg_svec_dot_d(be, n, r, z);
    if (k == 0) {
      dg_svec_copy_d(be, n, z, p);
    } else {
      bt[k - 1] = rzn / rz;
      dg_svec_xpby_d(be, n, z, bt[k - 1], p);
    }
    rz = rzn;
    DG_CALL(dg_sop_apply_d(L->op, p, q));
    const double pq = dg_svec_dot_d(be, n, p, q);
    DG_CALL(dg_svec_status(be));
    if (!(pq > 0) || !(rz > 0)) break;
    al[k] = rz / pq;
    dg_svec_axpy_d(be, n, -al[k], q, r);
  }
  if (k == 0) return dg_error(DG_ERR_NUMERIC, "multigrid: eigenvalue estimate failed");
  for (int i = 0; i < k; ++i) {
    ta[i] = 1 / al[i] + (i > 0 ? bt[i - 1] / al[i - 1] : 0);
    if (i < k - 1) tb[i] = sqrt(bt[i]) / al[i];
  }
  L->lmax = tridiag_max(k, ta, tb);
  return 0;
}

static int level_alloc(dg_mg_level *L, int l, int prec) {
  const size_t n = (size_t)L->n;
  const dg_backend *be = dg_sop_backend(L->op);
  L->dinv_d = dg_svec_alloc(be, sizeof(double) * n);
  if (!L->dinv_d) return dg_error(DG_ERR_MEM, "multigrid: out of memory");
  /* double work vectors on every level (the setup's eigenvalue estimates
     and the mixed preconditioner's fp64 residuals use them; freed after the
     setup when only the float cycle is asked for) */
  for (int v = 0; v < MG_NV; ++v) {
    L->vd[v] = dg_svec_alloc(be, sizeof(double) * n);
    if (!L->vd[v]) return dg_error(DG_ERR_MEM, "multigrid: out of memory");
    if (prec & DG_MG_FLOAT) {
      L->vf[v] = dg_svec_alloc(be, sizeof(float) * n);
      if (!L->vf[v]) return dg_error(DG_ERR_MEM, "multigrid: out of memory");
    }
  }
  if (prec & DG_MG_FLOAT) {
    L->dinv_f = dg_svec_alloc(be, sizeof(float) * n);
    if (!L->dinv_f) return dg_error(DG_ERR_MEM, "multigrid: out of memory");
  }
  DG_CALL(dg_sop_diag_d(L->op, L->dinv_d));
  DG_CALL(dg_svec_sync(be));
  /* the host inverts it (a copy on the CUDA backend, read once, sent once) */
  double *dh = NULL;
  float *fh = NULL;
  int rc = dg_svec_map(be, L->dinv_d, sizeof(double) * n, DG_SVEC_READ, (void **)&dh);
  if (!rc && L->dinv_f)
    rc = dg_svec_map(be, L->dinv_f, sizeof(float) * n, DG_SVEC_WRITE, (void **)&fh);
  for (size_t i = 0; i < n && !rc; ++i) {
    if (!(dh[i] > 0))
      rc = dg_error(DG_ERR_NUMERIC, "multigrid: diagonal entry %zu of level %d is %g", i, l, dh[i]);
    else {
      dh[i] = 1 / dh[i];
      if (fh) fh[i] = (float)dh[i];
    }
  }
  const int mode = rc ? 0 : DG_SVEC_WRITE;
  const int wd = dg_svec_unmap(be, L->dinv_d, dh, sizeof(double) * n, mode);
  const int wf = dg_svec_unmap(be, L->dinv_f, fh, sizeof(float) * n, mode);
  return rc ? rc : (wd ? wd : wf);
}

/* Append level l+1 to the hierarchy from level l (by degree or by
 * agglomeration).  Across ranks by agglomeration the coarse degrees come
 * from the whole grid's (as one process computes them) and the level is
 * the ranks' share of the coarse grid (dg_spart_create_coarse). */
static int coarsen(dg_mg *mg, int l, char kind) {
  const dg_sop *F = mg->lev[l].op;
  const dg_spart *fpart = dg_sop_part(F);
  const int across = kind == 'h' && fpart;
  const dg_grid *gf = across ? dg_spart_global_grid(fpart) : dg_sop_grid(F);
  const uint8_t *df = across ? dg_sop_global_degrees(F) : dg_sop_degrees(F);
  const uint8_t *pf = across ? dg_sop_global_penalty_degrees(F) : dg_sop_penalty_degrees(F);
  dg_sop_params pc = *dg_sop_get_params(F);
  dg_grid gc = *gf;
  if (kind == 'h') {
    int nc[3];
    for (int d = 0; d < 3; ++d) nc[d] = d < gf->dim ? gf->n[d] / 2 : 1;
    DG_CALL(dg_grid_init(&gc, gf->dim, nc, gf->lo, gf->hi));
    if (mg->o.fine_penalty) pc.cpen *= 2; /* the fine faces' sigma on the coarse faces */
  }
  /* penalty degrees and sizes stay the fine level's: the coarse operator is
     then the Galerkin one, P^T A P (exactly for uniform maps; the largest
     child's penalty degree across an agglomerate otherwise) */
  uint8_t *dc = malloc((size_t)gc.nelem), *pcd = malloc((size_t)gc.nelem);
  if (!dc || !pcd) {
    free(dc);
    free(pcd);
    return dg_error(DG_ERR_MEM, "multigrid: out of memory");
  }
  for (long e = 0; e < gc.nelem; ++e) {
    if (kind == 'p') {
      const int r = df[e];
      dc[e] = (uint8_t)(r > 1 ? (r / 2 > 1 ? r / 2 : 1) : r);
      pcd[e] = mg->o.fine_penalty ? pf[e] : dc[e];
    } else {
      int ijk[3], rmin = DG_MAX_DEGREE, pmax = 0;
      dg_grid_ijk(&gc, e, ijk);
      for (int c = 0; c < (gf->dim == 3 ? 8 : 4); ++c) {
        const long ef = dg_grid_elem(gf, 2 * ijk[0] + (c & 1), 2 * ijk[1] + ((c >> 1) & 1),
                                     gf->dim == 3 ? 2 * ijk[2] + (c >> 2) : 0);
        if (df[ef] < rmin) rmin = df[ef];
        if (pf[ef] > pmax) pmax = pf[ef];
      }
      dc[e] = (uint8_t)rmin;
      pcd[e] = (uint8_t)(mg->o.fine_penalty ? pmax : rmin);
    }
  }
  dg_mg_level *C = &mg->lev[l + 1];
  int rc = 0;
  if (across) { /* the coarse grid's rules: the whole grid's, this level's penalty */
    dg_sop_params gp = *dg_spart_global_params(fpart);
    gp.cpen = pc.cpen;
    rc = dg_spart_create_coarse(&C->part, fpart, &gp);
    if (!rc) rc = dg_sop_create_part(&C->op, mg->be, C->part, dc, pcd);
    /* the transfers read every ghost slot of both levels (F may be the
       caller's fine operator: its lists of every slot are added, its
       results unchanged) */
    if (!rc) rc = dg_sop_part_corners((dg_sop *)F);
    if (!rc) rc = dg_sop_part_corners(C->op);
  } else {
    rc = dg_sop_create_pen(&C->op, mg->be, &gc, dc, pcd, &pc);
    if (!rc && fpart) rc = dg_sop_set_part(C->op, fpart);
  }
  free(dc);
  free(pcd);
  if (rc) {
    dg_sop_destroy(&C->op);
    dg_spart_destroy(&C->part);
    return dg_error_prefix(rc, "multigrid level %d: ", l + 1);
  }
  C->kind = kind;
  C->n = dg_sop_len(C->op);
  mg->nl = l + 2;
  return 0;
}

/* Across ranks: the whole grid's hierarchy under the last level on the
 * ranks' blocks, on the backend without the ranks (mg_internal.h); on the
 * coarse root only. */
static int sub_create(dg_mg *mg) {
  const dg_sop *L = mg->lev[mg->nl - 1].op;
  const dg_spart *part = dg_sop_part(L);
  dg_sop_params gp = *dg_sop_get_params(L);
  for (int d = 0; d < 3; ++d) gp.bc[d] = dg_spart_global_params(part)->bc[d];
  mg->sub_be = *mg->be;
  mg->sub_be.comm = NULL;
  DG_CALL(dg_sop_create_pen(&mg->sub_op, &mg->sub_be, dg_spart_global_grid(part),
                            dg_sop_global_degrees(L), dg_sop_global_penalty_degrees(L), &gp));
  DG_CALL(dg_mg_create(&mg->sub, mg->sub_op, &mg->o));
  const size_t n = (size_t)dg_sop_len(mg->sub_op);
  mg->gb = dg_svec_alloc(&mg->sub_be, sizeof(double) * n);
  mg->gx = dg_svec_alloc(&mg->sub_be, sizeof(double) * n);
  if (mg->o.precisions & DG_MG_FLOAT) {
    mg->gbf = dg_svec_alloc(&mg->sub_be, sizeof(float) * n);
    mg->gxf = dg_svec_alloc(&mg->sub_be, sizeof(float) * n);
    if (!mg->gbf || !mg->gxf) return dg_error(DG_ERR_MEM, "multigrid: out of memory");
  }
  if (!mg->gb || !mg->gx) return dg_error(DG_ERR_MEM, "multigrid: out of memory");
  return 0;
}

/* Across ranks: sub made on the coarse root, and its outcome and level
 * count given to every rank (collective), so that a failure there is every
 * rank's before any of them waits for the root in a cycle. */
static int coarse_create(dg_mg *mg) {
  dg_comm *c = dg_spart_comm(dg_sop_part(mg->lev[mg->nl - 1].op));
  mg->gathered = 1;
  mg->croot = DG_MG_COARSE_ROOT;
  int rc = dg_comm_rank(c) == mg->croot ? sub_create(mg) : 0;
  double v[2] = {rc, !rc && mg->sub ? dg_mg_nlevels(mg->sub) : 0};
  DG_CALL(dg_comm_allreduce_max(c, v, v, 2));
  if (!rc && v[0] != 0)
    rc = dg_error((int)v[0], "multigrid: the coarse levels' setup failed on rank %d", mg->croot);
  mg->sub_nl = (int)v[1];
  return rc;
}

int dg_mg_create(dg_mg **mgp, const dg_sop *fine, const dg_mg_opts *o) {
  *mgp = NULL;
  if (!fine || !o) return dg_error(DG_ERR_ARG, "dg_mg_create: NULL argument");
  if (o->smooth_deg < 1 || !(o->smooth_range == 0 || o->smooth_range > 1) ||
      !(o->eig_safety >= 1) || o->eig_its < 2 || o->coarse_min < 1 || !(o->coarse_rtol > 0) ||
      o->coarse_dense_max < 0 || o->coarse_dense_max > DG_MG_DENSE_LIMIT || !(o->precisions & 3) ||
      (o->cycle != DG_MG_V && o->cycle != DG_MG_F) ||
      (o->smoother != DG_MG_POINT && o->smoother != DG_MG_BLOCK && o->smoother != DG_MG_PATCH))
    return dg_error(DG_ERR_ARG,
                    "dg_mg_create: bad options (smoothing degree %d, range %g, "
                    "safety %g, Lanczos steps %d, coarse_min %d, coarse tol %g, dense coarse "
                    "solve up to %ld unknowns, at most %d)",
                    o->smooth_deg, o->smooth_range, o->eig_safety, o->eig_its, o->coarse_min,
                    o->coarse_rtol, o->coarse_dense_max, DG_MG_DENSE_LIMIT);
  dg_mg *mg = calloc(1, sizeof *mg);
  const int maxl = 64;
  if (mg) mg->lev = calloc(maxl, sizeof(dg_mg_level));
  if (!mg || !mg->lev) {
    free(mg);
    return dg_error(DG_ERR_MEM, "dg_mg_create: out of memory");
  }
  mg->o = *o;
  mg->be = dg_sop_backend(fine);
  mg->nl = 1;
  mg->lev[0].op = (dg_sop *)fine;
  mg->lev[0].kind = 'f';
  mg->lev[0].n = dg_sop_len(fine);
  int rc = 0;
  const int minperiodic = o->coarse_min > 2 ? o->coarse_min : 2;
  const dg_spart *part = dg_sop_part(fine);
  if (part && o->smoother == DG_MG_PATCH && !dg_spatch_on_ranks(mg->be)) {
    rc = dg_error(DG_ERR_ARG,
                  "dg_mg_create: the vertex patches do not run across ranks on this backend yet");
    goto fail;
  }
  for (;;) { /* by degree */
    const dg_sop *F = mg->lev[mg->nl - 1].op;
    const dg_grid *g = dg_sop_grid(F);
    double any = 0;
    for (long e = 0; e < g->nelem && !any; ++e) any = dg_sop_degrees(F)[e] > 1;
    if (part && (rc = dg_comm_allreduce_max(dg_spart_comm(part), &any, &any, 1))) goto fail;
    if (!any || mg->nl >= maxl) break;
    if ((rc = coarsen(mg, mg->nl - 1, 'p'))) goto fail;
  }
  /* by agglomeration, down to a level the dense coarse solve takes; across
     ranks while every rank keeps a coarse block of at least DG_MG_HBLOCK_MIN
     elements per direction, then gathered (sub_create) */
  for (;;) {
    const dg_sop *F = mg->lev[mg->nl - 1].op;
    if (dg_sop_global_len(F) <= o->coarse_dense_max) break;
    const dg_spart *fp = dg_sop_part(F);
    const dg_grid *g = fp ? dg_spart_global_grid(fp) : dg_sop_grid(F);
    const dg_sop_params *p = fp ? dg_spart_global_params(fp) : dg_sop_get_params(F);
    int ok = mg->nl < maxl;
    for (int d = 0; d < g->dim; ++d) {
      const int lim = p->bc[d] == DG_SBC_PERIODIC ? minperiodic : o->coarse_min;
      ok = ok && g->n[d] % 2 == 0 && g->n[d] / 2 >= lim;
    }
    if (fp &&
        (!mg->be->ops->solver->xfer_on_ranks || dg_spart_coarse_extent(fp) < DG_MG_HBLOCK_MIN))
      break;
    if (!ok) break;
    if ((rc = coarsen(mg, mg->nl - 1, 'h'))) goto fail;
  }
  if (part && (rc = coarse_create(mg))) goto fail;
  {
    /* every level's kernels in one batch before the first apply: double
       for the setup (and the fp64 cycle), float for the float cycle */
    unsigned degrees = 0;
    for (int l = 0; l < mg->nl; ++l) {
      const dg_sop *L = mg->lev[l].op;
      for (long e = 0; e < dg_sop_grid(L)->nelem; ++e) degrees |= 1u << dg_sop_degrees(L)[e];
    }
    if ((rc = dg_sop_prepare(mg->be, dg_sop_grid(fine)->dim, degrees,
                             DG_MG_DOUBLE | (o->precisions & DG_MG_FLOAT))))
      goto fail;
  }
  for (int l = 0; l < mg->nl; ++l) {
    if ((rc = level_alloc(&mg->lev[l], l, o->precisions))) goto fail;
    const int patch = o->smoother == DG_MG_PATCH && dg_spatch_supported(mg->lev[l].op, NULL, 0);
    if (patch && l < mg->nl - 1 && (rc = dg_spatch_create(&mg->lev[l].sp, mg->lev[l].op)))
      goto fail;
    if ((o->smoother == DG_MG_BLOCK || (o->smoother == DG_MG_PATCH && !patch)) && l < mg->nl - 1 &&
        (rc = dg_sblock_create(&mg->lev[l].bj, mg->lev[l].op)))
      goto fail;
    if (l < mg->nl - 1 && (rc = estimate_lmax(&mg->lev[l], o->eig_its))) goto fail;
    mg->lev[l].lmax *= o->eig_safety;
    /* the smoothed interval: the patches' corrections already damp most of
       the spectrum, so Chebyshev targets a narrower interval with them */
    mg->lev[l].range = o->smooth_range > 0 ? o->smooth_range : (mg->lev[l].sp ? 4 : 15);
  }
  {
    const size_t nc = (size_t)mg->lev[mg->nl - 1].n;
    for (int i = 0; i < 2; ++i)
      if (!(mg->cd[i] = dg_svec_alloc(mg->be, sizeof(double) * nc))) {
        rc = dg_error(DG_ERR_MEM, "dg_mg_create: out of memory");
        goto fail;
      }
    if (!mg->gathered && (rc = dg_mg_coarse_setup(mg))) goto fail;
  }
  if (!(o->precisions & DG_MG_DOUBLE)) /* the double vectors served the setup only: a
                                          float-only hierarchy has no mixed cycle */
    for (int l = 0; l < mg->nl - 1; ++l)
      for (int v = 0; v < MG_NV; ++v) {
        dg_svec_free(mg->be, mg->lev[l].vd[v]);
        mg->lev[l].vd[v] = NULL;
      }
  *mgp = mg;
  return 0;
fail:
  dg_mg_destroy(&mg);
  return rc;
}

void dg_mg_destroy(dg_mg **mgp) {
  if (!mgp || !*mgp) return;
  dg_mg *mg = *mgp;
  const dg_backend *be = mg->be;
  for (int l = 0; l < mg->nl; ++l) {
    dg_mg_level *L = &mg->lev[l];
    dg_sblock_destroy(&L->bj); /* before their operator: they free through its backend */
    dg_spatch_destroy(&L->sp);
    if (l > 0) dg_sop_destroy(&L->op);
    dg_spart_destroy(&L->part); /* after its operator */
    dg_svec_free(be, L->dinv_d);
    dg_svec_free(be, L->dinv_f);
    for (int v = 0; v < MG_NV; ++v) {
      dg_svec_free(be, L->vd[v]);
      dg_svec_free(be, L->vf[v]);
    }
  }
  dg_svec_free(be, mg->cd[0]);
  dg_svec_free(be, mg->cd[1]);
  dg_svec_free(be, mg->cinv);
  dg_mg_destroy(&mg->sub);
  dg_sop_destroy(&mg->sub_op);
  if (mg->sub_be.ops) {
    dg_svec_free(&mg->sub_be, mg->gb);
    dg_svec_free(&mg->sub_be, mg->gx);
    dg_svec_free(&mg->sub_be, mg->gbf);
    dg_svec_free(&mg->sub_be, mg->gxf);
  }
  free(mg->lev);
  free(mg);
  *mgp = NULL;
}

int dg_mg_nlevels(const dg_mg *mg) { return mg->nl; }
int dg_mg_rank_levels(const dg_mg *mg) { return mg->gathered ? mg->nl - 1 : 0; }
int dg_mg_coarse_ranks(const dg_mg *mg, int *first, int *last) {
  if (!mg->gathered) return 0;
  *first = mg->nl - 1;
  *last = mg->nl - 2 + mg->sub_nl;
  return 1;
}
const dg_sop *dg_mg_level_op(const dg_mg *mg, int l) { return mg->lev[l].op; }
char dg_mg_level_kind(const dg_mg *mg, int l) { return mg->lev[l].kind; }
double dg_mg_level_lmax(const dg_mg *mg, int l) { return mg->lev[l].lmax; }

/* The lines of dg_mg_describe, levels numbered from l0, the first level's
 * kind k0 where given (a hierarchy across ranks goes on in its sub, on the
 * coarse root only), of the whole grid where a level is a rank's. */
static void describe_from(const dg_mg *mg, int l0, char k0, char *buf, size_t cap) {
  size_t k = 0;
  if (cap) buf[0] = 0;
  const int nl = mg->gathered ? mg->nl - 1 : mg->nl;
  for (int l = 0; l < nl && k < cap; ++l) {
    const dg_sop *op = mg->lev[l].op;
    const dg_spart *part = dg_sop_part(op);
    const dg_grid *g = part ? dg_spart_global_grid(part) : dg_sop_grid(op);
    const uint8_t *deg = dg_sop_global_degrees(op);
    int rmin = DG_MAX_DEGREE, rmax = 0;
    for (long e = 0; e < g->nelem; ++e) {
      const int r = deg[e];
      rmin = r < rmin ? r : rmin;
      rmax = r > rmax ? r : rmax;
    }
    const char *sm = mg->lev[l].sp ? "patch" : (mg->lev[l].bj ? "block" : "point");
    const char kind = l == 0 && k0 ? k0 : mg->lev[l].kind;
    int w = snprintf(buf + k, cap - k,
                     "level %d (%c): %d x %d x %d elements, degrees %d..%d, %ld "
                     "unknowns, %s smoother, lmax(D^-1 A) %.3g\n",
                     l0 + l, kind, g->n[0], g->n[1], g->dim == 3 ? g->n[2] : 1, rmin, rmax,
                     dg_sop_global_len(op), sm, mg->lev[l].lmax);
    if (l == mg->nl - 1)
      w = snprintf(buf + k, cap - k,
                   "level %d (%c): %d x %d x %d elements, "
                   "degrees %d..%d, %ld unknowns, %s\n",
                   l0 + l, kind, g->n[0], g->n[1], g->dim == 3 ? g->n[2] : 1, rmin, rmax,
                   mg->lev[l].n, mg->cinv ? "fp64 dense pseudo-inverse" : "fp64 CG");
    if (w < 0) break;
    k += (size_t)w;
  }
  if (mg->sub && k < cap)
    describe_from(mg->sub, mg->nl - 1, mg->lev[mg->nl - 1].kind, buf + k, cap - k);
}

void dg_mg_describe(const dg_mg *mg, char *buf, size_t cap) { describe_from(mg, 0, 0, buf, cap); }

void dg_mg_work(const dg_mg *mg, double *fine_applies, long *cycles) {
  *fine_applies = mg->work;
  *cycles = mg->cycles;
}

void dg_mg_reset_work(dg_mg *mg) {
  mg->work = 0;
  mg->cycles = 0;
}
