/* dg_solver_omp.h - the OpenMP backend's solver entry points, the functions
 * of its solver ops table (solvers/dg_solver_ops.h says what each does;
 * dg_solver_omp.c fills the table). */
#ifndef DG_SOLVER_OMP_H
#define DG_SOLVER_OMP_H

#include "dg_solver_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The table (dg_backend_ops.solver of the OpenMP backend). */
extern const dg_solver_ops dg_solver_omp;

void *dg_omp_svec_alloc(size_t bytes);
void dg_omp_svec_free(void *p);
int dg_omp_svec_sync(void);
int dg_omp_svec_status(void);
int dg_omp_svec_to_host(void *h, const void *d, size_t bytes);
int dg_omp_svec_to_device(void *d, const void *h, size_t bytes);
int dg_omp_sop_prepare(int dim, unsigned degrees, int precisions);
int dg_omp_sop_apply_d(const dg_sop *op, const double *x, double *y);
int dg_omp_sop_apply_f(const dg_sop *op, const float *x, float *y);
int dg_omp_sop_diag_d(const dg_sop *op, double *y);
int dg_omp_sop_diag_f(const dg_sop *op, float *y);
int dg_omp_sop_restrict_d(const dg_sop *F, const dg_sop *C, int by_degree, const double *r,
                          double *bc);
int dg_omp_sop_restrict_f(const dg_sop *F, const dg_sop *C, int by_degree, const float *r,
                          float *bc);
int dg_omp_sop_prolong_add_d(const dg_sop *F, const dg_sop *C, int by_degree, const double *xc,
                             double *x);
int dg_omp_sop_prolong_add_f(const dg_sop *F, const dg_sop *C, int by_degree, const float *xc,
                             float *x);
int dg_omp_sblock_apply_d(const dg_sblock *bj, const double *r, double *z);
int dg_omp_sblock_apply_f(const dg_sblock *bj, const float *r, float *z);
int dg_omp_spatch_apply_d(const dg_spatch *sp, const double *r, double *z);
int dg_omp_spatch_apply_f(const dg_spatch *sp, const float *r, float *z);
double dg_omp_svec_dot_d(long n, const double *x, const double *y);
double dg_omp_svec_dot_f(long n, const float *x, const float *y);
double dg_omp_svec_amax_d(long n, const double *x);
void dg_omp_svec_axpy_d(long n, double alpha, const double *x, double *y);
void dg_omp_svec_axpy_f(long n, float alpha, const float *x, float *y);
void dg_omp_svec_xpby_d(long n, const double *x, double beta, double *y);
void dg_omp_svec_xpby_f(long n, const float *x, float beta, float *y);
void dg_omp_svec_scale_d(long n, double alpha, double *x);
void dg_omp_svec_scale_f(long n, float alpha, float *x);
void dg_omp_svec_mul_d(long n, const double *x, const double *y, double *z);
void dg_omp_svec_mul_f(long n, const float *x, const float *y, float *z);
void dg_omp_svec_copy_d(long n, const double *x, double *y);
void dg_omp_svec_copy_f(long n, const float *x, float *y);
void dg_omp_svec_zero_d(long n, double *x);
void dg_omp_svec_zero_f(long n, float *x);
void dg_omp_svec_cheb_d(long n, double c1, double c2, const double *p, double *d, double *x,
                        int first);
void dg_omp_svec_cheb_f(long n, float c1, float c2, const float *p, float *d, float *x, int first);
void dg_omp_svec_cheb_add_d(long n, double c1, double c2, const double *p, const double *d,
                            const double *x, int first, double s, double *y);
void dg_omp_svec_cheb_add_f(long n, float c1, float c2, const float *p, const float *d,
                            const float *x, int first, double s, double *y);
double dg_omp_svec_cg_step_d(long n, double alpha, const double *p, const double *q, double *x,
                             double *r);
double dg_omp_svec_cg_step_f(long n, float alpha, const float *p, const float *q, float *x,
                             float *r);
void dg_omp_svec_symv_d(long n, const double *A, const double *x, double *y);
void dg_omp_svec_to_f(long n, double scale, const double *x, float *y);
void dg_omp_svec_from_f(long n, double scale, const float *x, double *y);
void dg_omp_svec_add_from_f(long n, double scale, const float *x, double *y);
void dg_omp_svec_resid_to_f(long n, double scale, const double *b, const double *t, float *y);
void dg_omp_svec_gather_d(long m, const long *idx, const double *x, double *y);
void dg_omp_svec_gather_f(long m, const long *idx, const float *x, float *y);
void dg_omp_svec_scatter_d(long m, const long *idx, const double *x, double *y);
void dg_omp_svec_scatter_f(long m, const long *idx, const float *x, float *y);
void dg_omp_svec_scatter_add_d(long m, const long *idx, double c, double *y);

#ifdef __cplusplus
}
#endif
#endif
