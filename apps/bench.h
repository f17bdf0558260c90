/* bench.h - what the parts of apps/bench share: the options, the plan of
 * cases, the results and the run (bench.c runs the cases; bench_opts.c
 * parses the options; bench_machine.c measures the machine; bench_report.c
 * writes the table, CSV and JSON).  Internal to the bench app. */
#ifndef BENCH_H
#define BENCH_H

#include "dg_app.h"
#include "dg_backend.h"

#include <stdio.h>

#define EXIT_RUN 1
#define EXIT_ARG 2

#define MAX_SIZES 16
#define MAX_PLAN  100000

/* 2016 GridTools CPU study: 200x200, 40 forward Euler steps, degree map
 * 1..4 (band) vs uniform 4. */
#define GT_CELLS      200
#define GT_STEPS      40
#define GT_2016_VAR_S 484.0
#define GT_2016_UNI_S 1019.0
/* band map: at most this x its DOF share of the uniform time (the CPU target of
   issue 6; the GPU's, issue 3, is 1.25) */
#define VAR_TARGET(b) ((b)->be->host_is_device ? 1.15 : 1.25)

enum { MAP_UNIFORM = 0, MAP_BAND, MAP_RANDOM, MAP_LATITUDE, MAP_FILE, MAP_COUNT };
extern const char *const bench_map_names[MAP_COUNT];

typedef struct {
  int dims[2], ndims;
  int degrees[DG_MAX_DEGREE + 1], ndeg;
  long sizes[MAX_SIZES];
  int nsizes;
  int maps[4], nmaps;
  int integ[DG_TS_COUNT], ninteg;
  int cells[3], cells_n;
  int degree_min, degree_min_set;
  long steps; /* 0: chosen from --min-time */
  int repeats, repeats_set;
  double warmup, min_time;
  int min_time_set;
  char csv[512], json[512];
  int quiet, full, one_case, gridtools, peak;
  double stream_mib, max_mem_gib;
  /* which axes were given on the command line */
  int set_dims, set_deg, set_sizes, set_maps, set_integ, set_cells;
  /* physics and time-step options, parsed by dg_app_parse */
  dg_app_config base;
  int nfwd;
  char *fwd[64];
  char command[2048];
} bench_opts;

typedef struct {
  double gbs_median, gbs_best;
  double mib; /* per array */
  int reps;
} stream_result;

typedef struct {
  int dim, cells[3], degree, degree_min, map;
  dg_ts_kind ts;
  long target; /* DOFs asked for (0: --cells) */
} plan_item;

typedef struct {
  plan_item p;
  int rmin, rmax, q, stages, lane_width;
  int degree_req; /* the degree asked for (-1: from a map file) */
  long nelem, dofs, steps;
  int repeats;
  double median, tmin, tmax, iqr, spread, trace_s, update_s;
  double dof_stage_per_s, gflops, gbs_min, gbs_moved, bw_fraction, bw_fraction_moved;
  double flop_fraction, flops_stage, bytes_min_stage, bytes_moved_stage, reg_streams;
  double dt, setup_s, cost_vs_dof_share, warmup_steps_s;
  double flops_vs_dof_share; /* the same ratio for the counted flops */
  int finite;
  int nbr_coeffs;   /* the updates read neighbours' coefficients, no traces */
  int team;         /* the updates run a team of threads per element */
  int own_q;        /* elements away from degree changes run at q = r + 1 */
  int reuse_traces; /* the updates read their own old face values back */
} result;

typedef struct {
  bench_opts *o;
  const dg_backend_ops *be;
  int threads;
  stream_result st0, st1;
  double peak_gflops;
  char cpu[256], host[256], date[64];
  result *res;
  long nres, cap;
  char (*skipped)[256];
  long nskip;
  FILE *csv, *json;
  double mem_limit;
  double load0, load1; /* 1-minute load average at start and end */
} bench_run;

/* bench_opts.c */
/* Print the option reference. */
void bench_help(FILE *f);
#define BENCH_HELP (-1) /* distinct from every DG_ERR_* code */
/* Parse the command line into o: 0, BENCH_HELP for --help, or DG_ERR_ARG
 * with one recorded line on bad input. */
int bench_parse_args(bench_opts *o, int argc, char **argv);
void bench_opts_free(bench_opts *o);

/* bench_machine.c */
/* Monotonic wall clock in seconds (NAN if the clock fails). */
double bench_wall(void);
/* qsort's comparison of doubles. */
int bench_cmp_double(const void *a, const void *b);
/* Quantile q of sorted v[0..n-1], linear interpolation. */
double bench_quantile(const double *v, int n, double q);
/* Median of v[0..n-1] (sorts v). */
double bench_median_of(double *v, int n);
/* Bytes the process may still use (MemAvailable; INFINITY where unknown). */
double bench_mem_available(void);
/* Last-level cache size in bytes (0 where unknown). */
double bench_llc_bytes(void);
/* The CPU's model name into out[cap]. */
void bench_cpu_model(char *out, size_t cap);
/* The SIMD instruction set the build targets. */
const char *bench_simd_name(void);
/* STREAM triad of the backend over 3 arrays of mib MiB, reps repeats. */
int bench_measure_stream(const dg_backend_ops *be, double mib, int reps, stream_result *res);
/* Peak GFLOP/s of a multiply-add kernel: the best of 10 parallel trials. */
double bench_measure_peak(void);

/* bench_report.c */
/* Map and cells labels of a case ("band1-4", "512x512"). */
void bench_map_label(const result *r, char *buf, size_t cap);
void bench_cells_label(const int *cells, int dim, char *buf, size_t cap);
void bench_csv_header(const bench_run *b);
void bench_csv_row(bench_run *b, const result *r);
/* The JSON file of the run (error: the message of a failed run, or NULL). */
int bench_write_json(bench_run *b, const char *error);
void bench_table_header(void);
void bench_table_row(const result *r);

#endif
