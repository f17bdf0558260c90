/* dg_disc_part.h - a discretisation of one rank's block of the grid
 * (docs/ARCHITECTURE.md, "Runs across ranks"): the elements of its
 * dg_partition block and, as ghosts, the other ranks' elements that those
 * read across a face, whose coefficients every stage brings from their
 * owners (the backend packs, dg_comm moves).  The plan is chosen from the
 * whole map and the stable step is an exact maximum over the ranks, so a
 * run gives the bits of one process for every number of ranks.
 *
 * Collective: dg_disc_create_part, dg_disc_stage, dg_disc_stable_dt,
 * dg_disc_part_gather; every rank calls them at the same points.  The
 * element-indexed functions of dg_disc.h (dg_disc_index) take the elements
 * this rank holds only (dg_disc_part_owner says whose an element is). */
#ifndef DG_DISC_PART_H
#define DG_DISC_PART_H

#include "dg_comm.h"
#include "dg_disc.h"
#include "dg_partition.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The discretisation of rank dg_comm_rank(c)'s block of partition p (of the
 * whole grid g and map m, as every rank passes them); q, model as
 * dg_disc_create.  c must outlive d (p is not kept).
 * DG_ERR_ARG for a partition of another grid or size, or a backend that
 * does not run across ranks yet. */
int dg_disc_create_part(dg_disc **d, const dg_backend *be, const dg_grid *g, const dg_degree_map *m,
                        int q, const dg_model *model, dg_comm *c, const dg_partition *p);

/* The rank that owns element e (0 for a discretisation of one process). */
int dg_disc_part_owner(const dg_disc *d, long e);

/* The ranks whose counted elements together make the whole grid: a rank's
 * block's communicator, NULL for a discretisation of one process (then
 * there is nothing to combine). */
dg_comm *dg_disc_comm(const dg_disc *d);

/* How this rank's exchange reaches MPI (DG_HALO_*, dg_backend.h;
 * dg_comm_halo_path chose it when d was made), or -1 where it exchanges
 * nothing (one process). */
int dg_disc_halo_path(const dg_disc *d);

/* Every rank's owned coefficients of u into ug on every rank (collective):
 * ug then holds the whole solution, the bits of one process. */
int dg_disc_part_gather(const dg_disc *d, dg_field *u, const dg_disc *dg, dg_field *ug);

#ifdef __cplusplus
}
#endif
#endif
