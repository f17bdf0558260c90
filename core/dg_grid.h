/* dg_grid.h - the structured grid: d1 x d2 (x d3) equal boxes on [lo,hi],
 * periodic in every direction.  Element e = i + n0*(j + n1*k). */
#ifndef DG_GRID_H
#define DG_GRID_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int dim;      /* 2 or 3 */
  int n[3];     /* elements per direction (n[2] = 1 in 2D) */
  double lo[3]; /* box lower corner */
  double hi[3]; /* box upper corner */
  double h[3];  /* element size per direction */
  long nelem;   /* n0*n1*n2 */
} dg_grid;

/* Fill `g`; checks dim in {2,3}, n >= 1, hi > lo (finite).  In 2D n[2], lo[2]
 * and hi[2] are ignored.  Returns 0 or DG_ERR_ARG with a message. */
int dg_grid_init(dg_grid *g, int dim, const int n[3], const double lo[3], const double hi[3]);

/* Element index of (i,j,k), each wrapped periodically. */
long dg_grid_elem(const dg_grid *g, long i, long j, long k);

/* (i,j,k) of element e. */
void dg_grid_ijk(const dg_grid *g, long e, int ijk[3]);

/* "(i,j)" or "(i,j,k)" of element e into buf (for messages); returns buf. */
const char *dg_grid_label(const dg_grid *g, long e, char *buf, unsigned long len);

#ifdef __cplusplus
}
#endif
#endif
