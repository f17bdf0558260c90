/* advection_data.h - initial data of the scalar advection models (host
 * only; included by the host parts of advection.h and deformation.h): a
 * parabola, a cosine bell, a sine, a constant or a smooth Gaussian hump,
 * their parameters and the defaults they take from the box. */
#ifndef DG_ADVECTION_DATA_H
#define DG_ADVECTION_DATA_H

#include "dg_model_desc.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

enum { ADV_PARABOLA = 0, ADV_BELL, ADV_SINE, ADV_CONSTANT, ADV_GAUSS };

typedef struct {
  int init;         /* ADV_* */
  double centre[3]; /* bell / gauss centre */
  double radius;    /* bell radius, gauss width */
  double height;    /* bell / gauss height */
  double value;     /* constant */
  double period;    /* the deformation model's T */
} adv_host;

/* The parameter entries of the initial data (five, in this order), with
 * `init`'s default. */
// clang-format off
#define ADV_DATA_PARAMS(init_default)                                                              \
  {"init", DG_PARAM_WORD, 1, "parabola|bell|sine|constant|gauss", 0, offsetof(adv_host, init),     \
   init_default, "initial data: parabola | bell | sine | constant | gauss (smooth hump)"},          \
  {"bell-centre", DG_PARAM_REAL, 0, NULL, 0, offsetof(adv_host, centre), NULL,                     \
   "bell/gauss centre x,y[,z] [box centre - 0.2 box size]"},                                       \
  {"bell-radius", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, radius), NULL,                     \
   "bell radius / gauss width [0.1 (x1-x0)]"},                                                     \
  {"bell-height", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, height), "2",                      \
   "bell/gauss height h0"},                                                                        \
  {"value", DG_PARAM_REAL, 1, NULL, 0, offsetof(adv_host, value), "1",                             \
   "the constant of --init constant"}
// clang-format on

/* The defaults taken from the box (set[k] for the entries of
 * ADV_DATA_PARAMS, starting at `first`), and their checks. */
static int adv_data_finish(adv_host *h, const dg_model_domain *dom, const unsigned char *set,
                           int first, char *msg, size_t cap) {
  for (int d = 0; d < 3; ++d)
    if (!set[first + 1])
      h->centre[d] =
          d < dom->dim ? 0.5 * (dom->lo[d] + dom->hi[d]) - 0.2 * (dom->hi[d] - dom->lo[d]) : 0;
  if (!set[first + 2]) h->radius = 0.1 * (dom->hi[0] - dom->lo[0]);
  if (!(h->radius > 0)) {
    snprintf(msg, cap, "option --bell-radius: %g must be positive", h->radius);
    return 1;
  }
  return 0;
}

static double adv_wrap(double x, double lo, double hi) {
  const double L = hi - lo;
  double y = fmod(x - lo, L);
  if (y < 0) y += L;
  return lo + y;
}

/* u0(x). */
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

#endif
