/* burgers.h - Burgers' equation u_t + div(u^2/2 (1, 1)) = nu lap u (2D).
 *
 * The stages see the flux only: the viscosity nu lap u is the implicit
 * integrators' part (implicit/: the SIPG operator of solvers/, with the host
 * parameter `nu`, which never reaches the stages; apps/advdiff).  advect
 * refuses nu != 0: its explicit stages would integrate inviscid Burgers.
 *
 * The flux is nonlinear, so no plan may take a shortcut that is exact only
 * for linear fluxes (own q); the wave speed is |u|, so a CFL step comes
 * from the current solution.  Initial data u0 = a + b sin(2 pi s),
 * s = x/Lx + y/Ly: the solution stays a function of s, carried at speed
 * u (1/Lx + 1/Ly) along s, and until the shock (t < 1 / (2 pi b k),
 * k = 1/Lx + 1/Ly) it is the root of u = u0(s - k u t) (Newton).  With
 * nu > 0 no closed form is given: only the initial data are known. */
#ifndef DG_MODEL_BURGERS_H
#define DG_MODEL_BURGERS_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 0

typedef struct {
  dg_real unused; /* no parameters reach the stages */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 0;
}

/* f[0] = component d of the flux: u^2 / 2 in both directions. */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)p, (void)x, (void)t, (void)d;
  f[0] = u[0] * u[0] * (dg_real)0.5;
}

/* |f'(u)| = |u| in both directions. */
DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)p, (void)x, (void)t, (void)d;
  return dg_lane_abs(u[0]);
}

#ifdef DG_MODEL_HOST
#include "dg_model_desc.h"

#include <math.h>
#include <stdio.h>

typedef struct {
  double mean, amp; /* u0 = mean + amp sin(2 pi s) */
  double nu;        /* viscosity (the implicit part) */
} burgers_host;

static const dg_model_param burgers_params[] = {
    {"mean", DG_PARAM_REAL, 1, NULL, 0, offsetof(burgers_host, mean), "0.5",
     "mean a of the initial data a + b sin(2 pi (x/Lx + y/Ly))"},
    {"amplitude", DG_PARAM_REAL, 1, NULL, 0, offsetof(burgers_host, amp), "0.25",
     "amplitude b of the initial data"},
    {"nu", DG_PARAM_REAL, 1, NULL, 0, offsetof(burgers_host, nu), "0",
     "viscosity nu >= 0 (used by the implicit integrators of advdiff, not the stages)"},
};

static int burgers_finish(void *dev, void *host, const dg_model_domain *dom,
                          const unsigned char *set, char *msg, size_t cap) {
  (void)dev, (void)dom, (void)set;
  const burgers_host *h = (const burgers_host *)host;
  if (!(h->nu >= 0) || !isfinite(h->nu)) {
    snprintf(msg, cap, "option --nu: %g is not a viscosity (give nu >= 0)", h->nu);
    return 1;
  }
  return 0;
}

static int burgers_solution(const void *dev, const void *host, const dg_model_domain *dom,
                            const double x[3], double t, double *u) {
  (void)dev;
  const burgers_host *h = (const burgers_host *)host;
  const double k = 1 / (dom->hi[0] - dom->lo[0]) + 1 / (dom->hi[1] - dom->lo[1]);
  const double s = (x[0] - dom->lo[0]) / (dom->hi[0] - dom->lo[0]) +
                   (x[1] - dom->lo[1]) / (dom->hi[1] - dom->lo[1]);
  const double w = 2 * M_PI;
  if (t > 0 && h->nu > 0) return 0;                            /* viscous */
  if (t > 0 && 2 * M_PI * fabs(h->amp) * k * t >= 1) return 0; /* past the shock */
  /* Newton on F(v) = v - a - b sin(w (s - k v t)), F' = 1 + b w k t cos(.) > 0 */
  double v = h->mean + h->amp * sin(w * s);
  for (int it = 0; it < 60; ++it) {
    const double ph = w * (s - k * v * t);
    const double F = v - h->mean - h->amp * sin(ph), dF = 1 + h->amp * w * k * t * cos(ph);
    const double dv = F / dF;
    v -= dv;
    if (fabs(dv) <= 1e-16 * (1 + fabs(v))) break;
  }
  u[0] = v;
  return 1;
}

static const char *const burgers_vars[] = {"u"};

const dg_model_desc dg_model_burgers = {
    "burgers",
    "Burgers u_t + div(u^2/2 (1,1)) = nu lap u (nonlinear; the stages carry the flux, implicit/ "
    "the viscosity; 2D)",
    1,
    burgers_vars,
    1 << 2,
    sizeof(dg_model_params),
    sizeof(burgers_host),
    (int)(sizeof burgers_params / sizeof burgers_params[0]),
    burgers_params,
    burgers_finish,
    dg_model_no,  /* linear */
    dg_model_no,  /* needs_x */
    dg_model_yes, /* speed_varies */
    burgers_solution,
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
