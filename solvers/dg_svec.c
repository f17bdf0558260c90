/* dg_svec.c - the solvers' vector calls (dg_svec.h): each runs on the
 * backend it names, through that backend's solver table
 * (dg_solver_ops.h; the kernels are backends/omp's and backends/cuda's). */
#include "dg_svec.h"

#include "dg_backend.h"
#include "dg_comm.h"
#include "dg_error.h"
#include "dg_solver_ops.h"

#include <math.h>
#include <stdlib.h>

static const dg_solver_ops *S(const dg_backend *be) { return be->ops->solver; }

/* A rank's value reduced over the ranks of be (dg_backend.comm; a rank's
 * vectors hold zeros outside its owned elements, solvers/dg_spart.h): the
 * sum or the maximum, the same on every rank.  A failed reduction gives NaN,
 * which the Krylov solvers report, its message recorded. */
static double across(const dg_backend *be, double v, int max) {
  if (!be->comm) return v;
  double o = v;
  const int rc =
      max ? dg_comm_allreduce_max(be->comm, &v, &o, 1) : dg_comm_allreduce_sum(be->comm, &v, &o, 1);
  return rc ? NAN : o;
}

void *dg_svec_alloc(const dg_backend *be, size_t bytes) { return S(be)->alloc(bytes); }
void dg_svec_free(const dg_backend *be, void *p) { S(be)->free(p); }
int dg_svec_sync(const dg_backend *be) { return S(be)->sync(); }
int dg_svec_status(const dg_backend *be) { return S(be)->status(); }
int dg_svec_to_host(const dg_backend *be, void *h, const void *d, size_t bytes) {
  return S(be)->to_host(h, d, bytes);
}
int dg_svec_to_device(const dg_backend *be, void *d, const void *h, size_t bytes) {
  return S(be)->to_device(d, h, bytes);
}

/* The backend's memory is the host's: a view is the memory itself. */
static int host_memory(const dg_backend *be) { return be->ops->host_is_device; }

int dg_svec_map(const dg_backend *be, const void *d, size_t bytes, int mode, void **h) {
  *h = NULL;
  if (host_memory(be)) {
    *h = (void *)d;
    return 0;
  }
  void *c = calloc(1, bytes ? bytes : 1);
  if (!c) return dg_error(DG_ERR_MEM, "solver memory: no host copy of %zu bytes", bytes);
  if (mode & DG_SVEC_READ) {
    const int rc = S(be)->to_host(c, d, bytes);
    if (rc) {
      free(c);
      return rc;
    }
  }
  *h = c;
  return 0;
}

int dg_svec_unmap(const dg_backend *be, const void *d, void *h, size_t bytes, int mode) {
  if (!h || h == d) return 0;
  const int rc = (mode & DG_SVEC_WRITE) ? S(be)->to_device((void *)d, h, bytes) : 0;
  free(h);
  return rc;
}
double dg_svec_dot_d(const dg_backend *be, long n, const double *x, const double *y) {
  return across(be, S(be)->dot_d(n, x, y), 0);
}
double dg_svec_dot_f(const dg_backend *be, long n, const float *x, const float *y) {
  return across(be, S(be)->dot_f(n, x, y), 0);
}
double dg_svec_amax_d(const dg_backend *be, long n, const double *x) {
  return across(be, S(be)->amax_d(n, x), 1);
}
void dg_svec_axpy_d(const dg_backend *be, long n, double alpha, const double *x, double *y) {
  S(be)->axpy_d(n, alpha, x, y);
}
void dg_svec_axpy_f(const dg_backend *be, long n, float alpha, const float *x, float *y) {
  S(be)->axpy_f(n, alpha, x, y);
}
void dg_svec_xpby_d(const dg_backend *be, long n, const double *x, double beta, double *y) {
  S(be)->xpby_d(n, x, beta, y);
}
void dg_svec_xpby_f(const dg_backend *be, long n, const float *x, float beta, float *y) {
  S(be)->xpby_f(n, x, beta, y);
}
void dg_svec_scale_d(const dg_backend *be, long n, double alpha, double *x) {
  S(be)->scale_d(n, alpha, x);
}
void dg_svec_scale_f(const dg_backend *be, long n, float alpha, float *x) {
  S(be)->scale_f(n, alpha, x);
}
void dg_svec_mul_d(const dg_backend *be, long n, const double *x, const double *y, double *z) {
  S(be)->mul_d(n, x, y, z);
}
void dg_svec_mul_f(const dg_backend *be, long n, const float *x, const float *y, float *z) {
  S(be)->mul_f(n, x, y, z);
}
void dg_svec_copy_d(const dg_backend *be, long n, const double *x, double *y) {
  S(be)->copy_d(n, x, y);
}
void dg_svec_copy_f(const dg_backend *be, long n, const float *x, float *y) {
  S(be)->copy_f(n, x, y);
}
void dg_svec_zero_d(const dg_backend *be, long n, double *x) { S(be)->zero_d(n, x); }
void dg_svec_zero_f(const dg_backend *be, long n, float *x) { S(be)->zero_f(n, x); }
void dg_svec_cheb_d(const dg_backend *be, long n, double c1, double c2, const double *p, double *d,
                    double *x, int first) {
  S(be)->cheb_d(n, c1, c2, p, d, x, first);
}
void dg_svec_cheb_f(const dg_backend *be, long n, float c1, float c2, const float *p, float *d,
                    float *x, int first) {
  S(be)->cheb_f(n, c1, c2, p, d, x, first);
}
void dg_svec_cheb_add_d(const dg_backend *be, long n, double c1, double c2, const double *p,
                        const double *d, const double *x, int first, double s, double *y) {
  S(be)->cheb_add_d(n, c1, c2, p, d, x, first, s, y);
}
void dg_svec_cheb_add_f(const dg_backend *be, long n, float c1, float c2, const float *p,
                        const float *d, const float *x, int first, double s, double *y) {
  S(be)->cheb_add_f(n, c1, c2, p, d, x, first, s, y);
}
double dg_svec_cg_step_d(const dg_backend *be, long n, double alpha, const double *p,
                         const double *q, double *x, double *r) {
  return across(be, S(be)->cg_step_d(n, alpha, p, q, x, r), 0);
}
double dg_svec_cg_step_f(const dg_backend *be, long n, float alpha, const float *p, const float *q,
                         float *x, float *r) {
  return across(be, S(be)->cg_step_f(n, alpha, p, q, x, r), 0);
}
void dg_svec_symv_d(const dg_backend *be, long n, const double *A, const double *x, double *y) {
  S(be)->symv_d(n, A, x, y);
}
void dg_svec_to_f(const dg_backend *be, long n, double scale, const double *x, float *y) {
  S(be)->to_f(n, scale, x, y);
}
void dg_svec_from_f(const dg_backend *be, long n, double scale, const float *x, double *y) {
  S(be)->from_f(n, scale, x, y);
}
void dg_svec_add_from_f(const dg_backend *be, long n, double scale, const float *x, double *y) {
  S(be)->add_from_f(n, scale, x, y);
}
void dg_svec_resid_to_f(const dg_backend *be, long n, double scale, const double *b,
                        const double *t, float *y) {
  S(be)->vresid_to_f(n, scale, b, t, y);
}
void dg_svec_gather_d(const dg_backend *be, long m, const long *idx, const double *x, double *y) {
  S(be)->gather_d(m, idx, x, y);
}
void dg_svec_gather_f(const dg_backend *be, long m, const long *idx, const float *x, float *y) {
  S(be)->gather_f(m, idx, x, y);
}
void dg_svec_scatter_d(const dg_backend *be, long m, const long *idx, const double *x, double *y) {
  S(be)->scatter_d(m, idx, x, y);
}
void dg_svec_scatter_f(const dg_backend *be, long m, const long *idx, const float *x, float *y) {
  S(be)->scatter_f(m, idx, x, y);
}
void dg_svec_scatter_add_d(const dg_backend *be, long m, const long *idx, double c, double *y) {
  S(be)->scatter_add_d(m, idx, c, y);
}
