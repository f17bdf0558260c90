/* dg_test.h - the one tolerance helper and check macros for the C tests. */
#ifndef DG_TEST_H
#define DG_TEST_H

#include "dg_backends.h"
#include "dg_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int dg_test_failures;

/* |a-b| <= atol + rtol*|b| */
static inline int dg_close(double a, double b, double atol, double rtol) {
  return fabs(a - b) <= atol + rtol * fabs(b);
}

/* || a - b || / || a || over n values (|| a - b || when a is 0). */
static inline double test_rel_l2(const double *a, const double *b, long n) {
  double num = 0, den = 0;
  for (long i = 0; i < n; ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += a[i] * a[i];
  }
  return sqrt(num / (den > 0 ? den : 1));
}

/* The backend a test runs on: DGRID_BACKEND, else the build's default
 * (dg_backend_create with NULL); made once, released at exit. */
static dg_backend *dg_test_be_;
static inline void dg_test_backend_free(void) { dg_backend_destroy(&dg_test_be_); }
static inline const dg_backend *dg_test_backend(void) {
  if (!dg_test_be_) {
    if (dg_backend_create(&dg_test_be_, NULL)) {
      printf("FAIL: no backend: %s\n", dg_error_message());
      exit(1);
    }
    atexit(dg_test_backend_free);
  }
  return dg_test_be_;
}

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                  \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
      dg_test_failures++;                                                                          \
    }                                                                                              \
  } while (0)

#define CHECK_CLOSE(a, b, atol, rtol, what)                                                        \
  CHECK(dg_close((a), (b), (atol), (rtol)), "%s: %.17g vs %.17g", what, (double)(a), (double)(b))

#define OK(call)                                                                                   \
  do {                                                                                             \
    if ((call) != 0) {                                                                             \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, dg_error_message());               \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static inline int dg_test_done(const char *name) {
  if (dg_test_failures) {
    printf("%s: %d check(s) failed\n", name, dg_test_failures);
    return 1;
  }
  printf("%s: all checks passed\n", name);
  return 0;
}

#endif
