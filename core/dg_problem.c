/* dg_problem.c - initial data and exact solutions. */
#include "dg_problem.h"

#include "dg_error.h"

#include <math.h>
#include <string.h>

static const char *names[] = {"parabola", "bell", "sine", "constant"};

int dg_init_parse(const char *name, dg_init_kind *kind) {
  for (int i = 0; i < 4; ++i)
    if (strcmp(name, names[i]) == 0) {
      *kind = (dg_init_kind)i;
      return 0;
    }
  return dg_error(DG_ERR_ARG, "unknown initial data '%s' (parabola, bell, sine, constant)", name);
}

const char *dg_init_name(dg_init_kind kind) { return names[kind]; }

int dg_problem_init(dg_problem *p, dg_init_kind kind, const dg_grid *g,
                    const dg_model_params *model) {
  memset(p, 0, sizeof *p);
  p->kind = kind;
  p->grid = *g;
  p->model = *model;
  for (int d = 0; d < 3; ++d)
    p->centre[d] = 0.5 * (g->lo[d] + g->hi[d]) - 0.2 * (g->hi[d] - g->lo[d]);
  p->radius = 0.1 * (g->hi[0] - g->lo[0]);
  p->height = 2.0;
  p->value = 1.0;
  return 0;
}

static double wrap(double x, double lo, double hi) {
  const double L = hi - lo;
  double y = fmod(x - lo, L);
  if (y < 0) y += L;
  return lo + y;
}

double dg_problem_initial(const dg_problem *p, const double x[3]) {
  const dg_grid *g = &p->grid;
  switch (p->kind) {
  case DG_INIT_PARABOLA: {
    const double a = g->lo[0], b = g->hi[0], s = 2.0 / (b - a);
    return -(x[0] - a) * (x[0] - b) * s * s;
  }
  case DG_INIT_BELL: {
    double r2 = 0;
    for (int d = 0; d < g->dim; ++d) r2 += (x[d] - p->centre[d]) * (x[d] - p->centre[d]);
    const double r = sqrt(r2);
    return r < p->radius ? 0.5 * p->height * (1.0 + cos(M_PI * r / p->radius)) : 0.0;
  }
  case DG_INIT_SINE: {
    double v = 1;
    for (int d = 0; d < g->dim; ++d) v *= sin(2 * M_PI * x[d] / (g->hi[d] - g->lo[d]));
    return v;
  }
  case DG_INIT_CONSTANT:
    return p->value;
  }
  return 0;
}

double dg_problem_exact(const dg_problem *p, const double x[3], double t) {
  const dg_grid *g = &p->grid;
  const dg_model_params *m = &p->model;
  double y[3] = {x[0], x[1], x[2]};
  if (m->velocity == DG_VELOCITY_ROTATION) {
    const double c = cos(-(double)m->omega * t), s = sin(-(double)m->omega * t);
    const double dx = x[0] - m->centre[0], dy = x[1] - m->centre[1];
    y[0] = m->centre[0] + c * dx - s * dy;
    y[1] = m->centre[1] + s * dx + c * dy;
  } else {
    for (int d = 0; d < g->dim; ++d) y[d] = x[d] - (double)m->beta[d] * t;
  }
  for (int d = 0; d < g->dim; ++d) y[d] = wrap(y[d], g->lo[d], g->hi[d]);
  return dg_problem_initial(p, y);
}
