/* test_xsum.c - unit.xsum: exact sums (core/dg_xsum.h), the ground under
 * sums that do not depend on the number of ranks: cancellation, rounding
 * ties, subnormals, overflow, infinities and NaN, the same bits in any
 * order and in any grouping, and the correctly rounded sum against one
 * computed exactly in 128-bit floating point. */
#include "dg_test.h"

#include "dg_comm.h"
#include "dg_xsum.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

static double xs(const double *v, int n) {
  dg_xsum s;
  dg_xsum_init(&s);
  dg_xsum_add_n(&s, v, n, 1);
  return dg_xsum_value(&s);
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

#define CHECK_BITS(got, want, what)                                                                \
  CHECK(same_bits((got), (want)), "%s: %a, not %a", what, (got), (want))

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void test_cases(void) {
  const double a[] = {1e100, 1, -1e100};
  CHECK_BITS(xs(a, 3), 1.0, "1e100 + 1 - 1e100");
  const double t53 = 9007199254740992.0; /* 2^53 */
  const double tie[] = {t53, 1};
  CHECK_BITS(xs(tie, 2), t53, "2^53 + 1 (a tie, to even)");
  const double tie3[] = {t53, 1, 0x1p-1000};
  CHECK_BITS(xs(tie3, 3), t53 + 2, "2^53 + 1 + 2^-1000 (above the tie)");
  const double tie_odd[] = {t53 + 2, 1};
  CHECK_BITS(xs(tie_odd, 2), t53 + 4, "2^53 + 3 (a tie, to even upward)");
  const double neg[] = {-t53, -1, -0x1p-1000};
  CHECK_BITS(xs(neg, 3), -(t53 + 2), "-(2^53 + 1 + 2^-1000)");
  const double sub[] = {DBL_TRUE_MIN, DBL_TRUE_MIN, DBL_MIN, -DBL_TRUE_MIN};
  CHECK_BITS(xs(sub, 4), DBL_MIN + DBL_TRUE_MIN, "subnormals");
  const double big[] = {DBL_MAX, DBL_MAX, -DBL_MAX};
  CHECK_BITS(xs(big, 3), DBL_MAX, "DBL_MAX + DBL_MAX - DBL_MAX (no overflow inside)");
  const double over[] = {DBL_MAX, DBL_MAX};
  CHECK_BITS(xs(over, 2), (double)INFINITY, "DBL_MAX + DBL_MAX");
  const double edge[] = {DBL_MAX, 0x1p970}; /* half an ulp of DBL_MAX: a tie, to even = up */
  CHECK_BITS(xs(edge, 2), (double)INFINITY, "DBL_MAX + half an ulp");
  const double below[] = {DBL_MAX, 0x1p969};
  CHECK_BITS(xs(below, 2), DBL_MAX, "DBL_MAX + a quarter ulp");
  const double zero[] = {0.5, -0.25, -0.25, 0.0, -0.0};
  CHECK_BITS(xs(zero, 5), 0.0, "an exact zero");
  CHECK_BITS(xs(zero, 0), 0.0, "the empty sum");
  const double inf[] = {1, INFINITY, -5};
  CHECK_BITS(xs(inf, 3), (double)INFINITY, "1 + inf - 5");
  const double ninf[] = {-INFINITY, DBL_MAX};
  CHECK_BITS(xs(ninf, 2), -(double)INFINITY, "-inf + DBL_MAX");
  const double both[] = {INFINITY, -INFINITY};
  CHECK(isnan(xs(both, 2)), "inf - inf: %g, not NaN", xs(both, 2));
  const double nan[] = {1, NAN, 2};
  CHECK(isnan(xs(nan, 3)), "1 + NaN + 2: %g, not NaN", xs(nan, 3));
}

/* Wide exponents and both signs: the same bits forwards, backwards,
 * shuffled, and merged from chunks of every size (as ranks would). */
static void test_orders(void) {
  enum { N = 100003 };
  double *v = malloc(N * sizeof *v);
  if (!v) exit(1);
  uint64_t seed = 42;
  for (int i = 0; i < N; ++i) {
    const uint64_t r = splitmix(&seed);
    const double m = (double)(r >> 11) * 0x1p-53; /* [0, 1) */
    const int e = (int)(r % 200) - 100;
    v[i] = (r & 1 ? -1 : 1) * ldexp(m, e);
  }
  const double fwd = xs(v, N);
  dg_xsum s;
  dg_xsum_init(&s);
  for (int i = N - 1; i >= 0; --i) dg_xsum_add(&s, v[i]);
  CHECK_BITS(dg_xsum_value(&s), fwd, "backwards");
  for (int i = N - 1; i > 0; --i) { /* Fisher-Yates */
    const int j = (int)(splitmix(&seed) % (uint64_t)(i + 1));
    const double t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
  CHECK_BITS(xs(v, N), fwd, "shuffled");
  const int chunks[] = {1, 2, 3, 7, 16, 1000};
  for (int c = 0; c < 6; ++c) {
    dg_xsum total;
    dg_xsum_init(&total);
    for (int k = 0; k < chunks[c]; ++k) {
      const long lo = (long)N * k / chunks[c], hi = (long)N * (k + 1) / chunks[c];
      dg_xsum part;
      dg_xsum_init(&part);
      dg_xsum_add_n(&part, v + lo, hi - lo, 1);
      dg_xsum_merge(&total, &part);
    }
    char what[64];
    snprintf(what, sizeof what, "merged from %d chunks", chunks[c]);
    CHECK_BITS(dg_xsum_value(&total), fwd, what);
  }
  /* the naive sum differs in the last bits: that is why the accumulator */
  double naive = 0;
  for (int i = 0; i < N; ++i) naive += v[i];
  printf("exact %a, naive shuffled %a\n", fwd, naive);
  free(v);
}

#ifdef __SIZEOF_FLOAT128__
/* Values on the grid of 2^-60 below 2^40: a 128-bit float (113 bits) adds
 * 10^5 of them exactly, and one rounding to double is the right answer. */
static void test_rounding(void) {
  uint64_t seed = 7;
  for (int trial = 0; trial < 200; ++trial) {
    enum { N = 1000 };
    double v[N];
    __float128 q = 0;
    for (int i = 0; i < N; ++i) {
      const uint64_t r = splitmix(&seed);
      const int e = (int)(r % 100) - 60; /* 2^-60 .. 2^40 */
      v[i] = (r & 1 ? -1 : 1) * ldexp((double)(splitmix(&seed) >> 11), e - 53);
      v[i] = ldexp(nearbyint(ldexp(v[i], 60)), -60);
      q += v[i];
    }
    char what[64];
    snprintf(what, sizeof what, "trial %d against __float128", trial);
    CHECK_BITS(xs(v, N), (double)q, what);
  }
}
#endif

/* The one-rank communicator: reductions are the identity, agree passes rc. */
static void test_self(void) {
  dg_comm *c = NULL;
  OK(dg_comm_create_self(&c));
  CHECK(dg_comm_rank(c) == 0 && dg_comm_size(c) == 1, "self: rank %d of %d", dg_comm_rank(c),
        dg_comm_size(c));
  double in[3] = {1.5, NAN, -2}, out[3];
  OK(dg_comm_allreduce_max(c, in, out, 3));
  CHECK(out[0] == 1.5 && isnan(out[1]) && out[2] == -2, "self max: %g %g %g", out[0], out[1],
        out[2]);
  OK(dg_comm_allreduce_sum(c, in, out, 3));
  CHECK(out[0] == 1.5 && isnan(out[1]) && out[2] == -2, "self sum: %g %g %g", out[0], out[1],
        out[2]);
  dg_error(DG_ERR_IO, "x.h5: missing");
  CHECK(dg_comm_agree(c, DG_ERR_IO) == DG_ERR_IO && !strcmp(dg_error_message(), "x.h5: missing"),
        "self agree: %s", dg_error_message());
  CHECK(dg_comm_agree(c, 0) == 0, "self agree on success");
  OK(dg_comm_destroy(&c));
  CHECK(c == NULL, "destroy leaves the handle set");
  printf("built %s MPI\n", dg_comm_mpi_built() ? "with" : "without");
}

int main(void) {
  test_cases();
  test_orders();
#ifdef __SIZEOF_FLOAT128__
  test_rounding();
#endif
  test_self();
  return dg_test_done("unit.xsum");
}
