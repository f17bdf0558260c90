/* acoustics.h - 2D linear acoustics, the system (nvar = 3) for (p, u, v):
 *   p_t + K div(u, v) = 0,   u_t + p_x / rho = 0,   v_t + p_y / rho = 0.
 *
 * Sound speed c = sqrt(K / rho); the flux is linear and independent of x.
 * Exact solutions (--shape): the plane wave p = A sin(k.x - c|k| t),
 * (u, v) = k/|k| p / (rho c), k = 2 pi (m / Lx, n / Ly) (periodic box); or
 * the standing wave of a box with walls, p = A cos(kx x') cos(ky y')
 * cos(w t), (u, v) = A / (rho w) (kx sin(kx x') cos(ky y'), ky cos(kx x')
 * sin(ky y')) sin(w t), k = pi (m / Lx, n / Ly), x' = x - x0, w = c|k|.
 * Where the sides do not keep the shape (a standing wave of odd m or n
 * across a periodic direction, a plane wave across walls) it is the initial
 * data only, and the solution is not known after t = 0.
 * Walls reflect: p and the tangential velocity as inside, the normal
 * velocity negated (dg_model_wall).  The energy
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

/* A wall's exterior state: the mirror image, normal velocity negated, so
 * the Rusanov flux of p (K u_n) vanishes there and no pressure leaves. */
#define DG_MODEL_WALL 1
DG_HD static inline void dg_model_wall(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *ue) {
  (void)p, (void)a, (void)x, (void)t;
  ue[0] = u[0];
  ue[1] = d == 0 ? -u[1] : u[1];
  ue[2] = d == 1 ? -u[2] : u[2];
}

#ifdef DG_MODEL_HOST
#include "dg_model_desc.h"

#include <math.h>
#include <stdio.h>

enum { ACOUSTICS_PLANE = 0, ACOUSTICS_STANDING = 1 };

typedef struct {
  double amp;     /* wave amplitude A */
  double wave[2]; /* wave numbers m, n (whole periods, or half periods standing) */
  int shape;      /* ACOUSTICS_* */
} acoustics_host;

static const dg_model_param acoustics_params[] = {
    {"bulk", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, K), "1", "bulk modulus K"},
    {"density", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, rho), "1", "density rho"},
    {"amplitude", DG_PARAM_REAL, 1, NULL, 0, offsetof(acoustics_host, amp), "1",
     "pressure amplitude A of the plane wave"},
    {"wave", DG_PARAM_REAL, 2, NULL, 0, offsetof(acoustics_host, wave), "1,1",
     "wave numbers m,n (periods across the box; standing: half periods)"},
    {"shape", DG_PARAM_WORD, 1, "plane|standing", 0, offsetof(acoustics_host, shape), "plane",
     "plane (travelling, periodic box) | standing (the mode of a box with walls)"},
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
  /* the shape is the solution only where the box's sides keep it: a standing
     wave of an odd mode number is not periodic, a plane wave reflects off
     walls; there it is the initial data only, unknown after t = 0 (errors
     are then not measured, rather than measured against the wrong wave) */
  for (int d = 0; d < 2 && t != 0; ++d) {
    const int odd = fmod(fabs(h->wave[d]), 2.0) == 1.0;
    if (h->shape == ACOUSTICS_STANDING ? dom->periodic[d] && odd
                                       : !dom->periodic[d] && h->wave[d] != 0)
      return 0;
  }
  if (h->shape == ACOUSTICS_STANDING) {
    double k[2], kk = 0, cs[2], sn[2];
    for (int d = 0; d < 2; ++d) {
      k[d] = M_PI * h->wave[d] / (dom->hi[d] - dom->lo[d]);
      kk += k[d] * k[d];
      cs[d] = cos(k[d] * (x[d] - dom->lo[d]));
      sn[d] = sin(k[d] * (x[d] - dom->lo[d]));
    }
    const double w = sqrt((double)p->K / (double)p->rho) * sqrt(kk);
    u[0] = h->amp * cs[0] * cs[1] * cos(w * t);
    const double s = w > 0 ? h->amp / ((double)p->rho * w) * sin(w * t) : 0;
    u[1] = s * k[0] * sn[0] * cs[1];
    u[2] = s * k[1] * cs[0] * sn[1];
    return 1;
  }
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
    "2D linear acoustics for (p, u, v): plane or standing waves (--shape), walls",
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
    DG_MODEL_BC_WALL,
    0,    /* bdata_size: no inflow data */
    NULL, /* bdata */
    NULL, /* aux_deriv */
    0,    /* ninteg */
    NULL, /* integ_names */
    NULL, /* integrand */
    0,    /* naux_face: all */
};
#endif /* DG_MODEL_HOST */

#endif
