/* dg_restart.h - `advect --restart FILE`: the run continues from the
 * snapshot and from the configuration the snapshot stores (attribute
 * `config`), which is the base layer of the options (dg_app_config.h).  The
 * command line (and a configuration file) may change only what does not
 * change the problem: t-end or steps, the output options, progress and
 * history.  Any other difference is refused, naming the key and both values;
 * so is a file whose time, step, time step or history is not a finite,
 * non-negative and consistent record of a run. */
#ifndef DG_RESTART_H
#define DG_RESTART_H

#include "dg_app.h"
#include "dg_config.h"
#include "dg_io.h"

typedef struct {
  char path[512];
  dg_snapshot snap; /* the file, read once (across ranks: without coefficients,
                       then each rank's block's: dg_app_ranks_read) */
  dg_config stored; /* its configuration, labelled "FILE:/config" */
} dg_restart;

/* Read the snapshot at `path` and parse the configuration it stores; with
 * `head`, without the coefficients, the checksum verified beforehand
 * (across ranks: dg_app_ranks_verify). */
int dg_restart_open(dg_restart *r, const char *path, int head);
/* The same for advdiff: the file's integrator must be its implicit or IMEX
 * scheme `scheme` (the run's --scheme), which then leaves the stored
 * configuration (advect's option parser knows only its own integrators). */
int dg_restart_open_scheme(dg_restart *r, const char *path, int head, const char *scheme);
void dg_restart_close(dg_restart *r);

/* Before the options are parsed over the stored configuration: a model that
 * argv names and that is not the file's is refused (the other model's
 * options would not even parse). */
int dg_restart_check_model(const dg_restart *r, int argc, char **argv);

/* `run` (parsed over the stored configuration with dg_app_parse_base) against
 * the stored configuration alone: a difference in a key that defines the
 * problem is refused.  Sets run->restart_degrees (a --map-file run takes its
 * degrees from the file). */
int dg_restart_compare(dg_restart *r, dg_app_config *run);

/* After dg_app_parse_base failed with rc over the stored configuration: a
 * problem-defining option that argv gives another value than the file (as
 * text, numbers by value) is the likely cause (--dim 3 over a 2D file: the
 * file's --box has 4 numbers); refuse it as dg_restart_compare would.
 * Returns rc, with the message replaced where such an option is found. */
int dg_restart_explain(const dg_restart *r, int argc, char **argv, int rc);

/* The file's time, step, dt and history: finite, non-negative, consistent
 * (time = step x dt for a fixed-step run; `adaptive`: dt re-estimated every
 * step).  For a fixed-step run *dt is the file's time step, which the run
 * keeps. */
int dg_restart_check_time(const dg_restart *r, const dg_app_config *c, int adaptive, double *dt);

/* A key a restart may change. */
int dg_restart_may_change(const char *key);

/* A variable's mass counts as zero below this fraction of its scale, the
 * sum of |cell mean| x cell volume at the start: its drift is then
 * reported as an absolute number (a relative one would divide round-off by
 * round-off).  advect and advdiff store t = 0's mass and scale in their
 * snapshots (dg_snapshot.mass0, mass_scale), so that a restarted run
 * measures the drift from the start, with the start's choice. */
#define DG_MASS_ZERO 1e-8

/* scale[v]: the sum over elements of |cell mean| x cell volume of variable v
 * of u, from the mode-0 coefficients (under mpirun each rank's elements,
 * summed exactly over the ranks). */
int dg_restart_mass_scales(const dg_disc *d, dg_field *u, double *scale);

#endif
