/* sphere_advection.h - scalar advection on the latitude-longitude sphere
 * (--grid latlon) by a non-divergent wind given by a stream function psi:
 *   a^2 cos(theta) h_t + d/dlambda (h w_lam) + d/dtheta (h w_th) = 0,
 *   w_lam = -d psi / d theta,  w_th = d psi / d lambda,
 * in the coordinates x = (lambda, theta) of the grid.  The flux is the
 * contravariant one: the wind is the curl of psi in (lambda, theta), so there
 * is no 1 / cos(theta) anywhere and w_th vanishes at the poles; discretely,
 * the exact curl of psi's element interpolant (dg_model_velocity), so a
 * constant stays constant to round-off; the area element
 * a^2 cos(theta) is in the mass matrix, which the stages invert exactly per
 * row (docs/ARCHITECTURE.md).  Physical wind: u = w_lam / a, v = w_th /
 * (a cos theta).
 *
 * Flows (--flow):
 *   williamson     Williamson et al. (1992) test 1, solid-body rotation at
 *                  angle alpha, u0 = 2 pi a / 12 days:
 *                  psi = -a u0 (sin th cos alpha - cos lam cos th sin alpha)
 *   nair_lauritzen Nair and Lauritzen (2010) case 4, the reversing
 *                  deformational flow with a background rotation, period T:
 *                  psi = (10 a^2 / T) sin^2(lam') cos^2(th) cos(pi t / T)
 *                        - (2 pi a^2 / T) sin th,   lam' = lam - 2 pi t / T
 * Initial data (--initial): Williamson's cosine bell (h0 = 1000 m, radius
 * a / 3) or a smooth Gaussian hill h0 exp(-5 |X - Xc|^2) (X on the unit
 * sphere), both centred at (3 pi / 2, 0).  Exact solution: the initial state
 * rotated back about the flow's axis (williamson), or the initial state at
 * whole periods (nair_lauritzen). */
#ifndef DG_MODEL_SPHERE_ADVECTION_H
#define DG_MODEL_SPHERE_ADVECTION_H

#include "dg_lane.h"

#define DG_NVAR         1
#define DG_MODEL_SOURCE 0

enum { DG_SPHERE_WILLIAMSON = 0, DG_SPHERE_NAIR_LAURITZEN = 1 };

typedef struct {
  int flow; /* DG_SPHERE_* */
  union {
    struct {
      dg_real s;      /* a u0 */
      dg_real ca, sa; /* cos(alpha), sin(alpha) */
    } w;              /* williamson */
    struct {
      dg_real k1;       /* (10 a^2 / T) cos(pi t / T) (at_time) */
      dg_real k2;       /* 2 pi a^2 / T */
      dg_real c2s, s2s; /* cos and sin of twice the shift S = 2 pi t / T (at_time) */
    } nl;               /* nair_lauritzen */
  };
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 1;
}

/* The contravariant wind component d at x: the exact derivatives of psi_h,
 * the stream function with each trigonometric factor replaced by its
 * interpolant of degree K on the element's Gauss-Lobatto nodes, which the
 * stages hand over with the point (x[DG_X_C(e, m)], x[DG_X_DC(e, m)], ..:
 * angle addition from per-slot face values and tables, no trigonometric
 * function per point; docs/ARCHITECTURE.md, "Geometry").  psi_h is a
 * polynomial of degree K per coordinate and continuous across faces, so
 * the discrete divergence of the wind is exactly zero where the Gauss rule
 * integrates it exactly (K = rmax + 2): a constant stays constant.
 *   williamson:     psi_h = -s (ca I[sin th] - sa I[cos lam] I[cos th])
 *   nair_lauritzen: psi_h = k1 (1 - I[cos 2 lam']) / 2 (1 + I[cos 2 th]) / 2
 *                           - k2 I[sin th],
 *                   I[cos 2 lam'] = cos 2S I[cos 2 lam] + sin 2S I[sin 2 lam]
 * (sin^2 = (1 - cos 2) / 2, cos^2 = (1 + cos 2) / 2, lam' = lam - S, S the
 * shift), and w_lam = -d psi_h / d th, w_th = d psi_h / d lam.  x is never
 * NULL at run time (needs_x); a copy of the stages compiled for x = NULL
 * folds here. */
/* What the wind reads of the position, per flow and component d (both the
 * flux and the wave speed): the entries of dg_model_velocity below, no
 * coordinate.  A backend may then form and copy only these (dg_stage_model.h,
 * DG_MODEL_X_READS; the flow picks the copy at run time). */
#define DG_MODEL_X_FLOWS 2
DG_HD static inline int dg_model_x_flow(const dg_model_params *p) { return p->flow; }
DG_HD static inline void dg_model_x_flow_set(dg_model_params *p, int v) { p->flow = v; }
#define DG_SPHERE_READS_W0                                                                         \
  (DG_X_BIT(DG_X_DS(1, 1)) | DG_X_BIT(DG_X_C(0, 1)) | DG_X_BIT(DG_X_DC(1, 1)))
#define DG_SPHERE_READS_W1 (DG_X_BIT(DG_X_DC(0, 1)) | DG_X_BIT(DG_X_C(1, 1)))
#define DG_SPHERE_READS_N0                                                                         \
  (DG_X_BIT(DG_X_C(0, 2)) | DG_X_BIT(DG_X_S(0, 2)) | DG_X_BIT(DG_X_DC(1, 2)) |                     \
   DG_X_BIT(DG_X_DS(1, 1)))
#define DG_SPHERE_READS_N1                                                                         \
  (DG_X_BIT(DG_X_DC(0, 2)) | DG_X_BIT(DG_X_DS(0, 2)) | DG_X_BIT(DG_X_C(1, 2)))
#define DG_MODEL_X_READS(v, d)                                                                     \
  ((d) == 0   ? ((v) == DG_SPHERE_WILLIAMSON ? DG_SPHERE_READS_W0 : DG_SPHERE_READS_N0)            \
   : (d) == 1 ? ((v) == DG_SPHERE_WILLIAMSON ? DG_SPHERE_READS_W1 : DG_SPHERE_READS_N1)            \
              : 0u)

DG_HD static inline dg_lane dg_model_velocity(const dg_model_params *p, const dg_lane *x, int d) {
  if (!x) return dg_lane_set(0);
  if (p->flow == DG_SPHERE_WILLIAMSON) {
    if (d == 0)
      return (x[DG_X_DS(1, 1)] * p->w.ca - x[DG_X_C(0, 1)] * x[DG_X_DC(1, 1)] * p->w.sa) * p->w.s;
    return x[DG_X_DC(0, 1)] * x[DG_X_C(1, 1)] * (p->w.s * p->w.sa);
  }
  if (d == 0) { /* -k1 (1 - I[cos 2 lam']) / 4 I[cos 2 th]' + k2 I[sin th]' */
    const dg_lane c2 = x[DG_X_C(0, 2)] * p->nl.c2s + x[DG_X_S(0, 2)] * p->nl.s2s;
    return (c2 - (dg_real)1) * x[DG_X_DC(1, 2)] * ((dg_real)0.25 * p->nl.k1) +
           x[DG_X_DS(1, 1)] * p->nl.k2;
  }
  /* -k1 I[cos 2 lam']' / 4 (1 + I[cos 2 th]) */
  const dg_lane dc2 = x[DG_X_DC(0, 2)] * p->nl.c2s + x[DG_X_DS(0, 2)] * p->nl.s2s;
  return dc2 * (x[DG_X_C(1, 2)] + (dg_real)1) * ((dg_real)-0.25 * p->nl.k1);
}

DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)a, (void)t; /* no auxiliary data; t in p (at_time) */
  f[0] = dg_model_velocity(p, x, d) * u[0];
}

DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)u, (void)a, (void)t;
  return dg_lane_abs(dg_model_velocity(p, x, d));
}

#ifdef DG_MODEL_HOST
#include "dg_model_desc.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

enum { SPHERE_BELL = 0, SPHERE_HILL = 1 };

typedef struct {
  double alpha;  /* williamson: the rotation's angle */
  int initial;   /* SPHERE_* */
  double period; /* nair_lauritzen: T (s) */
  double h0;     /* height of the initial data */
  double radius; /* a, from the grid */
  double u0;     /* williamson: 2 pi a / 12 days */
} sphere_host;

#define SPHERE_DAY 86400.0

static const dg_model_param sphere_params[] = {
    {"flow", DG_PARAM_WORD, 1, "williamson|nair_lauritzen", 1, offsetof(dg_model_params, flow),
     "williamson", "williamson (solid-body rotation) | nair_lauritzen (deformational, case 4)"},
    {"alpha", DG_PARAM_REAL, 1, NULL, 0, offsetof(sphere_host, alpha), "0",
     "williamson: angle of the rotation axis from the pole (radians)"},
    {"initial", DG_PARAM_WORD, 1, "bell|hill", 0, offsetof(sphere_host, initial), "bell",
     "initial data: bell (Williamson's cosine bell) | hill (smooth Gaussian)"},
    {"period", DG_PARAM_REAL, 1, NULL, 0, offsetof(sphere_host, period), "1036800",
     "nair_lauritzen: period T in seconds (12 days)"},
    {"height", DG_PARAM_REAL, 1, NULL, 0, offsetof(sphere_host, h0), "1000",
     "height h0 of the initial data"},
};

static int sphere_finish(void *dev, void *host, const dg_model_domain *dom,
                         const unsigned char *set, char *msg, size_t cap) {
  (void)set;
  dg_model_params *p = (dg_model_params *)dev;
  sphere_host *h = (sphere_host *)host;
  if (!dom->latlon) {
    snprintf(msg, cap, "model sphere_advection needs --grid latlon");
    return 1;
  }
  if (!isfinite(h->alpha)) {
    snprintf(msg, cap, "option --alpha: %g is not finite", h->alpha);
    return 1;
  }
  if (!(h->period > 0) || !isfinite(h->period)) {
    snprintf(msg, cap, "option --period: %g must be positive", h->period);
    return 1;
  }
  const double a = dom->radius;
  h->radius = a;
  h->u0 = 2 * M_PI * a / (12 * SPHERE_DAY);
  if (p->flow == DG_SPHERE_WILLIAMSON) {
    p->w.s = (dg_real)(a * h->u0);
    p->w.ca = (dg_real)cos(h->alpha);
    p->w.sa = (dg_real)sin(h->alpha);
  } else {
    p->nl.k1 = (dg_real)(10 * a * a / h->period);
    p->nl.k2 = (dg_real)(2 * M_PI * a * a / h->period);
    p->nl.c2s = 1;
    p->nl.s2s = 0;
  }
  return 0;
}

static int sphere_speed_varies(const void *dev) {
  return ((const dg_model_params *)dev)->flow == DG_SPHERE_NAIR_LAURITZEN;
}

/* The initial data at (lambda, theta). */
static double sphere_initial(const sphere_host *h, double lam, double th) {
  const double X[3] = {cos(th) * cos(lam), cos(th) * sin(lam), sin(th)};
  const double lc = 1.5 * M_PI, tc = 0;
  const double C[3] = {cos(tc) * cos(lc), cos(tc) * sin(lc), sin(tc)};
  if (h->initial == SPHERE_HILL) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) d2 += (X[k] - C[k]) * (X[k] - C[k]);
    return h->h0 * exp(-5 * d2);
  }
  double c = X[0] * C[0] + X[1] * C[1] + X[2] * C[2];
  c = c > 1 ? 1 : (c < -1 ? -1 : c);
  const double r = acos(c), R = 1.0 / 3; /* great-circle distance / a, bell radius / a */
  return r < R ? 0.5 * h->h0 * (1 + cos(M_PI * r / R)) : 0;
}

/* williamson: the initial state at the departure point R(n, -omega t) X,
 * n = (-sin alpha, 0, cos alpha), omega = u0 / a (Rodrigues' formula);
 * nair_lauritzen: the initial state at whole periods, unknown between. */
static int sphere_solution(const void *dev, const void *host, const dg_model_domain *dom,
                           const double x[3], double t, double *u) {
  (void)dom;
  const dg_model_params *p = (const dg_model_params *)dev;
  const sphere_host *h = (const sphere_host *)host;
  if (p->flow == DG_SPHERE_NAIR_LAURITZEN) {
    const double k = t / h->period;
    if (fabs(k - floor(k + 0.5)) > 1e-9) return 0;
    u[0] = sphere_initial(h, x[0], x[1]);
    return 1;
  }
  const double X[3] = {cos(x[1]) * cos(x[0]), cos(x[1]) * sin(x[0]), sin(x[1])};
  const double n[3] = {-sin(h->alpha), 0, cos(h->alpha)};
  const double phi = -h->u0 / h->radius * t, c = cos(phi), s = sin(phi);
  const double nx[3] = {n[1] * X[2] - n[2] * X[1], n[2] * X[0] - n[0] * X[2],
                        n[0] * X[1] - n[1] * X[0]};
  const double nd = n[0] * X[0] + n[1] * X[1] + n[2] * X[2];
  double Y[3];
  for (int k = 0; k < 3; ++k) Y[k] = X[k] * c + nx[k] * s + n[k] * nd * (1 - c);
  double z = Y[2] > 1 ? 1 : (Y[2] < -1 ? -1 : Y[2]);
  u[0] = sphere_initial(h, atan2(Y[1], Y[0]), asin(z));
  return 1;
}

static void sphere_at_time(void *dev, const void *host, double t) {
  dg_model_params *p = (dg_model_params *)dev;
  const sphere_host *h = (const sphere_host *)host;
  if (p->flow != DG_SPHERE_NAIR_LAURITZEN) return;
  const double a = h->radius;
  p->nl.k1 = (dg_real)(10 * a * a / h->period * cos(M_PI * t / h->period));
  p->nl.c2s = (dg_real)cos(4 * M_PI * t / h->period);
  p->nl.s2s = (dg_real)sin(4 * M_PI * t / h->period);
}

static const char *sphere_file_name(const void *dev) {
  static const char *const names[] = {"sphere-williamson", "sphere-nair-lauritzen"};
  return names[((const dg_model_params *)dev)->flow];
}

static const char *const sphere_vars[] = {"h"};

const dg_model_desc dg_model_sphere_advection = {
    "sphere_advection",
    "advection on the latitude-longitude sphere (--grid latlon): Williamson test 1, "
    "Nair-Lauritzen",
    1,
    sphere_vars,
    (1 << 2) | DG_MODEL_SPHERE,
    sizeof(dg_model_params),
    sizeof(sphere_host),
    (int)(sizeof sphere_params / sizeof sphere_params[0]),
    sphere_params,
    sphere_finish,
    dg_model_yes, /* linear */
    dg_model_yes, /* needs_x */
    sphere_speed_varies,
    sphere_solution,
    sphere_file_name,
    sphere_at_time,
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
