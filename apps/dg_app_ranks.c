/* dg_app_ranks.c - an app under mpirun (dg_app_ranks.h). */
#include "dg_app_ranks.h"

#include "dg_disc_internal.h"
#include "dg_disc_part.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_ranks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int dg_app_ranks_start(dg_app_ranks *rk, int *argc, char ***argv) {
  memset(rk, 0, sizeof *rk);
  rk->err = stderr;
  DG_CALL(dg_comm_create_world(&rk->comm, argc, argv));
  rk->rank = dg_comm_rank(rk->comm);
  rk->size = dg_comm_size(rk->comm);
  DG_CALL(dg_comm_node_rank(rk->comm, &rk->node_rank));
  if (rk->rank > 0) { /* one copy of every line: rank 0's */
    const int fd = dup(2);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) rk->err = f;
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
      return dg_error(DG_ERR_IO, "rank %d: cannot silence its output", rk->rank);
  }
  return 0;
}

int dg_app_ranks_setup(dg_app_ranks *rk, const dg_backend *be, const dg_grid *g,
                       const dg_degree_map *m, int q, const dg_model *model, int verbose) {
  if (rk->size == 1) return 0;
  DG_CALL(dg_partition_create(&rk->part, g, m, rk->size, NULL));
  if (verbose) {
    char line[512];
    DG_CALL(dg_partition_describe(rk->part, 0, line, sizeof line));
    printf("%s\n", line);
  }
  DG_CALL(dg_disc_create_part(&rk->disc, be, g, m, q, model, rk->comm, rk->part));
  const int path = dg_disc_halo_path(rk->disc);
  if (verbose && path >= 0) { /* rank 0's; every rank chose alike (one MPI, one setting) */
    char line[256];
    dg_comm_halo_describe(be, path, line, sizeof line);
    printf("%s\n", line);
  }
  return dg_field_create(&rk->u, rk->disc);
}

/* This rank's block of elements, [lo, hi) per direction (3 in 2D: [0, 1)). */
static void block_box(const dg_app_ranks *rk, int lo[3], int hi[3]) {
  const dg_part_block *b = &rk->part->block[rk->rank];
  const int three = rk->part->dim == 3;
  for (int k = 0; k < 3; ++k) {
    lo[k] = k < 2 || three ? b->lo[k] : 0;
    hi[k] = k < 2 || three ? b->hi[k] : 1;
  }
}

int dg_app_ranks_verify(dg_app_ranks *rk, const char *path) {
  if (rk->size == 1) return 0;
  int rc = rk->rank == 0 ? dg_snapshot_verify(path) : 0;
  if (rc) rc = dg_error_prefix(rc, "restart");
  return dg_app_ranks_agree(rk, rc);
}

int dg_app_ranks_read_head(dg_app_ranks *rk, const char *path, dg_snapshot *s) {
  if (rk->size == 1) return dg_snapshot_read(path, s);
  memset(s, 0, sizeof *s);
  double bad = rk->rank == 0 && dg_snapshot_verify(path) != 0 ? 1 : 0;
  DG_CALL(dg_comm_allreduce_max(rk->comm, &bad, &bad, 1));
  if (bad) return dg_error(DG_ERR_IO, "a snapshot of the series does not verify");
  return dg_snapshot_read_part(path, s, NULL, NULL);
}

int dg_app_ranks_read(dg_app_ranks *rk, const char *path, dg_snapshot *s) {
  int lo[3], hi[3];
  block_box(rk, lo, hi);
  dg_snapshot_free(s);
  int rc = dg_snapshot_read_part(path, s, lo, hi);
  if (rc) rc = dg_error_prefix(rc, "restart");
  return dg_app_ranks_agree(rk, rc);
}

dg_disc *dg_app_ranks_disc(dg_app_ranks *rk, dg_disc *d) { return rk->disc ? rk->disc : d; }
dg_field *dg_app_ranks_field(dg_app_ranks *rk, dg_field *u) { return rk->u ? rk->u : u; }

int dg_app_ranks_gather(dg_app_ranks *rk, const dg_disc *d, dg_field *u) {
  if (!rk->disc) return 0;
  return dg_disc_part_gather(rk->disc, rk->u, d, u);
}

int dg_app_ranks_write(dg_app_ranks *rk, const char *path, const dg_snapshot *s) {
  int lo[3], hi[3];
  block_box(rk, lo, hi);
  const int rc = dg_snapshot_write_ranks(path, s, rk->comm, lo, hi);
  rk->agreed = rc != 0 && !dg_comm_failed_alone(rk->comm); /* alone: dg_app_ranks_fail aborts */
  return rc;
}

int dg_app_ranks_agree(dg_app_ranks *rk, int rc) {
  if (!rk->comm || rk->agreed) return rc; /* the ranks could not start, or agreed: rc says why */
  rc = dg_comm_agree(rk->comm, rc);
  rk->agreed = rc != 0;
  return rc;
}

int dg_app_ranks_all_finite(dg_app_ranks *rk, double value, int *finite) {
  double bad = isfinite(value) ? 0 : 1;
  DG_CALL(dg_comm_allreduce_max(rk->comm, &bad, &bad, 1));
  *finite = bad == 0;
  return 0;
}

void dg_app_ranks_fail(dg_app_ranks *rk, const char *line) {
  if (rk->size == 1 || rk->agreed) {
    fprintf(stderr, "%s\n", line);
    return;
  }
  fprintf(rk->err, "%s\n", line);
  fflush(rk->err);
  dg_comm_abort(rk->comm, 2);
}

void dg_app_ranks_stop(dg_app_ranks *rk) {
  dg_field_destroy(&rk->u);
  dg_disc_destroy(&rk->disc);
  dg_partition_destroy(&rk->part);
  if (rk->comm) (void)dg_comm_destroy(&rk->comm);
  if (rk->err && rk->err != stderr) fclose(rk->err);
  rk->err = NULL;
}

/* The timers stay off unless asked for: they synchronise after each pass. */
int dg_app_ranks_halo_timing(int *on) {
  const char *env = getenv("DGRID_HALO_TIMING");
  if (!env || !strcmp(env, "0")) return 0;
  if (strcmp(env, "1") != 0) {
    char esc[64];
    return dg_error(DG_ERR_ARG, "DGRID_HALO_TIMING='%s': expected 0 or 1",
                    dg_escape(esc, sizeof esc, env));
  }
  *on = 1;
  return 0;
}

/* Post: packing and posting the exchange; wait: waiting for it and
 * unpacking, what the interior update did not hide.  The share is each
 * rank's own before the maximum. */
int dg_app_ranks_halo_line(dg_disc *sd, double wall_s) {
  double v[6];
  dg_disc_timing_halo(sd, &v[0], &v[1]);
  dg_disc_timing(sd, &v[2], &v[3]);
  v[4] = wall_s;
  v[5] = wall_s > 0 ? (v[0] + v[1]) / wall_s : 0.0;
  dg_comm *cm = dg_disc_comm(sd);
  if (cm) DG_CALL(dg_comm_allreduce_max(cm, v, v, 6));
  printf("halo: ranks=%d overlap=%s post_s=%.6f wait_s=%.6f trace_s=%.6f update_s=%.6f "
         "wall_s=%.6f halo_share=%.4f\n",
         cm ? dg_comm_size(cm) : 1, dg_disc_overlap(sd) ? "on" : "off", v[0], v[1], v[2], v[3],
         v[4], v[5]);
  return 0;
}
