/* dg_app_ranks.h - an app under mpirun (docs/ARCHITECTURE.md, "Runs across
 * ranks"): the ranks, the partition, the discretisation of this rank's
 * block and its field, the copies to and from the whole solution, and the
 * failure agreement.  On one rank (and in a build without MPI) the app runs
 * as before: no partition, no copies. */
#ifndef DG_APP_RANKS_H
#define DG_APP_RANKS_H

#include "dg_comm.h"
#include "dg_disc.h"
#include "dg_field.h"
#include "dg_io.h"
#include "dg_partition.h"

#include <stdio.h>

typedef struct {
  dg_comm *comm;
  int rank, size;
  int node_rank;      /* this rank's index among the ranks of its node */
  FILE *err;          /* this rank's stderr (ranks > 0 print nothing else) */
  dg_partition *part; /* size > 1 */
  dg_disc *disc;      /* size > 1: this rank's block */
  dg_field *u;        /* ... and its solution */
  int agreed;         /* the failure being returned is every rank's */
} dg_app_ranks;

/* The ranks of the job; on ranks > 0 stdout and stderr are silenced (the
 * messages are rank 0's, or after dg_app_ranks_fail this rank's own). */
int dg_app_ranks_start(dg_app_ranks *rk, int *argc, char ***argv);

/* The block of this rank of grid g with map m (q, model, backend as
 * dg_disc_create): the partition (its line printed with verbose), the
 * block's disc and an empty field (projected or read on the block:
 * dg_project_solution, dg_app_ranks_read).  Nothing with one rank. */
int dg_app_ranks_setup(dg_app_ranks *rk, const dg_backend *be, const dg_grid *g,
                       const dg_degree_map *m, int q, const dg_model *model, int verbose);

/* A restart across ranks: rank 0 verifies the checksum of the file at path
 * (dg_snapshot_verify) before any rank reads it; the status, agreed, is
 * every rank's.  0 at once on one rank. */
int dg_app_ranks_verify(dg_app_ranks *rk, const char *path);

/* The snapshot at path into s for its time and step (collective): one
 * process reads it whole (dg_snapshot_read); across ranks rank 0 verifies
 * its checksum and every rank learns the outcome, then each reads it
 * without coefficients, never whole in memory.  Not agreed: a failure
 * (recorded) is every rank's alike, for the caller to pass over. */
int dg_app_ranks_read_head(dg_app_ranks *rk, const char *path, dg_snapshot *s);

/* s (read without coefficients: dg_snapshot_read_part) read again from
 * path with this rank's block's coefficients (collective: the status,
 * agreed, is every rank's). */
int dg_app_ranks_read(dg_app_ranks *rk, const char *path, dg_snapshot *s);

/* The disc and field the steps run on: the block's, or d and u (one rank). */
dg_disc *dg_app_ranks_disc(dg_app_ranks *rk, dg_disc *d);
dg_field *dg_app_ranks_field(dg_app_ranks *rk, dg_field *u);

/* The whole solution into u (a field of the whole discretisation d) on
 * every rank (collective; nothing with one): for --text-output. */
int dg_app_ranks_gather(dg_app_ranks *rk, const dg_disc *d, dg_field *u);

/* Snapshot s (of this rank's block: dg_snapshot_from_field on its disc)
 * written to path by every rank together (collective, dg_io_ranks.h); the
 * status, agreed, is every rank's. */
int dg_app_ranks_write(dg_app_ranks *rk, const char *path, const dg_snapshot *s);

/* The agreement on rc (collective); the result is every rank's.  A
 * failure already agreed on (rk->agreed) is returned as it is. */
int dg_app_ranks_agree(dg_app_ranks *rk, int rc);

/* 1 when value is finite on every rank (collective; the blow-up check). */
int dg_app_ranks_all_finite(dg_app_ranks *rk, double value, int *finite);

/* The end of a run that failed with rc, its message line already made:
 * printed once (rank 0's stderr) where every rank fails alike (one rank,
 * or rk->agreed); else this rank prints it and ends every rank
 * (dg_comm_abort, status 2). */
void dg_app_ranks_fail(dg_app_ranks *rk, const char *line);

/* Free the block, the partition and the ranks (MPI finalised). */
void dg_app_ranks_stop(dg_app_ranks *rk);

/* DGRID_HALO_TIMING: 1 sets *on (the stages' phases and the ghosts'
 * exchange timed, dg_app_ranks_halo_line); unset or 0 leaves it; anything
 * else is an error naming the variable. */
int dg_app_ranks_halo_timing(int *on);

/* The halo's share of the steps, one line on stdout (collective over the
 * ranks of sd, whose timing was on during the steps of wall_s seconds):
 * halo: ranks=N overlap=on|off post_s wait_s trace_s update_s wall_s
 * halo_share, each the largest over the ranks. */
int dg_app_ranks_halo_line(dg_disc *sd, double wall_s);

#endif
