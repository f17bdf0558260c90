/* advection_diffusion.h - linear advection-diffusion (2D and 3D)
 *   u_t + div(beta u) = nu lap u,   beta constant.
 *
 * The stages see the advective part only (flux beta u, Rusanov): the
 * diffusion nu lap u is the implicit integrators' part (implicit/: the SIPG
 * operator of solvers/ with the parameter `nu`, which is therefore a host
 * parameter and never reaches the stages).  implicit/ and apps/advdiff add
 * the diffusion; advect refuses nu != 0 (its explicit stages would integrate
 * pure advection and compare it with the diffusing exact solution).
 *
 * Exact solution on the periodic box, one Fourier mode:
 *   u = a exp(-nu |k|^2 t) sin(k . (x - lo - beta t)),
 *   k = 2 pi (m_x / L_x, m_y / L_y[, m_z / L_z]) with the integer wave
 *   numbers m (--wave), one per dimension like beta. */
#ifndef DG_MODEL_ADVECTION_DIFFUSION_H
#define DG_MODEL_ADVECTION_DIFFUSION_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 0

typedef struct {
  dg_real beta[3]; /* constant velocity (beta[2] = 0 in 2D) */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 0;
}

/* f[0] = component d of the advective flux beta u. */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)a, (void)x, (void)t;
  f[0] = u[0] * p->beta[d];
}

/* |beta_d|: the advective wave speed (the diffusion is not the stages'). */
DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)u, (void)a, (void)x, (void)t;
  return dg_lane_abs(dg_lane_set(p->beta[d]));
}

#ifdef DG_MODEL_HOST
#include "dg_model_desc.h"

#include <math.h>
#include <stdio.h>

typedef struct {
  double nu;      /* diffusion coefficient (the implicit part) */
  double amp;     /* amplitude a */
  double wave[3]; /* integer wave numbers m_x, m_y[, m_z] */
} advdiff_host;

static const dg_model_param advdiff_params[] = {
    {"beta", DG_PARAM_REAL, 0, NULL, 1, offsetof(dg_model_params, beta), "1,1,1",
     "constant velocity bx,by[,bz]"},
    {"nu", DG_PARAM_REAL, 1, NULL, 0, offsetof(advdiff_host, nu), "0.01",
     "diffusion coefficient nu >= 0 (used by the implicit integrators, not the stages)"},
    {"amplitude", DG_PARAM_REAL, 1, NULL, 0, offsetof(advdiff_host, amp), "1",
     "amplitude a of the Fourier mode"},
    {"wave", DG_PARAM_REAL, 0, NULL, 0, offsetof(advdiff_host, wave), "1,1,1",
     "integer wave numbers mx,my[,mz]: k = 2 pi (mx/Lx, my/Ly[, mz/Lz])"},
};

static int advdiff_finish(void *dev, void *host, const dg_model_domain *dom,
                          const unsigned char *set, char *msg, size_t cap) {
  (void)set;
  dg_model_params *p = (dg_model_params *)dev;
  advdiff_host *h = (advdiff_host *)host;
  for (int d = dom->dim; d < 3; ++d) p->beta[d] = 0, h->wave[d] = 0; /* 2D */
  if (!(h->nu >= 0) || !isfinite(h->nu)) {
    snprintf(msg, cap, "option --nu: %g is not a diffusion coefficient (give nu >= 0)", h->nu);
    return 1;
  }
  for (int d = 0; d < dom->dim; ++d)
    if (h->wave[d] != floor(h->wave[d]) || fabs(h->wave[d]) > 1e6) {
      snprintf(msg, cap, "option --wave: %g is not an integer wave number (the box is periodic)",
               h->wave[d]);
      return 1;
    }
  return 0;
}

static int advdiff_solution(const void *dev, const void *host, const dg_model_domain *dom,
                            const double x[3], double t, double *u) {
  const dg_model_params *p = (const dg_model_params *)dev;
  const advdiff_host *h = (const advdiff_host *)host;
  double phase = 0, k2 = 0;
  for (int d = 0; d < dom->dim; ++d) {
    const double k = 2 * M_PI * h->wave[d] / (dom->hi[d] - dom->lo[d]);
    phase += k * (x[d] - dom->lo[d] - (double)p->beta[d] * t);
    k2 += k * k;
  }
  u[0] = h->amp * exp(-h->nu * k2 * t) * sin(phase);
  return 1;
}

static const char *const advdiff_vars[] = {"u"};

const dg_model_desc dg_model_advection_diffusion = {
    "advection_diffusion",
    "advection-diffusion u_t + div(beta u) = nu lap u; the stages advect, implicit/ diffuses "
    "(2D, 3D)",
    1,
    advdiff_vars,
    (1 << 2) | (1 << 3),
    sizeof(dg_model_params),
    sizeof(advdiff_host),
    (int)(sizeof advdiff_params / sizeof advdiff_params[0]),
    advdiff_params,
    advdiff_finish,
    dg_model_yes, /* linear */
    dg_model_no,  /* needs_x */
    dg_model_no,  /* speed_varies */
    advdiff_solution,
    NULL, /* file_name */
    NULL, /* at_time */
    0,    /* naux */
    NULL, /* aux_names */
    NULL, /* aux */
    0,    /* bc: periodic and outflow sides only */
    0,    /* bdata_size */
    NULL, /* bdata */
    NULL, /* aux_deriv */
    0,    /* ninteg */
    NULL, /* integ_names */
    NULL, /* integrand */
    0,    /* naux_face: all */
};
#endif /* DG_MODEL_HOST */

#endif
