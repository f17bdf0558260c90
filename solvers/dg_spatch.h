/* dg_spatch.h - the overlapping vertex-patch Schwarz preconditioner of the
 * SIPG operator: for every grid vertex the 2^dim elements around it (fewer
 * on a Dirichlet boundary), the operator restricted to their unknowns
 * inverted exactly by fast diagonalisation (1D two-cell eigenproblems,
 * shared by the patches), the patch corrections added:
 * z = sum_p R_p^T A_p^-1 R_p r.  Uniform levels only (one degree, one
 * penalty degree); set up on the host, applied by the backend's driver
 * (dg_spatch_omp.c, dg_spatch_cuda.cu). */
#ifndef DG_SPATCH_H
#define DG_SPATCH_H

#include "dg_sop.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_spatch dg_spatch;

/* Whether op's level suits the patches (one degree and one penalty degree on
 * every element, at least 3 elements in each periodic direction; a rank's
 * operator asks of the whole grid); if not, why, into why[cap] (may be
 * NULL). */
int dg_spatch_supported(const dg_sop *op, char *why, size_t cap);
/* Whether be's driver runs a rank's patches (dg_sop_part: the patches with
 * an owned element, their ghosts received on every side): the OpenMP
 * backend's does, the CUDA backend's not yet. */
int dg_spatch_on_ranks(const dg_backend *be);
/* Set up the patch inverses of op (borrowed: it must outlive the object).
 * On a rank's operator (dg_sop_part): the whole grid's patches with an
 * element the rank owns, in the whole grid's colours, and op's lists of
 * every ghost slot (dg_sop_part_corners); applied, they give the owned
 * elements one process's result to the bit.  DG_ERR_ARG where
 * dg_spatch_supported says no. */
int dg_spatch_create(dg_spatch **sp, const dg_sop *op);
void dg_spatch_destroy(dg_spatch **sp);
/* z = sum_p R_p^T A_p^-1 R_p r (z may not alias r), double or float. */
int dg_spatch_apply_d(const dg_spatch *sp, const double *r, double *z);
int dg_spatch_apply_f(const dg_spatch *sp, const float *r, float *z);
/* Patches, and distinct 1D eigenproblems solved. */
long dg_spatch_npatches(const dg_spatch *sp);
int dg_spatch_nkeys(const dg_spatch *sp);
/* Colours (patches of one colour share no element) and colour c's patches:
 * their count, the patch numbers (as for dg_spatch_apply_one_d) in *list. */
int dg_spatch_ncolours(const dg_spatch *sp);
long dg_spatch_colour(const dg_spatch *sp, int c, const long **list);
/* One patch alone (patch < npatches, host, double): z += R_p^T A_p^-1 R_p r;
 * its elements into el[8] (cell c0 + 2 c1 + 4 c2 of the patch, -1 where it
 * has fewer), their count returned in *ncells.  For tests. */
int dg_spatch_apply_one_d(const dg_spatch *sp, long patch, const double *r, double *z, long el[8],
                          int *ncells);

#ifdef __cplusplus
}
#endif
#endif
