/* advection.h - linear advection u_t + div(beta(x, t) u) = 0.
 * dgrid: dims=2,3 qmax=12
 *
 * Velocity fields:
 *   const    beta constant;
 *   rotation solid-body rotation about (cx, cy): beta = omega (-(y-cy), x-cx, 0);
 *   deform   the reversing deformational flow of LeVeque (1996) / Nair and
 *            Lauritzen (2010) on the unit square, period T:
 *            beta = cos(pi t/T) (sin^2(pi x) sin(2 pi y), -sin^2(pi y) sin(2 pi x), 0);
 *            at t = T the solution is the initial state again.
 * The flux is linear in u; it depends on x except for const (then a plan
 * may integrate an element whose neighbours share its degree with r + 1
 * points: every integrand is a polynomial of degree 2r). */
#ifndef DG_MODEL_ADVECTION_H
#define DG_MODEL_ADVECTION_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 0

enum { DG_VELOCITY_CONSTANT = 0, DG_VELOCITY_ROTATION = 1, DG_VELOCITY_DEFORM = 2 };

typedef struct {
  int velocity;      /* DG_VELOCITY_* */
  dg_real beta[3];   /* const */
  dg_real omega;     /* rotation rate */
  dg_real centre[2]; /* rotation centre */
  dg_real ct;        /* deform: cos(pi t / T) at the stage's time (set by the host) */
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
  if (x && p->velocity == DG_VELOCITY_DEFORM) {
    if (d > 1) return dg_lane_set(0);
    const dg_lane s = dg_lane_sinpi(x[d]), s2 = dg_lane_sinpi(x[1 - d] * (dg_real)2);
    return d == 0 ? s * s * s2 * p->ct : s * s * s2 * (-p->ct);
  }
  return dg_lane_set(p->beta[d]);
}

/* f[0] = component d of the flux beta u. */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *x,
                                       dg_real t, int d, dg_lane *f) {
  f[0] = dg_model_velocity(p, x, t, d) * u[0];
}

/* Largest |wave speed| along direction d. */
DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *x, dg_real t, int d) {
  (void)u;
  return dg_lane_abs(dg_model_velocity(p, x, t, d));
}

#ifdef DG_MODEL_HOST
/* ---- host part: parameters, initial data, exact solutions ---- */
#include "dg_model_desc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { ADV_PARABOLA = 0, ADV_BELL, ADV_SINE, ADV_CONSTANT, ADV_GAUSS };

typedef struct {
  double period;    /* deform: T */
  int init;         /* ADV_* */
  double centre[3]; /* bell / gauss centre */
  double radius;    /* bell radius, gauss width */
  double height;    /* bell / gauss height */
  double value;     /* constant */
} adv_host;

static const dg_model_param adv_params[] = {
    {"velocity", DG_PARAM_WORD, 1, "const|rotation|deform", 1, offsetof(dg_model_params, velocity),
     "const", "const | rotation | deform (LeVeque's reversing flow, unit square)"},
    {"beta", DG_PARAM_REAL, 0, NULL, 1, offsetof(dg_model_params, beta), "1,1,1",
     "constant velocity bx,by[,bz]"},
    {"omega", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, omega), "1", "rotation rate"},
    {"rot-centre", DG_PARAM_REAL, 2, NULL, 1, offsetof(dg_model_params, centre), NULL,
     "rotation centre cx,cy [box centre]"},
    {"period", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, period), "5",
     "period T of the deform velocity"},
    {"init", DG_PARAM_WORD, 1, "parabola|bell|sine|constant|gauss", 0, offsetof(adv_host, init),
     "bell", "initial data: parabola | bell | sine | constant | gauss (smooth hump)"},
    {"bell-centre", DG_PARAM_REAL, 0, NULL, 0, offsetof(adv_host, centre), NULL,
     "bell/gauss centre x,y[,z] [box centre - 0.2 box size]"},
    {"bell-radius", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, radius), NULL,
     "bell radius / gauss width [0.1 (x1-x0)]"},
    {"bell-height", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, height), "2",
     "bell/gauss height h0"},
    {"value", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, value), "1",
     "the constant of --init constant"},
};

static int adv_finish(void *dev, void *host, const dg_model_domain *dom, const unsigned char *set,
                      char *msg, size_t cap) {
  dg_model_params *p = (dg_model_params *)dev;
  adv_host *h = (adv_host *)host;
  for (int d = 0; d < 3; ++d) {
    const double mid = 0.5 * (dom->lo[d] + dom->hi[d]), len = dom->hi[d] - dom->lo[d];
    if (!set[3] && d < 2) p->centre[d] = (dg_real)mid;
    if (!set[6]) h->centre[d] = d < dom->dim ? mid - 0.2 * len : 0;
    if (d >= dom->dim) p->beta[d] = 0;
  }
  if (!set[7]) h->radius = 0.1 * (dom->hi[0] - dom->lo[0]);
  if (p->velocity == DG_VELOCITY_DEFORM && !(h->period > 0)) {
    snprintf(msg, cap, "option --period: %g must be positive", h->period);
    return 1;
  }
  p->ct = 1;
  if (!(h->radius > 0)) {
    snprintf(msg, cap, "option --bell-radius: %g must be positive", h->radius);
    return 1;
  }
  return 0;
}

static int adv_linear(const void *dev) {
  (void)dev;
  return 1;
}
static int adv_needs_x(const void *dev) { return dg_model_needs_x((const dg_model_params *)dev); }
static int adv_speed_varies(const void *dev) {
  return ((const dg_model_params *)dev)->velocity == DG_VELOCITY_DEFORM;
}

static double adv_wrap(double x, double lo, double hi) {
  const double L = hi - lo;
  double y = fmod(x - lo, L);
  if (y < 0) y += L;
  return lo + y;
}

static double adv_initial(const adv_host *h, const dg_model_domain *dom, const double *x) {
  switch (h->init) {
  case ADV_PARABOLA: {
    const double a = dom->lo[0], b = dom->hi[0], s = 2.0 / (b - a);
    return -(x[0] - a) * (x[0] - b) * s * s;
  }
  case ADV_BELL:
  case ADV_GAUSS: {
    double r2 = 0;
    for (int d = 0; d < dom->dim; ++d) r2 += (x[d] - h->centre[d]) * (x[d] - h->centre[d]);
    if (h->init == ADV_GAUSS) return h->height * exp(-r2 / (h->radius * h->radius));
    const double r = sqrt(r2);
    return r < h->radius ? 0.5 * h->height * (1.0 + cos(M_PI * r / h->radius)) : 0.0;
  }
  case ADV_SINE: {
    double v = 1;
    for (int d = 0; d < dom->dim; ++d) v *= sin(2 * M_PI * x[d] / (dom->hi[d] - dom->lo[d]));
    return v;
  }
  default:
    return h->value;
  }
}

/* u0 at the foot of the characteristic, wrapped into the box; the deform
 * flow only at whole periods (where it is u0 again). */
static int adv_solution(const void *dev, const void *host, const dg_model_domain *dom,
                        const double x[3], double t, double *u) {
  const dg_model_params *p = (const dg_model_params *)dev;
  double y[3] = {x[0], x[1], x[2]};
  if (p->velocity == DG_VELOCITY_DEFORM) {
    const double k = t / ((const adv_host *)host)->period;
    if (fabs(k - floor(k + 0.5)) > 1e-9) return 0;
  } else if (p->velocity == DG_VELOCITY_ROTATION) {
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
  static const char *const names[] = {"advection-constant", "advection-rotation",
                                      "advection-deform"};
  return names[((const dg_model_params *)dev)->velocity];
}

static void adv_at_time(void *dev, const void *host, double t) {
  dg_model_params *p = (dg_model_params *)dev;
  if (p->velocity == DG_VELOCITY_DEFORM)
    p->ct = (dg_real)cos(M_PI * t / ((const adv_host *)host)->period);
}

static const char *const adv_vars[] = {"u"};

const dg_model_desc dg_model_advection = {
    "advection",
    "linear advection u_t + div(beta u) = 0 (constant, rotating or deforming velocity)",
    1,
    adv_vars,
    (1 << 2) | (1 << 3),
    sizeof(dg_model_params),
    sizeof(adv_host),
    (int)(sizeof adv_params / sizeof adv_params[0]),
    adv_params,
    adv_finish,
    adv_linear,
    adv_needs_x,
    adv_speed_varies,
    adv_solution,
    adv_file_name,
    adv_at_time,
};
#endif /* DG_MODEL_HOST */

#endif
