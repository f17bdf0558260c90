/* advection_field.h - linear advection u_t + div(b u) = 0 by a velocity b
 * held as data: the model's auxiliary values (DG_MODEL_NAUX = 2), sampled
 * once at every volume and face point, not computed in the stages.
 *
 * The model's own sample is a velocity field given by formula, so that the
 * data path can be checked against the formula path to round-off: rotation
 * (the solid-body rotation of advection.h) or deformation (the spatial part
 * of deformation.h's reversing flow, sin^2(pi x) sin(2 pi y), -sin^2(pi y)
 * sin(2 pi x), times the factor cos(pi t / T) that the host sets per stage:
 * data in space, a formula in time); a program gives its own data with
 * dg_disc_set_aux.  The stages read 2 (Q^2 + 4 Q) reals per element for
 * it: at degree 3, Q = 4, 48 against the state's 16.  The flux is linear in
 * u and depends on the point (through the data), so no plan integrates with
 * fewer points (own q), and the team update, which carries no auxiliary
 * data, is not used. */
#ifndef DG_MODEL_ADVECTION_FIELD_H
#define DG_MODEL_ADVECTION_FIELD_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 0
#define DG_MODEL_NAUX   2

enum { DG_FIELD_ROTATION = 0, DG_FIELD_DEFORMATION = 1 };

typedef struct {
  int field;         /* DG_FIELD_*: the model's own sample (host only) */
  dg_real omega;     /* rotation rate */
  dg_real centre[2]; /* rotation centre */
  dg_real ct;        /* the data's time factor at the stage's time (at_time) */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 0; /* the velocity comes with the auxiliary data */
}

/* f[0] = b_d u with b_d = ct a[d].  a is never NULL at run time; should a
 * backend compile a copy of the stages without auxiliary data, this test
 * folds it there. */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)p, (void)x, (void)t;
  f[0] = a ? a[d] * p->ct * u[0] : dg_lane_set(0);
}

DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)u, (void)x, (void)t;
  return a ? dg_lane_abs(a[d] * p->ct) : dg_lane_set(0);
}

#ifdef DG_MODEL_HOST
#include "advection_data.h"

static const dg_model_param field_params[] = {
    {"field", DG_PARAM_WORD, 1, "rotation|deformation", 1, offsetof(dg_model_params, field),
     "rotation", "the velocity data: rotation | deformation (LeVeque's flow, unit square)"},
    {"omega", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, omega), "1", "rotation rate"},
    {"rot-centre", DG_PARAM_REAL, 2, NULL, 1, offsetof(dg_model_params, centre), NULL,
     "rotation centre cx,cy [box centre]"},
    {"period", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, period), "5",
     "deformation: period T of the flow (the solution returns at t = k T)"},
    ADV_DATA_PARAMS("bell"),
};

static int field_finish(void *dev, void *host, const dg_model_domain *dom, const unsigned char *set,
                        char *msg, size_t cap) {
  dg_model_params *p = (dg_model_params *)dev;
  adv_host *h = (adv_host *)host;
  for (int d = 0; d < 2; ++d)
    if (!set[2]) p->centre[d] = (dg_real)(0.5 * (dom->lo[d] + dom->hi[d]));
  if (!(h->period > 0)) {
    snprintf(msg, cap, "option --period: %g must be positive", h->period);
    return 1;
  }
  p->ct = 1;
  return adv_data_finish(h, dom, set, 4, msg, cap);
}

/* The velocity at x, as advection.h's rotation computes it (same operations
 * in dg_real, so the two models agree to round-off), or the spatial part of
 * the deformational flow. */
static void field_aux(const void *dev, const void *host, const double x[3], double *out) {
  (void)host;
  const dg_model_params *p = (const dg_model_params *)dev;
  if (p->field == DG_FIELD_ROTATION) {
    out[0] = (dg_real)((dg_real)x[1] - p->centre[1]) * (-p->omega);
    out[1] = (dg_real)((dg_real)x[0] - p->centre[0]) * p->omega;
  } else {
    const double sx = sin(M_PI * x[0]), sy = sin(M_PI * x[1]);
    out[0] = sx * sx * sin(2 * M_PI * x[1]);
    out[1] = -sy * sy * sin(2 * M_PI * x[0]);
  }
}

/* Rotation: u0 at the foot of the characteristic; deformation: the initial
 * data at whole periods, unknown between them. */
static int field_solution(const void *dev, const void *host, const dg_model_domain *dom,
                          const double x[3], double t, double *u) {
  const dg_model_params *p = (const dg_model_params *)dev;
  double y[3] = {x[0], x[1], x[2]};
  if (p->field == DG_FIELD_ROTATION) {
    const double c = cos(-(double)p->omega * t), s = sin(-(double)p->omega * t);
    const double dx = x[0] - p->centre[0], dy = x[1] - p->centre[1];
    y[0] = p->centre[0] + c * dx - s * dy;
    y[1] = p->centre[1] + s * dx + c * dy;
  } else {
    const double k = t / ((const adv_host *)host)->period;
    if (fabs(k - floor(k + 0.5)) > 1e-9) return 0;
  }
  for (int d = 0; d < dom->dim; ++d)
    if (dom->periodic[d]) y[d] = adv_wrap(y[d], dom->lo[d], dom->hi[d]);
  u[0] = adv_initial((const adv_host *)host, dom, y);
  return 1;
}

static int field_speed_varies(const void *dev) {
  return ((const dg_model_params *)dev)->field == DG_FIELD_DEFORMATION;
}

static void field_at_time(void *dev, const void *host, double t) {
  dg_model_params *p = (dg_model_params *)dev;
  p->ct = p->field == DG_FIELD_DEFORMATION
              ? (dg_real)cos(M_PI * t / ((const adv_host *)host)->period)
              : 1;
}

static const char *const field_vars[] = {"u"};
static const char *const field_aux_names[] = {"bx", "by"};

const dg_model_desc dg_model_advection_field = {
    "advection_field",
    "linear advection u_t + div(b u) = 0, b held as data at the points (2D)",
    1,
    field_vars,
    1 << 2,
    sizeof(dg_model_params),
    sizeof(adv_host),
    (int)(sizeof field_params / sizeof field_params[0]),
    field_params,
    field_finish,
    dg_model_yes, /* linear */
    dg_model_no,  /* needs_x: the data carry the position dependence */
    field_speed_varies,
    field_solution,
    NULL, /* file_name */
    field_at_time,
    DG_MODEL_NAUX,
    field_aux_names,
    field_aux,
    0,    /* bc: periodic and outflow sides only */
    0,    /* bdata_size */
    NULL, /* bdata */
    NULL, /* aux_deriv: sampled at the points */
    0,    /* ninteg */
    NULL, /* integ_names */
    NULL, /* integrand */
    0,    /* naux_face: all */
};
#endif /* DG_MODEL_HOST */

#endif
