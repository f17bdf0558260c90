/* dg_mg_coarse.c - the coarsest level's dense solve (setup, host): its
 * matrix from one operator application per unit vector, symmetrised, and
 * its pseudo-inverse from the symmetric eigendecomposition (GSL), so that
 * the cycles' coarse solve is one fp64 matrix-vector product on the
 * backend: no Krylov iterations, no reductions read by the host (each of
 * the coarse CG's iterations waited for two).  The pseudo-inverse gives
 * the solution CG started from zero converges to: the exact one, or where
 * the operator is singular (the periodic Laplacian's constants) the one of
 * least norm. */
#include "dg_mg_internal.h"

#include "dg_error.h"
#include "dg_svec.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>

/* eigenvalues below this fraction of the largest count as zero (the null
   space of a singular coarse operator, round-off of order 1e-16 there) */
static const double kNullFraction = 1e-12;

/* A[i n + j] = row i of column j of the coarsest operator, through the
   backend's apply on unit vectors (x, y: two of its work vectors).  The
   host sets x's one entry and reads y back per column (copies on the CUDA
   backend; n is at most coarse_dense_max). */
static int coarse_matrix(dg_mg *mg, double *A, double *x, double *y) {
  const dg_mg_level *L = &mg->lev[mg->nl - 1];
  const long n = L->n;
  const double one = 1, zero = 0;
  double *col = malloc(sizeof(double) * (size_t)n);
  if (!col) return dg_error(DG_ERR_MEM, "multigrid: out of memory for the dense coarse solve");
  dg_svec_zero_d(mg->be, n, x);
  int rc = dg_svec_sync(mg->be);
  for (long j = 0; j < n && !rc; ++j) {
    rc = dg_svec_to_device(mg->be, x + j, &one, sizeof(double));
    if (!rc) rc = dg_sop_apply_d(L->op, x, y);
    if (!rc) rc = dg_svec_sync(mg->be);
    if (!rc) rc = dg_svec_to_host(mg->be, col, y, sizeof(double) * (size_t)n);
    if (!rc)
      for (long i = 0; i < n; ++i) A[i * n + j] = col[i];
    if (!rc) rc = dg_svec_to_device(mg->be, x + j, &zero, sizeof(double));
  }
  free(col);
  if (rc) return rc;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < i; ++j) A[i * n + j] = A[j * n + i] = 0.5 * (A[i * n + j] + A[j * n + i]);
  return 0;
}

int dg_mg_coarse_setup(dg_mg *mg) {
  const long n = mg->lev[mg->nl - 1].n;
  if (n > mg->o.coarse_dense_max || n < 1) return 0;
  const size_t nn = (size_t)n * (size_t)n;
  gsl_set_error_handler_off(); /* a failed allocation returns NULL instead of aborting */
  double *A = malloc(sizeof(double) * nn), *P = NULL;
  gsl_matrix *V = gsl_matrix_alloc((size_t)n, (size_t)n);
  gsl_vector *lam = gsl_vector_alloc((size_t)n);
  gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc((size_t)n);
  int rc = 0;
  if (!A || !V || !lam || !w) {
    rc = dg_error(DG_ERR_MEM, "multigrid: out of memory for the dense coarse solve (%ld unknowns)",
                  n);
    goto done;
  }
  if ((rc = coarse_matrix(mg, A, mg->cd[0], mg->cd[1]))) goto done;
  gsl_matrix_view Av = gsl_matrix_view_array(A, (size_t)n, (size_t)n);
  const int st = gsl_eigen_symmv(&Av.matrix, lam, V, w);
  if (st) {
    rc =
        dg_error(DG_ERR_LIB, "multigrid: gsl_eigen_symmv of the coarse operator (%ld unknowns): %s",
                 n, gsl_strerror(st));
    goto done;
  }
  double lmax = 0;
  for (long k = 0; k < n; ++k) lmax = fmax(lmax, fabs(gsl_vector_get(lam, (size_t)k)));
  for (long k = 0; k < n; ++k) {
    const double l = gsl_vector_get(lam, (size_t)k);
    if (l < -kNullFraction * lmax) {
      rc = dg_error(DG_ERR_NUMERIC,
                    "multigrid: the coarse operator has the negative eigenvalue %g (largest %g)", l,
                    lmax);
      goto done;
    }
  }
  if (!(lmax > 0)) {
    rc = dg_error(DG_ERR_NUMERIC, "multigrid: the coarse operator is zero");
    goto done;
  }
  mg->cinv = dg_svec_alloc(mg->be, sizeof(double) * nn);
  if (!mg->cinv) {
    rc = DG_ERR_MEM;
    goto done;
  }
  /* built on the host (a zeroed view of the fresh solver memory) and sent once */
  if ((rc = dg_svec_map(mg->be, mg->cinv, sizeof(double) * nn, DG_SVEC_WRITE, (void **)&P)))
    goto done;
  /* pinv = sum over the kept eigenpairs of v v^T / lambda */
  for (long k = 0; k < n; ++k) {
    const double l = gsl_vector_get(lam, (size_t)k);
    if (l <= kNullFraction * lmax) continue;
    for (long i = 0; i < n; ++i) {
      const double vi = gsl_matrix_get(V, (size_t)i, (size_t)k) / l;
      for (long j = 0; j < n; ++j) P[i * n + j] += vi * gsl_matrix_get(V, (size_t)j, (size_t)k);
    }
  }
  /* exactly symmetric: the backend's product reads columns for rows */
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < i; ++j) P[i * n + j] = P[j * n + i] = 0.5 * (P[i * n + j] + P[j * n + i]);
  rc = dg_svec_unmap(mg->be, mg->cinv, P, sizeof(double) * nn, DG_SVEC_WRITE);
  P = NULL;
done:
  dg_svec_unmap(mg->be, mg->cinv, P, 0, 0);
  free(A);
  if (V) gsl_matrix_free(V);
  if (lam) gsl_vector_free(lam);
  if (w) gsl_eigen_symmv_free(w);
  return rc;
}
