/* deformation.h - advection by the reversing deformational flow of LeVeque
 * (1996), the planar form of Nair and Lauritzen (2010)'s test: a velocity
 * varying in space and time, on the unit square with period T,
 *   beta = cos(pi t / T) (sin^2(pi x) sin(2 pi y), -sin^2(pi y) sin(2 pi x)),
 * which stretches the initial data and brings it back: at t = k T the
 * solution is the initial state again.
 *
 * The flux is linear in u but depends on x, so no plan integrates with
 * fewer points (own q); the time factor is computed once per launch on the
 * host (at_time), the sines per point with dg_lane_sinpi. */
#ifndef DG_MODEL_DEFORMATION_H
#define DG_MODEL_DEFORMATION_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 0

typedef struct {
  dg_real ct; /* cos(pi t / T) at the stage's time (set by the host: at_time) */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 1;
}

/* Velocity component d at x.  x is never NULL at run time (dg_model_needs_x
 * is 1), but a backend may compile a copy of the stages for x = NULL: there
 * this test folds the rest away. */
DG_HD static inline dg_lane dg_model_velocity(const dg_model_params *p, const dg_lane *x, int d) {
  if (!x) return dg_lane_set(0);
  const dg_lane s = dg_lane_sinpi(x[d]), s2 = dg_lane_sinpi(x[1 - d] * (dg_real)2);
  return d == 0 ? s * s * s2 * p->ct : s * s * s2 * (-p->ct);
}

DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)t; /* in p->ct */
  f[0] = dg_model_velocity(p, x, d) * u[0];
}

DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)u, (void)t;
  return dg_lane_abs(dg_model_velocity(p, x, d));
}

#ifdef DG_MODEL_HOST
#include "advection_data.h"

static const dg_model_param deformation_params[] = {
    {"period", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, period), "5",
     "period T of the flow (the solution returns at t = k T)"},
    ADV_DATA_PARAMS("gauss"),
};

static int deformation_finish(void *dev, void *host, const dg_model_domain *dom,
                              const unsigned char *set, char *msg, size_t cap) {
  adv_host *h = (adv_host *)host;
  if (!(h->period > 0)) {
    snprintf(msg, cap, "option --period: %g must be positive", h->period);
    return 1;
  }
  ((dg_model_params *)dev)->ct = 1;
  return adv_data_finish(h, dom, set, 1, msg, cap);
}

/* The initial data at whole periods; unknown between them. */
static int deformation_solution(const void *dev, const void *host, const dg_model_domain *dom,
                                const double x[3], double t, double *u) {
  (void)dev;
  const adv_host *h = (const adv_host *)host;
  const double k = t / h->period;
  if (fabs(k - floor(k + 0.5)) > 1e-9) return 0;
  double y[3] = {x[0], x[1], x[2]};
  for (int d = 0; d < dom->dim; ++d)
    if (dom->periodic[d]) y[d] = adv_wrap(y[d], dom->lo[d], dom->hi[d]);
  u[0] = adv_initial(h, dom, y);
  return 1;
}

static void deformation_at_time(void *dev, const void *host, double t) {
  ((dg_model_params *)dev)->ct = (dg_real)cos(M_PI * t / ((const adv_host *)host)->period);
}

static const char *const deformation_vars[] = {"u"};

const dg_model_desc dg_model_deformation = {
    "deformation",
    "advection by LeVeque's reversing deformational flow on the unit square (2D)",
    1,
    deformation_vars,
    1 << 2,
    sizeof(dg_model_params),
    sizeof(adv_host),
    (int)(sizeof deformation_params / sizeof deformation_params[0]),
    deformation_params,
    deformation_finish,
    dg_model_yes, /* linear */
    dg_model_yes, /* needs_x */
    dg_model_yes, /* speed_varies: cos(pi t / T) */
    deformation_solution,
    NULL, /* file_name */
    deformation_at_time,
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
