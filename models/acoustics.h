/* acoustics.h - 2D linear acoustics, the system (nvar = 3) for (p, u, v):
 *   p_t + K div(u, v) = 0,   u_t + p_x / rho = 0,   v_t + p_y / rho = 0.
 * dgrid: dims=2 qmax=6
 *
 * Sound speed c = sqrt(K / rho); the flux is linear and independent of x.
 * Exact solution: the plane wave p = A sin(k.x - c|k| t), (u, v) = k/|k| p /
 * (rho c), k = 2 pi (m / Lx, n / Ly).  The energy
 *   E = int p^2 / (2K) + rho (u^2 + v^2) / 2
 * is conserved by the exact solution and does not grow with the Rusanov
 * flux. */
#ifndef DG_MODEL_ACOUSTICS_H
#define DG_MODEL_ACOUSTICS_H

#include "dg_lane.h"

#define DG_NVAR         3
#define DG_MODEL_SOURCE 0

typedef struct {
  dg_real K, rho; /* bulk modulus, density */
  dg_real c;      /* sqrt(K / rho), set on the host */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 0;
}

/* Component d of the flux: (K u_d, p/rho e_d). */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)x, (void)t;
  f[0] = u[1 + d] * p->K;
  const dg_lane pr = u[0] * (1 / p->rho);
  f[1] = d == 0 ? pr : dg_lane_set(0);
  f[2] = d == 1 ? pr : dg_lane_set(0);
}

DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)u, (void)x, (void)t, (void)d;
  return dg_lane_set(p->c);
}

#ifdef DG_MODEL_HOST
#include "dg_model_desc.h"

#include <math.h>
#include <stdio.h>

typedef struct {
  double amp;     /* wave amplitude A */
  double wave[2]; /* wave numbers m, n (whole periods across the box) */
} acoustics_host;

static const dg_model_param acoustics_params[] = {
    {"bulk", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, K), "1", "bulk modulus K"},
    {"density", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, rho), "1", "density rho"},
    {"amplitude", DG_PARAM_REAL, 1, NULL, 0, offsetof(acoustics_host, amp), "1",
     "pressure amplitude A of the plane wave"},
    {"wave", DG_PARAM_REAL, 2, NULL, 0, offsetof(acoustics_host, wave), "1,1",
     "wave numbers m,n of the plane wave (periods across the box)"},
};

static int acoustics_finish(void *dev, void *host, const dg_model_domain *dom,
                            const unsigned char *set, char *msg, size_t cap) {
  (void)dom, (void)set;
  dg_model_params *p = (dg_model_params *)dev;
  const acoustics_host *h = (const acoustics_host *)host;
  if (!(p->K > 0) || !(p->rho > 0)) {
    snprintf(msg, cap, "options --bulk and --density must be positive (got %g and %g)",
             (double)p->K, (double)p->rho);
    return 1;
  }
  for (int d = 0; d < 2; ++d)
    if (h->wave[d] != floor(h->wave[d])) {
      snprintf(msg, cap, "option --wave: %g is not a whole number of periods", h->wave[d]);
      return 1;
    }
  p->c = (dg_real)sqrt((double)p->K / (double)p->rho);
  return 0;
}

static int acoustics_solution(const void *dev, const void *host, const dg_model_domain *dom,
                              const double x[3], double t, double *u) {
  const dg_model_params *p = (const dg_model_params *)dev;
  const acoustics_host *h = (const acoustics_host *)host;
  double k[2], kk = 0, ph = 0;
  for (int d = 0; d < 2; ++d) {
    k[d] = 2 * M_PI * h->wave[d] / (dom->hi[d] - dom->lo[d]);
    kk += k[d] * k[d];
    ph += k[d] * (x[d] - dom->lo[d]);
  }
  kk = sqrt(kk);
  const double c = sqrt((double)p->K / (double)p->rho);
  const double pr = h->amp * sin(ph - c * kk * t);
  u[0] = pr;
  for (int d = 0; d < 2; ++d) u[1 + d] = kk > 0 ? k[d] / kk * pr / ((double)p->rho * c) : 0;
  return 1;
}

static const char *const acoustics_vars[] = {"p", "u", "v"};

const dg_model_desc dg_model_acoustics = {
    "acoustics",
    "2D linear acoustics for (p, u, v), a plane-wave exact solution",
    3,
    acoustics_vars,
    1 << 2,
    sizeof(dg_model_params),
    sizeof(acoustics_host),
    (int)(sizeof acoustics_params / sizeof acoustics_params[0]),
    acoustics_params,
    acoustics_finish,
    dg_model_yes, /* linear */
    dg_model_no,  /* needs_x */
    dg_model_no,  /* speed_varies */
    acoustics_solution,
    NULL, /* file_name */
    NULL, /* at_time */
    0,    /* naux */
    NULL, /* aux_names */
    NULL, /* aux */
};
#endif /* DG_MODEL_HOST */

#endif
