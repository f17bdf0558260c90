/* dg_svec_omp.c - the OpenMP backend's solver vectors: host memory and OpenMP
 * loops over entries (dg_svec_t.h, per precision). */
#include "dg_solver_omp.h"
#include "dg_svec_pool.h"

#include "dg_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The allocator's plan, as on the CUDA backend (backends/cuda/dg_svec_cuda.cu;
   the bookkeeping is backends/dg_svec_pool.h): a solve allocates and frees
   the same sizes again and again (CG's four vectors per solve, an implicit
   step's per stage), and a fresh block of calloc is fresh pages, populated
   one fault at a time by whichever thread touches them first, a cost paid
   again by every solve (docs/ARCHITECTURE.md, "Solver memory").  Freed
   blocks wait in a small cache and are handed out again for the same size, cleared by the
   threads in the vector kernels' static schedule (so each page stays with
   the thread that uses it).  One host thread calls the solvers. */
static int svec_rc = 0; /* first failure (sticky) */
static dg_svec_pool pool;

static void clear(void *p, size_t b) {
  unsigned char *c = (unsigned char *)p;
  const long nchunk = (long)((b + 4095) / 4096);
#pragma omp parallel for schedule(static)
  for (long k = 0; k < nchunk; ++k) {
    const size_t o = (size_t)k * 4096, len = b - o < 4096 ? b - o : 4096;
    memset(c + o, 0, len);
  }
}

void *dg_omp_svec_alloc(size_t bytes) {
  const size_t b = bytes ? bytes : 1;
  void *p = dg_svec_pool_take(&pool, b);
  const int reused = p != NULL;
  if (!p) p = calloc(b, 1);
  if (!p) { /* the cached blocks back to the C library, and once more */
    size_t ob;
    void *q;
    while ((q = dg_svec_pool_pop(&pool, &ob)) != NULL) free(q);
    p = calloc(b, 1);
  }
  if (!p) {
    dg_error(DG_ERR_MEM, "solver memory: out of memory (%zu bytes)", bytes);
    return NULL;
  }
  if (dg_svec_pool_add(&pool, p, b)) {
    free(p);
    return NULL;
  }
  if (reused) clear(p, b); /* zeroed, as calloc's */
  return p;
}

void dg_omp_svec_free(void *p) {
  if (!p) return;
  const size_t b = dg_svec_pool_remove(&pool, p);
  if (!b) { /* not handed out: the pool recorded the message */
    if (!svec_rc) svec_rc = DG_ERR_ARG;
    return;
  }
  size_t ob;
  free(dg_svec_pool_put(&pool, p, b, &ob));
}

int dg_omp_svec_sync(void) { return svec_rc; }
int dg_omp_svec_status(void) { return svec_rc; }

/* Solver memory is host memory: the copies are plain. */
int dg_omp_svec_to_host(void *h, const void *d, size_t bytes) {
  if (bytes) memcpy(h, d, bytes);
  return 0;
}
int dg_omp_svec_to_device(void *d, const void *h, size_t bytes) {
  if (bytes) memcpy(d, h, bytes);
  return 0;
}

/* defines (dg_svec_t.h): dg_omp_svec_axpy_d dg_omp_svec_cg_step_d dg_omp_svec_cheb_d
   dg_omp_svec_cheb_add_d dg_omp_svec_copy_d dg_omp_svec_dot_d dg_omp_svec_gather_d
   dg_omp_svec_mul_d dg_omp_svec_scale_d dg_omp_svec_scatter_d dg_omp_svec_xpby_d
   dg_omp_svec_zero_d */
#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_svec_t.h"
#undef DG_SR
#undef DG_SN

/* defines (dg_svec_t.h): dg_omp_svec_axpy_f dg_omp_svec_cg_step_f dg_omp_svec_cheb_f
   dg_omp_svec_cheb_add_f dg_omp_svec_copy_f dg_omp_svec_dot_f dg_omp_svec_gather_f
   dg_omp_svec_mul_f dg_omp_svec_scale_f dg_omp_svec_scatter_f dg_omp_svec_xpby_f
   dg_omp_svec_zero_f */
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_svec_t.h"
#undef DG_SR
#undef DG_SN

double dg_omp_svec_amax_d(long n, const double *x) {
  double m = 0;
  /* a compare, not fmax: it vectorises (fmax's NaN rule keeps it scalar and
     serial); NaN entries are skipped either way */
#pragma omp parallel for simd reduction(max : m) schedule(static)
  for (long i = 0; i < n; ++i) {
    const double a = fabs(x[i]);
    m = a > m ? a : m;
  }
  return m;
}

void dg_omp_svec_to_f(long n, double scale, const double *x, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = (float)(scale * x[i]);
}

void dg_omp_svec_from_f(long n, double scale, const float *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = scale * (double)x[i];
}

void dg_omp_svec_add_from_f(long n, double scale, const float *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += scale * (double)x[i];
}

void dg_omp_svec_resid_to_f(long n, double scale, const double *b, const double *t, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = (float)(scale * (b[i] - t[i]));
}

void dg_omp_svec_scatter_add_d(long m, const long *idx, double c, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < m; ++i) y[idx[i]] += c;
}

void dg_omp_svec_symv_d(long n, const double *A, const double *x, double *y) {
#pragma omp parallel for schedule(static) if (n > 256)
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (long k = 0; k < n; ++k) s += A[k * n + i] * x[k];
    y[i] = s;
  }
}
