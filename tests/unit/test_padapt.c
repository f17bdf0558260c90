/* unit.padapt: p-adaptivity pays.  A band map 1..4 on 200x200 needs clearly
 * fewer DOFs and operations than uniform degree 4 (counted from the
 * sum-factorisation formulas, not timed), and for a bell inside the degree-4
 * band its error stays within 20% of the uniform-4 error. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "dg_test_run.h"

#include <stdlib.h>
#include <string.h>

int main(void) {
  const int n = 200;
  /* like for like: the band map reads face traces, so uniform 4 does too
     (a backend may read the neighbours' coefficients on uniform maps) */
  OK(setenv("DGRID_NEIGHBOURS", "traces", 1) ? DG_ERR_ARG : 0);
  test_case c;
  test_case_default(&c, 2, n, 4);
  c.init = TEST_INIT_BELL;
  c.beta[0] = 1.0;
  c.beta[1] = 0.25; /* the bell travels mostly along the band */
  c.ts = DG_TS_SSPRK3;
  c.dt = 0.4 / n / 9;
  c.steps = 60;
  c.bell_centre[0] = 0.3;
  c.bell_centre[1] = 0.5;
  c.bell_radius = 0.1;
  dg_grid g;
  OK(dg_grid_init(&g, 2, c.n, c.lo, c.hi));
  dg_degree_map *band;
  OK(dg_degree_map_create_band(&band, &g, 1, 4));
  /* the band map is latitude-like: 1 at the y-boundaries, 4 in the middle */
  CHECK(band->deg[0] == 1 && band->deg[(long)n * (n / 2)] == 4, "band map ends %d, middle %d",
        band->deg[0], band->deg[(long)n * (n / 2)]);
  for (long e = n; e < g.nelem; ++e)
    CHECK(abs(band->deg[e] - band->deg[e - n]) <= 1, "band map jumps by more than one at %ld", e);

  test_result ru, rb;
  dg_disc *du, *db;
  dg_field *uu, *ub;
  test_run(&c, &ru, &du, &uu);
  c.map = band;
  test_run(&c, &rb, &db, &ub);
  /* the bell sits in the degree-4 rows: centre y = 0.5, radius 0.1 */
  const dg_work wu = dg_disc_work(du, 1), wb = dg_disc_work(db, 1);
  const double dof_ratio = (double)wb.dofs / (double)wu.dofs;
  const double flop_ratio = wb.flops / wu.flops, byte_ratio = wb.bytes_moved / wu.bytes_moved;
  printf("band 1..4 / uniform 4: dofs %.3f, flops %.3f, bytes %.3f; L2 error %.4e vs %.4e\n",
         dof_ratio, flop_ratio, byte_ratio, rb.l2, ru.l2);
  CHECK(dof_ratio < 0.6, "band map keeps %.3f of the DOFs", dof_ratio);
  CHECK(flop_ratio < 0.75, "band map costs %.3f of the flops of uniform 4", flop_ratio);
  CHECK(byte_ratio < 0.75, "band map moves %.3f of the bytes of uniform 4", byte_ratio);
  CHECK(rb.l2 <= 1.2 * ru.l2, "band error %.4e exceeds 1.2 x uniform %.4e", rb.l2, ru.l2);
  CHECK(ru.l2 > 0 && rb.l2 > 0, "zero error is suspicious");
  dg_field_destroy(&uu);
  dg_field_destroy(&ub);
  dg_disc_destroy(&du);
  dg_disc_destroy(&db);
  dg_degree_map_destroy(&band);
  return dg_test_done("padapt");
}
