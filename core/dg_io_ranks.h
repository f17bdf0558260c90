/* dg_io_ranks.h - a snapshot written by every rank of a run together
 * (docs/ARCHITECTURE.md, "The I/O plan"): one file in the layout of
 * dg_snapshot_write (docs/FILE_FORMAT.md), each rank writing its block's
 * part of the per-element datasets collectively through HDF5's MPI-IO
 * driver.  Internal (not installed): it names a dg_comm. */
#ifndef DG_IO_RANKS_H
#define DG_IO_RANKS_H

#include "dg_comm.h"
#include "dg_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write s to path, collectively over the ranks of c.  Every rank passes
 * the same metadata (grid, attributes, parameters, history, degree and
 * coeff_offset of the whole grid) and the data of its block, the elements
 * [lo, hi) per direction: coeff and gauss_values of its elements in
 * element order, the view arrays of its box (what dg_snapshot_from_field
 * gives on a rank's block); the blocks tile the grid.  Rank 0 creates the
 * temporary ".<name>.tmp.<pid>", every rank writes into it, rank 0 seals
 * it (the checksum block) and, after every rank agreed that all went well,
 * renames it over path.  Every rank returns the same status and message
 * (the lowest failing rank's, dg_comm_agree); on failure no file is left
 * under path or the temporary name.  On one rank (and without MPI) this is
 * dg_snapshot_write. */
int dg_snapshot_write_ranks(const char *path, const dg_snapshot *s, dg_comm *c, const int lo[3],
                            const int hi[3]);

/* A restart on several ranks (each reads its own part; not collective):
 * dg_snapshot_verify checks the checksum block of the file at path (a read
 * of it in pieces, never whole in memory), once, by one rank, before any
 * rank reads; dg_snapshot_read_part then reads the file from disk with the
 * checks of dg_snapshot_read but without gauss_values and the view, and
 * with lo and hi only the coefficients of the block [lo, hi) (its
 * hyperslabs of /coeff) into s->coeff, in element order; with lo, hi NULL
 * no coefficients (s->coeff NULL).  On failure s holds nothing to free. */
int dg_snapshot_verify(const char *path);
int dg_snapshot_read_part(const char *path, dg_snapshot *s, const int *lo, const int *hi);

#ifdef __cplusplus
}
#endif
#endif
