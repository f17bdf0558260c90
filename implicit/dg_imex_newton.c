/* dg_imex_newton.c - Jacobian-free Newton-Krylov for the stage equation of
 * a nonlinear model in a fully implicit scheme (docs/MULTIGRID.md, "Newton
 * for nonlinear models"):
 *   G(U) = H U - gdt M L(U) - rhs = 0,   H = M + gdt nu K,
 * Newton step J d = -G(U), J = H - gdt M J_L(U), J_L v by directional
 * differences of the stages (dg_disc_jacvec), solved inexactly by FGMRES
 * with the multigrid of H as right preconditioner (the linear path's). */
#include "dg_disc_op.h"
#include "dg_error.h"
#include "dg_imex_internal.h"
#include "dg_krylov.h"
#include "dg_svec.h"

#include <math.h>
#include <string.h>

/* The Jacobian at the iterate held in fu0 / flu0. */
typedef struct {
  dg_im *im;
  double gdt, t;
} jac_op;

/* y = H x - gdt M J_L(U) x. */
static int jac_apply(void *ctx, const double *x, double *y) {
  jac_op *j = (jac_op *)ctx;
  dg_im *im = j->im;
  DG_CALL(dg_im_apply_h(im, x, y));
  DG_CALL(dg_im_set_compact(im, im->fu, x));
  if (im->o.jacvec)
    DG_CALL(
        im->o.jacvec(im->o.jacvec_ctx, im->disc, im->fu0, im->flu0, im->fu, j->t, im->fw, im->fo));
  else
    DG_CALL(dg_disc_jacvec(im->disc, im->fu0, im->flu0, im->fu, j->t, im->fw, im->fo));
  DG_CALL(dg_im_get_compact(im, im->fo, im->tmp2));
  dg_svec_mul_d(im->be, im->N, im->m, im->tmp2, im->tmp2);
  dg_svec_axpy_d(im->be, im->N, -j->gdt, im->tmp2, y);
  return 0;
}

/* U += c_v e_v with e_v^T M (U + c_v e_v) = e_v^T rhs for each variable v:
 * the iterate's mass is the stage's.  e_v^T H U = e_v^T M U (the periodic
 * SIPG form vanishes against constants) and e_v^T M L(U) = 0 (conservative
 * fluxes), so this is the linear path's correction along the constants
 * without an operator evaluation, and the residual's means e_v^T G(U) are
 * zero afterwards. */
static int mass_fix(dg_im *im, const double *rhs, double *U) {
  /* the elements' mode 0 of rhs and U (gathered on the backend: only they
     cross to the host) and of m (kept by dg_im_create) */
  double *rv = im->h0[0], *Uv = im->h0[1];
  for (int v = 0; v < im->nv; ++v) {
    DG_CALL(dg_sop_mode0_get(im->K, rhs + v * im->n, rv));
    DG_CALL(dg_sop_mode0_get(im->K, U + v * im->n, Uv));
    double eb, emu, eme;
    DG_CALL(dg_im_esum(im, rv, NULL, 0, &eb));
    DG_CALL(dg_im_esum(im, im->m0, Uv, 1, &emu));
    DG_CALL(dg_im_esum(im, im->m0, NULL, 0, &eme));
    const double c = (eb - emu) / eme;
    DG_CALL(dg_im_mode0_add(im, c, U + v * im->n));
  }
  return 0;
}

/* res = G(U); the base point of the Jacobian (fu0 = U, flu0 = L(U)) and
 * ra0 = M L(U) are left for the next linear solve and the stage loop. */
static int residual(dg_im *im, double gdt, double t, const double *rhs, const double *U,
                    double *res) {
  DG_CALL(dg_im_set_compact(im, im->fu0, U));
  DG_CALL(dg_disc_rhs(im->disc, im->fu0, t, im->flu0));
  DG_CALL(dg_im_get_compact(im, im->flu0, im->ra0));
  dg_svec_mul_d(im->be, im->N, im->m, im->ra0, im->ra0);
  DG_CALL(dg_im_apply_h(im, U, res));
  dg_svec_axpy_d(im->be, im->N, -gdt, im->ra0, res);
  dg_svec_axpy_d(im->be, im->N, -1, rhs, res);
  return 0;
}

/* The forcing term of Newton iteration k: fixed (o.eta > 0), or
 * Eisenberg-Walker choice 2 (gamma 0.9, alpha 2) with their safeguard
 * against a sudden drop, capped at eta_max, and never tighter than the
 * Newton test needs (0.5 rtol ||rhs|| / ||G||: no oversolving). */
static double forcing(const dg_im_opts *o, int k, double rel, double rel_prev, double eta_prev) {
  if (o->eta > 0) return o->eta;
  double eta = o->eta_max;
  if (k > 0) {
    const double q = rel / rel_prev;
    eta = 0.9 * q * q;
    const double s = 0.9 * eta_prev * eta_prev;
    if (s > 0.1) eta = fmax(eta, s);
    eta = fmin(eta, o->eta_max);
  }
  return fmin(o->eta_max, fmax(eta, 0.5 * o->rtol / rel));
}

static void monitor_none(void *ctx, int it, double rel) { (void)ctx, (void)it, (void)rel; }

int dg_im_newton_stage(dg_im *im, int stage, double gdt, double t, double t0, double dt,
                       const double *rhs, double *U, dg_im_stats *st) {
  const long n = im->N;
  const dg_im_opts *o = &im->o;
  double bn = sqrt(dg_svec_dot_d(im->be, n, rhs, rhs));
  if (!(bn > 0)) bn = 1; /* rhs = 0: an absolute test */
  if (!isfinite(bn))
    return dg_error(DG_ERR_NUMERIC,
                    "scheme %s: a non-finite right-hand side at stage %d (t=%g, dt=%g)",
                    im->sc->name, stage + 1, t0, dt);
  jac_op jo = {im, gdt, t};
  dg_krylov_opts ko;
  memset(&ko, 0, sizeof ko);
  ko.maxit = o->maxit;
  ko.restart = o->restart;
  ko.monitor = monitor_none;
  double rel = 0, rel_prev = 1, eta = o->eta_max;
  int k = 0, kits = 0;
  for (;; ++k) {
    DG_CALL(mass_fix(im, rhs, U));
    DG_CALL(residual(im, gdt, t, rhs, U, im->res));
    rel_prev = k ? rel : 1;
    rel = sqrt(dg_svec_dot_d(im->be, n, im->res, im->res)) / bn;
    if (o->newton_monitor) o->newton_monitor(o->monitor_ctx, stage, k, rel, kits);
    if (!isfinite(rel))
      return dg_error(DG_ERR_NUMERIC,
                      "scheme %s: Newton met a non-finite residual at stage %d (t=%g, dt=%g), "
                      "iteration %d",
                      im->sc->name, stage + 1, t0, dt, k);
    if (rel <= o->rtol) break;
    if (k == o->newton_maxit)
      return dg_error(DG_ERR_NUMERIC,
                      "scheme %s: Newton did not converge in %d iteration%s at stage %d (t=%g, "
                      "dt=%g): relative residual %.2e > rtol %g",
                      im->sc->name, k, k == 1 ? "" : "s", stage + 1, t0, dt, rel, o->rtol);
    /* J d = -G(U), from d = 0, to the forcing term */
    eta = forcing(o, k, rel, rel_prev, eta);
    ko.rtol = eta;
    dg_svec_scale_d(im->be, n, -1, im->res);
    dg_svec_zero_d(im->be, n, im->du);
    dg_krylov_stats ks;
    DG_CALL(dg_fgmres_d(im->be, n, jac_apply, &jo, dg_im_precond, im, im->res, im->du, &ko, &ks));
    dg_svec_axpy_d(im->be, n, 1, im->du, U);
    kits = ks.its;
    st->solves++;
    st->its += ks.its;
  }
  st->newton += k;
  if (k > st->newton_max) st->newton_max = k;
  st->rel_max = fmax(st->rel_max, rel);
  return 0;
}
