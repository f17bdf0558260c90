/* dg_test_run.h - set up, run and measure one advection case through the
 * public C API (what an app does, minus the command line). */
#ifndef DG_TEST_RUN_H
#define DG_TEST_RUN_H

#include "advection.h" /* the advection model's dg_model_params (the device part only) */
#include "dg_disc.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_test.h"
#include "dg_ts.h"

#include <stdio.h>
#include <string.h>

/* The advection model's initial data (its --init words). */
typedef enum {
  TEST_INIT_PARABOLA = 0,
  TEST_INIT_BELL,
  TEST_INIT_SINE,
  TEST_INIT_CONSTANT,
  TEST_INIT_GAUSS
} test_init_kind;
static const char *const test_init_names[] = {"parabola", "bell", "sine", "constant", "gauss"};

typedef struct {
  int dim, n[3];
  double lo[3], hi[3];
  int q;              /* 0: rmax+1 */
  dg_degree_map *map; /* borrowed; if NULL: uniform degree r */
  int r;
  int velocity; /* DG_VELOCITY_* */
  double beta[3], omega;
  test_init_kind init;
  dg_ts_kind ts;
  double dt;
  long steps;
  double bell_centre[3]; /* used when bell_radius > 0 */
  double bell_radius;
} test_case;

typedef struct {
  double l2, linf, mass0, mass1;
  long dofs;
} test_result;

static inline void test_case_default(test_case *c, int dim, int n, int r) {
  memset(c, 0, sizeof *c);
  c->dim = dim;
  for (int d = 0; d < 3; ++d) {
    c->n[d] = n;
    c->lo[d] = 0;
    c->hi[d] = 1;
    c->beta[d] = 1;
  }
  c->r = r;
  c->velocity = DG_VELOCITY_CONSTANT;
  c->omega = 1;
  c->init = TEST_INIT_SINE;
  c->ts = DG_TS_RK4;
}

/* The advection model of c (rotation about the box centre), its stage
 * parameters set as a C program would, through the model header's struct;
 * the initial data by name. */
static inline dg_model *test_model(const test_case *c) {
  dg_model *m = NULL;
  OK(dg_model_create(&m, "advection"));
  dg_model_params mp;
  memset(&mp, 0, sizeof mp);
  mp.velocity = c->velocity;
  for (int d = 0; d < 3; ++d) mp.beta[d] = (dg_real)(d < c->dim ? c->beta[d] : 0);
  for (int d = 0; d < 2; ++d) mp.centre[d] = (dg_real)(0.5 * (c->lo[d] + c->hi[d]));
  mp.omega = (dg_real)c->omega;
  OK(dg_model_set_params(m, &mp, sizeof mp));
  OK(dg_model_set(m, "init", test_init_names[c->init]));
  if (c->bell_radius > 0) {
    char buf[160];
    snprintf(buf, sizeof buf, "%.17g", c->bell_radius);
    OK(dg_model_set(m, "bell-radius", buf));
    if (c->dim == 3)
      snprintf(buf, sizeof buf, "%.17g,%.17g,%.17g", c->bell_centre[0], c->bell_centre[1],
               c->bell_centre[2]);
    else
      snprintf(buf, sizeof buf, "%.17g,%.17g", c->bell_centre[0], c->bell_centre[1]);
    OK(dg_model_set(m, "bell-centre", buf));
  }
  OK(dg_model_finish(m, c->dim, c->lo, c->hi));
  return m;
}

/* Run; if out_field is not NULL the disc and final field are returned. */
static inline int test_run(const test_case *c, test_result *res, dg_disc **out_disc,
                           dg_field **out_field) {
  dg_grid g;
  dg_degree_map *own = NULL;
  dg_disc *d = NULL;
  dg_field *u = NULL;
  dg_ts *ts = NULL;
  OK(dg_grid_init(&g, c->dim, c->n, c->lo, c->hi));
  const dg_degree_map *m = c->map;
  if (!m) {
    OK(dg_degree_map_create_uniform(&own, &g, c->r));
    m = own;
  }
  dg_model *model = test_model(c);
  OK(dg_disc_create(&d, dg_test_backend(), &g, m, c->q, model));
  dg_model_destroy(&model);
  OK(dg_field_create(&u, d));
  OK(dg_project_solution(d, u, 0.0));
  OK(dg_mass(d, u, &res->mass0));
  OK(dg_ts_create(&ts, d, c->ts));
  for (long s = 0; s < c->steps; ++s) OK(dg_ts_step(ts, u, c->dt * (double)s, c->dt));
  OK(dg_mass(d, u, &res->mass1));
  OK(dg_error_norms(d, u, c->dt * (double)c->steps, &res->l2, &res->linf));
  res->dofs = dg_disc_ndofs(d);
  dg_ts_destroy(&ts);
  dg_degree_map_destroy(&own);
  if (out_field) {
    *out_disc = d;
    *out_field = u;
  } else {
    dg_field_destroy(&u);
    dg_disc_destroy(&d);
  }
  return 0;
}

/* Run c and keep only what two ways of computing it are compared by: the
 * final coefficients (host copy, malloc'd, *n values) and which path the
 * discretisation took (*flag = path(disc), e.g. dg_disc_team). */
static inline void test_run_coeffs(const test_case *c, test_result *res,
                                   int (*path)(const dg_disc *), int *flag, double **out, long *n) {
  dg_disc *d;
  dg_field *u;
  test_run(c, res, &d, &u);
  *flag = path(d);
  /* by element, variable and mode: the storage order depends on the path */
  const dg_grid *g = dg_disc_grid(d);
  *n = dg_disc_ndofs(d);
  *out = malloc(sizeof(double) * (size_t)*n);
  long i = 0;
  for (long e = 0; e < g->nelem; ++e) {
    OK(dg_element_coeffs(d, u, e, *out + i));
    long M = 1;
    for (int t = 0; t < g->dim; ++t) M *= dg_disc_degrees(d)->deg[e] + 1;
    i += dg_disc_nvar(d) * M;
  }
  CHECK(i == *n, "%ld coefficients, the discretisation has %ld", i, *n);
  dg_field_destroy(&u);
  dg_disc_destroy(&d);
}

/* The advection model with the given velocity kind, beta (1, 0[, 0]),
 * omega 1, finished for the unit box of dimension dim (a new model: the
 * caller destroys it). */
static inline dg_model *test_velocity_model_dim(int velocity, int dim) {
  static const char *const kinds[] = {"const", "rotation", "deform"};
  dg_model *m = NULL;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_model_create(&m, "advection"));
  OK(dg_model_set(m, "velocity", kinds[velocity]));
  OK(dg_model_set(m, "beta", dim == 3 ? "1,0,0" : "1,0"));
  OK(dg_model_finish(m, dim, lo, hi));
  return m;
}
static inline dg_model *test_velocity_model(int velocity) {
  return test_velocity_model_dim(velocity, 2);
}

/* For the checks of what an option refuses: a 2D grid of nx x ny elements on
 * the unit box, a band map 1..3 and a uniform map of degree 2 on it, and a
 * model with the given velocity kind (test_velocity_model). */
static inline void test_refusal_setup(dg_grid *g, int nx, int ny, dg_degree_map **band,
                                      dg_degree_map **uni, dg_model **mp, int velocity) {
  const int n[3] = {nx, ny, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(g, 2, n, lo, hi));
  OK(dg_degree_map_create_band(band, g, 1, 3));
  OK(dg_degree_map_create_uniform(uni, g, 2));
  *mp = test_velocity_model(velocity);
}

#endif
