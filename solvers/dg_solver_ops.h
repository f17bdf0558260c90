/* dg_solver_ops.h - the solvers' half of a backend's ops table: what a
 * backend runs for the solvers (the drivers of the element functions, the
 * vector kernels, solver memory).  backends/omp and backends/cuda fill it;
 * core's dg_backend_ops points to it (dg_backend_ops.solver), so the backend
 * a program chose runs its solves (docs/ARCHITECTURE.md, "One backend
 * layer").  Programs call the dispatchers of dg_sop.h, dg_svec.h,
 * dg_sblock.h and dg_spatch.h, never this table. */
#ifndef DG_SOLVER_OPS_H
#define DG_SOLVER_OPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_sop dg_sop;
typedef struct dg_sblock dg_sblock;
typedef struct dg_spatch dg_spatch;

typedef struct dg_solver_ops {
  /* Solver memory: zeroed; NULL with a recorded message.  free refuses a
   * pointer it did not hand out (through status).  sync waits for the
   * device and returns the first failure of an earlier kernel or free;
   * status returns it without waiting (sticky: the vector kernels return
   * nothing). */
  void *(*alloc)(size_t bytes);
  void (*free)(void *p);
  int (*sync)(void);
  int (*status)(void);
  /* Copies between solver memory and the host (they wait). */
  int (*to_host)(void *h, const void *d, size_t bytes);
  int (*to_device)(void *d, const void *h, size_t bytes);

  /* Make the drivers' kernels of the degrees in `degrees` (bit r) for
   * operators of dimension dim ready in the precisions `precisions` (1:
   * double, 2: float): compiled or loaded in one batch, before the first
   * apply (a driver still loads what an operator lacks at its first call).
   * NULL where the kernels are compiled with the library (CUDA).  0 or
   * DG_ERR_* with a message (no compiler: how to warm the cache). */
  int (*prepare)(int dim, unsigned degrees, int precisions);

  /* The drivers of the element functions (dg_sop.h, dg_sblock.h,
   * dg_spatch.h).  sblock_resid_* and resid_to_f may be NULL: the solvers
   * then compose them from apply, the vector kernels and the block solve
   * (solvers/dg_sop_run.c). */
  int (*apply_d)(const dg_sop *op, const double *x, double *y);
  int (*apply_f)(const dg_sop *op, const float *x, float *y);
  int (*diag_d)(const dg_sop *op, double *y);
  int (*diag_f)(const dg_sop *op, float *y);
  int (*resid_to_f)(const dg_sop *op, const double *x, const double *b, double scale, double *t,
                    float *y);
  int (*restrict_d)(const dg_sop *F, const dg_sop *C, int by_degree, const double *r, double *bc);
  int (*restrict_f)(const dg_sop *F, const dg_sop *C, int by_degree, const float *r, float *bc);
  int (*prolong_add_d)(const dg_sop *F, const dg_sop *C, int by_degree, const double *xc,
                       double *x);
  int (*prolong_add_f)(const dg_sop *F, const dg_sop *C, int by_degree, const float *xc, float *x);
  int (*sblock_apply_d)(const dg_sblock *bj, const double *r, double *z);
  int (*sblock_apply_f)(const dg_sblock *bj, const float *r, float *z);
  int (*sblock_resid_d)(const dg_sblock *bj, const double *x, const double *b, double *t,
                        double *p);
  int (*sblock_resid_f)(const dg_sblock *bj, const float *x, const float *b, float *t, float *p);
  int (*spatch_apply_d)(const dg_spatch *sp, const double *r, double *z);
  int (*spatch_apply_f)(const dg_spatch *sp, const float *r, float *z);

  /* The vector kernels (dg_svec.h has what each computes). */
  double (*dot_d)(long n, const double *x, const double *y);
  double (*dot_f)(long n, const float *x, const float *y);
  double (*amax_d)(long n, const double *x);
  void (*axpy_d)(long n, double alpha, const double *x, double *y);
  void (*axpy_f)(long n, float alpha, const float *x, float *y);
  void (*xpby_d)(long n, const double *x, double beta, double *y);
  void (*xpby_f)(long n, const float *x, float beta, float *y);
  void (*scale_d)(long n, double alpha, double *x);
  void (*scale_f)(long n, float alpha, float *x);
  void (*mul_d)(long n, const double *x, const double *y, double *z);
  void (*mul_f)(long n, const float *x, const float *y, float *z);
  void (*copy_d)(long n, const double *x, double *y);
  void (*copy_f)(long n, const float *x, float *y);
  void (*zero_d)(long n, double *x);
  void (*zero_f)(long n, float *x);
  void (*cheb_d)(long n, double c1, double c2, const double *p, double *d, double *x, int first);
  void (*cheb_f)(long n, float c1, float c2, const float *p, float *d, float *x, int first);
  void (*cheb_add_d)(long n, double c1, double c2, const double *p, const double *d,
                     const double *x, int first, double s, double *y);
  void (*cheb_add_f)(long n, float c1, float c2, const float *p, const float *d, const float *x,
                     int first, double s, double *y);
  double (*cg_step_d)(long n, double alpha, const double *p, const double *q, double *x, double *r);
  double (*cg_step_f)(long n, float alpha, const float *p, const float *q, float *x, float *r);
  void (*symv_d)(long n, const double *A, const double *x, double *y);
  void (*to_f)(long n, double scale, const double *x, float *y);
  void (*from_f)(long n, double scale, const float *x, double *y);
  void (*add_from_f)(long n, double scale, const float *x, double *y);
  void (*vresid_to_f)(long n, double scale, const double *b, const double *t, float *y);
  void (*gather_d)(long m, const long *idx, const double *x, double *y);
  void (*gather_f)(long m, const long *idx, const float *x, float *y);
  void (*scatter_d)(long m, const long *idx, const double *x, double *y);
  void (*scatter_f)(long m, const long *idx, const float *x, float *y);
  void (*scatter_add_d)(long m, const long *idx, double c, double *y);
  /* 1 where restrict_* and prolong_add_* by agglomeration run on a rank's
   * box (its origin in the whole grid, dg_sop.xorg): the multigrid then keeps
   * its h-levels on the ranks' blocks; 0: they are gathered below the last
   * level by degree (docs/ARCHITECTURE.md, "The solvers across ranks"). */
  int xfer_on_ranks;
  /* 1 where spatch_apply_* runs a rank's patches (their tables on the
   * rank's box, dg_spatch.c); 0: the vertex patches refuse to run across
   * ranks. */
  int patch_on_ranks;
} dg_solver_ops;

#ifdef __cplusplus
}
#endif
#endif
