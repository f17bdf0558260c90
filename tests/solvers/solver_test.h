/* solver_test.h - dg_test.h for the solver tests: OK(call) waits for the
 * backend (dg_svec_sync: the CUDA backend returns before its kernels
 * finish), and every array comes from solver memory (device memory on
 * CUDA), with a host view (dg_svec_map) through which the test reads and
 * writes it: the memory itself on OpenMP, a copy on CUDA.  TALLOC(type, n)
 * makes both; TH(p) is p's view, TPULL(p) refreshes it from the device and
 * returns it, TPUSH(p) sends it to the device, TFREE(p) frees both. */
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

/* the views of a test's arrays */
typedef struct {
  void *d, *h;
  size_t bytes;
} t_view;
enum { T_MAXVIEW = 64 };
static t_view t_views[T_MAXVIEW];

static inline void t_die(const char *what) {
  printf("FAIL %s: %s\n", what, dg_error_message());
  exit(1);
}

/* solver memory for a test's array, zeroed, and its view */
static inline void *t_alloc(size_t bytes) {
  void *d = dg_svec_alloc(TEST_BE, bytes);
  if (!d) t_die("TALLOC");
  for (int i = 0; i < T_MAXVIEW; ++i)
    if (!t_views[i].d) {
      if (dg_svec_map(TEST_BE, d, bytes, DG_SVEC_WRITE, &t_views[i].h)) t_die("TALLOC's view");
      t_views[i].d = d;
      t_views[i].bytes = bytes;
      return d;
    }
  printf("FAIL TALLOC: more than %d test arrays at once\n", T_MAXVIEW);
  exit(1);
}
#define TALLOC(type, n) ((type *)t_alloc(sizeof(type) * (size_t)(n)))

static inline t_view *t_find(const void *d) {
  for (int i = 0; i < T_MAXVIEW; ++i)
    if (d && t_views[i].d == d) return &t_views[i];
  printf("FAIL: %p is not a test array (TALLOC)\n", d);
  exit(1);
}
#define TH(p) ((__typeof__(p))t_find(p)->h)

static inline void *t_pull(const void *d) {
  t_view *v = t_find(d);
  if (dg_svec_sync(TEST_BE) || (v->h != v->d && dg_svec_to_host(TEST_BE, v->h, d, v->bytes)))
    t_die("TPULL");
  return v->h;
}
#define TPULL(p) ((__typeof__(p))t_pull(p))

static inline void t_push(const void *d) {
  t_view *v = t_find(d);
  if (v->h != v->d && dg_svec_to_device(TEST_BE, v->d, v->h, v->bytes)) t_die("TPUSH");
}
#define TPUSH(p) t_push(p)

static inline void t_free(void *d) {
  if (!d) return;
  t_view *v = t_find(d);
  dg_svec_unmap(TEST_BE, v->d, v->h, 0, 0);
  dg_svec_free(TEST_BE, d);
  v->d = v->h = NULL;
}
#define TFREE(p) t_free(p)

#endif
