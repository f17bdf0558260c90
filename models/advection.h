/* advection.h - linear advection u_t + div(beta(x, t) u) = 0.
 * dgrid: dims=2,3 qmax=12
 *
 * Velocity fields:
 *   const    beta constant;
 *   rotation solid-body rotation about (cx, cy): beta = omega (-(y-cy), x-cx, 0).
 * (A velocity varying in space and time with transcendental functions is a
 * model of its own, deformation.h, so that its code stays out of these
 * kernels: BENCHMARKS.md, models as plug-ins.)
 * The flux is linear in u; it depends on x except for const (then a plan
 * may integrate an element whose neighbours share its degree with r + 1
 * points: every integrand is a polynomial of degree 2r). */
#ifndef DG_MODEL_ADVECTION_H
#define DG_MODEL_ADVECTION_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 0

enum { DG_VELOCITY_CONSTANT = 0, DG_VELOCITY_ROTATION = 1 };

typedef struct {
  int velocity;      /* DG_VELOCITY_* */
  dg_real beta[3];   /* const */
  dg_real omega;     /* rotation rate */
  dg_real centre[2]; /* rotation centre */
} dg_model_params;

/* Whether the flux depends on position (the stages then load coordinates). */
DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  return p->velocity != DG_VELOCITY_CONSTANT;
}

/* Velocity component d at x, t.  The stages pass x = NULL where
 * dg_model_needs_x is false; as a constant there, it folds the branches. */
DG_HD static inline dg_lane dg_model_velocity(const dg_model_params *p, const dg_lane *x, dg_real t,
                                              int d) {
  if (x && p->velocity == DG_VELOCITY_ROTATION) {
    if (d == 0) return (x[1] - p->centre[1]) * (-p->omega);
    if (d == 1) return (x[0] - p->centre[0]) * p->omega;
    return dg_lane_set(0);
  }
  return dg_lane_set(p->beta[d]);
}

/* f[0] = component d of the flux beta u. */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  f[0] = dg_model_velocity(p, x, t, d) * u[0];
}

/* Largest |wave speed| along direction d. */
DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)u;
  return dg_lane_abs(dg_model_velocity(p, x, t, d));
}

#ifdef DG_MODEL_HOST
/* ---- host part: parameters, initial data, exact solutions ---- */
#include "dg_model_desc.h"

#include "advection_data.h"

#include <string.h>

static const dg_model_param adv_params[] = {
    {"velocity", DG_PARAM_WORD, 1, "const|rotation", 1, offsetof(dg_model_params, velocity),
     "const", "const | rotation"},
    {"beta", DG_PARAM_REAL, 0, NULL, 1, offsetof(dg_model_params, beta), "1,1,1",
     "constant velocity bx,by[,bz]"},
    {"omega", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, omega), "1", "rotation rate"},
    {"rot-centre", DG_PARAM_REAL, 2, NULL, 1, offsetof(dg_model_params, centre), NULL,
     "rotation centre cx,cy [box centre]"},
    ADV_DATA_PARAMS("bell"),
};

static int adv_finish(void *dev, void *host, const dg_model_domain *dom, const unsigned char *set,
                      char *msg, size_t cap) {
  dg_model_params *p = (dg_model_params *)dev;
  for (int d = 0; d < 3; ++d) {
    if (!set[3] && d < 2) p->centre[d] = (dg_real)(0.5 * (dom->lo[d] + dom->hi[d]));
    if (d >= dom->dim) p->beta[d] = 0;
  }
  return adv_data_finish((adv_host *)host, dom, set, 4, msg, cap);
}

static int adv_needs_x(const void *dev) { return dg_model_needs_x((const dg_model_params *)dev); }
/* u0 at the foot of the characteristic, wrapped into the box. */
static int adv_solution(const void *dev, const void *host, const dg_model_domain *dom,
                        const double x[3], double t, double *u) {
  const dg_model_params *p = (const dg_model_params *)dev;
  double y[3] = {x[0], x[1], x[2]};
  if (p->velocity == DG_VELOCITY_ROTATION) {
    const double c = cos(-(double)p->omega * t), s = sin(-(double)p->omega * t);
    const double dx = x[0] - p->centre[0], dy = x[1] - p->centre[1];
    y[0] = p->centre[0] + c * dx - s * dy;
    y[1] = p->centre[1] + s * dx + c * dy;
  } else {
    for (int d = 0; d < dom->dim; ++d) y[d] = x[d] - (double)p->beta[d] * t;
  }
  for (int d = 0; d < dom->dim; ++d) y[d] = adv_wrap(y[d], dom->lo[d], dom->hi[d]);
  u[0] = adv_initial((const adv_host *)host, dom, y);
  return 1;
}

static const char *adv_file_name(const void *dev) {
  static const char *const names[] = {"advection-constant", "advection-rotation"};
  return names[((const dg_model_params *)dev)->velocity];
}

static const char *const adv_vars[] = {"u"};

const dg_model_desc dg_model_advection = {
    "advection",
    "linear advection u_t + div(beta u) = 0 (constant or rotating velocity)",
    1,
    adv_vars,
    (1 << 2) | (1 << 3),
    sizeof(dg_model_params),
    sizeof(adv_host),
    (int)(sizeof adv_params / sizeof adv_params[0]),
    adv_params,
    adv_finish,
    dg_model_yes,
    adv_needs_x,
    dg_model_no,
    adv_solution,
    adv_file_name,
    NULL, /* at_time */
    0,    /* naux */
    NULL, /* aux_names */
    NULL, /* aux */
};
#endif /* DG_MODEL_HOST */

#endif
