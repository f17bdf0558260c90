/* unit.uniform_paths: a uniform degree map gives bitwise the same result
 * whichever way it was made (uniform constructor, callback, file, band with
 * min = max, random with min = max), for every integrator. */
#include "dg_test_run.h"

#include <string.h>

static int const_deg(const int ijk[3], const double xc[3], void *ctx) {
  (void)ijk;
  (void)xc;
  return *(const int *)ctx;
}

int main(void) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int ts = 0; ts < DG_TS_COUNT; ++ts) {
      const int r = dim == 2 ? 3 : 2;
      test_case c;
      test_case_default(&c, dim, dim == 2 ? 9 : 5, r);
      c.velocity = ts % 2 ? DG_VELOCITY_ROTATION : DG_VELOCITY_CONSTANT;
      c.init = TEST_INIT_BELL;
      c.ts = (dg_ts_kind)ts;
      c.steps = 20;
      c.dt = 0.002;
      dg_grid g;
      OK(dg_grid_init(&g, dim, c.n, c.lo, c.hi));
      dg_degree_map *maps[5];
      int rr = r;
      OK(dg_degree_map_create_uniform(&maps[0], &g, r));
      OK(dg_degree_map_create_callback(&maps[1], &g, const_deg, &rr));
      const char *path = "uniform_map.txt";
      OK(dg_degree_map_write(maps[0], &g, path));
      OK(dg_degree_map_create_file(&maps[2], &g, path));
      OK(dg_degree_map_create_band(&maps[3], &g, r, r));
      OK(dg_degree_map_create_random(&maps[4], &g, r, r, 99));
      double *ref = NULL;
      long len = 0;
      for (int k = 0; k < 5; ++k) {
        c.map = maps[k];
        test_result res;
        dg_disc *d;
        dg_field *u;
        test_run(&c, &res, &d, &u);
        OK(dg_field_to_host(u));
        if (k == 0) {
          len = u->n;
          ref = malloc(sizeof(double) * (size_t)len);
          for (long i = 0; i < len; ++i) ref[i] = u->h[i];
        } else {
          long diff = 0;
          for (long i = 0; i < len; ++i) diff += u->h[i] != ref[i];
          CHECK(u->n == len && diff == 0, "dim %d %s: map kind %d differs in %ld coefficients", dim,
                dg_ts_name(c.ts), k, diff);
        }
        dg_field_destroy(&u);
        dg_disc_destroy(&d);
      }
      printf("dim %d %s: 5 constructions of a uniform degree-%d map agree bitwise\n", dim,
             dg_ts_name(c.ts), r);
      free(ref);
      for (int k = 0; k < 5; ++k) dg_degree_map_destroy(&maps[k]);
    }
  return dg_test_done("uniform_paths");
}
