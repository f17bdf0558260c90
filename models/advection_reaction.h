/* advection_reaction.h - advection with a linear reaction and a periodic
 * forcing, the model with a source term (2D):
 *   u_t + div(beta u) = -lambda u + a cos(w t).
 *
 * The source is fused into the update (tested against every mode at the
 * volume points, like the flux).  Exact solution for u0 = prod sin(2 pi x_d
 * / L_d):  u = e^(-lambda t) u0(x - beta t)
 *            + a (lambda cos(w t) + w sin(w t) - lambda e^(-lambda t)) / (lambda^2 + w^2),
 * (with --sine 0 the solution is the forcing alone, constant in space: the
 * DG solution's error is then the integrator's alone, which measures the
 * order of its stage times). */
#ifndef DG_MODEL_ADVECTION_REACTION_H
#define DG_MODEL_ADVECTION_REACTION_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 1

typedef struct {
  dg_real beta[2];
  dg_real lambda;    /* reaction rate */
  dg_real amp, freq; /* forcing a cos(w t) */
  dg_real force;     /* a cos(w t) at the stage's time (set by the host) */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 0;
}

DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)x, (void)t;
  f[0] = u[0] * p->beta[d];
}

DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)u, (void)x, (void)t;
  return dg_lane_abs(dg_lane_set(p->beta[d]));
}

/* s[0] = -lambda u + a cos(w t) */
DG_HD static inline void dg_model_source(const dg_model_params *p, const dg_lane *u,
                                         const dg_lane *a, const dg_lane *x, dg_real t,
                                         dg_lane *s) {
  (void)x;
  (void)t; /* in p->force */
  s[0] = u[0] * (-p->lambda) + p->force;
}

#ifdef DG_MODEL_HOST
#include "dg_model_desc.h"

#include <math.h>
#include <stdio.h>

typedef struct {
  double sine; /* amplitude of the initial sine */
} reaction_host;

static const dg_model_param reaction_params[] = {
    {"beta", DG_PARAM_REAL, 0, NULL, 1, offsetof(dg_model_params, beta), "1,1",
     "constant velocity bx,by"},
    {"lambda", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, lambda), "0",
     "reaction rate lambda (source -lambda u)"},
    {"forcing", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, amp), "1",
     "forcing amplitude a (source a cos(w t))"},
    {"frequency", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, freq), "6.283185307179586",
     "forcing frequency w"},
    {"sine", DG_PARAM_REAL, 1, NULL, 0, offsetof(reaction_host, sine), "1",
     "amplitude of the initial data sin(2 pi x / Lx) sin(2 pi y / Ly)"},
};

static int reaction_finish(void *dev, void *host, const dg_model_domain *dom,
                           const unsigned char *set, char *msg, size_t cap) {
  (void)host, (void)dom, (void)set;
  const dg_model_params *p = (const dg_model_params *)dev;
  if (p->lambda == 0 && p->freq == 0 && p->amp != 0) {
    snprintf(msg, cap,
             "option --frequency: 0 with --lambda 0 has no bounded exact solution; "
             "give a frequency");
    return 1;
  }
  return 0;
}

static int reaction_solution(const void *dev, const void *host, const dg_model_domain *dom,
                             const double x[3], double t, double *u) {
  const dg_model_params *p = (const dg_model_params *)dev;
  const double l = p->lambda, a = p->amp, w = p->freq;
  double v = ((const reaction_host *)host)->sine;
  for (int d = 0; d < 2; ++d)
    v *= sin(2 * M_PI * (x[d] - (double)p->beta[d] * t - dom->lo[d]) / (dom->hi[d] - dom->lo[d]));
  const double e = exp(-l * t);
  const double forced =
      l * l + w * w > 0 ? a * (l * cos(w * t) + w * sin(w * t) - l * e) / (l * l + w * w) : 0;
  u[0] = e * v + forced;
  return 1;
}

static void reaction_at_time(void *dev, const void *host, double t) {
  (void)host;
  dg_model_params *p = (dg_model_params *)dev;
  p->force = (dg_real)((double)p->amp * cos((double)p->freq * t));
}

static const char *const reaction_vars[] = {"u"};

const dg_model_desc dg_model_advection_reaction = {
    "advection_reaction",
    "advection with a source: u_t + div(beta u) = -lambda u + a cos(w t) (2D)",
    1,
    reaction_vars,
    1 << 2,
    sizeof(dg_model_params),
    sizeof(reaction_host),
    (int)(sizeof reaction_params / sizeof reaction_params[0]),
    reaction_params,
    reaction_finish,
    dg_model_yes, /* linear */
    dg_model_no,  /* needs_x */
    dg_model_no,  /* speed_varies */
    reaction_solution,
    NULL, /* file_name */
    reaction_at_time,
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
