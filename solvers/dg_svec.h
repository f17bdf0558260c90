/* dg_svec.h - vector kernels of the solvers (OpenMP loops), float and double,
 * and the conversions between them.  Reductions accumulate in double in both
 * precisions. */
#ifndef DG_SVEC_H
#define DG_SVEC_H

#ifdef __cplusplus
extern "C" {
#endif

double dg_svec_dot_d(long n, const double *x, const double *y);
double dg_svec_dot_f(long n, const float *x, const float *y);
/* max |x_i| */
double dg_svec_amax_d(long n, const double *x);
/* y += alpha x */
void dg_svec_axpy_d(long n, double alpha, const double *x, double *y);
void dg_svec_axpy_f(long n, float alpha, const float *x, float *y);
/* y = x + beta y */
void dg_svec_xpby_d(long n, const double *x, double beta, double *y);
void dg_svec_xpby_f(long n, const float *x, float beta, float *y);
/* z = x .* y */
void dg_svec_mul_d(long n, const double *x, const double *y, double *z);
void dg_svec_mul_f(long n, const float *x, const float *y, float *z);
void dg_svec_copy_d(long n, const double *x, double *y);
void dg_svec_copy_f(long n, const float *x, float *y);
void dg_svec_zero_d(long n, double *x);
void dg_svec_zero_f(long n, float *x);
/* y = (float)(scale x): the defect scaled into float's range before the cast */
void dg_svec_to_f(long n, double scale, const double *x, float *y);
/* y += scale (double)x */
void dg_svec_add_from_f(long n, double scale, const float *x, double *y);

#ifdef __cplusplus
}
#endif
#endif
