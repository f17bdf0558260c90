/* dg_svec.c - the OpenMP backend's solver vectors: host memory and OpenMP
 * loops over entries (dg_svec_t.h, per precision). */
#include "dg_svec.h"

#include "dg_error.h"

#include <math.h>
#include <stdlib.h>

void *dg_svec_alloc(size_t bytes) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p) dg_error(DG_ERR_MEM, "solver memory: out of memory (%zu bytes)", bytes);
  return p;
}

void dg_svec_free(void *p) { free(p); }
int dg_svec_sync(void) { return 0; }
int dg_svec_status(void) { return 0; }

#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_svec_t.h"
#undef DG_SR
#undef DG_SN

#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_svec_t.h"
#undef DG_SR
#undef DG_SN

double dg_svec_amax_d(long n, const double *x) {
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

void dg_svec_to_f(long n, double scale, const double *x, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = (float)(scale * x[i]);
}

void dg_svec_from_f(long n, double scale, const float *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = scale * (double)x[i];
}

void dg_svec_add_from_f(long n, double scale, const float *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += scale * (double)x[i];
}

void dg_svec_resid_to_f(long n, double scale, const double *b, const double *t, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = (float)(scale * (b[i] - t[i]));
}

void dg_svec_symv_d(long n, const double *A, const double *x, double *y) {
#pragma omp parallel for schedule(static) if (n > 256)
  for (long i = 0; i < n; ++i) {
    double s = 0;
    for (long k = 0; k < n; ++k) s += A[k * n + i] * x[k];
    y[i] = s;
  }
}
