/* dg_svec.h - the solvers' vectors: their memory, the vector kernels (float
 * and double) and the conversions between the precisions, on the backend
 * be that the caller names (the operator's: dg_sop_backend).  Reductions
 * accumulate in double in both precisions.
 *
 * Memory.  Every array a solver reads or writes (vectors, and the operator's
 * own tables) comes from dg_svec_alloc(be, ...): plain host memory on the
 * OpenMP backend, plain device memory on the CUDA backend, which the host
 * must not dereference: host code reaches it through dg_svec_map (a host
 * view: the memory itself where it is the host's, else a checked copy) or
 * the copies dg_svec_to_host / dg_svec_to_device.  Freed blocks are kept
 * and handed out again for the same size (each backend its own: a solve
 * allocates and frees the same vectors each time, and fresh pages cost
 * more than the solve's vector passes); dg_svec_free reports a pointer it
 * did not hand out through dg_svec_status.  On the CUDA backend the solver
 * calls return before the device has finished: the copies and the
 * reductions wait by themselves; dg_svec_sync(be) waits and reports an
 * earlier kernel's failure.  Vectors of one backend never go to another's
 * calls. */
#ifndef DG_SVEC_H
#define DG_SVEC_H

#include <stddef.h>

typedef struct dg_backend dg_backend; /* backends/dg_backends.h */

#ifdef __cplusplus
extern "C" {
#endif

/* `bytes` of solver memory (zeroed), or NULL with a recorded message. */
void *dg_svec_alloc(const dg_backend *be, size_t bytes);
/* Free what dg_svec_alloc returned (NULL is ignored). */
void dg_svec_free(const dg_backend *be, void *p);
/* Wait for the device (CUDA backend; nothing on OpenMP).  Returns 0, or
 * the first failure of an earlier solver kernel (DG_ERR_BACKEND) or of
 * dg_svec_free (DG_ERR_ARG). */
int dg_svec_sync(const dg_backend *be);
/* 0, or the first failure of a vector kernel's launch (the vector kernels
 * return nothing; Krylov solvers check this once per iteration). */
int dg_svec_status(const dg_backend *be);
/* Copies between solver memory d and host memory h (they wait). */
int dg_svec_to_host(const dg_backend *be, void *h, const void *d, size_t bytes);
int dg_svec_to_device(const dg_backend *be, void *d, const void *h, size_t bytes);

/* Host access to `bytes` of solver memory d (docs/ARCHITECTURE.md, "Solver
 * memory"): *h = d where the backend's memory is the host's (OpenMP: no
 * copy, the same bits), else a host copy, filled from d with DG_SVEC_READ
 * and zeroed without it (as fresh solver memory is: map fresh memory
 * without DG_SVEC_READ only, or write every byte).  0, or DG_ERR_MEM /
 * DG_ERR_BACKEND with a message (*h NULL). */
enum { DG_SVEC_READ = 1, DG_SVEC_WRITE = 2 };
int dg_svec_map(const dg_backend *be, const void *d, size_t bytes, int mode, void **h);
/* End a view: with DG_SVEC_WRITE the host copy goes back to d (which must
 * be writable); the copy is freed (also when that fails).  NULL h is
 * ignored, so a failed map's cleanup may call it. */
int dg_svec_unmap(const dg_backend *be, const void *d, void *h, size_t bytes, int mode);

double dg_svec_dot_d(const dg_backend *be, long n, const double *x, const double *y);
double dg_svec_dot_f(const dg_backend *be, long n, const float *x, const float *y);
/* max |x_i| */
double dg_svec_amax_d(const dg_backend *be, long n, const double *x);
/* y += alpha x */
void dg_svec_axpy_d(const dg_backend *be, long n, double alpha, const double *x, double *y);
void dg_svec_axpy_f(const dg_backend *be, long n, float alpha, const float *x, float *y);
/* y = x + beta y */
void dg_svec_xpby_d(const dg_backend *be, long n, const double *x, double beta, double *y);
void dg_svec_xpby_f(const dg_backend *be, long n, const float *x, float beta, float *y);
/* x = alpha x */
void dg_svec_scale_d(const dg_backend *be, long n, double alpha, double *x);
void dg_svec_scale_f(const dg_backend *be, long n, float alpha, float *x);
/* z = x .* y */
void dg_svec_mul_d(const dg_backend *be, long n, const double *x, const double *y, double *z);
void dg_svec_mul_f(const dg_backend *be, long n, const float *x, const float *y, float *z);
void dg_svec_copy_d(const dg_backend *be, long n, const double *x, double *y);
void dg_svec_copy_f(const dg_backend *be, long n, const float *x, float *y);
void dg_svec_zero_d(const dg_backend *be, long n, double *x);
void dg_svec_zero_f(const dg_backend *be, long n, float *x);
/* One Chebyshev step of the smoother: d = c1 d + c2 p, x += d (c1 = 0 does
 * not read d); with first set, d = c2 p and x = d (x starts from zero). */
void dg_svec_cheb_d(const dg_backend *be, long n, double c1, double c2, const double *p, double *d,
                    double *x, int first);
void dg_svec_cheb_f(const dg_backend *be, long n, float c1, float c2, const float *p, float *d,
                    float *x, int first);
/* The smoother's last Chebyshev step when only its result is wanted, added
 * into a double vector: y += s (double)(x + d'), d' = c1 d + c2 p (first:
 * x = 0 and d' = c2 p), the arithmetic of dg_svec_cheb followed by
 * dg_svec_add_from_f; x and d are not written (one pass, and the mixed
 * cycle's post-smoother writes its float x no more). */
void dg_svec_cheb_add_d(const dg_backend *be, long n, double c1, double c2, const double *p,
                        const double *d, const double *x, int first, double s, double *y);
void dg_svec_cheb_add_f(const dg_backend *be, long n, float c1, float c2, const float *p,
                        const float *d, const float *x, int first, double s, double *y);
/* CG's update in one pass: x += alpha p, r += (-alpha) q (dg_svec_axpy's
 * arithmetic); returns r'r (as dg_svec_dot) */
double dg_svec_cg_step_d(const dg_backend *be, long n, double alpha, const double *p,
                         const double *q, double *x, double *r);
double dg_svec_cg_step_f(const dg_backend *be, long n, float alpha, const float *p, const float *q,
                         float *x, float *r);
/* y = A x, A a symmetric n x n matrix in solver memory (A[i n + j]): the
 * multigrid's dense coarse solve (the same order of the sum on both
 * backends) */
void dg_svec_symv_d(const dg_backend *be, long n, const double *A, const double *x, double *y);
/* y = (float)(scale x): the defect scaled into float's range before the cast */
void dg_svec_to_f(const dg_backend *be, long n, double scale, const double *x, float *y);
/* y = scale (double)x: a float correction back in double, scaled back */
void dg_svec_from_f(const dg_backend *be, long n, double scale, const float *x, double *y);
/* y += scale (double)x: a float correction added in double */
void dg_svec_add_from_f(const dg_backend *be, long n, double scale, const float *x, double *y);
/* y = (float)(scale (b - t)): an fp64 residual, scaled, into float */
void dg_svec_resid_to_f(const dg_backend *be, long n, double scale, const double *b,
                        const double *t, float *y);
/* y[i] = x[idx[i]], i < m (idx solver memory): a few entries of x, e.g. the
 * elements' mode 0, gathered before they cross to the host */
void dg_svec_gather_d(const dg_backend *be, long m, const long *idx, const double *x, double *y);
void dg_svec_gather_f(const dg_backend *be, long m, const long *idx, const float *x, float *y);
/* y[idx[i]] = x[i], i < m (distinct idx, solver memory): a rank's ghosts
 * received (solvers/dg_spart_t.h) */
void dg_svec_scatter_d(const dg_backend *be, long m, const long *idx, const double *x, double *y);
void dg_svec_scatter_f(const dg_backend *be, long m, const long *idx, const float *x, float *y);
/* y[idx[i]] += c, i < m (distinct idx) */
void dg_svec_scatter_add_d(const dg_backend *be, long m, const long *idx, double c, double *y);

#ifdef __cplusplus
}
#endif
#endif
