/* shallow_water.h - the shallow-water equations (nvar = 3) in the
 * well-balanced form for the free surface eta = h + b and the momentum
 * m = h (u, v), on the plane (--grid box, periodic or walls):
 *
 *   eta_t + div m = 0,
 *   m_t + div(m (x) m / h + P I) = -g eta grad b - f k x m,
 *   P = g (eta^2 / 2 - eta b),   h = eta - b,
 *
 * which is m_t + div(m (x) m / h) + g h grad eta + f k x m = 0 (g h grad eta
 * = grad P + g eta grad b), and on the latitude-longitude sphere (--grid
 * latlon) in spherical components, the flux form times the area element
 * a^2 cos(theta): fluxes a (.) along lambda and a cos(theta) (.) along
 * theta, the curvature terms a sin(theta) u (hv, -hu), no 1 / cos(theta)
 * anywhere, the theta flux zero at the poles (docs/ARCHITECTURE.md,
 * "Shallow water": why this formulation).  The bottom and the Coriolis
 * parameter are auxiliary data (DG_MODEL_NAUX = 5: b, B, db/dx_0, dB/dx_1,
 * F; the plane B = b, F = f; the sphere B = cos(theta) b, F = a^2
 * cos(theta) f; the faces hold b and B only, DG_MODEL_NAUX_FACE = 2).  `--equations linear` (the
 * plane) integrates the equations linearised about the lake at rest eta0 (--depth): P = g eta (eta0
 * - b), no m (x) m / h term, the same source.
 *
 * Well balanced.  At rest (eta = eta0, m = 0) the mass flux vanishes and
 * the momentum residual is g eta0 times -int b psi_x + oint b n psi - int
 * b_x psi (and on the sphere the same with cos(theta) inside), zero where
 * the Gauss rule integrates every product exactly (integration by parts).
 * So b and B reach the stages as the element's interpolant of degree K =
 * 2 q - 1 - rmax on Gauss-Lobatto nodes and their derivatives as its exact
 * derivatives, the face values from the face's own nodes
 * (dg_model_desc.aux_deriv): b psi_x has degree K + r - 1 and K + r, b_x
 * psi K - 1 + r and K + r, b psi on a face K + r along it, all <= 2 q - 1
 * for every r <= rmax; the sphere's I[cos theta] (degree rmax + 2) times
 * psi_theta has degree <= 2 q - 1 too.  The Rusanov penalty sees no jump
 * and both sides' fluxes read the same face values.  So the lake at rest is
 * an exact discrete equilibrium up to round-off, for any degree map, q,
 * bump (the cone too) and walls (unit.sw_lake, unit.sw_sphere_lake).
 * K >= rmax + 1 keeps b's interpolation error below the solution's.
 *
 * The flux, speed and source term by term: dg_model_flux and below;
 * docs/MODELS.md, "A system with auxiliary data", writes them out.  Walls
 * reflect: eta and the tangential momentum as inside, the normal momentum
 * negated.  Per point one division (the derived 1 / h), then the flux of
 * one direction about 14 flops, the source 16; the stages read 5 Q^2 + 2 (4 Q)
 * auxiliary reals per element and stage (the faces hold b and B only), 2.3x
 * the state's 3 (r+1)^2 at Q = r + 1 = 4.
 *
 * Cases (--case), the plane: lake_at_rest (eta = eta0 over a smooth periodic
 * bump, the exact solution the initial state), gravity_wave (a linear
 * inertia-gravity (Poincare) wave on the flat periodic box, exact; linear
 * equations by default), jet (nonlinear, exact: a geostrophically balanced
 * jet u(y) on the f-plane carried by a uniform inertial oscillation); the
 * sphere: lake_at_rest (over Williamson 5's mountain), williamson2 (steady
 * geostrophic flow at angle alpha, exact), williamson5 (flow over the
 * mountain), williamson6 (Rossby-Haurwitz wave 4), galewsky (the unstable
 * jet; --perturbation 0: balanced and steady, exact).  The exact
 * discretisation: docs/MODELS.md, "A system with auxiliary data". */
#ifndef DG_MODEL_SHALLOW_WATER_H
#define DG_MODEL_SHALLOW_WATER_H

#include "dg_lane.h"

#define DG_NVAR            3
#define DG_MODEL_SOURCE    1
#define DG_MODEL_NAUX      5 /* b, B, db/dx_0, dB/dx_1, F (the plane: B = b, F = f) */
#define DG_MODEL_NAUX_FACE 2 /* the fluxes' b and B: the source's are not held at faces */
#define DG_MODEL_NDERIV    1 /* u[3] = 1 / h, shared by the fluxes, the speed and the source */

enum { DG_SW_NONLINEAR = 0, DG_SW_LINEAR = 1 };

typedef struct {
  dg_real g;     /* gravity */
  dg_real k;     /* 1 nonlinear, 0 linear: the advective momentum flux */
  dg_real c1;    /* k / 2 */
  dg_real c0;    /* 0 nonlinear, eta0 linear */
  dg_real A;     /* the sphere's radius a; 1 on the plane */
  int equations; /* DG_SW_* */
  int sphere;    /* 1: --grid latlon (the metric terms) */
} dg_model_params;

DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  return p->sphere; /* the plane: b and f are auxiliary data; the sphere: cos, sin theta */
}

/* What the flux, speed and source read of the position (docs/MODELS.md): on
 * the plane nothing (needs_x 0), on the sphere the theta lanes of the metric
 * below, along theta (d = 1) and in the source (d = 2) only; the backends
 * then form and copy only these three of the 19 lanes on the sphere. */
#define DG_MODEL_X_FLOWS 2
DG_HD static inline int dg_model_x_flow(const dg_model_params *p) { return p->sphere; }
DG_HD static inline void dg_model_x_flow_set(dg_model_params *p, int v) { p->sphere = v; }
#define DG_SW_READS_SRC (DG_X_BIT(DG_X_C(1, 1)) | DG_X_BIT(DG_X_DC(1, 1)) | DG_X_BIT(DG_X_S(1, 1)))
#define DG_MODEL_X_READS(v, d)                                                                     \
  ((v) == 1 && (d) == 1 ? DG_X_BIT(DG_X_C(1, 1)) : (v) == 1 && (d) == 2 ? DG_SW_READS_SRC : 0u)

/* The metric at the point: c = I[cos theta], its derivative c' = I[cos theta]'
 * and s = I[sin theta] (the interpolants the stages hand over, degree
 * rmax + 2; docs/ARCHITECTURE.md, "Geometry"); the plane: 1, 0, 0.  On the
 * sphere x is never NULL at run time (needs_x); a copy of the stages
 * compiled without x folds to the plane. */
DG_HD static inline void dg_sw_metric(const dg_model_params *p, const dg_lane *x, dg_lane *c,
                                      dg_lane *dc, dg_lane *s) {
  if (p->sphere && x) {
    *c = x[DG_X_C(1, 1)];
    *dc = x[DG_X_DC(1, 1)];
    *s = x[DG_X_S(1, 1)];
  } else {
    *c = dg_lane_set(1);
    *dc = *s = dg_lane_set(0);
  }
}

/* The reciprocal of the depth h = max(eta - b, 1e-30), once per point and
 * state (dg_stage_model.h: derived values): every division by h is a
 * multiplication by u[3].  a NULL (a copy of the stages without auxiliary
 * data): a flat bottom. */
DG_HD static inline void dg_model_derive(const dg_model_params *p, dg_lane *u, const dg_lane *a) {
  (void)p;
  const dg_lane b = a ? a[0] : dg_lane_set(0);
  u[3] = (dg_real)1 / dg_lane_max(u[0] - b, dg_lane_set((dg_real)1e-30));
}

/* Component d of the flux (A = a, c = cos theta on the sphere; 1, 1 on the
 * plane; Pi = c1 eta^2 + c0 eta):
 *   F_0 = A (m_0, k m_0 m_0 / h + g (Pi - eta a_0), k m_0 m_1 / h)
 *   F_1 = A c (m_1, k m_0 m_1 / h, k m_1 m_1 / h) + A g (0, 0, c Pi - eta a_1).
 * a is never NULL at run time (a copy of the stages without auxiliary data
 * folds it to a flat bottom). */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *a,
                                       const dg_lane *x, dg_real t, int d, dg_lane *f) {
  (void)t;
  const dg_lane b = a ? a[0] : dg_lane_set(0), B = a ? a[1] : dg_lane_set(0);
  const dg_lane Pi = u[0] * (u[0] * p->c1 + p->c0);
  if (d == 0) {
    const dg_lane w = u[1] * u[3] * (p->k * p->A); /* A k u */
    f[0] = u[1] * p->A;
    f[1] = w * u[1] + (Pi - u[0] * b) * (p->g * p->A);
    f[2] = w * u[2];
    return;
  }
  dg_lane c, dc, s;
  dg_sw_metric(p, x, &c, &dc, &s);
  const dg_lane Ac = c * p->A, w = u[2] * u[3] * p->k * Ac; /* A c k v */
  f[0] = u[2] * Ac;
  f[1] = w * u[1];
  f[2] = w * u[2] + (c * Pi - u[0] * B) * (p->g * p->A);
}

/* The largest wave speed along d: A (k |m_0 / h| + sqrt(g h_s)) and
 * A |c| (k |m_1 / h| + sqrt(g h_s)), h_s = k eta + c0 - b the depth the
 * gravity waves see. */
DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *a, const dg_lane *x, dg_real t,
                                               int d) {
  (void)t;
  const dg_lane b = a ? a[0] : dg_lane_set(0);
  const dg_lane hs = dg_lane_max(u[0] * p->k + p->c0 - b, dg_lane_set(0));
  const dg_lane sp = (dg_lane_abs(u[1 + d] * u[3]) * p->k + dg_lane_sqrt(hs * p->g)) * p->A;
  if (d == 0) return sp;
  dg_lane c, dc, s;
  dg_sw_metric(p, x, &c, &dc, &s);
  return sp * dg_lane_abs(c);
}

/* The source: the Coriolis term F = a^2 cos theta f (the plane: f), the
 * curvature terms (A s u (hv), -A s u (hu)), and the bottom's parts of the
 * pressure force, -A g eta a_2 and A g (c' Pi - eta a_3):
 *   S = (0, F m_1 + k A s m_0 m_1 / h - A g eta a_2,
 *          -F m_0 - k A s m_0 m_0 / h + A g (c' Pi - eta a_3)). */
DG_HD static inline void dg_model_source(const dg_model_params *p, const dg_lane *u,
                                         const dg_lane *a, const dg_lane *x, dg_real t,
                                         dg_lane *s) {
  (void)t;
  s[0] = dg_lane_set(0);
  if (!a) {
    s[1] = s[2] = dg_lane_set(0);
    return;
  }
  dg_lane c, dc, sn;
  dg_sw_metric(p, x, &c, &dc, &sn);
  const dg_lane gA = dg_lane_set(p->g * p->A), Pi = u[0] * (u[0] * p->c1 + p->c0);
  const dg_lane cu = u[1] * u[3] * sn * (p->k * p->A); /* k A s u */
  s[1] = a[4] * u[2] + cu * u[2] - u[0] * a[2] * gA;
  s[2] = (dc * Pi - u[0] * a[3]) * gA - a[4] * u[1] - cu * u[1];
}

/* A wall's exterior state (the plane): the normal momentum negated. */
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

enum { SW_LAKE = 0, SW_WAVE, SW_JET, SW_W2, SW_W5, SW_W6, SW_GALEWSKY };

#define SW_GAL_N 512 /* galewsky: panels of the balance integral's table */

typedef struct {
  int kase;           /* SW_* */
  double depth;       /* eta0: the rest level (lake, gravity_wave, jet), h0 (williamson) */
  double amp;         /* gravity_wave: amplitude of eta; jet: the jet's speed U */
  double wave[2];     /* gravity_wave: wave numbers (whole periods across the box) */
  double bump[2];     /* bottom bump height and width (the sphere: the mountain's radius) */
  double coriolis[2]; /* the plane: f0, beta */
  double drift;       /* jet: the inertial oscillation's speed V0 */
  double omega;       /* the sphere: the rotation rate */
  double alpha;       /* williamson2: the flow's angle from the pole */
  double lo[2], len[2];
  double radius, u0; /* the sphere */
  int sphere;
  double perturb; /* galewsky: the height perturbation's amplitude */
  /* galewsky: I(theta) = int_{-pi/2}^{theta} a u (f + u tan / a) at the panel ends
     theta_j = -pi/2 + j pi / SW_GAL_N, and h0 (global mean height 10 km) */
  double gal_int[SW_GAL_N + 1], gal_h0;
} sw_host;

#define SW_DAY 86400.0

/* The indices in sw_params of the parameters whose default follows the
 * case or the grid. */
enum { SW_P_EQUATIONS = 1, SW_P_DEPTH = 3, SW_P_AMP = 4, SW_P_BUMP = 6, SW_P_CORIOLIS = 7 };

static const dg_model_param sw_params[] = {
    {"case", DG_PARAM_WORD, 1,
     "lake_at_rest|gravity_wave|jet|williamson2|williamson5|williamson6|galewsky", 0,
     offsetof(sw_host, kase), "lake_at_rest",
     "lake_at_rest (eta = depth over a bump; the sphere: Williamson 5's mountain) | gravity_wave "
     "(plane: linear Poincare wave, exact) | jet (plane: nonlinear geostrophic jet in an "
     "inertial oscillation, exact) | williamson2 (sphere: steady geostrophic flow, exact) | "
     "williamson5 (sphere: flow over the mountain) | williamson6 (sphere: Rossby-Haurwitz wave 4) "
     "| "
     "galewsky (sphere: the barotropically unstable jet, --perturbation 0: balanced and steady)"},
    {"equations", DG_PARAM_WORD, 1, "nonlinear|linear", 1, offsetof(dg_model_params, equations),
     "nonlinear", "nonlinear | linear (about the rest level --depth) [gravity_wave: linear]"},
    {"gravity", DG_PARAM_REAL, 1, NULL, 1, offsetof(dg_model_params, g), "9.80616", "gravity g"},
    {"depth", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, depth), NULL,
     "rest level eta0 / williamson's h0 [plane 1; sphere 5960, williamson2 2.94e4/g]"},
    {"amplitude", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, amp), NULL,
     "gravity_wave: amplitude of eta [0.01]; jet: the jet's speed U [0.5]"},
    {"wave", DG_PARAM_REAL, 2, NULL, 0, offsetof(sw_host, wave), "1,1",
     "gravity_wave: wave numbers m,n (periods across the box)"},
    {"bump", DG_PARAM_REAL, 2, NULL, 0, offsetof(sw_host, bump), NULL,
     "bottom bump height and width [plane 0.5,0.1 (width relative to the box); sphere "
     "Williamson 5's mountain 2000,pi/9]"},
    {"coriolis", DG_PARAM_REAL, 2, NULL, 0, offsetof(sw_host, coriolis), NULL,
     "the plane's Coriolis f0,beta: f = f0 + beta (y - y_mid) [0,0; jet 5,0]"},
    {"drift", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, drift), "0.2",
     "jet: speed V0 of the uniform inertial oscillation that carries the jet"},
    {"omega", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, omega), "7.292e-5",
     "the sphere's rotation rate Omega (1/s)"},
    {"alpha", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, alpha), "0",
     "williamson2: angle of the flow's axis from the pole (radians)"},
    {"perturbation", DG_PARAM_REAL, 1, NULL, 0, offsetof(sw_host, perturb), "120",
     "galewsky: amplitude of the height perturbation (m; 0: the balanced jet, steady)"},
};

static const char *const sw_case_names[] = {
    "lake_at_rest", "gravity_wave", "jet", "williamson2", "williamson5", "williamson6", "galewsky"};

/* galewsky: the jet u(theta) = umax / e_n exp(1 / ((theta - t0)(theta - t1))) on
 * (t0, t1) = (pi / 7, 5 pi / 14), e_n = exp(-4 / (t1 - t0)^2), umax = 80 m/s. */
static double sw_gal_u(double th) {
  const double t0 = M_PI / 7, t1 = M_PI / 2 - M_PI / 7;
  if (!(th > t0 && th < t1)) return 0;
  return 80 / exp(-4 / ((t1 - t0) * (t1 - t0))) * exp(1 / ((th - t0) * (th - t1)));
}

/* The 10-point Gauss-Legendre rule on [-1, 1] (Newton on P_10). */
static void sw_gauss10(double *x, double *w) {
  const int n = 10;
  for (int i = 0; i < n; ++i) {
    double z = cos(M_PI * (i + 0.75) / (n + 0.5)), dp = 1;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1);
      const double dz = p1 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}

/* int_{lo}^{hi} a u (f + u tan(theta) / a) dtheta, 10-point Gauss. */
static double sw_gal_piece(const sw_host *h, double lo, double hi) {
  double x[10], w[10], s = 0;
  sw_gauss10(x, w);
  for (int k = 0; k < 10; ++k) {
    const double th = 0.5 * (lo + hi) + 0.5 * (hi - lo) * x[k], u = sw_gal_u(th);
    s += w[k] * h->radius * u * (2 * h->omega * sin(th) + u * tan(th) / h->radius);
  }
  return 0.5 * (hi - lo) * s;
}

/* I(theta) from the table and one more piece. */
static double sw_gal_int(const sw_host *h, double th) {
  const double dth = M_PI / SW_GAL_N;
  int j = (int)floor((th + M_PI / 2) / dth);
  j = j < 0 ? 0 : (j > SW_GAL_N ? SW_GAL_N : j);
  return h->gal_int[j] + sw_gal_piece(h, -M_PI / 2 + j * dth, th);
}

/* galewsky's height at theta (the balance g h = g h0 - I) with the
 * perturbation at lambda. */
static double sw_gal_h(const sw_host *h, double g, double lam, double th) {
  double H = h->gal_h0 - sw_gal_int(h, th) / g;
  if (h->perturb != 0) {
    const double l = lam > M_PI ? lam - 2 * M_PI : lam; /* (-pi, pi] */
    const double al = 1.0 / 3, be = 1.0 / 15, t2 = M_PI / 4;
    H += h->perturb * cos(th) * exp(-(l / al) * (l / al)) *
         exp(-((t2 - th) / be) * ((t2 - th) / be));
  }
  return H;
}

/* The table of I and h0 so that the mean height is 10 km:
 * h0 = 1e4 + int I cos / (2 g) over [-pi/2, pi/2]. */
static void sw_gal_setup(sw_host *h, double g) {
  const double dth = M_PI / SW_GAL_N;
  h->gal_int[0] = 0;
  for (int j = 0; j < SW_GAL_N; ++j)
    h->gal_int[j + 1] =
        h->gal_int[j] + sw_gal_piece(h, -M_PI / 2 + j * dth, -M_PI / 2 + (j + 1) * dth);
  double x[10], w[10], s = 0;
  sw_gauss10(x, w);
  for (int j = 0; j < SW_GAL_N; ++j)
    for (int k = 0; k < 10; ++k) {
      const double th = -M_PI / 2 + (j + 0.5 + 0.5 * x[k]) * dth;
      s += 0.5 * dth * w[k] * sw_gal_int(h, th) * cos(th);
    }
  h->gal_h0 = 1e4 + s / (2 * g);
}

static int sw_finish(void *dev, void *host, const dg_model_domain *dom, const unsigned char *set,
                     char *msg, size_t cap) {
  dg_model_params *p = (dg_model_params *)dev;
  sw_host *h = (sw_host *)host;
  if (dom->dim != 2) {
    snprintf(msg, cap, "model shallow_water runs in 2D");
    return 1;
  }
  h->sphere = dom->latlon;
  const int on_sphere = h->kase >= SW_W2;
  if (h->kase != SW_LAKE && on_sphere != h->sphere) {
    snprintf(msg, cap, "option --case: %s runs on %s", sw_case_names[h->kase],
             on_sphere ? "the sphere (--grid latlon)" : "the plane (--grid box)");
    return 1;
  }
  if (!set[SW_P_EQUATIONS] && h->kase == SW_WAVE) p->equations = DG_SW_LINEAR;
  if (h->sphere && p->equations != DG_SW_NONLINEAR) {
    snprintf(msg, cap, "option --equations: the sphere runs the nonlinear equations");
    return 1;
  }
  if (!(p->g > 0) || !isfinite((double)p->g)) {
    snprintf(msg, cap, "option --gravity: %g must be positive", (double)p->g);
    return 1;
  }
  if (!set[SW_P_DEPTH])
    h->depth = !h->sphere               ? 1
               : h->kase == SW_W2       ? 2.94e4 / (double)p->g
               : h->kase == SW_W6       ? 8000
               : h->kase == SW_GALEWSKY ? 1e4
                                        : 5960;
  if (!set[SW_P_AMP]) h->amp = h->kase == SW_JET ? 0.5 : 0.01;
  if (!set[SW_P_BUMP]) {
    h->bump[0] = h->sphere ? 2000 : 0.5;
    h->bump[1] = h->sphere ? M_PI / 9 : 0.1;
  }
  if (!set[SW_P_CORIOLIS]) {
    h->coriolis[0] = h->kase == SW_JET ? 5 : 0;
    h->coriolis[1] = 0;
  }
  if (!(h->depth > 0) || !isfinite(h->depth)) {
    snprintf(msg, cap, "option --depth: %g must be positive", h->depth);
    return 1;
  }
  if (!(h->bump[0] < h->depth) || !(h->bump[1] > 0) || !isfinite(h->bump[0]) ||
      !isfinite(h->bump[1])) {
    snprintf(msg, cap, "option --bump: height %g must stay below --depth %g, width %g above 0",
             h->bump[0], h->depth, h->bump[1]);
    return 1;
  }
  if (!isfinite(h->omega) || !isfinite(h->alpha) || !isfinite(h->drift) || !isfinite(h->amp)) {
    snprintf(msg, cap, "options --omega, --alpha, --drift, --amplitude must be finite");
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
  if ((h->kase == SW_WAVE || h->kase == SW_JET) && h->coriolis[1] != 0) {
    snprintf(msg, cap, "option --coriolis: case %s has its exact solution on the f-plane (beta 0)",
             sw_case_names[h->kase]);
    return 1;
  }
  if ((h->kase == SW_WAVE || h->kase == SW_JET) && !(dom->periodic[0] && dom->periodic[1])) {
    snprintf(msg, cap, "option --case: %s needs a periodic box (--bc periodic)",
             sw_case_names[h->kase]);
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
  h->radius = h->sphere ? dom->radius : 1;
  h->u0 = h->kase == SW_W5 ? 20 : 2 * M_PI * h->radius / (12 * SW_DAY);
  if (h->kase == SW_W2) { /* h must stay positive */
    const double k = h->radius * h->omega * h->u0 + h->u0 * h->u0 / 2;
    if (!(h->depth - k / (double)p->g > 0)) {
      snprintf(msg, cap, "option --depth: %g is too shallow for williamson2 (need > %g)", h->depth,
               k / (double)p->g);
      return 1;
    }
  }
  if (h->kase == SW_GALEWSKY) {
    if (!isfinite(h->perturb)) {
      snprintf(msg, cap, "option --perturbation: %g is not finite", h->perturb);
      return 1;
    }
    sw_gal_setup(h, (double)p->g);
  }
  p->k = p->equations == DG_SW_NONLINEAR ? 1 : 0;
  p->c1 = p->k * (dg_real)0.5;
  p->c0 = p->equations == DG_SW_NONLINEAR ? 0 : (dg_real)h->depth;
  p->A = (dg_real)h->radius;
  p->sphere = h->sphere;
  return 0;
}

static int sw_linear(const void *dev) {
  return ((const dg_model_params *)dev)->equations == DG_SW_LINEAR;
}
static int sw_speed_varies(const void *dev) { return !sw_linear(dev); }
static int sw_needs_x(const void *dev) { return ((const dg_model_params *)dev)->sphere; }

/* The bottom b and its gradient (db/dx_0, db/dx_1) at x.  The plane: a
 * smooth periodic bump b0 exp(-(S_x + S_y) / (w L)^2), S = (L / pi)^2
 * sin^2(pi (x - x_mid) / L) (~ (x - x_mid)^2 near the centre); the sphere:
 * Williamson 5's mountain b0 (1 - r / R), r = min(R, |(lambda, theta) -
 * (3 pi / 2, pi / 6)|) (a cone); zero for the other cases. */
static void sw_bottom(const sw_host *h, const double x[3], double *b, double *db) {
  *b = db[0] = db[1] = 0;
  if (h->kase != SW_LAKE && h->kase != SW_W5) return;
  if (h->sphere) {
    const double dl = x[0] - 1.5 * M_PI, dt = x[1] - M_PI / 6, R = h->bump[1];
    const double r = sqrt(dl * dl + dt * dt);
    if (r >= R) return;
    *b = h->bump[0] * (1 - r / R);
    if (r > 0) {
      db[0] = -h->bump[0] / R * dl / r;
      db[1] = -h->bump[0] / R * dt / r;
    }
    return;
  }
  double S = 0, dS[2];
  const double w = h->bump[1] * h->len[0];
  for (int d = 0; d < 2; ++d) {
    const double L = h->len[d], ph = M_PI * (x[d] - h->lo[d] - 0.5 * L) / L, s = sin(ph);
    S += (L / M_PI) * (L / M_PI) * s * s;
    dS[d] = L / M_PI * sin(2 * ph);
  }
  *b = h->bump[0] * exp(-S / (w * w));
  db[0] = -*b * dS[0] / (w * w);
  db[1] = -*b * dS[1] / (w * w);
}

/* The Coriolis parameter f at x: the plane's f0 + beta (y - y_mid); the
 * sphere's 2 Omega (sin theta cos alpha - cos lambda cos theta sin alpha)
 * (Williamson 2's axis; alpha 0 elsewhere). */
static double sw_f(const sw_host *h, const double x[3]) {
  if (!h->sphere) return h->coriolis[0] + h->coriolis[1] * (x[1] - h->lo[1] - 0.5 * h->len[1]);
  const double al = h->kase == SW_W2 ? h->alpha : 0;
  return 2 * h->omega * (sin(x[1]) * cos(al) - cos(x[0]) * cos(x[1]) * sin(al));
}

/* The auxiliary values the sampler gives (the derivatives are the
 * interpolant's, dg_model_desc.aux_deriv; out[2], out[3] are filled too, for
 * the integrals): b, B, db/dx_0, dB/dx_1, F with B = b, F = f on the plane
 * and B = cos(theta) b, F = a^2 cos(theta) f on the sphere. */
static void sw_aux(const void *dev, const void *host, const double x[3], double *out) {
  (void)dev;
  const sw_host *h = (const sw_host *)host;
  double b, db[2];
  sw_bottom(h, x, &b, db);
  out[0] = b;
  out[2] = db[0];
  if (!h->sphere) {
    out[1] = b;
    out[3] = db[1];
    out[4] = sw_f(h, x);
    return;
  }
  const double c = cos(x[1]), s = sin(x[1]);
  out[1] = c * b;
  out[3] = -s * b + c * db[1];
  out[4] = h->radius * h->radius * c * sw_f(h, x);
}

/* The solutions.  lake_at_rest: eta0, m = 0 for all t.  gravity_wave: with
 * phi = k.x - w t, w^2 = f^2 + g H |k|^2, eta = H + A cos phi, m = (A w / |k|)
 * cos phi k^ + (f A / |k|) sin phi (k x k^): the linearised equations'
 * plane wave.  jet: the balanced jet hj(y) = H + f U L / (2 pi g) cos(2 pi
 * y' / L), uj = U sin(2 pi y' / L) (g hj' = -f uj), displaced by the
 * inertial oscillation V = V0 (cos f t, -sin f t), X = int V: eta = hj(y -
 * X_y), m = eta (uj(y - X_y) + V_x, V_y).  williamson2 (all t) and
 * williamson5 (t = 0): g eta = g h0 - (a Omega u0 + u0^2 / 2) z^2, z = sin
 * theta cos alpha - cos lambda cos theta sin alpha, u = u0 (cos theta cos
 * alpha + cos lambda sin theta sin alpha), v = -u0 sin lambda sin alpha,
 * m = (eta - b) (u, v). */
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
  if (h->kase == SW_W6) { /* Rossby-Haurwitz wave 4, Williamson (1992) test 6 */
    if (t > 0) return 0;
    const double w = 7.848e-6, K = 7.848e-6, R = 4, a = h->radius, Om = h->omega;
    const double c = cos(x[1]), sn = sin(x[1]), c2 = c * c, cR = pow(c, R);
    const double A = w / 2 * (2 * Om + w) * c2 +
                     K * K / 4 * cR * cR * ((R + 1) * c2 + (2 * R * R - R - 2) - 2 * R * R / c2);
    const double B = 2 * (Om + w) * K / ((R + 1) * (R + 2)) * cR *
                     ((R * R + 2 * R + 2) - (R + 1) * (R + 1) * c2);
    const double C = K * K / 4 * cR * cR * ((R + 1) * c2 - (R + 2));
    u[0] = H + a * a / g * (A + B * cos(R * x[0]) + C * cos(2 * R * x[0]));
    const double uu = a * w * c + a * K * pow(c, R - 1) * (R * sn * sn - c2) * cos(R * x[0]);
    const double vv = -a * K * R * pow(c, R - 1) * sn * sin(R * x[0]);
    u[1] = u[0] * uu;
    u[2] = u[0] * vv;
    return 1;
  }
  if (h->kase == SW_GALEWSKY) { /* Galewsky et al. (2004) */
    if (t > 0 && h->perturb != 0) return 0;
    u[0] = sw_gal_h(h, g, x[0], x[1]);
    u[1] = u[0] * sw_gal_u(x[1]);
    u[2] = 0;
    return 1;
  }
  if (h->kase == SW_W2 || h->kase == SW_W5) {
    if (h->kase == SW_W5 && t > 0) return 0;
    const double al = h->kase == SW_W2 ? h->alpha : 0, u0 = h->u0;
    const double z = sin(x[1]) * cos(al) - cos(x[0]) * cos(x[1]) * sin(al);
    double b, db[2];
    sw_bottom(h, x, &b, db);
    u[0] = H - (h->radius * h->omega * u0 + u0 * u0 / 2) * z * z / g;
    const double uu = u0 * (cos(x[1]) * cos(al) + cos(x[0]) * sin(x[1]) * sin(al));
    const double vv = -u0 * sin(x[0]) * sin(al);
    u[1] = (u[0] - b) * uu;
    u[2] = (u[0] - b) * vv;
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

/* Energy and potential enstrophy per unit area (dg_integrals adds the area
 * element):
 *   nonlinear: E = |m|^2 / (2 h) + g (eta^2 - b^2) / 2  (= h|u|^2/2 + g h^2/2 + g h b),
 *   linear:    E = |m|^2 / (2 (eta0 - b)) + g (eta - eta0)^2 / 2,
 *   Z = (zeta + f)^2 / (2 h),  (u, v) = m / h,  zeta = dv/dx - du/dy, the
 *   sphere: (dv/dlambda - d(u cos theta)/dtheta) / (a cos theta). */
static void sw_integrand(const void *dev, const void *host, const double x[3], const double *u,
                         const double *du, const double *aux, double *out) {
  const dg_model_params *p = (const dg_model_params *)dev;
  const sw_host *hh = (const sw_host *)host;
  const double g = (double)p->g, b = aux[0], h = u[0] - b, m2 = u[1] * u[1] + u[2] * u[2];
  if (p->equations == DG_SW_LINEAR)
    out[0] = m2 / (2 * (hh->depth - b)) + g * (u[0] - hh->depth) * (u[0] - hh->depth) / 2;
  else
    out[0] = m2 / (2 * h) + g * (u[0] * u[0] - b * b) / 2;
  double db1 = aux[3], f = aux[4], c = 1, s = 0, a = 1;
  if (hh->sphere) {
    c = cos(x[1]), s = sin(x[1]), a = hh->radius;
    db1 = (aux[3] + s * b) / c; /* aux[3] = d(cos theta b)/dtheta */
    f = aux[4] / (a * a * c);
  }
  const double hx = du[0] - aux[2], hy = du[3] - db1; /* du[d * 3 + v] */
  const double vx = (du[2] - u[2] * hx / h) / h, uy = (du[4] - u[1] * hy / h) / h;
  const double zeta = (vx - (c * uy - s * u[1] / h)) / (a * c);
  const double q = zeta + f;
  out[1] = q * q / (2 * h);
}

static const char *sw_file_name(const void *dev) {
  return ((const dg_model_params *)dev)->equations == DG_SW_LINEAR ? "shallow_water-linear"
                                                                   : "shallow_water";
}

static const char *const sw_vars[] = {"eta", "hu", "hv"};
static const char *const sw_aux_names[] = {"b", "B", "db_dx0", "dB_dx1", "F"};
static const int sw_aux_deriv[] = {DG_AUX_VALUE, DG_AUX_VALUE, DG_AUX_DERIV(0, 0),
                                   DG_AUX_DERIV(1, 1), DG_AUX_VALUE};
static const char *const sw_integ_names[] = {"energy", "enstrophy"};

const dg_model_desc dg_model_shallow_water = {
    "shallow_water",
    "shallow water for (eta = h + b, hu, hv), well balanced, bottom and Coriolis as auxiliary "
    "data; the plane (walls) and the sphere (--grid latlon): lake at rest, gravity wave, jet, "
    "Williamson 2 and 5",
    3,
    sw_vars,
    (1 << 2) | DG_MODEL_SPHERE,
    sizeof(dg_model_params),
    sizeof(sw_host),
    (int)(sizeof sw_params / sizeof sw_params[0]),
    sw_params,
    sw_finish,
    sw_linear,
    sw_needs_x,
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
    DG_MODEL_NAUX_FACE,
};
#endif /* DG_MODEL_HOST */

#endif
