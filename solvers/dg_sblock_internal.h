/* dg_sblock_internal.h - the element-block Jacobi object, shared by its
 * setup (dg_sblock.c) and the backends' drivers only. */
#ifndef DG_SBLOCK_INTERNAL_H
#define DG_SBLOCK_INTERNAL_H

#include "dg_sblock.h"
#include "dg_sop_internal.h"

#include <stddef.h>

#define DG_SBLOCK_NSIDE (2 * DG_SNR)

struct dg_sblock {
  const dg_sop *op;
  const dg_backend *be; /* op's: frees the memory, whatever outlives whom */
  int nkeys;
  double *V, *lam; /* [nkeys][NR*NR], [nkeys][NR] (solver memory) */
  float *Vf, *lamf;
  int *key; /* [nelem][3] (solver memory) */
  int slot[3][DG_SNR][DG_SBLOCK_NSIDE][DG_SBLOCK_NSIDE];
  double shift; /* a vol */
};

/* Symmetric eigenproblem of the n x n matrix A (row-major, leading
 * dimension ld; destroyed): A = Q diag(l) Q^T by cyclic Jacobi rotations,
 * Q[i*ld + j] = component i of eigenvector j.  Shared with dg_spatch.c. */
int dg_sym_eig(int n, int ld, double *A, double *Q, double *l);

/* The inverses' tables of a block or patch smoother, built on the host and
 * sent once: build(ctx, Vh, lamh) fills host views (zeroed) of V (vn reals)
 * and lam (ln reals), and Vf, lamf get their float copies (all four solver
 * memory of be, fresh from dg_svec_alloc).  Shared with dg_spatch.c. */
typedef int (*dg_stables_build)(void *ctx, double *Vh, double *lamh);
int dg_stables_fill(const dg_backend *be, double *V, double *lam, float *Vf, float *lamf, size_t vn,
                    size_t ln, dg_stables_build build, void *ctx);

#endif
