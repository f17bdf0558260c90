/* dg_sblock.h - element-block Jacobi for the SIPG operator: the exact
 * inverse of each element's diagonal block by fast diagonalisation (one
 * small symmetric eigenproblem per distinct (direction, degree, neighbour
 * degrees, boundary) combination, shared by all elements that have it). */
#ifndef DG_SBLOCK_H
#define DG_SBLOCK_H

#include "dg_sop.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_sblock dg_sblock;

/* Set up the block inverses of op (borrowed: it must outlive the object). */
int dg_sblock_create(dg_sblock **bj, const dg_sop *op);
void dg_sblock_destroy(dg_sblock **bj);
/* z = D_block^-1 r, double or float (OpenMP over elements). */
int dg_sblock_apply_d(const dg_sblock *bj, const double *r, double *z);
int dg_sblock_apply_f(const dg_sblock *bj, const float *r, float *z);
/* p = D_block^-1 (b - A x), A the operator of the block inverses (the
 * smoother's step; t, of the operator's length, may receive the residual b -
 * A x or be left alone: the CUDA driver does it in one pass on uniform
 * levels, the OpenMP one by dg_sop_apply, dg_svec_xpby and
 * dg_sblock_apply). */
int dg_sblock_resid_d(const dg_sblock *bj, const double *x, const double *b, double *t, double *p);
int dg_sblock_resid_f(const dg_sblock *bj, const float *x, const float *b, float *t, float *p);
/* Distinct 1D eigenproblems solved. */
int dg_sblock_nkeys(const dg_sblock *bj);

#ifdef __cplusplus
}
#endif
#endif
