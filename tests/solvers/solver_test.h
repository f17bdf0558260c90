/* solver_test.h - dg_test.h for the solver tests: the tests read vectors on
 * the host right after a solver call, so OK(call) waits for the backend
 * (dg_svec_sync: the CUDA backend returns before its kernels finish), and
 * every array comes from solver memory (device-visible on CUDA). */
#ifndef SOLVER_TEST_H
#define SOLVER_TEST_H

#include "dg_svec.h"
#include "dg_test.h"

/* the backend every test solves on (DGRID_BACKEND, else the build's default) */
#define TEST_BE dg_test_backend()

#undef OK
#define OK(call)                                                                                   \
  do {                                                                                             \
    if ((call) != 0 || dg_svec_sync(TEST_BE) != 0) {                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, dg_error_message());               \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* solver memory for a test's arrays, zeroed */
#define TALLOC(type, n) ((type *)dg_svec_alloc(TEST_BE, sizeof(type) * (size_t)(n)))

#endif
