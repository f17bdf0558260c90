/* dg_mg_internal.h - the multigrid's level data, shared by its files only. */
#ifndef DG_MG_INTERNAL_H
#define DG_MG_INTERNAL_H

#include "dg_backend.h"
#include "dg_mg.h"
#include "dg_sblock.h"
#include "dg_spart.h"
#include "dg_spatch.h"

/* per-level work vectors of one precision */
enum { MG_B, MG_X, MG_R, MG_D, MG_T, MG_NV };

typedef struct {
  dg_sop *op;     /* level 0: the caller's (not freed) */
  dg_spart *part; /* an h-level across ranks: its share of the grid (freed after op) */
  char kind;      /* 'f' fine, 'p' from the finer level by degree, 'h' by agglomeration */
  long n;         /* unknowns */
  double lmax;
  double range;   /* lmax / lmin of the smoothed interval */
  dg_sblock *bj;  /* element-block Jacobi (NULL: point Jacobi or patches) */
  dg_spatch *sp;  /* vertex-patch Schwarz (NULL: not on this level) */
  double *dinv_d; /* inverse diagonal */
  float *dinv_f;
  double *vd[MG_NV];
  float *vf[MG_NV];
} dg_mg_level;

struct dg_mg {
  const dg_backend *be; /* the fine operator's: every level's */
  dg_mg_opts o;
  int nl;
  dg_mg_level *lev;
  double *cd[2]; /* fp64 copies for the coarse solve of the float cycle */
  double *cinv;  /* the coarsest operator's pseudo-inverse (n x n, symmetric), or NULL: CG */
  double work;   /* weighted operator applications */
  long cycles;
  /* Across ranks (solvers/dg_spart.h): the levels by degree and the first
     levels by agglomeration are the ranks' operators; below the last of
     them, whose coarse solve this is, the whole grid's hierarchy from that
     level on (what one process builds there), on rank croot alone, run on
     the residual gathered there; the other ranks wait for their part of
     its correction. */
  int gathered;      /* 1 across ranks: the coarse solve is sub's cycle on croot */
  int croot;         /* the rank holding sub (DG_MG_COARSE_ROOT) */
  int sub_nl;        /* sub's levels (every rank knows it) */
  dg_backend sub_be; /* the backend without the ranks (croot only, as below) */
  dg_sop *sub_op;
  dg_mg *sub;
  double *gb, *gx; /* whole vectors of the sub's fine level */
  float *gbf, *gxf;
};

/* The dense coarse solve's setup (dg_mg_coarse.c): mg->cinv where the
 * coarsest level has at most o.coarse_dense_max unknowns (else left NULL). */
int dg_mg_coarse_setup(dg_mg *mg);

#endif
