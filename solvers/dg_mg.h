/* dg_mg.h - hp-multigrid for the SIPG operator (dg_sop.h) on the structured
 * grid, in float and double from one source (dg_mg_t.h).
 *
 * Hierarchy: the fine level; p-levels, each element's degree r -> max(1, r/2)
 * (restriction keeps the low modes, prolongation pads with zeros) until every
 * degree is <= 1 (degree-0 elements stay 0); then h-levels, 2x2 (2x2x2)
 * elements agglomerated into one of the lowest child degree (the coarse space
 * is a subspace of the fine one: exact embedding, restriction its transpose)
 * while every direction has an even count >= 2 coarse_min; the coarsest level
 * is solved in fp64 in both precisions: by its dense pseudo-inverse when it
 * is small (coarse_dense_max), else by CG with Jacobi to coarse_rtol.
 * Smoother: Chebyshev acceleration of degree `smooth_deg` of D^-1 (element-block
 * or point Jacobi, or additive vertex-patch Schwarz) on [lmax/smooth_range,
 * lmax], lmax = eig_safety x the Lanczos estimate of the largest eigenvalue of
 * D^-1 A (eig_its steps of D^-1-preconditioned CG per level). */
#ifndef DG_MG_H
#define DG_MG_H

#include "dg_sop.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_mg dg_mg;

enum { DG_MG_V = 0, DG_MG_F = 1 };
enum { DG_MG_DOUBLE = 1, DG_MG_FLOAT = 2 };
enum { DG_MG_POINT = 0, DG_MG_BLOCK = 1, DG_MG_PATCH = 2 };

/* The largest coarse_dense_max accepted: a dense coarse level of 2048
   unknowns takes a 32 MB matrix and minutes of eigensolve (docs/MULTIGRID.md). */
#define DG_MG_DENSE_LIMIT 2048

/* Across ranks, a level by agglomeration stays on the ranks' blocks while
   every rank's coarse block has at least this many elements per direction
   (below it is gathered, docs/ARCHITECTURE.md). */
#define DG_MG_HBLOCK_MIN 2

/* Across ranks, the rank that holds the gathered coarse levels and solves
   them alone; the others send it their part of the residual and receive
   their part of the correction (docs/ARCHITECTURE.md says why one rank). */
#define DG_MG_COARSE_ROOT 0

typedef struct {
  int smooth_deg;        /* Chebyshev degree = pre- and post-smoothing steps (6: V(6,6)) */
  double smooth_range;   /* lmax / lmin of the smoothed interval; 0: the smoother's own (15 for
                            Jacobi, 4 for the vertex patches) */
  double eig_safety;     /* factor on the Lanczos estimate of lmax */
  int eig_its;           /* Lanczos steps per level */
  int cycle;             /* DG_MG_V or DG_MG_F */
  int coarse_min;        /* elements per direction the h-coarsening stops at (it also stops at
                            the first level of at most coarse_dense_max unknowns) */
  double coarse_rtol;    /* relative residual of the fp64 coarse CG */
  long coarse_dense_max; /* the coarsest level is solved by its dense pseudo-inverse (one fp64
                            matrix-vector product) when it has at most this many unknowns, by
                            fp64 CG with Jacobi otherwise (0: always CG); at most
                            DG_MG_DENSE_LIMIT (the setup's eigensolve grows as n^3) */
  int precisions;        /* DG_MG_DOUBLE and/or DG_MG_FLOAT: the cycles to set up */
  int smoother;          /* what Chebyshev accelerates: DG_MG_BLOCK (element-block Jacobi),
                            DG_MG_POINT (point Jacobi) or DG_MG_PATCH (additive vertex-patch
                            Schwarz, dg_spatch.h; element blocks on levels of mixed degree) */
  int fine_penalty;      /* 1: coarse levels keep the fine penalty (Galerkin for uniform maps);
                            0: rediscretised (penalty from each level's degrees and sizes) */
} dg_mg_opts;

/* V(6,6) (Chebyshev degree 6: V(2,2) and V(4,4) converge at 0.2-0.3 and
 * 0.13-0.18 per cycle, docs/MULTIGRID.md), element-block Jacobi, range 0 (15
 * for Jacobi; 4 for the vertex patches, with which V(2,2) reaches 0.15),
 * safety 1.1, 12 Lanczos steps, coarse_min 2, 1e-12, dense coarse solve up to 256
 * unknowns, rediscretised coarse
 * levels, both precisions. */
dg_mg_opts dg_mg_default_opts(void);

/* Build the hierarchy under `fine` (borrowed: it must outlive the mg). */
int dg_mg_create(dg_mg **mg, const dg_sop *fine, const dg_mg_opts *o);
void dg_mg_destroy(dg_mg **mg);

int dg_mg_nlevels(const dg_mg *mg);
/* Across ranks (solvers/dg_spart.h): the levels smoothed on the ranks'
 * blocks (0, 1, ...: the levels by degree and the first levels by
 * agglomeration); the next level's residual is gathered onto rank
 * DG_MG_COARSE_ROOT and the whole grid's hierarchy from there runs there
 * alone (docs/ARCHITECTURE.md, "The solvers across ranks").  0 for a
 * hierarchy of one process. */
int dg_mg_rank_levels(const dg_mg *mg);
/* Across ranks: the gathered levels first..last (numbered as the whole
 * hierarchy's, on every rank) and the number of ranks that hold them
 * (1: DG_MG_COARSE_ROOT); 0 for a hierarchy of one process (first and last
 * untouched).  dg_mg_describe's lines of those levels come from that rank. */
int dg_mg_coarse_ranks(const dg_mg *mg, int *first, int *last);
/* Level l's operator (0 = fine) and how it was made ('f', 'p' or 'h'). */
const dg_sop *dg_mg_level_op(const dg_mg *mg, int l);
char dg_mg_level_kind(const dg_mg *mg, int l);
/* The estimated largest eigenvalue of D^-1 A on level l. */
double dg_mg_level_lmax(const dg_mg *mg, int l);
/* One line per level (kind, elements, degrees, unknowns, lmax) into buf. */
void dg_mg_describe(const dg_mg *mg, char *buf, size_t cap);

/* x = B b: one cycle from x = 0 (B approximates A^-1). */
int dg_mg_cycle_d(dg_mg *mg, const double *b, double *x);
int dg_mg_cycle_f(dg_mg *mg, const float *b, float *x);

/* The cycle as a preconditioner (dg_linop_* with ctx = the mg). */
int dg_mg_precond_d(void *mg, const double *r, double *z);
int dg_mg_precond_f(void *mg, const float *r, float *z);
/* Mixed precision: one cycle whose smoothing, restriction and operator
 * applications inside the smoother run in fp32 (the defect scaled by
 * 1/max|r_i| into float), while each level adds its coarse correction and
 * forms the residual after it in fp64 (one fp64 apply per level), so the
 * correction z has the fp64 cycle's accuracy (dg_mg_cycle.c says why).
 * Needs both cycles set up (precisions DG_MG_DOUBLE | DG_MG_FLOAT). */
int dg_mg_precond_mixed(void *mg, const double *r, double *z);

/* The transfers between level l and l+1 (double): x_l += P xc_{l+1}, and
 * bc_{l+1} = R r_l = P^T r_l (the restriction of a residual). */
int dg_mg_prolong_add_d(dg_mg *mg, int l, const double *xc, double *x);
int dg_mg_restrict_d(dg_mg *mg, int l, const double *r, double *bc);

/* Operator applications done by the cycles so far, each weighted by its
 * level's unknowns over the fine level's (coarse CG included), and cycles. */
void dg_mg_work(const dg_mg *mg, double *fine_applies, long *cycles);
void dg_mg_reset_work(dg_mg *mg);

#ifdef __cplusplus
}
#endif
#endif
