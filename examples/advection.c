/* advection.c - dgrid used as a library: a Gaussian hump carried once across
 * a periodic box by linear advection, on a degree map that a callback sets
 * (degree 3 in the middle band of rows, 2 elsewhere).
 *
 *   advection [N [OUT]]   N x N elements (default 16); OUT: also write the
 *                         degree map to OUT.map (the file format of advect
 *                         --map-file) and the solution to OUT.h5 (a snapshot:
 *                         docs/FILE_FORMAT.md), and read that back
 *
 * It checks what could go wrong and exits 1 if a check fails: the L2 error
 * against the exact solution (and the same error from the solution read back
 * at points of its own choosing), mass conservation to round-off (and the mass
 * from the element means read back), and the snapshot's coefficients.  Bad
 * arguments: exit 2. */
#include <dgrid/dgrid.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define WIDTH 0.15 /* the hump's width: exp(-r^2 / WIDTH^2) */

/* The hump centred in the unit box, carried with velocity beta until time t
 * (wrapped periodically): the initial data (t = 0) and the exact solution. */
typedef struct {
  double beta[2];
  double t;
} hump;

static double hump_at(const double x[3], int v, void *ctx) {
  const hump *h = (const hump *)ctx;
  double r2 = 0;
  for (int d = 0; d < 2; ++d) {
    const double y = x[d] - h->beta[d] * h->t;
    const double dy = y - floor(y) - 0.5;
    r2 += dy * dy;
  }
  (void)v;
  return exp(-r2 / (WIDTH * WIDTH));
}

/* The degree map's callback: element (i,j,k) with centre c gets this degree. */
static int band_degree(const int ijk[3], const double c[3], void *ctx) {
  (void)ijk;
  (void)ctx;
  return fabs(c[1] - 0.5) < 0.25 ? 3 : 2;
}

/* Print dgrid's message for a failed call and give up. */
#define TRY(call)                                                                                  \
  do {                                                                                             \
    if ((call) != 0) {                                                                             \
      fprintf(stderr, "advection: %s\n", dg_error_message());                                      \
      goto out;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  long n = 16;
  char *end = NULL;
  if (argc > 1) n = strtol(argv[1], &end, 10);
  if (argc > 3 || (argc > 1 && (end == argv[1] || *end != '\0')) || n < 1 || n > 4096) {
    fprintf(stderr, "advection: usage: advection [N (1..4096 elements per direction) [OUT]]\n");
    return 2;
  }
  int status = 1;
  dg_degree_map *map = NULL;
  dg_backend *be = NULL;
  dg_model *model = NULL;
  dg_disc *disc = NULL;
  dg_field *u = NULL;
  dg_ts *ts = NULL;
  double *vals = NULL, *coeffs = NULL;
  dg_snapshot snap = {0}, back = {0};
  char path[4096];

  /* 1. the periodic unit box, n x n elements, and the degree map */
  dg_grid grid;
  const int cells[3] = {(int)n, (int)n, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  TRY(dg_grid_init(&grid, 2, cells, lo, hi));
  TRY(dg_degree_map_create_callback(&map, &grid, band_degree, NULL));
  if (argc > 2) {
    snprintf(path, sizeof path, "%s.map", argv[2]);
    TRY(dg_degree_map_write(map, &grid, path));
  }

  /* 2. the model: constant velocity (1, 0.5); its exact solution (for
   * dg_error_norms) is set to the same hump as ours */
  hump h = {{1.0, 0.5}, 0.0};
  TRY(dg_model_create(&model, "advection"));
  TRY(dg_model_set(model, "beta", "1,0.5"));
  TRY(dg_model_set(model, "init", "gauss"));
  TRY(dg_model_set(model, "bell-centre", "0.5,0.5"));
  TRY(dg_model_set(model, "bell-radius", "0.15"));
  TRY(dg_model_set(model, "bell-height", "1"));

  /* 3. the backend (NULL: DGRID_BACKEND, else the build's default; "omp",
   * "cuda" or "cuda:1" to choose), the discretisation on it (q = 0: rmax + 1
   * Gauss points) and the field, projected from our own initial data */
  TRY(dg_backend_create(&be, NULL));
  TRY(dg_disc_create(&disc, be, &grid, map, 0, model));
  TRY(dg_field_create(&u, disc));
  TRY(dg_project(disc, u, hump_at, &h));
  double mass0, mass;
  TRY(dg_mass(disc, u, &mass0));

  /* 4. SSP-RK3 to t = 1 (once across in x, half in y), a step of 0.3 times
   * the stable estimate, rounded so that the steps end at t = 1 */
  const double t_end = 1.0;
  double dt;
  TRY(dg_disc_stable_dt(disc, u, 0.0, &dt));
  const long steps = (long)ceil(t_end / (0.3 * dt));
  dt = t_end / (double)steps;
  TRY(dg_ts_create(&ts, disc, DG_TS_SSPRK3));
  double t = 0;
  for (long s = 0; s < steps; ++s) {
    TRY(dg_ts_step(ts, u, t, dt));
    t = (double)(s + 1) * dt;
  }

  /* 5. read the solution back: dgrid's error norms (against the model's
   * exact solution, Q + 3 Gauss points) ... */
  double l2, linf;
  TRY(dg_error_norms(disc, u, t, &l2, &linf));
  TRY(dg_mass(disc, u, &mass));
  /* ... and our own, from the values at the 5 x 5 Gauss-Legendre points of
   * every element (exact for polynomials of degree 9 per direction: the mass
   * of a solution of degree 3 comes out exactly) against our exact solution, */
  enum { NP = 5 };
  const double a = sqrt(5.0 - 2.0 * sqrt(10.0 / 7.0)) / 3.0,
               b = sqrt(5.0 + 2.0 * sqrt(10.0 / 7.0)) / 3.0;
  const double wa = (322.0 + 13.0 * sqrt(70.0)) / 900.0, wb = (322.0 - 13.0 * sqrt(70.0)) / 900.0;
  const double x1d[NP] = {-b, -a, 0.0, a, b}, w1d[NP] = {wb, wa, 128.0 / 225.0, wa, wb};
  vals = malloc(sizeof *vals * (size_t)grid.nelem * NP * NP);
  coeffs = malloc(sizeof *coeffs * (DG_MAX_DEGREE + 1) * (DG_MAX_DEGREE + 1));
  if (!vals || !coeffs) {
    fprintf(stderr, "advection: out of memory\n");
    goto out;
  }
  TRY(dg_sample(disc, u, NP, x1d, vals));
  h.t = t;
  double sq = 0, mass_sampled = 0, mass_means = 0;
  const double jac = grid.h[0] * grid.h[1] / 4; /* reference square -> element */
  for (long e = 0; e < grid.nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(&grid, e, ijk);
    for (int p = 0; p < NP * NP; ++p) {
      const int px = p % NP, py = p / NP; /* points x-fastest */
      const double x[3] = {lo[0] + grid.h[0] * (ijk[0] + 0.5 * (x1d[px] + 1)),
                           lo[1] + grid.h[1] * (ijk[1] + 0.5 * (x1d[py] + 1)), 0};
      const double uh = vals[e * NP * NP + p], err = uh - hump_at(x, 0, &h);
      sq += w1d[px] * w1d[py] * jac * err * err;
      mass_sampled += w1d[px] * w1d[py] * jac * uh;
    }
    /* ... and the mass from the element means: the coefficient of P_0 P_0 */
    TRY(dg_element_coeffs(disc, u, e, coeffs));
    mass_means += coeffs[0] * 4 * jac;
  }
  const double l2_sampled = sqrt(sq), drift = mass - mass0;

  printf("advection: cells=%ldx%ld degrees=%d..%d dofs=%ld steps=%ld dt=%.17g t=%.17g\n", n, n,
         map->rmin, map->rmax, dg_disc_ndofs(disc), steps, dt, t);
  printf("advection: l2_error=%.6e l2_sampled=%.6e linf_error=%.6e\n", l2, l2_sampled, linf);
  printf("advection: mass0=%.17g mass=%.17g mass_drift=%.3e\n", mass0, mass, drift);
  printf("advection: mass_sampled=%.17g mass_means=%.17g\n", mass_sampled, mass_means);

  /* 6. the snapshot: written (HDF5, atomically) and read back */
  long snap_diff = 0;
  if (argc > 2) {
    snprintf(path, sizeof path, "%s.h5", argv[2]);
    TRY(dg_snapshot_from_field(&snap, disc, u, t, steps, 0, 0));
    TRY(dg_snapshot_write(path, &snap));
    TRY(dg_snapshot_read(path, &back));
    for (long e = 0; e < grid.nelem; ++e) {
      TRY(dg_element_coeffs(disc, u, e, coeffs));
      const int64_t off = back.coeff_offset[e], len = back.coeff_offset[e + 1] - off;
      const int r = map->deg[e];
      if (back.degree[e] != r || len != (r + 1) * (r + 1)) {
        ++snap_diff;
        continue;
      }
      for (int64_t i = 0; i < len; ++i) snap_diff += back.coeff[off + i] != coeffs[i];
    }
    printf("advection: snapshot=%s time=%.17g step=%lld coefficients_differing=%ld\n", path,
           back.time, (long long)back.step, snap_diff);
  }

  /* 7. the checks */
  status = 0;
  if (!(fabs(l2_sampled - l2) <= 1e-3 * l2)) {
    fprintf(stderr,
            "advection: FAIL: the sampled L2 error %.3e differs from dg_error_norms' %.3e\n",
            l2_sampled, l2);
    status = 1;
  }
  if (!(fabs(drift) <= 1e-12 * fabs(mass0))) {
    fprintf(stderr, "advection: FAIL: mass drifted by %.3e (of %.6e)\n", drift, mass0);
    status = 1;
  }
  if (!(fabs(mass_means - mass) <= 1e-13 * fabs(mass) &&
        fabs(mass_sampled - mass) <= 1e-13 * fabs(mass))) {
    fprintf(stderr,
            "advection: FAIL: the mass read back (element means %.17g, point values %.17g) "
            "differs from dg_mass' %.17g\n",
            mass_means, mass_sampled, mass);
    status = 1;
  }
  if (argc > 2 && (snap_diff != 0 || back.time != t || back.step != steps)) {
    fprintf(stderr, "advection: FAIL: the snapshot read back differs (%ld coefficients)\n",
            snap_diff);
    status = 1;
  }
  if (!(l2 < 0.05)) {
    fprintf(stderr, "advection: FAIL: L2 error %.3e (the hump is 1 high)\n", l2);
    status = 1;
  }

out:
  dg_snapshot_free(&back);
  dg_snapshot_free(&snap);
  free(coeffs);
  free(vals);
  dg_ts_destroy(&ts);
  dg_field_destroy(&u);
  dg_disc_destroy(&disc);
  dg_backend_destroy(&be);
  dg_model_destroy(&model);
  dg_degree_map_destroy(&map);
  return status;
}
