/* test_newton.c - the Newton iteration of implicit/ on viscous Burgers
 * u_t + div(u^2/2 (1,1)) = nu lap u (model burgers, parameter nu), each case
 * a measured number that could be wrong:
 *   order S   scheme S (be, cn, sdirk2, sdirk3) converges by Newton in every
 *             stage, and its temporal order, measured against classical RK4
 *             at a step far below the explicit limit on the same
 *             discretisation (so the spatial error cancels), is within 0.2
 *             of 1, 2, 2, 3; mass is conserved to 1e-12 relative
 *   mass      every implicit (Newton) and IMEX scheme conserves mass to
 *             1e-12 relative with a loose tolerance (1e-4)
 *   newton    with tight inner solves (fixed forcing 1e-6) every stage
 *             converges to 1e-12 in at most 3 Newton iterations and the
 *             residuals fall superlinearly (r_{k+1} <= r_k^1.5 where r_k is
 *             above 1e-9, and the contraction factor r_{k+1} / r_k falls
 *             tenfold per iteration); a deliberately wrong Jacobian (the directional
 *             difference halved) fails both checks, so they can fail; the
 *             default Eisenberg-Walker forcing converges too, with fewer
 *             Krylov iterations
 *   fail      newton_maxit 1 with rtol 1e-13: dg_im_step returns
 *             DG_ERR_NUMERIC with the message naming stage, t, dt, and u is
 *             unchanged
 * Usage: test_newton CASE [SCHEME] */
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
  double nu;
  long n;
  double *m; /* the diagonal mass of compact vectors */
} problem;

/* burgers on [0,1]^2, n^2 elements of degree r, u0 = 0.5 + 0.25 sin(2 pi (x + y)). */
static void problem_create(problem *p, int n, int r, double nu) {
  memset(p, 0, sizeof *p);
  const int nn[3] = {n, n, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&p->grid, 2, nn, lo, hi));
  OK(dg_degree_map_create_uniform(&p->map, &p->grid, r));
  OK(dg_model_create(&p->model, "burgers"));
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g", nu);
  OK(dg_model_set(p->model, "nu", buf));
  OK(dg_model_finish_grid(p->model, &p->grid));
  OK(dg_disc_create(&p->disc, dg_test_backend(), &p->grid, p->map, 0, p->model));
  OK(dg_field_create(&p->u, p->disc));
  OK(dg_project_solution(p->disc, p->u, 0));
  p->nu = nu;
  p->n = dg_disc_compact_len(p->disc);
  p->m = malloc(sizeof(double) * (size_t)p->n);
  dg_sop *op;
  dg_sop_params sp = dg_sop_default_params();
  OK(dg_sop_create(&op, dg_test_backend(), &p->grid, p->map->deg, &sp));
  OK(dg_sop_mass_d(op, p->m));
  dg_sop_destroy(&op);
}

static void problem_destroy(problem *p) {
  free(p->m);
  dg_field_destroy(&p->u);
  dg_disc_destroy(&p->disc);
  dg_model_destroy(&p->model);
  dg_degree_map_destroy(&p->map);
}

/* Newton statistics of a run. */
typedef struct {
  int newton, newton_max, its, stages;
} run_stats;

/* Scheme k from the initial data to T in `steps` steps; returns the first
 * failing step's status. */
static int run(problem *p, dg_im_kind k, double T, long steps, dg_im_opts o, run_stats *rs) {
  OK(dg_project_solution(p->disc, p->u, 0));
  o.nu = p->nu;
  dg_im *im;
  OK(dg_im_create(&im, p->disc, k, &o));
  const double dt = T / (double)steps;
  run_stats z = {0, 0, 0, 0};
  int rc = 0;
  for (long s = 0; s < steps && !rc; ++s) {
    dg_im_stats st;
    rc = dg_im_step(im, p->u, (double)s * dt, dt, &st);
    if (rc) break;
    z.newton += st.newton;
    z.newton_max = st.newton_max > z.newton_max ? st.newton_max : z.newton_max;
    z.its += st.its;
  }
  /* the stages that solve (Crank-Nicolson's first is explicit) */
  z.stages = (int)steps * (dg_im_stages(k) - (k == DG_IM_CN));
  dg_im_destroy(&im);
  if (rs) *rs = z;
  return rc;
}

/* The compact coefficients of u into x. */
static void coeffs(problem *p, double *x) { OK(dg_field_get_compact(p->disc, p->u, x)); }

/* L2 norm of the difference of two coefficient vectors (the modal mass). */
static double l2_diff(const problem *p, const double *a, const double *b) {
  double s = 0;
  for (long i = 0; i < p->n; ++i) s += p->m[i] * (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

static double mass(problem *p) {
  double m;
  OK(dg_mass(p->disc, p->u, &m));
  return m;
}

static const double T_END = 0.2, NU = 0.02;

/* The reference: classical RK4 (diffusion explicit through the SIPG apply)
 * at 0.4 of its diffusive limit, far below the advective one. */
static void reference(problem *p, double *ref) {
  dg_im_opts o = dg_im_default_opts();
  o.nu = p->nu;
  dg_im *im;
  OK(dg_im_create(&im, p->disc, DG_IM_RK4, &o));
  double lmax;
  OK(dg_im_laplacian_lmax(im, &lmax));
  dg_im_destroy(&im);
  const double dte = dg_im_real_stability(DG_IM_RK4) / (p->nu * lmax);
  const long steps = (long)ceil(T_END / (0.4 * dte));
  OK(run(p, DG_IM_RK4, T_END, steps, dg_im_default_opts(), NULL));
  coeffs(p, ref);
  printf("reference: rk4, %ld steps (dt = %.3e = %.2f of the diffusive limit)\n", steps,
         T_END / (double)steps, T_END / (double)steps / dte);
}

static void case_order(const char *name) {
  dg_im_kind k;
  OK(dg_im_parse(name, &k));
  CHECK(dg_im_treatment(k) == DG_IM_IMPLICIT, "%s is not a fully implicit scheme", name);
  problem p;
  problem_create(&p, 8, 3, NU);
  double *ref = malloc(sizeof(double) * (size_t)p.n), *x = malloc(sizeof(double) * (size_t)p.n);
  const double m0 = mass(&p);
  reference(&p, ref);
  const int order = dg_im_order(k);
  const long s0 = order >= 3 ? 5 : 10, ns[3] = {s0, 2 * s0, 4 * s0};
  double e[3], drift = 0;
  dg_im_opts o = dg_im_default_opts();
  o.rtol = 1e-12;
  for (int i = 0; i < 3; ++i) {
    run_stats rs;
    OK(run(&p, k, T_END, ns[i], o, &rs));
    coeffs(&p, x);
    e[i] = l2_diff(&p, x, ref);
    drift = fmax(drift, fabs(mass(&p) - m0) / fabs(m0));
    printf("order: %-7s %3ld steps: error %.3e, Newton %d (at most %d per stage, %.2f per "
           "stage), Krylov %d (%.1f per Newton iteration)\n",
           name, ns[i], e[i], rs.newton, rs.newton_max, (double)rs.newton / rs.stages, rs.its,
           (double)rs.its / rs.newton);
    CHECK(rs.newton_max <= 6, "%s: %d Newton iterations in one stage", name, rs.newton_max);
  }
  const double r1 = log2(e[0] / e[1]), r2 = log2(e[1] / e[2]);
  printf("order: %-7s rates %.3f %.3f, mass drift %.3e\n", name, r1, r2, drift);
  CHECK(fabs(r2 - order) <= 0.2, "%s: rate %.3f, order %d", name, r2, order);
  CHECK(fabs(r1 - order) <= 0.3, "%s: coarse rate %.3f, order %d", name, r1, order);
  /* the errors are temporal, far above the Newton tolerance and round-off */
  CHECK(e[2] > 1e-8, "%s: the finest error %g is too small to measure an order", name, e[2]);
  CHECK(drift <= 1e-12, "%s: mass drift %g", name, drift);
  free(ref), free(x);
  problem_destroy(&p);
}

static void case_mass(void) {
  problem p;
  problem_create(&p, 8, 3, 0.05);
  for (int k = 0; k < DG_IM_COUNT; ++k) {
    if (dg_im_treatment((dg_im_kind)k) == DG_IM_EXPLICIT) continue; /* rk4: dt above its limit */
    const double m0 = mass(&p);
    dg_im_opts o = dg_im_default_opts();
    o.rtol = 1e-4;
    run_stats rs;
    OK(run(&p, (dg_im_kind)k, 0.1, 5, o, &rs));
    const double m1 = mass(&p);
    printf("mass: %-7s drift %.3e (Newton %d)\n", dg_im_name((dg_im_kind)k), (m1 - m0) / m0,
           rs.newton);
    CHECK(fabs(m1 - m0) <= 1e-12 * fabs(m0), "%s: mass drift %g", dg_im_name((dg_im_kind)k),
          (m1 - m0) / m0);
    CHECK((rs.newton > 0) == (dg_im_treatment((dg_im_kind)k) == DG_IM_IMPLICIT),
          "%s: Newton iterations %d", dg_im_name((dg_im_kind)k), rs.newton);
  }
  problem_destroy(&p);
}

/* The residual history of every stage of a run. */
#define MAXH 64
typedef struct {
  int nstage;        /* stages seen */
  int len[MAXH];     /* iterates of each */
  double r[MAXH][8]; /* their relative residuals */
} history;

static void record(void *ctx, int stage, int it, double rel, int kits) {
  (void)stage, (void)kits;
  history *h = (history *)ctx;
  if (it == 0) h->nstage++;
  const int s = h->nstage - 1;
  if (s < MAXH && it < 8) {
    h->r[s][it] = rel;
    h->len[s] = it + 1;
  }
}

/* Superlinear: r_{k+1} <= r_k^1.5 wherever r_k is above 1e-9 (below it the
 * directional difference's 1e-8 error and round-off set the pace), and the
 * contraction factor r_{k+1} / r_k falls at least tenfold from one
 * iteration to the next wherever r_{k+1} is above 1e-9 (a linear rate keeps
 * it about constant); *npairs counts the factors compared. */
static int superlinear(const history *h, double *worst, double *worst_fall, int *npairs) {
  int ok = 1;
  *worst = 10, *worst_fall = 0, *npairs = 0;
  for (int s = 0; s < h->nstage && s < MAXH; ++s)
    for (int k = 0; k + 1 < h->len[s]; ++k) {
      const double *r = h->r[s];
      if (r[k] > 1e-9) {
        const double q = log(r[k + 1]) / log(r[k]); /* >= 1.5 wanted */
        if (!(q >= 1.5)) ok = 0;
        *worst = fmin(*worst, q);
      }
      if (k >= 1 && r[k + 1] > 1e-9) {
        const double fall = (r[k + 1] / r[k]) / (r[k] / r[k - 1]); /* <= 0.1 wanted */
        if (!(fall <= 0.1)) ok = 0;
        *worst_fall = fmax(*worst_fall, fall);
        ++*npairs;
      }
    }
  return ok;
}

static void print_history(const char *what, const history *h) {
  for (int s = 0; s < h->nstage && s < 3; ++s) {
    printf("newton: %s stage %d:", what, s + 1);
    for (int k = 0; k < h->len[s]; ++k) printf(" %.2e", h->r[s][k]);
    printf("\n");
  }
}

/* The Jacobian-vector product halved: a deliberately wrong Jacobian. */
static int wrong_jacvec(void *ctx, dg_disc *d, dg_field *u0, dg_field *lu0, dg_field *v, double t,
                        dg_field *work, dg_field *out) {
  (void)ctx;
  DG_CALL(dg_disc_jacvec(d, u0, lu0, v, t, work, out));
  DG_CALL(dg_field_to_host(out));
  for (long i = 0; i < out->n; ++i) out->h[i] *= (dg_real)0.5;
  dg_field_host_modified(out);
  return 0;
}

static void case_newton(void) {
  problem p;
  problem_create(&p, 8, 3, NU);
  /* sdirk2, 5 steps of 0.04: CFL |u| dt (2r+1) (1/h_x + 1/h_y) = 3.4 */
  const dg_im_kind k = DG_IM_SDIRK2;
  const long steps = 5;
  for (int wrong = 0; wrong <= 1; ++wrong) {
    history h;
    memset(&h, 0, sizeof h);
    dg_im_opts o = dg_im_default_opts();
    o.rtol = 1e-12;
    o.eta = 1e-6; /* tight, yet above the directional difference's 1e-8 */
    o.newton_maxit = 3;
    o.newton_monitor = record;
    o.monitor_ctx = &h;
    if (wrong) o.jacvec = wrong_jacvec;
    run_stats rs;
    const int rc = run(&p, k, T_END, steps, o, &rs);
    double worst, fall;
    int npairs;
    const int sl = superlinear(&h, &worst, &fall, &npairs);
    const char *what = wrong ? "wrong J" : "exact J";
    print_history(what, &h);
    printf("newton: %s: %s, superlinear %s (worst log r_k+1 / log r_k = %.2f, worst fall of "
           "the contraction factor %.2e over %d pairs), most iterations per stage %d\n",
           what, rc ? "did not converge in 3" : "converged", sl ? "yes" : "no", worst, fall, npairs,
           rc ? 3 : rs.newton_max);
    if (!wrong) {
      CHECK(rc == 0, "Newton with the exact Jacobian failed: %s", dg_error_message());
      CHECK(sl && npairs > 0, "Newton with the exact Jacobian is not superlinear (%.2f, %.2e, %d)",
            worst, fall, npairs);
      CHECK(rs.newton_max <= 3 && h.nstage == 2 * steps, "%d stages, at most %d iterations",
            h.nstage, rs.newton_max);
    } else {
      CHECK(rc == DG_ERR_NUMERIC, "Newton with a halved Jacobian converged in 3 iterations");
      CHECK(!sl, "the superlinear check passed a halved Jacobian (%.2f, %.2e)", worst, fall);
    }
  }
  /* the default forcing (Eisenberg-Walker): converges, fewer Krylov its */
  for (int ew = 0; ew <= 1; ++ew) {
    dg_im_opts o = dg_im_default_opts();
    o.rtol = 1e-10;
    o.eta = ew ? 0 : 1e-6;
    run_stats rs;
    OK(run(&p, k, T_END, steps, o, &rs));
    printf("newton: forcing %s: Newton %d (%.2f per stage, at most %d), Krylov %d (%.1f per "
           "stage)\n",
           ew ? "Eisenberg-Walker" : "fixed 1e-6", rs.newton, (double)rs.newton / rs.stages,
           rs.newton_max, rs.its, (double)rs.its / rs.stages);
    CHECK(rs.newton_max <= 6, "at most %d Newton iterations per stage", rs.newton_max);
  }
  problem_destroy(&p);
}

static void case_fail(void) {
  problem p;
  problem_create(&p, 8, 3, NU);
  dg_im_opts o = dg_im_default_opts();
  o.nu = p.nu;
  o.rtol = 1e-13;
  o.newton_maxit = 1;
  dg_im *im;
  OK(dg_im_create(&im, p.disc, DG_IM_BE, &o));
  double *a = malloc(sizeof(double) * (size_t)p.n), *b = malloc(sizeof(double) * (size_t)p.n);
  coeffs(&p, a);
  const int rc = dg_im_step(im, p.u, 0, 0.04, NULL);
  coeffs(&p, b);
  const char *msg = dg_error_message();
  printf("fail: status %d, message '%s'\n", rc, msg);
  CHECK(rc == DG_ERR_NUMERIC, "status %d", rc);
  const char *want = "scheme be: Newton did not converge in 1 iteration at stage 1 (t=0, "
                     "dt=0.04): relative residual ";
  CHECK(!strncmp(msg, want, strlen(want)), "message '%s'", msg);
  CHECK(strstr(msg, "> rtol 1e-13") != NULL, "message '%s'", msg);
  CHECK(memcmp(a, b, sizeof(double) * (size_t)p.n) == 0, "u changed by a failed step");
  dg_im_destroy(&im);
  free(a), free(b);
  problem_destroy(&p);
}

int main(int argc, char **argv) {
  if (argc < 2 || (!strcmp(argv[1], "order") && argc != 3)) {
    printf("usage: test_newton order SCHEME|mass|newton|fail\n");
    return 2;
  }
  if (!strcmp(argv[1], "order"))
    case_order(argv[2]);
  else if (!strcmp(argv[1], "mass"))
    case_mass();
  else if (!strcmp(argv[1], "newton"))
    case_newton();
  else if (!strcmp(argv[1], "fail"))
    case_fail();
  else {
    printf("unknown case %s\n", argv[1]);
    return 2;
  }
  return dg_test_done(argv[1]);
}
