/* unit.convergence_{2d,3d}: smooth data, the L2 error rate is r+1 within 0.15
 * (r = 0: 1), with RK4 and a time step small enough that the time error is far
 * below the space error. */
#include "dg_test_run.h"

#include <string.h>

static double run(int dim, int n, int r, double T) {
  test_case c;
  test_case_default(&c, dim, n, r);
  const double h = 1.0 / n;
  /* dt well inside stability; RK4 time error ~ dt^4 stays below h^(r+1) */
  c.steps = (long)ceil(T / (0.1 * h / (2 * r + 1) / dim));
  c.dt = T / (double)c.steps;
  test_result res;
  test_run(&c, &res, NULL, NULL);
  return res.l2;
}

int main(int argc, char **argv) {
  const int dim = argc > 1 ? atoi(argv[1]) : 2;
  const int rlo = dim == 2 ? 0 : 1, rhi = dim == 2 ? 5 : 3;
  for (int r = rlo; r <= rhi; ++r) {
    /* grids on which the error is asymptotic but above round-off */
    int n1;
    if (dim == 2)
      n1 = r == 0 ? 32 : (r <= 2 ? 8 : 4);
    else
      n1 = r == 1 ? 8 : 4;
    const double T = 0.1;
    const double e1 = run(dim, n1, r, T), e2 = run(dim, 2 * n1, r, T);
    const double rate = log(e1 / e2) / log(2.0);
    const double want = r == 0 ? 1.0 : r + 1.0;
    printf("dim %d r %d: n=%d err %.3e, n=%d err %.3e, rate %.3f (want %.0f)\n", dim, r, n1, e1,
           2 * n1, e2, rate, want);
    CHECK(fabs(rate - want) <= 0.15, "dim %d degree %d: rate %.3f, expected %.0f +- 0.15", dim, r,
          rate, want);
  }
  return dg_test_done("convergence");
}
