/* dg_omp_svec_t.h - the OpenMP vector kernels, written once: dg_svec.c defines
 * DG_SR (real type) and DG_SN(name) (name with precision suffix) and
 * includes it per precision.  No include guard. */

double DG_SN(dg_omp_svec_dot)(long n, const DG_SR *x, const DG_SR *y) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < n; ++i) s += (double)x[i] * (double)y[i];
  return s;
}

void DG_SN(dg_omp_svec_axpy)(long n, DG_SR alpha, const DG_SR *x, DG_SR *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += alpha * x[i];
}

void DG_SN(dg_omp_svec_xpby)(long n, const DG_SR *x, DG_SR beta, DG_SR *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = x[i] + beta * y[i];
}

void DG_SN(dg_omp_svec_scale)(long n, DG_SR alpha, DG_SR *x) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) x[i] *= alpha;
}

void DG_SN(dg_omp_svec_mul)(long n, const DG_SR *x, const DG_SR *y, DG_SR *z) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) z[i] = x[i] * y[i];
}

void DG_SN(dg_omp_svec_copy)(long n, const DG_SR *x, DG_SR *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] = x[i];
}

void DG_SN(dg_omp_svec_zero)(long n, DG_SR *x) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) x[i] = 0;
}

void DG_SN(dg_omp_svec_cheb)(long n, DG_SR c1, DG_SR c2, const DG_SR *p, DG_SR *d, DG_SR *x,
                             int first) {
  if (first) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      d[i] = c2 * p[i];
      x[i] = d[i];
    }
  } else if (c1 == 0) { /* d is not read */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      d[i] = c2 * p[i];
      x[i] += d[i];
    }
  } else {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      d[i] = c1 * d[i] + c2 * p[i];
      x[i] += d[i];
    }
  }
}

void DG_SN(dg_omp_svec_cheb_add)(long n, DG_SR c1, DG_SR c2, const DG_SR *p, const DG_SR *d,
                                 const DG_SR *x, int first, double s, double *y) {
  if (first) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      const DG_SR xi = c2 * p[i];
      y[i] += s * (double)xi;
    }
  } else if (c1 == 0) { /* d is not read */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      const DG_SR di = c2 * p[i], xi = x[i] + di;
      y[i] += s * (double)xi;
    }
  } else {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      const DG_SR di = c1 * d[i] + c2 * p[i], xi = x[i] + di;
      y[i] += s * (double)xi;
    }
  }
}

double DG_SN(dg_omp_svec_cg_step)(long n, DG_SR alpha, const DG_SR *p, const DG_SR *q, DG_SR *x,
                                  DG_SR *r) {
  const DG_SR ma = -alpha;
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < n; ++i) {
    x[i] += alpha * p[i];
    r[i] += ma * q[i];
    s += (double)r[i] * (double)r[i];
  }
  return s;
}

void DG_SN(dg_omp_svec_gather)(long m, const long *idx, const DG_SR *x, DG_SR *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < m; ++i) y[i] = x[idx[i]];
}

void DG_SN(dg_omp_svec_scatter)(long m, const long *idx, const DG_SR *x, DG_SR *y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < m; ++i) y[idx[i]] = x[i];
}
