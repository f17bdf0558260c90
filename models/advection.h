/* advection.h - linear advection u_t + div(beta(x, t) u) = 0.
 *
 * Velocity fields:
 *   const    beta constant;
 *   rotation solid-body rotation about (cx, cy): beta = omega (-(y-cy), x-cx, 0).
 * (A velocity varying in space and time with transcendental functions is a
 * model of its own, deformation.h, so that its code stays out of these
 * kernels: docs/ARCHITECTURE.md, "Decisions and why".)
 * The flux is linear in u; it depends on x except for const (then a plan
 * may integrate an element whose neighbours share its degree with r + 1
 * points: every integrand is a polynomial of degree 2r).
 *
 * Boundaries: inflow data are the exact solution, the initial state at the
 * foot of the characteristic (dg_model_boundary); no wall (a scalar has no
 * reflection). */
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

/* Inflow data g(x, t): the exact solution u0(y), y the foot of the
 * characteristic through (x, t), wrapped in the periodic directions as the
 * host's solution is.  Its data (the initial state's parameters, which the
 * stages' dg_model_params has no room for) reach the stages once per grid
 * (dg_model_desc.bdata). */
#define DG_MODEL_BOUNDARY 1
typedef struct {
  int init;             /* 0 parabola, 1 bell, 2 sine, 3 constant, 4 gauss (advection_data.h) */
  int dim;              /* dimension */
  int periodic[3];      /* 1: wrap y into [lo, hi) along d */
  dg_real lo[3], hi[3]; /* the box */
  dg_real centre[3], radius, height, value;
} dg_model_bdata;

DG_HD static inline void dg_model_boundary(const dg_model_params *p, const dg_model_bdata *b,
                                           const dg_lane *u, const dg_lane *a, const dg_lane *x,
                                           dg_real t, int d, dg_lane *ue) {
  (void)u, (void)a, (void)d;
  dg_lane y[3];
  if (p->velocity == DG_VELOCITY_ROTATION) {
    /* rotate back by omega t about the centre */
    const dg_lane c = dg_lane_cos(dg_lane_set(-p->omega * t));
    const dg_lane s = dg_lane_sin(dg_lane_set(-p->omega * t));
    const dg_lane dx = x[0] - p->centre[0], dy = x[1] - p->centre[1];
    y[0] = (c * dx - s * dy) + p->centre[0];
    y[1] = (s * dx + c * dy) + p->centre[1];
    y[2] = x[2];
  } else {
    for (int e = 0; e < 3; ++e) y[e] = x[e] - p->beta[e] * t;
  }
  for (int e = 0; e < b->dim; ++e)
    if (b->periodic[e]) {
      const dg_real L = b->hi[e] - b->lo[e];
      const dg_lane r = y[e] - b->lo[e];
      y[e] = (r - dg_lane_floor(r * (1 / L)) * L) + b->lo[e];
    }
  dg_lane v = dg_lane_set(b->value);
  if (b->init == 0) { /* parabola in x, 1 at the middle, 0 at the ends */
    const dg_real s = 2 / (b->hi[0] - b->lo[0]);
    v = ((y[0] - b->lo[0]) * (y[0] - b->hi[0])) * (-s * s);
  } else if (b->init == 1 || b->init == 4) {
    dg_lane r2 = dg_lane_set(0);
    for (int e = 0; e < b->dim; ++e) r2 += (y[e] - b->centre[e]) * (y[e] - b->centre[e]);
    if (b->init == 4) {
      v = dg_lane_exp(r2 * (-1 / (b->radius * b->radius))) * b->height;
    } else { /* the bell; cos(pi min(r / radius, 1)) = -1 outside it */
      const dg_lane q = -dg_lane_max(dg_lane_sqrt(r2) * (-1 / b->radius), dg_lane_set(-1));
      v = (dg_lane_cospi(q) + (dg_real)1) * (b->height * (dg_real)0.5);
    }
  } else if (b->init == 2) {
    v = dg_lane_set(1);
    for (int e = 0; e < b->dim; ++e) v = v * dg_lane_sinpi(y[e] * (2 / (b->hi[e] - b->lo[e])));
  }
  ue[0] = v;
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
/* u0 at the foot of the characteristic, wrapped into the box along the
 * periodic directions. */
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
  for (int d = 0; d < dom->dim; ++d)
    if (dom->periodic[d]) y[d] = adv_wrap(y[d], dom->lo[d], dom->hi[d]);
  u[0] = adv_initial((const adv_host *)host, dom, y);
  return 1;
}

/* The inflow data's parameters (dg_model_bdata), from the initial state's. */
typedef char adv_init_codes[ADV_PARABOLA == 0 && ADV_BELL == 1 && ADV_SINE == 2 &&
                                    ADV_CONSTANT == 3 && ADV_GAUSS == 4
                                ? 1
                                : -1];
static void adv_bdata(const void *dev, const void *host, const dg_model_domain *dom, void *out) {
  (void)dev;
  const adv_host *h = (const adv_host *)host;
  dg_model_bdata b;
  memset(&b, 0, sizeof b);
  b.init = h->init;
  b.dim = dom->dim;
  for (int d = 0; d < 3; ++d) {
    b.periodic[d] = dom->periodic[d];
    b.lo[d] = (dg_real)dom->lo[d];
    b.hi[d] = (dg_real)dom->hi[d];
    b.centre[d] = (dg_real)h->centre[d];
  }
  b.radius = (dg_real)h->radius;
  b.height = (dg_real)h->height;
  b.value = (dg_real)h->value;
  memcpy(out, &b, sizeof b);
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
    DG_MODEL_BC_INFLOW,
    sizeof(dg_model_bdata),
    adv_bdata,
    NULL, /* aux_deriv */
    0,    /* ninteg */
    NULL, /* integ_names */
    NULL, /* integrand */
    0,    /* naux_face: all */
};
#endif /* DG_MODEL_HOST */

#endif
