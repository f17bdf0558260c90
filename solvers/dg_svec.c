/* dg_svec.c - vector kernels (OpenMP loops over entries). */
#include "dg_svec.h"

#include <math.h>

double dg_svec_dot_d(long n, const double *x, const double *y) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}

double dg_svec_dot_f(long n, const float *x, const float *y) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < n; ++i) s += (double)x[i] * (double)y[i];
  return s;
}

double dg_svec_amax_d(long n, const double *x) {
  double m = 0;
#pragma omp parallel for reduction(max : m) schedule(static)
  for (long i = 0; i < n; ++i) m = fmax(m, fabs(x[i]));
  return m;
}

void dg_svec_axpy_d(long n, double alpha, const double *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += alpha * x[i];
}

void dg_svec_axpy_f(long n, float alpha, const float *x, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += alpha * x[i];
}

void dg_svec_xpby_d(long n, const double *x, double beta, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = x[i] + beta * y[i];
}

void dg_svec_xpby_f(long n, const float *x, float beta, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = x[i] + beta * y[i];
}

void dg_svec_mul_d(long n, const double *x, const double *y, double *z) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) z[i] = x[i] * y[i];
}

void dg_svec_mul_f(long n, const float *x, const float *y, float *z) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) z[i] = x[i] * y[i];
}

void dg_svec_copy_d(long n, const double *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = x[i];
}

void dg_svec_copy_f(long n, const float *x, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = x[i];
}

void dg_svec_zero_d(long n, double *x) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) x[i] = 0;
}

void dg_svec_zero_f(long n, float *x) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) x[i] = 0;
}

void dg_svec_to_f(long n, double scale, const double *x, float *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = (float)(scale * x[i]);
}

void dg_svec_add_from_f(long n, double scale, const float *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += scale * (double)x[i];
}
