/* shallow_water.h - the shallow-water equations (nvar = 3) on the plane
 * (--grid box, periodic or walls), in the well-balanced form for the free
 * surface eta = h + b and the momentum m = h (u, v):
 *
 *   eta_t + div m = 0,
 *   m_t + div(m (x) m / h + P I) = -g eta grad b - f k x m,
 *   P = g (eta^2 / 2 - eta b),   h = eta - b,
 *
 * which is the usual m_t + div(m (x) m / h) + g h grad eta + f k x m = 0
 * (g h grad eta = grad(g (eta^2/2 - eta b)) + g eta grad b).  Bottom b, its
 * gradient and the Coriolis parameter f are auxiliary data (DG_MODEL_NAUX =
 * 4: b, b_x, b_y, f; f = f0 + beta (y - y_mid), the f- or beta-plane).
 * `--equations linear` integrates the equations linearised about the lake
 * at rest eta0 (--depth): P = g eta (eta0 - b), no m (x) m / h term, the
 * same source; the wave speed is then sqrt(g (eta0 - b)).
 *
 * Well balanced.  At rest (eta = eta0, m = 0) the mass flux vanishes and
 * the momentum residual is g eta0 times
 *   -int b dpsi/dx_d + oint b n_d psi - int b_{x_d} psi,
 * plus eta0^2/2 (int dpsi/dx_d - oint n_d psi), all zero where the Gauss
 * rule integrates them exactly (integration by parts).  b and its gradient
 * therefore reach the stages as the element's interpolant of degree
 * K = 2 q - 1 - rmax on Gauss-Lobatto nodes and its exact derivatives, the
 * face values from the face's own nodes (dg_model_desc.aux_deriv): b psi_x
 * has degree K + r - 1 in x and K + r in y, b_x psi degree K - 1 + r and
 * K + r, b psi on a face degree K + r along it, all <= 2 q - 1 for every
 * r <= rmax; the constant's terms have degree <= r.  The Rusanov penalty
 * sees equal states on both sides (no jump) and both sides' fluxes read the
 * same face values of b.  So the lake at rest is an exact discrete
 * equilibrium up to round-off, for any degree map, q, bump and walls
 * (ctest models.sw_lake).  K >= rmax + 1 keeps b's interpolation error
 * O(h^(rmax+2)) below the solution's.
 *
 * Fluxes (direction d, e_d its unit vector), speed and source:
 *   F_d = (m_d, k (m_d / h) m + P e_d),   k = 1 (nonlinear) | 0 (linear),
 *   P = g eta (c1 eta + c0 - b),  (c1, c0) = (1/2, 0) | (0, eta0),
 *   speed_d = k |m_d / h| + sqrt(g (k eta + c0 - b)),
 *   S = (0, -g eta b_x + f m_y, -g eta b_y - f m_x).
 * Walls reflect: eta and the tangential momentum as inside, the normal
 * momentum negated (no mass through a wall).  Per point the flux of one
 * direction costs about 12 flops and a division, the source 8; the stages
 * read 3 state and 4 auxiliary values at a volume point (4 (Q^2 + 4 Q)
 * auxiliary reals per element and stage, 2.7x the state's 3 (r+1)^2 at
 * Q = r + 1 = 4).
 *
 * Cases (--case): lake_at_rest (eta = eta0 over a smooth periodic bump,
 * the exact solution the initial state), gravity_wave (a linear inertia-
 * gravity (Poincare) wave on the flat periodic box, exact; linear
 * equations by default), jet (nonlinear, exact: a geostrophically balanced
 * jet u(y) on the f-plane carried by a uniform inertial oscillation). */
#ifndef DG_MODEL_SHALLOW_WATER_H
#define DG_MODEL_SHALLOW_WATER_H

#include "dg_lane.h"

#define DG_NVAR         3
#define DG_MODEL_SOURCE 1
#define DG_MODEL_NAUX   4 /* b, b_x, b_y, f */

enum { DG_SW_NONLINEAR = 0, DG_SW_LINEAR = 1 };

typedef struct {
  dg_real g;     /* gravity */
  int equations; /* DG_SW_* */
  dg_real k;     /* 1 nonlinear, 0 linear: the advective momentum flux */
  dg_real c1;    /* k / 2 */
  dg_real c0;    /* 0 nonlinear, eta0 linear */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  (void)p;
  return 0; /* b and f are auxiliary data */
}

/* Component d of the flux.  a is never NULL at run time (a copy of the
 * stages without auxiliary data folds it to a flat bottom). */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)x, (void)t;
  const dg_lane b = a ? a[0] : dg_lane_set(0);
  const dg_lane h = dg_lane_max(u[0] - b, dg_lane_set((dg_real)1e-30));
  const dg_lane P = u[0] * (u[0] * p->c1 + p->c0 - b) * p->g;
  const dg_lane w = u[1 + d] / h * p->k; /* k u_d */
  f[0] = u[1 + d];
  f[1] = w * u[1] + (d == 0 ? P : dg_lane_set(0));
  f[2] = w * u[2] + (d == 1 ? P : dg_lane_set(0));
}

DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)x, (void)t;
  const dg_lane b = a ? a[0] : dg_lane_set(0);
  const dg_lane h = dg_lane_max(u[0] - b, dg_lane_set((dg_real)1e-30));
  const dg_lane hs = dg_lane_max(u[0] * p->k + p->c0 - b, dg_lane_set(0));
  return dg_lane_abs(u[1 + d] / h) * p->k + dg_lane_sqrt(hs * p->g);
}

/* -g eta grad b + Coriolis (f m_y, -f m_x). */
DG_HD static inline void dg_model_source(const dg_model_params *p, const dg_lane *u,
                                         const dg_lane *a, const dg_lane *x, dg_real t,
                                         dg_lane *s) {
  (void)x, (void)t;
  s[0] = dg_lane_set(0);
  if (!a) {
    s[1] = s[2] = dg_lane_set(0);
    return;
  }
  const dg_lane ge = u[0] * (-p->g);
  s[1] = ge * a[1] + a[3] * u[2];
  s[2] = ge * a[2] - a[3] * u[1];
}

/* A wall's exterior state: the normal momentum negated. */
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
#include <stddef.h>
#include <stdio.h>

enum { SW_LAKE = 0, SW_WAVE = 1, SW_JET = 2 };

typedef struct {
  int kase;           /* SW_* */
  double depth;       /* eta0: the rest level (flat bottom b = 0 away from the bump) */
  double amp;         /* gravity_wave: amplitude of eta; jet: jet speed U */
  double wave[2];     /* gravity_wave: wave numbers (whole periods across the box) */
  double bump[2];     /* lake_at_rest: bump height b0 and width w */
  double coriolis[2]; /* f0, beta */
  double drift;       /* jet: the inertial oscillation's speed V0 */
  double lo[2], len[2];
} sw_host;

/* The index of --equations in sw_params (its default follows the case). */
#define SW_PARAM_EQUATIONS 1

static const dg_model_param sw_params[] = {
    {"case", DG_PARAM_WORD, 1, "lake_at_rest|gravity_wave|jet", 0, offsetof(sw_host, kase),
     "lake_at_rest",
     "lake_at_rest (eta = depth over a bump) | gravity_wave (linear Poincare wave, exact) | "
     "jet (nonlinear geostrophic jet in an inertial oscillation, exact)"},
    {"equations", DG_PARAM_WORD, 1, "nonlinear|linear", 1, offsetof(dg_model_params, equations),
     "nonlinear", "nonlinear | linear (about the rest level --depth) [gravity_wave: linear]"},
    {"gravity", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, g), "9.80616", "gravity g"},
    {"depth", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, depth), "1",
     "rest level eta0 (the depth over a flat bottom b = 0)"},
    {"amplitude", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, amp), "0.01",
     "gravity_wave: amplitude of eta; jet: the jet's speed U [jet: 0.5]"},
    {"wave", DG_PARAM_REAL, 2, NULL, 0, offsetof(sw_host, wave), "1,1",
     "gravity_wave: wave numbers m,n (periods across the box)"},
    {"bump", DG_PARAM_REAL, 2, NULL, 0, offsetof(sw_host, bump), "0.5,0.1",
     "lake_at_rest: bottom bump height b0 and width w (relative to the box)"},
    {"coriolis", DG_PARAM_REAL, 2, NULL, 0, offsetof(sw_host, coriolis), "0,0",
     "Coriolis f0,beta: f = f0 + beta (y - y_mid) [jet: f0 = 5 if not given]"},
    {"drift", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, drift), "0.2",
     "jet: speed V0 of the uniform inertial oscillation that carries the jet"},
};

static int sw_finish(void *dev, void *host, const dg_model_domain *dom, const unsigned char *set,
                     char *msg, size_t cap) {
  dg_model_params *p = (dg_model_params *)dev;
  sw_host *h = (sw_host *)host;
  if (dom->latlon || dom->dim != 2) {
    snprintf(msg, cap, "model shallow_water runs on the 2D box (--grid box)");
    return 1;
  }
  if (!set[SW_PARAM_EQUATIONS] && h->kase == SW_WAVE) p->equations = DG_SW_LINEAR;
  if (!(p->g > 0) || !isfinite((double)p->g)) {
    snprintf(msg, cap, "option --gravity: %g must be positive", (double)p->g);
    return 1;
  }
  if (!(h->depth > 0) || !isfinite(h->depth)) {
    snprintf(msg, cap, "option --depth: %g must be positive", h->depth);
    return 1;
  }
  if (!(h->bump[0] < h->depth) || !(h->bump[1] > 0) || !isfinite(h->bump[0])) {
    snprintf(msg, cap, "option --bump: height %g must stay below --depth %g, width %g above 0",
             h->bump[0], h->depth, h->bump[1]);
    return 1;
  }
  for (int d = 0; d < 2; ++d) {
    if (h->wave[d] != floor(h->wave[d]) || !isfinite(h->wave[d])) {
      snprintf(msg, cap, "option --wave: %g is not a whole number of periods", h->wave[d]);
      return 1;
    }
    if (!isfinite(h->coriolis[d])) {
      snprintf(msg, cap, "option --coriolis: %g is not finite", h->coriolis[d]);
      return 1;
    }
    h->lo[d] = dom->lo[d];
    h->len[d] = dom->hi[d] - dom->lo[d];
  }
  if (h->kase == SW_JET && !set[7]) h->coriolis[0] = 5;
  if (h->kase == SW_JET && !set[4]) h->amp = 0.5;
  if ((h->kase == SW_WAVE || h->kase == SW_JET) && h->coriolis[1] != 0) {
    snprintf(msg, cap, "option --coriolis: case %s has its exact solution on the f-plane (beta 0)",
             h->kase == SW_WAVE ? "gravity_wave" : "jet");
    return 1;
  }
  if (h->kase != SW_LAKE && !(dom->periodic[0] && dom->periodic[1])) {
    snprintf(msg, cap, "option --case: %s needs a periodic box (--bc periodic)",
             h->kase == SW_WAVE ? "gravity_wave" : "jet");
    return 1;
  }
  if (h->kase == SW_JET) {
    const double f = h->coriolis[0], A = fabs(f * h->amp * h->len[1] / (2 * M_PI * (double)p->g));
    if (p->equations != DG_SW_NONLINEAR || f == 0 || !(A < h->depth)) {
      snprintf(msg, cap,
               "option --case: jet needs --equations nonlinear, f0 != 0 and a jet whose height "
               "change %g stays below --depth",
               A);
      return 1;
    }
  }
  p->k = p->equations == DG_SW_NONLINEAR ? 1 : 0;
  p->c1 = p->k * (dg_real)0.5;
  p->c0 = p->equations == DG_SW_NONLINEAR ? 0 : (dg_real)h->depth;
  return 0;
}

static int sw_linear(const void *dev) {
  return ((const dg_model_params *)dev)->equations == DG_SW_LINEAR;
}
static int sw_speed_varies(const void *dev) { return !sw_linear(dev); }

/* b, b_x, b_y, f at x: a smooth periodic bump
 *   b = b0 exp(-(S_x + S_y) / (w L)^2),  S = (L / pi)^2 sin^2(pi (x - x_mid) / L),
 * (S ~ (x - x_mid)^2 near the centre), zero for the other cases. */
static void sw_aux(const void *dev, const void *host, const double x[3], double *out) {
  (void)dev;
  const sw_host *h = (const sw_host *)host;
  double b = 0, bx = 0, by = 0;
  if (h->kase == SW_LAKE) {
    double S = 0, dS[2];
    const double w = h->bump[1] * h->len[0];
    for (int d = 0; d < 2; ++d) {
      const double L = h->len[d], ph = M_PI * (x[d] - h->lo[d] - 0.5 * L) / L, s = sin(ph);
      S += (L / M_PI) * (L / M_PI) * s * s;
      dS[d] = L / M_PI * sin(2 * ph);
    }
    b = h->bump[0] * exp(-S / (w * w));
    bx = -b * dS[0] / (w * w);
    by = -b * dS[1] / (w * w);
  }
  out[0] = b;
  out[1] = bx;
  out[2] = by;
  out[3] = h->coriolis[0] + h->coriolis[1] * (x[1] - h->lo[1] - 0.5 * h->len[1]);
}

/* lake_at_rest: eta0, m = 0 for all t.  gravity_wave: with phi = k.x - w t,
 * w^2 = f^2 + g H |k|^2, eta = H + A cos phi, m = (A w / |k|) cos phi k^
 * + (f A / |k|) sin phi (k x k^): the linearised equations' plane wave.
 * jet: the balanced jet hj(y) = H + f U L / (2 pi g) cos(2 pi y' / L),
 * uj = U sin(2 pi y' / L) (g hj' = -f uj), displaced by the inertial
 * oscillation V = V0 (cos f t, -sin f t), X = int V: eta = hj(y - X_y),
 * m = eta (uj(y - X_y) + V_x, V_y). */
static int sw_solution(const void *dev, const void *host, const dg_model_domain *dom,
                       const double x[3], double t, double *u) {
  (void)dom;
  const dg_model_params *p = (const dg_model_params *)dev;
  const sw_host *h = (const sw_host *)host;
  const double g = (double)p->g, H = h->depth;
  if (h->kase == SW_LAKE) {
    u[0] = H;
    u[1] = u[2] = 0;
    return 1;
  }
  if (h->kase == SW_WAVE) {
    if (t > 0 && p->equations != DG_SW_LINEAR) return 0;
    const double k[2] = {2 * M_PI * h->wave[0] / h->len[0], 2 * M_PI * h->wave[1] / h->len[1]};
    const double kk = sqrt(k[0] * k[0] + k[1] * k[1]), f = h->coriolis[0];
    const double w = sqrt(f * f + g * H * kk * kk);
    const double ph = k[0] * (x[0] - h->lo[0]) + k[1] * (x[1] - h->lo[1]) - w * t;
    u[0] = H + h->amp * cos(ph);
    if (kk == 0) {
      u[1] = u[2] = 0;
      return 1;
    }
    const double mn = h->amp * w / kk * cos(ph), mt = f * h->amp / kk * sin(ph);
    u[1] = (mn * k[0] - mt * k[1]) / kk;
    u[2] = (mn * k[1] + mt * k[0]) / kk;
    return 1;
  }
  const double f = h->coriolis[0], L = h->len[1], U = h->amp, V0 = h->drift;
  const double Xy = V0 * (cos(f * t) - 1) / f;
  const double ys = 2 * M_PI * (x[1] - h->lo[1] - Xy) / L;
  const double eta = H + f * U * L / (2 * M_PI * g) * cos(ys);
  u[0] = eta;
  u[1] = eta * (U * sin(ys) + V0 * cos(f * t));
  u[2] = eta * (-V0 * sin(f * t));
  return 1;
}

/* Energy, potential enstrophy and the mean relative vorticity's square:
 *   nonlinear: E = |m|^2 / (2 h) + g (eta^2 - b^2) / 2  (= h|u|^2/2 + g h^2/2 + g h b),
 *   linear:    E = |m|^2 / (2 (eta0 - b)) + g (eta - eta0)^2 / 2,
 *   Z = (zeta + f)^2 / (2 h),  zeta = dv/dx - du/dy, (u, v) = m / h. */
static void sw_integrand(const void *dev, const void *host, const double x[3], const double *u,
                         const double *du, const double *aux, double *out) {
  (void)x;
  const dg_model_params *p = (const dg_model_params *)dev;
  const sw_host *hh = (const sw_host *)host;
  const double g = (double)p->g, b = aux[0], h = u[0] - b, m2 = u[1] * u[1] + u[2] * u[2];
  if (p->equations == DG_SW_LINEAR)
    out[0] = m2 / (2 * (hh->depth - b)) + g * (u[0] - hh->depth) * (u[0] - hh->depth) / 2;
  else
    out[0] = m2 / (2 * h) + g * (u[0] * u[0] - b * b) / 2;
  const double hx = du[0] - aux[1], hy = du[3] - aux[2]; /* du[d * 3 + v] */
  const double vx = (du[2] - u[2] * hx / h) / h, uy = (du[4] - u[1] * hy / h) / h;
  const double q = vx - uy + aux[3];
  out[1] = q * q / (2 * h);
}

static const char *sw_file_name(const void *dev) {
  return ((const dg_model_params *)dev)->equations == DG_SW_LINEAR ? "shallow_water-linear"
                                                                   : "shallow_water";
}

static const char *const sw_vars[] = {"eta", "hu", "hv"};
static const char *const sw_aux_names[] = {"b", "b_x", "b_y", "f"};
static const int sw_aux_deriv[] = {DG_AUX_VALUE, DG_AUX_DERIV(0, 0), DG_AUX_DERIV(0, 1),
                                   DG_AUX_VALUE};
static const char *const sw_integ_names[] = {"energy", "enstrophy"};

const dg_model_desc dg_model_shallow_water = {
    "shallow_water",
    "shallow water for (eta = h + b, hu, hv), well balanced, bottom and Coriolis as auxiliary "
    "data; lake at rest, gravity wave, jet; walls (2D)",
    3,
    sw_vars,
    1 << 2,
    sizeof(dg_model_params),
    sizeof(sw_host),
    (int)(sizeof sw_params / sizeof sw_params[0]),
    sw_params,
    sw_finish,
    sw_linear,
    dg_model_no, /* needs_x */
    sw_speed_varies,
    sw_solution,
    sw_file_name,
    NULL, /* at_time */
    DG_MODEL_NAUX,
    sw_aux_names,
    sw_aux,
    DG_MODEL_BC_WALL,
    0,    /* bdata_size: no inflow data */
    NULL, /* bdata */
    sw_aux_deriv,
    2,
    sw_integ_names,
    sw_integrand,
};
#endif /* DG_MODEL_HOST */

#endif
