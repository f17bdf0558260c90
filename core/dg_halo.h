/* dg_halo.h - which faces a rank exchanges with which other rank
 * (docs/ARCHITECTURE.md, "Runs across ranks", the halo plan): the topology
 * of the halo, a pure function of the grid and the partition, like the
 * neighbour tables of dg_disc.  Moving the traces (packing, MPI) is the
 * backend's; this says what moves and in which order.
 *
 * A face between my element a and element b of rank q is exchanged both
 * ways: I send a's trace on the side facing b, and receive b's trace on the
 * side facing a (a ghost face).  Both ranks order the faces they share by
 * (the receiver's element, the receiver's side), computed from the global
 * partition, so rank p's send list to q is, entry for entry, q's receive
 * list from p, and no lists are ever sent.  Sides are 2 d + s (s = 0 the
 * lower face of direction d).  Periodic wraps are faces like any other; a
 * boundary side (inflow, outflow, wall, pole) has no ghost. */
#ifndef DG_HALO_H
#define DG_HALO_H

#include "dg_grid.h"
#include "dg_partition.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int rank;                 /* the other rank */
  long nface;               /* faces shared with it: as many sent as received */
  long *send_elem;          /* [nface] my element whose trace goes out (global index) */
  unsigned char *send_side; /* [nface] its side facing the other rank */
  long *recv_elem;          /* [nface] my element that reads the ghost (global index) */
  unsigned char *recv_side; /* [nface] its side facing the other rank */
} dg_halo_peer;

typedef struct {
  int rank;           /* whose halo */
  int npeer;          /* ranks it shares faces with */
  dg_halo_peer *peer; /* [npeer], by increasing rank */
  long nface;         /* faces over all peers */
  long nboundary;     /* my elements with at least one face to another rank */
} dg_halo;

/* The halo of `rank` in partition p of grid g.  DG_ERR_ARG for a rank
 * outside 0..nranks-1 or a partition of another grid; DG_ERR_MEM. */
int dg_halo_create(dg_halo **h, const dg_grid *g, const dg_partition *p, int rank);

void dg_halo_destroy(dg_halo **h);

/* The element across side `side` of element e (global indices), wrapped
 * where the direction is periodic; -1 across a boundary side. */
long dg_halo_neighbour(const dg_grid *g, long e, int side);

#ifdef __cplusplus
}
#endif
#endif
