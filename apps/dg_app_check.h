/* dg_app_check.h - checks of a run's configuration that the option parser
 * cannot make one value at a time: options that contradict each other or
 * would silently do nothing, a box the floating-point numbers cannot hold,
 * and the memory a run needs against what the machine has.  Each refusal is
 * one line naming the options; notes say what a run does differently from
 * what was asked. */
#ifndef DG_APP_CHECK_H
#define DG_APP_CHECK_H

#include "dg_app.h"

#include <stdint.h>
#include <stdio.h>

/* Options that exclude each other or have no effect (--map with --map-file,
 * --degree-min with a uniform map or a map file, --degree with a map file),
 * and a box whose extents overflow or cannot be resolved by the grid.
 * Returns 0 or DG_ERR_ARG with one message. */
int dg_app_check_config(const dg_app_config *c);

/* A program's exit status once its output is out: `status`, or 2 after one
 * line "PROG: cannot write to standard output (REASON)" where stdout could not
 * be written in full (a full device, a closed pipe): a summary that was lost
 * is not a success. */
int dg_app_stdout_status(const char *prog, int status);

/* Options of the shared parser that program `prog` does not honour: each
 * {name, reason} of unused[] (ended by {NULL, NULL}) given on the command line
 * or in a configuration file is refused, "option --NAME: PROG REASON", rather
 * than accepted and ignored. */
int dg_app_refuse_unused(const dg_app_config *c, const char *prog, const char *const (*unused)[2]);

/* Print "PROG: note: ..." lines to f for what the run will do differently
 * from what was asked (a band map that cannot reach --degree on the grid's
 * rows).  Returns the number of notes. */
int dg_app_notes(FILE *f, const dg_app_config *c, const char *prog);

/* The highest degree a band map from rmin to rmax reaches on ny rows
 * (dg_degree_map_create_band). */
int dg_app_band_reach(int ny, int rmin, int rmax);

/* Bytes a run of c needs at its peak: the degree maps, the discretisation's
 * tables, traces and neighbour copy, the solution and the integrator's
 * registers, and the largest transient (error norms, or a snapshot with
 * its view sub-grid, written through an HDF5 image in memory), plus 1/4 for
 * the allocator.  With m NULL the degrees come from the
 * options (a lower bound for random maps and map files: every element at
 * the lowest degree they allow); with m the map's own.  Integer arithmetic
 * that saturates at UINT64_MAX instead of wrapping. */
uint64_t dg_app_bytes_needed(const dg_app_config *c, const dg_degree_map *m);

/* Memory the run may still use, in bytes: MemAvailable of /proc/meminfo,
 * lowered to the room left under a cgroup (v2) memory.max; sysconf as a
 * fallback.  0 when nothing can be read. */
uint64_t dg_app_bytes_available(void);

/* Refuse a run that needs more memory than is available (dg_app_bytes_needed
 * against dg_app_bytes_available): DG_ERR_MEM with "... needs X GiB, Y GiB
 * available" naming --cells and the degrees.  Nothing is allocated. */
int dg_app_check_memory(const dg_app_config *c, const dg_degree_map *m);

/* Every output path before the first step: the folders of --output and
 * --text-output exist and are writable, neither is a folder, they are not
 * the same file, and with --output-every the XDMF series can name the
 * snapshots (no ':' or control character) and is not one of them, --text-output
 * is none of the series' snapshots, and no output is a file the run reads
 * (the configuration file, --map-file, --model-file; compared by device and
 * inode; a restart may continue over its own file).  One line naming the option and both files. */
int dg_app_check_outputs(const dg_app_config *c);

/* The XDMF series of --output-every: PATH with its extension replaced by
 * ".xdmf". */
int dg_app_xdmf_path(char *buf, size_t cap, const char *output);

/* Degrees the stable --cfl was measured for (higher ones use the last). */
#define DG_APP_CFL_DEGREES 6

/* The largest --cfl at which the integrator keeps the DG stages of the
 * given (highest) degree stable, in the units of dg_disc_stable_dt
 * (measured; 0 where no step is stable). */
double dg_app_cfl_limit(dg_ts_kind kind, int degree);

#endif
