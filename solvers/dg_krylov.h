/* dg_krylov.h - Krylov solvers over callbacks: conjugate gradients (CG) and
 * flexible GMRES in float and double from one source (dg_krylov_t.h), each
 * preconditioned by
 * any operator of its precision (Jacobi, a multigrid cycle, or a cycle of the
 * other precision behind a converting wrapper: dg_mg.h). */
#ifndef DG_KRYLOV_H
#define DG_KRYLOV_H

typedef struct dg_backend dg_backend; /* backends/dg_backends.h */

#ifdef __cplusplus
extern "C" {
#endif

/* y = A x; returns 0 or a DG_ERR_* code. */
typedef int (*dg_linop_d)(void *ctx, const double *x, double *y);
typedef int (*dg_linop_f)(void *ctx, const float *x, float *y);

typedef struct {
  double rtol; /* stop when ||b - A x|| <= rtol ||b|| (2-norms) */
  int maxit;   /* most iterations */
  /* called after each iteration with the relative residual (may be NULL) */
  void (*monitor)(void *ctx, int it, double rel);
  void *monitor_ctx;
  int restart; /* FGMRES: Krylov vectors per cycle (<= 0: 30) */
} dg_krylov_opts;

typedef struct {
  int its;       /* iterations done */
  double rel;    /* final relative residual (the recursive one for CG) */
  int converged; /* rel <= rtol */
} dg_krylov_stats;

/* Solve A x = b by preconditioned CG from the initial x, with the vector
 * kernels and memory of backend be (the operators' backend) (A and P symmetric
 * positive definite; P may be NULL).  Not converging within maxit is not an
 * error (see stats); a non-positive curvature or a NaN is DG_ERR_NUMERIC. */
int dg_cg_d(const dg_backend *be, long n, dg_linop_d A, void *actx, dg_linop_d P, void *pctx,
            const double *b, double *x, const dg_krylov_opts *o, dg_krylov_stats *st);
int dg_cg_f(const dg_backend *be, long n, dg_linop_f A, void *actx, dg_linop_f P, void *pctx,
            const float *b, float *x, const dg_krylov_opts *o, dg_krylov_stats *st);

/* Solve A x = b by right-preconditioned flexible GMRES(restart) from the
 * initial x: A may be non-symmetric and P may change from one application
 * to the next (a multigrid cycle in another precision).  Not converging
 * within maxit iterations is not an error (see stats). */
int dg_fgmres_d(const dg_backend *be, long n, dg_linop_d A, void *actx, dg_linop_d P, void *pctx,
                const double *b, double *x, const dg_krylov_opts *o, dg_krylov_stats *st);
int dg_fgmres_f(const dg_backend *be, long n, dg_linop_f A, void *actx, dg_linop_f P, void *pctx,
                const float *b, float *x, const dg_krylov_opts *o, dg_krylov_stats *st);

/* Diagonal scaling y = d .* x as an operator (Jacobi): ctx is a dg_diag_*. */
typedef struct {
  const dg_backend *be;
  long n;
  const double *d;
} dg_diag_d;
typedef struct {
  const dg_backend *be;
  long n;
  const float *d;
} dg_diag_f;
int dg_diag_apply_d(void *ctx, const double *x, double *y);
int dg_diag_apply_f(void *ctx, const float *x, float *y);

#ifdef __cplusplus
}
#endif
#endif
