#define _POSIX_C_SOURCE 200809L /* setenv */
/* unit.own_q: on variable 2D maps with a velocity independent of x, the
 * elements whose neighbours all share their degree r may run their update
 * at q = r + 1 points instead of the common q (DGRID_OWN_Q, core/dg_disc.c).
 * Both integrate exactly, so the coefficients must agree to 1e-13 relative
 * with the common-q team update, over band and random maps and every
 * integrator; own q conserves mass to round-off; the counted flops drop;
 * the default follows dg_backend_ops.own_q_min and the half-of-the-elements
 * rule (recounted here); and DGRID_OWN_Q
 * refuses what it cannot do with one message naming it. */
#include "dg_backend.h"
#include "dg_error.h"
#include "dg_test_run.h"

#include <stdlib.h>
#include <string.h>

static void set(const char *name, const char *value) {
  OK(setenv(name, value, 1) ? DG_ERR_ARG : 0);
}

/* Run c with DGRID_UPDATE=upd, DGRID_OWN_Q=own; *got: whether own q ran. */
static void run_mode(const test_case *c, const char *upd, const char *own, int *got, double **out,
                     long *n, test_result *res) {
  set("DGRID_UPDATE", upd);
  set("DGRID_OWN_Q", own);
  test_run_coeffs(c, res, dg_disc_own_q, got, out, n);
}

/* Whether the backend's default runs own q on m with q points: the degrees
 * with at least own_q_min elements whose four neighbours share their degree
 * (counted here, apart from the library), where their q or update differs,
 * hold at least half of the elements. */
static int default_own(const dg_grid *g, const dg_degree_map *m, int q) {
  long own[DG_MAX_DEGREE + 1] = {0};
  const int nx = g->n[0], ny = g->n[1];
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int r = m->deg[(long)j * nx + i];
      own[r] += m->deg[(long)j * nx + (i + 1) % nx] == r &&
                m->deg[(long)j * nx + (i + nx - 1) % nx] == r &&
                m->deg[(long)((j + 1) % ny) * nx + i] == r &&
                m->deg[(long)((j + ny - 1) % ny) * nx + i] == r;
    }
  /* the highest degree at q = r + 1 only where its update is not the team's
     (DGRID_UPDATE=auto here) */
  const long min = dg_test_backend()->ops->own_q_min;
  long split = 0;
  for (int r = 0; min > 0 && r + 1 <= q; ++r)
    if (own[r] >= min && (r + 1 < q || r + 1 < dg_test_backend()->ops->team_qmin[0]))
      split += own[r];
  return split > 0 && 2 * split >= g->nelem; /* at least half of the elements */
}

/* Counted flops of one stage of c's discretisation under DGRID_OWN_Q=own. */
static double stage_flops(const test_case *c, const char *own) {
  dg_grid g;
  OK(dg_grid_init(&g, c->dim, c->n, c->lo, c->hi));
  dg_model *mp = test_model(c);
  set("DGRID_UPDATE", "team");
  set("DGRID_OWN_Q", own);
  dg_disc *d;
  OK(dg_disc_create(&d, dg_test_backend(), &g, c->map, c->q, mp));
  dg_model_destroy(&mp);
  const double f = dg_disc_work(d, 0).flops;
  dg_disc_destroy(&d);
  return f;
}

int main(void) {
  double worst = 0;
  int cases = 0;
  /* band maps with several rows per degree (elements away from the
     changes in every bucket), one where q exceeds rmax + 1, and a random
     map (few such elements) */
  struct {
    int kind, rmin, rmax, nx, ny, q;
  } maps[] = {{0, 1, 4, 12, 24, 0},
              {0, 0, 6, 10, 42, 0},
              {0, 2, 7, 9, 36, 0},
              {0, 1, 3, 8, 18, 6},
              {1, 1, 2, 12, 12, 5}};
  const int nmaps = (int)(sizeof maps / sizeof maps[0]);
  for (int i = 0; i < nmaps; ++i)
    for (int ts = 0; ts < DG_TS_COUNT; ++ts) {
      dg_grid g;
      const int nv[3] = {maps[i].nx, maps[i].ny, 1};
      const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
      OK(dg_grid_init(&g, 2, nv, lo, hi));
      dg_degree_map *m;
      if (maps[i].kind == 0) OK(dg_degree_map_create_band(&m, &g, maps[i].rmin, maps[i].rmax));
      if (maps[i].kind == 1) OK(dg_degree_map_create_random(&m, &g, maps[i].rmin, maps[i].rmax, 3));
      char what[64];
      snprintf(what, sizeof what, "%s %d..%d q %d %s", maps[i].kind ? "random" : "band", m->rmin,
               m->rmax, maps[i].q ? maps[i].q : m->rmax + 1, dg_ts_name((dg_ts_kind)ts));
      test_case c;
      test_case_default(&c, 2, maps[i].nx, 0);
      for (int d = 0; d < 2; ++d) c.n[d] = nv[d];
      c.map = m;
      c.q = maps[i].q;
      c.beta[0] = 0.8;
      c.beta[1] = -0.6;
      c.init = TEST_INIT_PARABOLA; /* a non-zero mass */
      c.ts = (dg_ts_kind)ts;
      c.steps = 8;
      c.dt = 0.3 / maps[i].ny / (2 * m->rmax + 1);
      double *a, *b, *e;
      long na, nb, ne;
      test_result ra, rb, re;
      int ga, gb, ge;
      run_mode(&c, "team", "off", &ga, &a, &na, &ra);
      run_mode(&c, "team", "on", &gb, &b, &nb, &rb);
      run_mode(&c, "auto", "auto", &ge, &e, &ne, &re);
      CHECK(!ga && gb, "%s: own q off %d, on %d", what, ga, gb);
      /* the default: the backend's (it takes the team update for it) */
      const int want = default_own(&g, m, maps[i].q ? maps[i].q : m->rmax + 1);
      CHECK(ge == want, "%s: auto gave own q %d, expected %d", what, ge, want);
      CHECK(na == nb && na == ne, "%s: %ld, %ld and %ld coefficients", what, na, nb, ne);
      const double rel = test_rel_l2(a, b, na == nb ? na : 0);
      const double rele = test_rel_l2(a, e, na == ne ? na : 0);
      const double drift = fabs(rb.mass1 - rb.mass0) / fabs(rb.mass0);
      CHECK(rel <= 1e-13, "%s: common and own q differ by %.3e", what, rel);
      CHECK(rele <= 1e-13, "%s: common q and the default differ by %.3e", what, rele);
      CHECK(drift < 1e-13, "%s: own q mass drift %.3e", what, drift);
      if (rel > worst) worst = rel;
      if (rele > worst) worst = rele;
      cases++;
      if (ts == 0) {
        const double f0 = stage_flops(&c, "off"), f1 = stage_flops(&c, "on");
        printf("%s: counted flops per stage own / common q %.3f\n", what, f1 / f0);
        CHECK(f1 < f0, "%s: own q counts %.0f flops, common q %.0f", what, f1, f0);
      }
      free(a);
      free(b);
      free(e);
      dg_degree_map_destroy(&m);
    }
  printf("%d cases: common vs own q largest relative L2 difference %.3e\n", cases, worst);

  /* what DGRID_OWN_Q refuses */
  dg_grid g2;
  dg_degree_map *band, *uni;
  dg_model *mp;
  test_refusal_setup(&g2, 6, 12, &band, &uni, &mp, DG_VELOCITY_ROTATION);
  dg_disc *d = NULL;
  const char *need = "DGRID_OWN_Q=on needs a model that declares the r + 1 point rule exact "
                     "(linear, independent of x) and the team update with traces at degree "
                     "changes (DGRID_UPDATE=team on a 2D map with degree changes)";
  set("DGRID_UPDATE", "team");
  set("DGRID_OWN_Q", "on");
  CHECK(dg_disc_create(&d, dg_test_backend(), &g2, band, 0, mp) == DG_ERR_ARG && d == NULL,
        "own q with a rotating velocity was accepted");
  CHECK(strcmp(dg_error_message(), need) == 0, "message: %s", dg_error_message());
  dg_model_destroy(&mp);
  mp = test_velocity_model(DG_VELOCITY_CONSTANT);
  CHECK(dg_disc_create(&d, dg_test_backend(), &g2, uni, 0, mp) == DG_ERR_ARG && d == NULL,
        "own q on a uniform map was accepted");
  CHECK(strcmp(dg_error_message(), need) == 0, "message: %s", dg_error_message());
  set("DGRID_UPDATE", "element");
  CHECK(dg_disc_create(&d, dg_test_backend(), &g2, band, 0, mp) == DG_ERR_ARG && d == NULL,
        "own q with the element update was accepted");
  CHECK(strcmp(dg_error_message(), need) == 0, "message: %s", dg_error_message());
  set("DGRID_UPDATE", "team");
  set("DGRID_OWN_Q", "On");
  CHECK(dg_disc_create(&d, dg_test_backend(), &g2, band, 0, mp) == DG_ERR_ARG && d == NULL,
        "DGRID_OWN_Q=On was accepted");
  CHECK(strcmp(dg_error_message(), "DGRID_OWN_Q='On': expected off, on or auto") == 0,
        "message: %s", dg_error_message());
  unsetenv("DGRID_OWN_Q");
  unsetenv("DGRID_UPDATE");
  /* a nonlinear flux: own q would lose conservation, so it is refused */
  set("DGRID_UPDATE", "team");
  set("DGRID_OWN_Q", "on");
  {
    dg_model *bm = NULL;
    OK(dg_model_create(&bm, "burgers"));
    CHECK(dg_disc_create(&d, dg_test_backend(), &g2, band, 0, bm) == DG_ERR_ARG && d == NULL,
          "own q with Burgers' nonlinear flux was accepted");
    CHECK(strcmp(dg_error_message(), need) == 0, "message: %s", dg_error_message());
    dg_model_destroy(&bm);
  }
  unsetenv("DGRID_OWN_Q");
  unsetenv("DGRID_UPDATE");
  dg_degree_map_destroy(&band);
  dg_degree_map_destroy(&uni);
  dg_model_destroy(&mp);
  return dg_test_done("own_q");
}
