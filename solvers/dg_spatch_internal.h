/* dg_spatch_internal.h - the vertex-patch object, shared by its setup
 * (dg_spatch.c) and the backends' drivers only. */
#ifndef DG_SPATCH_INTERNAL_H
#define DG_SPATCH_INTERNAL_H

#include "dg_sop_internal.h"
#include "dg_spatch.h"

enum { DG_SPATCH_MAXCOL = 27 }; /* 2 (3 on an odd periodic direction) per direction */

struct dg_spatch {
  const dg_sop *op;
  const dg_backend *be; /* op's: frees the memory, whatever outlives whom */
  int dim, n;           /* n = degree + 1 */
  int nv[3];            /* vertices per direction (1 in unused directions) */
  long voff[3];         /* direction d's vertices in vinfo from 3 voff[d] */
  int *vinfo;           /* per vertex of a direction: first cell, second cell or -1, 1D key
                           (solver memory) */
  long npatch;          /* = nv[0] nv[1] nv[2] */
  long *list;  /* patches (vertex index i0 + nv0 (i1 + nv1 i2)) by colour (solver memory) */
  int *hvinfo; /* vinfo and list on the host (dg_spatch_cells, dg_spatch_colour) */
  long *hlist;
  int ncol; /* colours: patches of one colour share no element */
  long cstart[DG_SPATCH_MAXCOL + 1];
  int nkeys;
  double *V, *lam; /* [nkeys][2][LD*LD] (V, V^T), [nkeys][LD] (solver memory) */
  float *Vf, *lamf;
  double shift; /* a vol */
};

/* The cells (el, nc) and 1D inverses (key) of patch pv (vertex i0 + nv0 (i1 +
 * nv1 i2)) on a grid of n0 x n1 x ... elements, from the object's vertex
 * tables passed one by one: the device's drivers call it too. */
DG_HD static inline void dg_spatch_cells_at(int dim, const int nv[3], const long voff[3],
                                            const int *vinfo, long n0, long n1, long pv, long el[8],
                                            int nc[3], int key[3]) {
  long iv[3];
  iv[0] = pv % nv[0];
  iv[1] = (pv / nv[0]) % nv[1];
  iv[2] = pv / ((long)nv[0] * nv[1]);
  int cell[3][2];
  for (int d = 0; d < 3; ++d) {
    if (d < dim) {
      const int *vi = vinfo + 3 * (voff[d] + iv[d]);
      cell[d][0] = vi[0];
      cell[d][1] = vi[1];
      nc[d] = vi[1] >= 0 ? 2 : 1;
      key[d] = vi[2];
    } else {
      cell[d][0] = 0;
      cell[d][1] = -1;
      nc[d] = 1;
      key[d] = 0;
    }
  }
  for (int c = 0; c < 8; ++c) {
    const int c0 = c & 1, c1 = (c >> 1) & 1, c2 = c >> 2;
    el[c] = (c0 < nc[0] && c1 < nc[1] && c2 < nc[2])
                ? cell[0][c0] + n0 * (cell[1][c1] + n1 * (long)cell[2][c2])
                : -1;
  }
}

/* The same from the object (host: its host copy of vinfo). */
static inline void dg_spatch_cells(const dg_spatch *sp, long pv, long el[8], int nc[3],
                                   int key[3]) {
  const dg_grid *g = &sp->op->g;
  dg_spatch_cells_at(sp->dim, sp->nv, sp->voff, sp->hvinfo, g->n[0], sp->dim > 1 ? g->n[1] : 1, pv,
                     el, nc, key);
}

#endif
