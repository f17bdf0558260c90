/* dg_imex.c - the stage loop of the implicit, IMEX and explicit schemes
 * (tableaux: dg_imex_schemes.c), the stage solves and their operators. */
#include "dg_imex.h"

#include "dg_disc_op.h"
#include "dg_disc_part.h"
#include "dg_error.h"
#include "dg_imex_internal.h"
#include "dg_krylov.h"
#include "dg_model.h"
#include "dg_sop.h"
#include "dg_svec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dg_im_opts dg_im_default_opts(void) {
  dg_im_opts o;
  memset(&o, 0, sizeof o);
  o.nu = 0;
  o.rtol = 1e-10;
  o.maxit = 200;
  o.restart = 30;
  o.mixed = 0;
  o.cpen = 2;
  o.mg = dg_mg_default_opts();
  o.newton_maxit = 10;
  o.eta = 0;
  o.eta_max = 0.1;
  return o;
}

/* An operator a M + b K on the solver grid: the whole grid's, or across
 * ranks the rank's box with its degrees localised, made the rank's share
 * (collective). */
static int create_op(dg_im *im, double a, double b, dg_sop **op) {
  const dg_grid *g = dg_disc_grid(im->disc);
  const uint8_t *deg = dg_disc_degrees(im->disc)->deg;
  dg_sop_params p = im->sp ? *dg_spart_params(im->sp) : dg_sop_default_params();
  p.a = a;
  p.b = b;
  p.cpen = im->o.cpen;
  if (!im->sp) return dg_sop_create(op, im->be, g, deg, &p);
  const dg_grid *gl = dg_spart_grid(im->sp);
  uint8_t *dl = malloc((size_t)(gl->nelem ? gl->nelem : 1));
  if (!dl) return dg_error(DG_ERR_MEM, "scheme %s: out of memory", im->sc->name);
  dg_spart_localise(im->sp, deg, dl);
  int rc = dg_sop_create(op, im->be, gl, dl, &p);
  free(dl);
  if (!rc && (rc = dg_sop_set_part(*op, im->sp))) dg_sop_destroy(op);
  return rc;
}

/* Across ranks: the communicator, the backend that reduces over it, the
 * rank's share of the solver grid (the whole grid's periodic rules). */
static int setup_ranks(dg_im *im, const dg_partition *part) {
  im->comm = dg_disc_comm(im->disc);
  if (!im->comm) return 0;
  if (!part)
    return dg_error(DG_ERR_ARG, "scheme %s: a rank's block needs its partition (dg_im_opts.part)",
                    im->sc->name);
  im->rbe = *dg_disc_backend(im->disc);
  im->rbe.comm = im->comm;
  im->be = &im->rbe;
  const dg_sop_params p = dg_sop_default_params();
  return dg_spart_create(&im->sp, im->comm, part, dg_disc_grid(im->disc), &p);
}

/* The owned elements' places: the whole grid's element (the field's) and
 * the first coefficient in a box vector (K made). */
static int owned_places(dg_im *im) {
  if (!im->sp) return 0;
  long nown;
  const long *own = dg_spart_owned_elems(im->sp, &nown);
  const long *l2g = dg_spart_global_elems(im->sp);
  im->nown = nown;
  im->own = dg_spart_owned(im->sp);
  im->gown = malloc(sizeof(long) * (size_t)(nown ? nown : 1));
  im->aown = malloc(sizeof(long) * (size_t)(nown ? nown : 1));
  if (!im->gown || !im->aown) return dg_error(DG_ERR_MEM, "scheme %s: out of memory", im->sc->name);
  for (long i = 0; i < nown; ++i) {
    im->gown[i] = l2g[own[i]];
    im->aown[i] = im->off[own[i]];
  }
  return 0;
}

int dg_im_esum(dg_im *im, const double *a, const double *b, int mul, double *out) {
  if (!im->sp) { /* one process: in element order, as always */
    double s = 0;
    if (!b)
      for (long e = 0; e < im->ne; ++e) s += a[e];
    else if (mul)
      for (long e = 0; e < im->ne; ++e) s += a[e] * b[e];
    else
      for (long e = 0; e < im->ne; ++e) s += a[e] - b[e];
    *out = s;
    return 0;
  }
  dg_xsum x;
  dg_xsum_init(&x);
  for (long e = 0; e < im->ne; ++e)
    if (im->own[e]) dg_xsum_add(&x, !b ? a[e] : mul ? a[e] * b[e] : a[e] - b[e]);
  DG_CALL(dg_comm_allreduce_xsum(im->comm, &x, 1));
  *out = dg_xsum_value(&x);
  return 0;
}

int dg_im_mode0_add(dg_im *im, double c, double *x) {
  DG_CALL(dg_sop_mode0_add(im->K, c, x));
  if (im->sp) dg_sop_part_clear_d(im->K, x); /* the ghosts' and corners' mode 0 too */
  return 0;
}

/* solver memory (device-visible on the CUDA backend), zeroed */
static double *vec(const dg_im *im, long n) {
  return dg_svec_alloc(im->be, sizeof(double) * (size_t)n);
}

int dg_im_create(dg_im **out, dg_disc *d, dg_im_kind kind, const dg_im_opts *o) {
  *out = NULL;
  if ((int)kind < 0 || kind >= DG_IM_COUNT) return dg_error(DG_ERR_ARG, "bad scheme %d", kind);
  const dg_model *model = dg_disc_model(d);
  const dg_grid *g = dg_disc_grid(d);
  if (dg_disc_nvar(d) > DG_IM_MAXV)
    return dg_error(DG_ERR_ARG, "scheme %s: model %s has %d variables; the steps take at most %d",
                    dg_im_name(kind), dg_model_name(model), dg_disc_nvar(d), DG_IM_MAXV);
  if (g->kind != DG_GRID_BOX)
    return dg_error(DG_ERR_ARG, "scheme %s: the SIPG operator needs the periodic box grid",
                    dg_im_name(kind));
  for (int sd = 0; sd < 2 * g->dim; ++sd)
    if (g->bc[sd] != DG_BC_PERIODIC) /* the SIPG operator and the mass correction are periodic */
      return dg_error(DG_ERR_ARG,
                      "option --bc: side %s is not periodic; the implicit steps need a periodic "
                      "box (scheme %s)",
                      dg_bc_side_name(sd), dg_im_name(kind));
  if (!(o->nu >= 0) || !isfinite(o->nu))
    return dg_error(DG_ERR_ARG, "scheme %s: nu %g is not a diffusion coefficient (>= 0)",
                    dg_im_name(kind), o->nu);
  if (!(o->rtol > 0 && o->rtol < 1))
    return dg_error(DG_ERR_ARG, "scheme %s: rtol %g is outside (0, 1)", dg_im_name(kind), o->rtol);
  if (o->maxit < 1)
    return dg_error(DG_ERR_ARG, "scheme %s: maxit %d < 1", dg_im_name(kind), o->maxit);
  if (o->newton_maxit < 1)
    return dg_error(DG_ERR_ARG, "scheme %s: newton_maxit %d < 1", dg_im_name(kind),
                    o->newton_maxit);
  if (!(o->eta >= 0 && o->eta < 1))
    return dg_error(DG_ERR_ARG, "scheme %s: eta %g is outside [0, 1) (0: Eisenberg-Walker)",
                    dg_im_name(kind), o->eta);
  if (!(o->eta_max > 0 && o->eta_max < 1))
    return dg_error(DG_ERR_ARG, "scheme %s: eta_max %g is outside (0, 1)", dg_im_name(kind),
                    o->eta_max);
  dg_im *im = calloc(1, sizeof *im);
  if (!im) return dg_error(DG_ERR_MEM, "out of memory");
  im->disc = d;
  im->be = dg_disc_backend(d);
  im->sc = dg_im_scheme_of(kind);
  /* Newton only where a stage solves with L: an IMEX or explicit scheme
     evaluates L, it never inverts it */
  im->nonlinear = !dg_model_linear(model) && im->sc->treat == DG_IM_IMPLICIT;
  im->o = *o;
  im->o.mg.precisions = o->mixed ? (DG_MG_DOUBLE | DG_MG_FLOAT) : DG_MG_DOUBLE;
  im->bh = -1;
  int rc = setup_ranks(im, o->part);
  if (!rc) rc = create_op(im, 0, 1, &im->K);
  if (!rc) {
    im->n = dg_sop_len(im->K);
    im->nv = dg_disc_nvar(d);
    im->N = im->nv * im->n;
    im->off = dg_sop_offsets(im->K);
    im->ne = dg_sop_grid(im->K)->nelem;
    rc = owned_places(im);
    if (!rc && !im->sp && im->N != dg_disc_compact_len(d))
      rc = dg_error(DG_ERR_ARG, "scheme %s: %d x %ld solver unknowns, %ld in the field",
                    im->sc->name, im->nv, im->n, dg_disc_compact_len(d));
  }
  const long n = im->N;
  if (!rc) {
    im->m = vec(im, n), im->minv = vec(im, n), im->un = vec(im, n), im->rhs = vec(im, n),
    im->U = vec(im, n);
    im->tmp = vec(im, n), im->tmp2 = vec(im, n), im->ev = vec(im, n);
    int ok = im->m && im->minv && im->un && im->rhs && im->U && im->tmp && im->tmp2 && im->ev;
    for (int i = 0; i < im->sc->s; ++i) {
      im->ra[i] = vec(im, n), im->rd[i] = vec(im, n);
      ok = ok && im->ra[i] && im->rd[i];
    }
    if (!ok) rc = dg_error(DG_ERR_MEM, "scheme %s: out of memory (%ld unknowns)", im->sc->name, n);
  }
  /* the host builds, copies and inverts the mass diagonal in views of m
     and minv (copies on the CUDA backend), sent once; its mode 0 stays on
     the host for mass_fix (dg_imex_newton.c), with two element-sized
     buffers for the mode-0 sums */
  double *mh = NULL, *minvh = NULL;
  const size_t nb = sizeof(double) * (size_t)n;
  const size_t eb = sizeof(double) * (size_t)(im->ne ? im->ne : 1);
  if (!rc && !((im->m0 = malloc(eb)) && (im->h0[0] = malloc(eb)) && (im->h0[1] = malloc(eb))))
    rc = dg_error(DG_ERR_MEM, "scheme %s: out of memory (%ld elements)", im->sc->name, im->ne);
  if (!rc) rc = dg_svec_map(im->be, im->m, nb, DG_SVEC_WRITE, (void **)&mh);
  if (!rc) rc = dg_sop_mass_d(im->K, mh);
  if (!rc) rc = dg_svec_map(im->be, im->minv, nb, DG_SVEC_WRITE, (void **)&minvh);
  if (!rc) {
    for (int v = 1; v < im->nv; ++v) memcpy(mh + v * im->n, mh, sizeof(double) * im->n);
    for (long i = 0; i < n; ++i) minvh[i] = 1 / mh[i];
    for (long e = 0; e < im->ne; ++e) im->m0[e] = mh[im->off[e]];
  }
  if (mh) {
    const int wm = dg_svec_unmap(im->be, im->m, mh, nb, rc ? 0 : DG_SVEC_WRITE);
    if (!rc) rc = wm;
  }
  if (minvh) {
    const int wi = dg_svec_unmap(im->be, im->minv, minvh, nb, rc ? 0 : DG_SVEC_WRITE);
    if (!rc) rc = wi;
  }
  if (!rc) rc = dg_field_create(&im->fu, d);
  if (!rc) rc = dg_field_create(&im->fo, d);
  if (!rc && im->nonlinear) {
    rc = dg_field_create(&im->fu0, d);
    if (!rc) rc = dg_field_create(&im->flu0, d);
    if (!rc) rc = dg_field_create(&im->fw, d);
    im->ra0 = vec(im, n), im->res = vec(im, n), im->du = vec(im, n);
    if (!rc && !(im->ra0 && im->res && im->du))
      rc = dg_error(DG_ERR_MEM, "scheme %s: out of memory (%ld unknowns)", im->sc->name, n);
  }
  if (rc) {
    dg_im_destroy(&im);
    return rc;
  }
  *out = im;
  return 0;
}

void dg_im_destroy(dg_im **pim) {
  if (!pim || !*pim) return;
  dg_im *im = *pim;
  dg_mg_destroy(&im->mg);
  dg_sop_destroy(&im->H);
  dg_sop_destroy(&im->K);
  dg_spart_destroy(&im->sp);
  free(im->gown), free(im->aown);
  free(im->m0), free(im->h0[0]), free(im->h0[1]);
  dg_svec_free(im->be, im->m), dg_svec_free(im->be, im->minv), dg_svec_free(im->be, im->un),
      dg_svec_free(im->be, im->rhs);
  dg_svec_free(im->be, im->U), dg_svec_free(im->be, im->tmp), dg_svec_free(im->be, im->tmp2),
      dg_svec_free(im->be, im->ev);
  for (int i = 0; i < DG_IM_MAXS; ++i)
    dg_svec_free(im->be, im->ra[i]), dg_svec_free(im->be, im->rd[i]);
  dg_field_destroy(&im->fu);
  dg_field_destroy(&im->fo);
  dg_field_destroy(&im->fu0);
  dg_field_destroy(&im->flu0);
  dg_field_destroy(&im->fw);
  dg_svec_free(im->be, im->ra0), dg_svec_free(im->be, im->res), dg_svec_free(im->be, im->du);
  free(im);
  *pim = NULL;
}

int dg_im_set_compact(dg_im *im, dg_field *f, const double *x) {
  const size_t nb = sizeof(double) * (size_t)im->N;
  double *xh;
  DG_CALL(dg_svec_sync(im->be)); /* an earlier kernel's failure first */
  DG_CALL(dg_svec_map(im->be, x, nb, DG_SVEC_READ, (void **)&xh));
  const int rc = im->sp ? dg_field_set_elems(im->disc, f, im->nown, im->gown, im->aown, im->n, xh)
                        : dg_field_set_compact(im->disc, f, xh);
  dg_svec_unmap(im->be, x, xh, nb, 0);
  return rc;
}

int dg_im_get_compact(dg_im *im, dg_field *f, double *y) {
  const size_t nb = sizeof(double) * (size_t)im->N;
  double *yh;
  DG_CALL(dg_svec_sync(im->be)); /* no kernel may still use y */
  DG_CALL(dg_svec_map(im->be, y, nb, DG_SVEC_WRITE, (void **)&yh));
  if (im->sp) memset(yh, 0, nb); /* zero outside the owned elements */
  const int rc = im->sp ? dg_field_get_elems(im->disc, f, im->nown, im->gown, im->aown, im->n, yh)
                        : dg_field_get_compact(im->disc, f, yh); /* every entry */
  const int wrc = dg_svec_unmap(im->be, y, yh, nb, rc ? 0 : DG_SVEC_WRITE);
  return rc ? rc : wrc;
}

int dg_im_apply_ra(dg_im *im, const double *x, double t, double *y) {
  DG_CALL(dg_im_set_compact(im, im->fu, x));
  DG_CALL(dg_disc_rhs(im->disc, im->fu, t, im->fo));
  DG_CALL(dg_im_get_compact(im, im->fo, y));
  dg_svec_mul_d(im->be, im->N, im->m, y, y);
  return 0;
}

/* y = R_D(x) = -nu K x, every variable diffused alike. */
static int apply_rd(dg_im *im, const double *x, double *y) {
  if (im->o.nu == 0) {
    dg_svec_zero_d(im->be, im->N, y);
    return 0;
  }
  for (int v = 0; v < im->nv; ++v) DG_CALL(dg_sop_apply_d(im->K, x + v * im->n, y + v * im->n));
  dg_svec_scale_d(im->be, im->N, -im->o.nu, y);
  return 0;
}

/* The Helmholtz operator M + bh K and its hierarchy for bh = g dt nu (kept
 * while bh stays: a fixed step builds it once). */
static int helmholtz(dg_im *im, double bh) {
  if (bh == im->bh) return 0;
  dg_mg_destroy(&im->mg);
  dg_sop_destroy(&im->H);
  im->bh = -1;
  if (bh == 0) { /* nu = 0: H = M, inverted exactly by the diagonal */
    im->bh = 0;
    return 0;
  }
  DG_CALL(create_op(im, 1, bh, &im->H));
  DG_CALL(dg_mg_create(&im->mg, im->H, &im->o.mg));
  im->bh = bh;
  return 0;
}

/* One stage's linear operator: A x = H x - gdt M L(x) (implicit) or H x (IMEX). */
typedef struct {
  dg_im *im;
  double gdt, t;
  int with_l;
} stage_op;

int dg_im_apply_h(dg_im *im, const double *x, double *y) {
  if (!im->H) {
    dg_svec_mul_d(im->be, im->N, im->m, x, y);
    return 0;
  }
  for (int v = 0; v < im->nv; ++v) DG_CALL(dg_sop_apply_d(im->H, x + v * im->n, y + v * im->n));
  return 0;
}

static int stage_apply(void *ctx, const double *x, double *y) {
  stage_op *s = (stage_op *)ctx;
  dg_im *im = s->im;
  DG_CALL(dg_im_apply_h(im, x, y));
  if (s->with_l) {
    DG_CALL(dg_im_apply_ra(im, x, s->t, im->tmp2));
    dg_svec_axpy_d(im->be, im->N, -s->gdt, im->tmp2, y);
  }
  return 0;
}

int dg_im_precond(void *ctx, const double *r, double *z) {
  dg_im *im = (dg_im *)ctx;
  if (!im->mg) {
    dg_svec_mul_d(im->be, im->N, im->minv, r, z);
    return 0;
  }
  for (int v = 0; v < im->nv; ++v) {
    const long o = v * im->n;
    DG_CALL(im->o.mixed ? dg_mg_precond_mixed(im->mg, r + o, z + o)
                        : dg_mg_precond_d(im->mg, r + o, z + o));
  }
  return 0;
}

/* sum_e y[w n + off[e]] (- z[...] where z is given) for each variable w:
   the elements' mode 0 of solver vectors, gathered on the backend
   (dg_sop_mode0_get: only those values cross to the host), summed in
   element order. */
static int mode0_sums(dg_im *im, const double *y, const double *z, double *out) {
  const long n = im->n;
  double *yh = im->h0[0], *zh = im->h0[1];
  for (int w = 0; w < im->nv; ++w) {
    DG_CALL(dg_sop_mode0_get(im->K, y + w * n, yh));
    if (z) DG_CALL(dg_sop_mode0_get(im->K, z + w * n, zh));
    DG_CALL(dg_im_esum(im, yh, z ? zh : NULL, 0, &out[w]));
  }
  return 0;
}

/* The correction along the constants: e_v is 1 in every element's mode 0
 * of variable v, and U += sum_v c_v e_v with e_w^T (b - A (U + sum_v c_v
 * e_v)) = 0 for every w (an nv x nv system, E^T A E c = E^T r).  Both the
 * advective residual and the periodic SIPG form vanish on constants' test
 * functions for a conservative model, e_w^T A x = e_w^T M x, so afterwards
 * each variable's mass is e_v^T b exactly (to round-off), whatever the
 * Krylov tolerance left in the residual. */
static int mass_correct(dg_im *im, stage_op *s, const double *b, double *x) {
  const long n = im->n;
  const int nv = im->nv;
  double *r = im->tmp; /* stage_apply itself uses tmp2 */
  double a[DG_IM_MAXV][DG_IM_MAXV + 1], col[DG_IM_MAXV];
  DG_CALL(stage_apply(s, x, r));
  DG_CALL(mode0_sums(im, b, r, col));
  for (int w = 0; w < nv; ++w) a[w][nv] = col[w];
  for (int v = 0; v < nv; ++v) {
    /* e_v: 1 in the elements' mode 0 of variable v (0 + 1, on the backend) */
    dg_svec_zero_d(im->be, im->N, im->ev);
    DG_CALL(dg_im_mode0_add(im, 1.0, im->ev + v * n));
    DG_CALL(stage_apply(s, im->ev, r));
    DG_CALL(mode0_sums(im, r, NULL, col));
    for (int w = 0; w < nv; ++w) a[w][v] = col[w];
  }
  /* Gaussian elimination with partial pivoting (nv is small) */
  for (int k = 0; k < nv; ++k) {
    int p = k;
    for (int i = k + 1; i < nv; ++i)
      if (fabs(a[i][k]) > fabs(a[p][k])) p = i;
    if (!(a[p][k] != 0) || !isfinite(a[p][k]))
      return dg_error(DG_ERR_NUMERIC, "scheme %s: the stage operator is singular on constants",
                      im->sc->name);
    for (int j = 0; j <= nv; ++j) {
      const double t = a[k][j];
      a[k][j] = a[p][j], a[p][j] = t;
    }
    for (int i = k + 1; i < nv; ++i) {
      const double f = a[i][k] / a[k][k];
      for (int j = k; j <= nv; ++j) a[i][j] -= f * a[k][j];
    }
  }
  double c[DG_IM_MAXV];
  for (int k = nv - 1; k >= 0; --k) {
    double t = a[k][nv];
    for (int j = k + 1; j < nv; ++j) t -= a[k][j] * c[j];
    c[k] = t / a[k][k];
  }
  for (int v = 0; v < nv; ++v) DG_CALL(dg_im_mode0_add(im, c[v], x + v * n));
  return 0;
}

static void monitor_none(void *ctx, int it, double rel) { (void)ctx, (void)it, (void)rel; }

int dg_im_step(dg_im *im, dg_field *u, double t, double dt, dg_im_stats *st) {
  const dg_im_scheme *sc = im->sc;
  const long n = im->N;
  const double nu = im->o.nu;
  dg_im_stats s0 = {0, 0, 0, 1, 0, 0};
  DG_CALL(dg_im_get_compact(im, u, im->un));
  /* which stage residuals a later stage or the final sum reads */
  int need_a[DG_IM_MAXS] = {0}, need_d[DG_IM_MAXS] = {0};
  for (int j = 0; j < sc->s; ++j) {
    for (int i = j + 1; i < sc->s; ++i) {
      need_a[j] |= (sc->treat == DG_IM_IMPLICIT ? sc->ai[i][j] : sc->ae[i][j]) != 0;
      need_d[j] |= (sc->treat == DG_IM_EXPLICIT ? sc->ae[i][j] : sc->ai[i][j]) != 0;
    }
    if (!sc->stiff) {
      need_a[j] |= (sc->treat == DG_IM_IMPLICIT ? sc->bi[j] : sc->be[j]) != 0;
      need_d[j] |= (sc->treat == DG_IM_EXPLICIT ? sc->be[j] : sc->bi[j]) != 0;
    }
  }
  dg_svec_copy_d(im->be, n, im->un, im->U);
  for (int i = 0; i < sc->s; ++i) {
    const double ti = t + sc->c[i] * dt, g = sc->ai[i][i];
    /* rhs = M u_n + dt sum_{j<i} (a_E R_E(U_j) + a_I R_I(U_j)) */
    dg_svec_mul_d(im->be, n, im->m, im->un, im->rhs);
    int terms = 0;
    for (int j = 0; j < i; ++j) {
      const double aa = sc->treat == DG_IM_IMPLICIT ? sc->ai[i][j] : sc->ae[i][j];
      const double ad = sc->treat == DG_IM_EXPLICIT ? sc->ae[i][j] : sc->ai[i][j];
      if (aa != 0) dg_svec_axpy_d(im->be, n, dt * aa, im->ra[j], im->rhs), ++terms;
      if (ad != 0 && nu != 0) dg_svec_axpy_d(im->be, n, dt * ad, im->rd[j], im->rhs), ++terms;
    }
    if (g == 0) {
      /* an explicit stage: U = M^-1 rhs (U = u_n exactly when nothing was added) */
      if (terms)
        dg_svec_mul_d(im->be, n, im->minv, im->rhs, im->U);
      else
        dg_svec_copy_d(im->be, n, im->un, im->U);
    } else {
      DG_CALL(helmholtz(im, g * dt * nu));
      if (im->nonlinear) {
        /* Newton; the iterate's M L(U) comes back in ra0 */
        DG_CALL(dg_im_newton_stage(im, i, g * dt, ti, t, dt, im->rhs, im->U, &s0));
        if (need_a[i]) dg_svec_copy_d(im->be, n, im->ra0, im->ra[i]);
        if (need_d[i]) DG_CALL(apply_rd(im, im->U, im->rd[i]));
        continue;
      }
      stage_op so = {im, g * dt, ti, sc->treat == DG_IM_IMPLICIT};
      dg_krylov_opts ko;
      memset(&ko, 0, sizeof ko);
      ko.rtol = im->o.rtol;
      ko.maxit = im->o.maxit;
      ko.restart = im->o.restart;
      ko.monitor = monitor_none;
      dg_krylov_stats ks;
      /* the initial guess: the previous stage's value (u_n for the first) */
      if (so.with_l)
        DG_CALL(
            dg_fgmres_d(im->be, n, stage_apply, &so, dg_im_precond, im, im->rhs, im->U, &ko, &ks));
      else if (im->mg)
        DG_CALL(dg_cg_d(im->be, n, stage_apply, &so, dg_im_precond, im, im->rhs, im->U, &ko, &ks));
      else { /* nu = 0 and IMEX: the system is M */
        dg_svec_mul_d(im->be, n, im->minv, im->rhs, im->U);
        ks.its = 0, ks.rel = 0, ks.converged = 1;
      }
      DG_CALL(mass_correct(im, &so, im->rhs, im->U));
      s0.solves++;
      s0.its += ks.its;
      s0.rel_max = fmax(s0.rel_max, ks.rel);
      s0.converged &= ks.converged;
    }
    if (need_a[i]) DG_CALL(dg_im_apply_ra(im, im->U, ti, im->ra[i]));
    if (need_d[i]) DG_CALL(apply_rd(im, im->U, im->rd[i]));
  }
  if (!sc->stiff) {
    /* u_{n+1} = u_n + dt M^-1 sum_j (b_E R_E + b_I R_I) */
    dg_svec_zero_d(im->be, n, im->rhs);
    for (int j = 0; j < sc->s; ++j) {
      const double ba = sc->treat == DG_IM_IMPLICIT ? sc->bi[j] : sc->be[j];
      const double bd = sc->treat == DG_IM_EXPLICIT ? sc->be[j] : sc->bi[j];
      if (ba != 0) dg_svec_axpy_d(im->be, n, ba, im->ra[j], im->rhs);
      if (bd != 0 && nu != 0) dg_svec_axpy_d(im->be, n, bd, im->rd[j], im->rhs);
    }
    dg_svec_mul_d(im->be, n, im->minv, im->rhs, im->rhs);
    dg_svec_copy_d(im->be, n, im->un, im->U);
    dg_svec_axpy_d(im->be, n, dt, im->rhs, im->U);
  }
  /* U comes to the host once: checked, then the field's */
  DG_CALL(dg_svec_sync(im->be));
  double *Uh;
  DG_CALL(dg_svec_map(im->be, im->U, sizeof(double) * (size_t)n, DG_SVEC_READ, (void **)&Uh));
  double bad = 0;
  for (long k = 0; k < n && !bad; ++k) bad = !isfinite(Uh[k]);
  int rc = 0;
  if (im->comm) { /* a non-finite value on one rank is every rank's */
    double any = bad;
    rc = dg_comm_allreduce_max(im->comm, &any, &bad, 1);
  }
  if (!rc && bad)
    rc = dg_error(DG_ERR_NUMERIC, "scheme %s: a non-finite value at t=%g (dt=%g)", sc->name, t + dt,
                  dt);
  if (!rc)
    rc = im->sp ? dg_field_set_elems(im->disc, u, im->nown, im->gown, im->aown, im->n, Uh)
                : dg_field_set_compact(im->disc, u, Uh);
  dg_svec_unmap(im->be, im->U, Uh, 0, 0);
  if (!rc && st) *st = s0;
  return rc;
}

int dg_im_laplacian_lmax(dg_im *im, double *lmax) {
  const long n = im->n;
  double *x = im->rhs, *y = im->tmp;
  /* a deterministic start with every mode present: across ranks the rank's
     share of one process's start (the whole vector, scattered) */
  const long ng = im->sp ? dg_sop_global_len(im->K) : n;
  unsigned long s = 12345;
  DG_CALL(dg_svec_sync(im->be));
  double *xh = NULL, *xg = NULL; /* built on the host, sent once */
  if (im->sp && !(xg = malloc(sizeof(double) * (size_t)(ng ? ng : 1))))
    return dg_error(DG_ERR_MEM, "scheme %s: out of memory", im->sc->name);
  if (!im->sp)
    DG_CALL(dg_svec_map(im->be, x, sizeof(double) * (size_t)n, DG_SVEC_WRITE, (void **)&xh));
  double *w = im->sp ? xg : xh;
  for (long i = 0; i < ng; ++i) {
    s = s * 6364136223846793005UL + 1442695040888963407UL;
    w[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
  }
  if (im->sp) {
    const int rc = dg_sop_scatter_d(im->K, xg, x);
    free(xg);
    DG_CALL(rc);
  } else
    DG_CALL(dg_svec_unmap(im->be, x, xh, sizeof(double) * (size_t)n, DG_SVEC_WRITE));
  double lam = 0;
  /* power iteration on M^-1 K, self-adjoint in the M inner product: the
     Rayleigh quotient x'Kx / x'Mx rises to lmax */
  for (int it = 0; it < 300; ++it) {
    DG_CALL(dg_sop_apply_d(im->K, x, y));
    dg_svec_mul_d(im->be, n, im->m, x, im->ev);
    const double xkx = dg_svec_dot_d(im->be, n, x, y), xmx = dg_svec_dot_d(im->be, n, x, im->ev);
    lam = xkx / xmx;
    dg_svec_mul_d(im->be, n, im->minv, y, x);
    const double a = dg_svec_amax_d(im->be, n, x);
    if (!(a > 0)) break;
    dg_svec_scale_d(im->be, n, 1 / a, x);
  }
  *lmax = lam;
  return 0;
}
