/* test_systems.c - the implicit and IMEX steps of implicit/ on a system:
 * linear acoustics (nvar 3, p, u, v) on the periodic unit square, the plane
 * wave k = 2 pi (1, 1), c = 1.  Each case a measured number that could be
 * wrong:
 *   order S   scheme S's temporal order (be, cn, sdirk2, sdirk3), no
 *             diffusion, against classical RK4 at a small step on the same
 *             discretisation (the spatial error cancels): within 0.2 of
 *             the order, at steps of 7 to 1.75 times the stages' CFL-1
 *             step (backward Euler: 1.75 to 0.44)
 *   diffuse   nu > 0 diffuses every variable alike: the plane wave decays
 *             as exp(-nu |k|^2 t) while it travels (the diffusion commutes
 *             with the wave operator), sdirk3 against the projected damped
 *             wave, within the spatial error
 *   mass      each variable's mass conserved to 1e-12 relative by every
 *             implicit/IMEX scheme with a loose solver tolerance (1e-4),
 *             fp64 and mixed preconditioner, on data with nonzero means
 *   bad       a model with walls (non-periodic box) is refused with one
 *             line naming the side
 * Usage: test_systems CASE [SCHEME] */
#include "dg_disc_op.h"
#include "dg_eval.h"
#include "dg_imex.h"
#include "dg_model.h"
#include "dg_sop.h"
#include "dg_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  dg_grid grid;
  dg_degree_map *map;
  dg_model *model;
  dg_disc *disc;
  dg_field *u;
  long n; /* compact length: 3 blocks */
} problem;

static void problem_create(problem *p, int n, int r) {
  memset(p, 0, sizeof *p);
  const int nn[3] = {n, n, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&p->grid, 2, nn, lo, hi));
  OK(dg_degree_map_create_uniform(&p->map, &p->grid, r));
  OK(dg_model_create(&p->model, "acoustics"));
  OK(dg_model_finish_grid(p->model, &p->grid));
  OK(dg_disc_create(&p->disc, dg_test_backend(), &p->grid, p->map, 0, p->model));
  OK(dg_field_create(&p->u, p->disc));
  OK(dg_project_solution(p->disc, p->u, 0));
  p->n = dg_disc_compact_len(p->disc);
}

static void problem_destroy(problem *p) {
  dg_field_destroy(&p->u);
  dg_disc_destroy(&p->disc);
  dg_model_destroy(&p->model);
  dg_degree_map_destroy(&p->map);
}

/* Scheme k from the exact wave at t = 0 to T in `steps` steps. */
static void run(problem *p, dg_im_kind k, double nu, double T, long steps, double rtol, int mixed,
                int *its) {
  dg_im_opts o = dg_im_default_opts();
  o.nu = nu;
  o.rtol = rtol;
  o.mixed = mixed;
  dg_im *im;
  OK(dg_im_create(&im, p->disc, k, &o));
  const double dt = T / (double)steps;
  int n_its = 0;
  for (long s = 0; s < steps; ++s) {
    dg_im_stats st;
    OK(dg_im_step(im, p->u, (double)s * dt, dt, &st));
    n_its += st.its;
    CHECK(st.converged, "%s: a solve stopped at %g > rtol", dg_im_name(k), st.rel_max);
  }
  dg_im_destroy(&im);
  if (its) *its = n_its;
}

/* The mass-weighted L2 distance of two compact vectors (the solvers' mass
 * of one variable, repeated per block). */
static double dist(const problem *p, const double *a, const double *b) {
  dg_sop *op;
  dg_sop_params sp = dg_sop_default_params();
  OK(dg_sop_create(&op, dg_test_backend(), &p->grid, p->map->deg, &sp));
  const long nb = dg_sop_len(op);
  double *m = malloc(sizeof(double) * (size_t)nb);
  OK(dg_sop_mass_d(op, m));
  double s = 0;
  for (long i = 0; i < p->n; ++i) s += m[i % nb] * (a[i] - b[i]) * (a[i] - b[i]);
  free(m);
  dg_sop_destroy(&op);
  return sqrt(s);
}

static void case_order(const char *name) {
  dg_im_kind k;
  OK(dg_im_parse(name, &k));
  problem p;
  problem_create(&p, 8, 3);
  const double T = 0.5;
  double dta;
  OK(dg_disc_stable_dt(p.disc, p.u, 0, &dta));
  double *ref = malloc(sizeof(double) * (size_t)p.n), *x = malloc(sizeof(double) * (size_t)p.n);
  /* the reference: RK4 at half its CFL limit */
  OK(dg_project_solution(p.disc, p.u, 0));
  run(&p, DG_IM_RK4, 0, T, (long)ceil(T / (0.5 * dta)), 1e-10, 0, NULL);
  OK(dg_field_get_compact(p.disc, p.u, ref));
  const int order = dg_im_order(k);
  /* 8, 16, 32 steps: dt = T / 8 is 7 times the CFL-1 step of the stages;
     backward Euler (order 1, heavily damped there) from 32 steps */
  const long s0 = order == 1 ? 32 : 8, ns[3] = {s0, 2 * s0, 4 * s0};
  double e[3];
  int its = 0;
  for (int i = 0; i < 3; ++i) {
    OK(dg_project_solution(p.disc, p.u, 0));
    run(&p, k, 0, T, ns[i], 1e-12, 0, &its);
    OK(dg_field_get_compact(p.disc, p.u, x));
    e[i] = dist(&p, x, ref);
    printf("order: %-7s %2ld steps (dt = %.2f CFL limits): |u - u_rk4| %.3e, %d Krylov its\n",
           dg_im_name(k), ns[i], T / (double)ns[i] / dta, e[i], its);
  }
  const double r1 = log2(e[0] / e[1]), r2 = log2(e[1] / e[2]);
  printf("order: %-7s rates %.3f %.3f\n", dg_im_name(k), r1, r2);
  CHECK(T / (double)s0 > (order == 1 ? 1.5 : 5) * dta,
        "the largest step %g is not well past the explicit limit %g", T / (double)s0, dta);
  CHECK(fabs(r2 - order) <= 0.2, "%s: rate %.3f, order %d", dg_im_name(k), r2, order);
  CHECK(e[2] > 1e-9, "%s: the temporal error %g is too small to measure", dg_im_name(k), e[2]);
  free(ref), free(x);
  problem_destroy(&p);
}

static void case_diffuse(void) {
  problem p;
  problem_create(&p, 8, 4);
  const double nu = 0.01, T = 0.5, k2 = 8 * M_PI * M_PI;
  run(&p, DG_IM_SDIRK3, nu, T, 40, 1e-12, 0, NULL);
  double *x = malloc(sizeof(double) * (size_t)p.n), *w = malloc(sizeof(double) * (size_t)p.n);
  OK(dg_field_get_compact(p.disc, p.u, x));
  /* the damped wave, projected; and the undamped one, which the run must
     be far from */
  OK(dg_project_solution(p.disc, p.u, T));
  OK(dg_field_get_compact(p.disc, p.u, w));
  const double e_undamped = dist(&p, x, w);
  const double damp = exp(-nu * k2 * T);
  for (long i = 0; i < p.n; ++i) w[i] *= damp;
  const double e = dist(&p, x, w);
  double zero_n = 0;
  {
    double *z = calloc((size_t)p.n, sizeof(double));
    zero_n = dist(&p, w, z);
    free(z);
  }
  printf("diffuse: nu %g, T %g: damping %.4f; |u - damped wave| %.3e, |u - undamped wave| %.3e, "
         "|damped wave| %.3e\n",
         nu, T, damp, e, e_undamped, zero_n);
  /* measured 1.1e-4 (the spatial error of degree 4 on 8^2 and sdirk3's at
     40 steps); the undamped wave is 0.33 away */
  CHECK(e < 1e-3 * zero_n, "the run is not the damped wave: %g of its norm", e / zero_n);
  CHECK(e_undamped > 0.2 * zero_n, "the run did not diffuse: %g", e_undamped / zero_n);
  free(x), free(w);
  problem_destroy(&p);
}

static double rfn(const double x[3], int v, void *ctx) {
  (void)ctx;
  return 1.5 + v + sin(2 * M_PI * (x[0] + 0.3 * v)) * cos(4 * M_PI * x[1]) +
         0.3 * cos(6 * M_PI * x[0] * x[1]);
}

static void case_mass(void) {
  problem p;
  problem_create(&p, 8, 3);
  for (int k = 0; k < DG_IM_COUNT; ++k) {
    if (dg_im_treatment((dg_im_kind)k) == DG_IM_EXPLICIT) continue;
    for (int mixed = 0; mixed <= 1; ++mixed) {
      OK(dg_project(p.disc, p.u, rfn, NULL));
      double m0[3], m1[3];
      OK(dg_mass(p.disc, p.u, m0));
      dg_im_opts o = dg_im_default_opts();
      o.nu = 0.05;
      o.rtol = 1e-4;
      o.mixed = mixed;
      dg_im *im;
      OK(dg_im_create(&im, p.disc, (dg_im_kind)k, &o));
      for (int s = 0; s < 5; ++s) OK(dg_im_step(im, p.u, 0.02 * s, 0.02, NULL));
      dg_im_destroy(&im);
      OK(dg_mass(p.disc, p.u, m1));
      double worst = 0;
      for (int v = 0; v < 3; ++v) worst = fmax(worst, fabs(m1[v] - m0[v]) / fabs(m0[v]));
      printf("mass: %-7s %s largest relative drift of p, u, v: %.3e\n", dg_im_name((dg_im_kind)k),
             mixed ? "mixed" : "fp64 ", worst);
      CHECK(worst <= 1e-12, "%s: mass drift %g", dg_im_name((dg_im_kind)k), worst);
    }
  }
  problem_destroy(&p);
}

static void case_bad(void) {
  problem p;
  memset(&p, 0, sizeof p);
  const int nn[3] = {4, 4, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&p.grid, 2, nn, lo, hi));
  const int bc[DG_GRID_SIDES] = {DG_BC_WALL, DG_BC_WALL, DG_BC_PERIODIC, DG_BC_PERIODIC};
  OK(dg_grid_set_bc(&p.grid, bc));
  OK(dg_degree_map_create_uniform(&p.map, &p.grid, 2));
  OK(dg_model_create(&p.model, "acoustics"));
  OK(dg_model_set(p.model, "shape", "standing"));
  OK(dg_model_finish_grid(p.model, &p.grid));
  OK(dg_disc_create(&p.disc, dg_test_backend(), &p.grid, p.map, 0, p.model));
  dg_im_opts o = dg_im_default_opts();
  dg_im *im = NULL;
  const int rc = dg_im_create(&im, p.disc, DG_IM_SDIRK2, &o);
  const char *want =
      "option --bc: side x- is not periodic; the implicit steps need a periodic box (scheme "
      "sdirk2)";
  CHECK(rc == DG_ERR_ARG && !strcmp(dg_error_message(), want), "walls: rc %d, '%s'", rc,
        rc ? dg_error_message() : "accepted");
  dg_im_destroy(&im);
  problem_destroy(&p);
}

int main(int argc, char **argv) {
  if (argc < 2 || (!strcmp(argv[1], "order") && argc != 3)) {
    printf("usage: test_systems order SCHEME|diffuse|mass|bad\n");
    return 2;
  }
  if (!strcmp(argv[1], "order"))
    case_order(argv[2]);
  else if (!strcmp(argv[1], "diffuse"))
    case_diffuse();
  else if (!strcmp(argv[1], "mass"))
    case_mass();
  else if (!strcmp(argv[1], "bad"))
    case_bad();
  else {
    printf("unknown case %s\n", argv[1]);
    return 2;
  }
  return dg_test_done(argv[1]);
}
