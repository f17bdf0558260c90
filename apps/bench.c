/* bench - throughput of the DG stages: sweeps dimension, degree, grid size,
 * degree map and integrator, and reports per case the DOFs, DOF updates per
 * second per RK stage, the time per step split into the trace and update
 * passes, the flops and bytes of a stage as counted by dg_disc_work, the
 * achieved GFLOP/s and GB/s and the fraction of the memory bandwidth that a
 * STREAM triad of the same backend measures in the same run.
 *
 * Every timing is the median of several repeats after a warm-up; the spread
 * is reported with it.  Output: a table on stdout, progress on stderr, CSV
 * (--csv) and JSON (--json) for tools/plot.  See `bench --help` and
 * BENCHMARKS.md.  Exit status: 0 done, 1 a run failed, 2 bad options. */
#include "dg_app.h"
#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_lane.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

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
static const char *const map_names[MAP_COUNT] = {"uniform", "band", "random", "latitude", "file"};

/* The recorded message as one line, whatever a value held (dg_escape.h). */
static const char *message(void) {
  static char line[4200];
  return dg_escape_message(line, sizeof line, dg_error_message());
}

/* ------------------------------------------------------------------------ */
/* options                                                                   */

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

static void help(FILE *f) {
  fputs("usage: bench [options]   (every option also as --name=value)\n"
        "\n"
        "Measures the DG stages: for each case DOFs, DOF updates per second per RK\n"
        "stage, time per step (trace and update pass), flops and bytes per stage\n"
        "(dg_disc_work), GFLOP/s, GB/s and the fraction of the bandwidth a STREAM\n"
        "triad of the same backend measures in the same run.  Median of --repeats\n"
        "timed repeats after a warm-up.  Table on stdout, progress on stderr.\n"
        "\n"
        "what to run (a sweep is the product of the lists; LIST = a,b,c or a-b)\n"
        "  --dims LIST          dimensions, 2 and/or 3                  [2,3]\n"
        "  --degrees LIST       (maximum) degrees 0..10                 [0-7]\n"
        "  --sizes LIST         target DOFs per case, suffix K/M/G = 2^10/2^20/2^30;\n"
        "                       cells per direction = round((S/(r+1)^dim)^(1/dim)) for\n"
        "                       the maximum degree r; all maps of a size share the grid\n"
        "                                                  [32K,1M; --full: 16K,256K,1M,4M,16M]\n"
        "  --cells N1xN2[xN3]   one fixed grid instead of --sizes (sets the dimension)\n"
        "  --maps LIST          uniform, band, random, latitude (--grid latlon: degree\n"
        "                       --degree-min at the poles, one more per row)\n"
        "                                                 [uniform,band; --full: the first three]\n"
        "  --degree-min R       lowest degree of band/random maps; those maps run only\n"
        "                       for degrees above it                     [1]\n"
        "  --integrators LIST   euler, ssprk2, ssprk3, rk4, lsrk4  [ssprk3; --full: all]\n"
        "  --dim, --degree, --map, --integrator   one value of the list above\n"
        "  --full               the full sweep (defaults in [] after --full)\n"
        "  --case               one configuration: lists default to one value (dim 2,\n"
        "                       degree 3, uniform, ssprk3, 1M DOFs) and must not list more\n"
        "  --gridtools          the 2016 GridTools CPU case: 200x200, 40 forward Euler\n"
        "                       steps, band map 1..4 and uniform 4 (3 repeats)\n"
        "timing\n"
        "  --steps N            steps per timed repeat        [enough for --min-time]\n"
        "  --min-time S         shortest timed repeat, seconds   [0.1; --full: 0.2]\n"
        "  --repeats N          timed repeats per case (median, spread)  [5]\n"
        "  --warmup S           untimed steps first, at least one, seconds  [0.2]\n"
        "  --stream-mib M       MiB per triad array   [max(128, 4 x last-level cache)]\n"
        "  --max-mem G          GiB a case may use (larger cases are skipped)\n"
        "                                                     [80% of MemAvailable]\n"
        "  --no-peak            skip the FMA-loop peak measurement (CPU backends)\n"
        "output\n"
        "  --csv PATH           one row per case (columns: BENCHMARKS.md)\n"
        "  --json PATH          run metadata and the same rows\n"
        "  --quiet              no progress lines on stderr\n"
        "physics and time step (as in advect; they change the work little)\n"
        "  --model NAME and its options (advect --help)\n"
        "  --init parabola|bell|sine|constant [sine]  --bell-centre --bell-radius\n"
        "  --bell-height  --value  --box  --q Q  --seed S (random map)  --map-file PATH\n"
        "  (with --cells)  --cfl C [0.5]  --dt DT\n"
        "  --help               this text\n"
        "\n"
        "examples\n"
        "  bench                                  quick sweep (about a minute)\n"
        "  bench --full --csv b.csv --json b.json the full sweep\n"
        "  bench --dim 2 --cells 200x200 --map band --degree 4 --degree-min 1 \\\n"
        "        --integrator euler --steps 40    one case\n"
        "  bench --gridtools                      both GridTools cases and their ratio\n"
        "\n"
        "Exit status: 0 done, 1 a case failed (message on stderr), 2 bad options.\n",
        f);
}

/* Copy a comma-separated list into buf after checking it has no empty item. */
static int list_copy(const char *opt, const char *s, char *buf, size_t cap) {
  if (s[0] == '\0') return dg_error(DG_ERR_ARG, "option %s: empty list", opt);
  if (strlen(s) >= cap) return dg_error(DG_ERR_ARG, "option %s: value too long", opt);
  if (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
    return dg_error(DG_ERR_ARG, "option %s: '%s' has an empty item", opt, s);
  strcpy(buf, s);
  return 0;
}

/* Integers and ranges a-b, comma separated, each in lo..hi, no repeats. */
static int parse_int_list(const char *opt, const char *s, int lo, int hi, int *out, int cap,
                          int *n) {
  char buf[256];
  DG_CALL(list_copy(opt, s, buf, sizeof buf));
  int k = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    long a, b;
    char *dash = strchr(tok + 1, '-'); /* tok+1: a leading '-' is a sign */
    if (dash) {
      *dash = '\0';
      DG_CALL(dg_app_parse_long(opt, tok, lo, hi, &a));
      DG_CALL(dg_app_parse_long(opt, dash + 1, lo, hi, &b));
      if (b < a) return dg_error(DG_ERR_ARG, "option %s: range %ld-%ld is empty", opt, a, b);
    } else {
      DG_CALL(dg_app_parse_long(opt, tok, lo, hi, &a));
      b = a;
    }
    for (long v = a; v <= b; ++v) {
      for (int i = 0; i < k; ++i)
        if (out[i] == (int)v) return dg_error(DG_ERR_ARG, "option %s: %ld given twice", opt, v);
      if (k >= cap) return dg_error(DG_ERR_ARG, "option %s: more than %d values", opt, cap);
      out[k++] = (int)v;
    }
  }
  *n = k;
  return 0;
}

/* Words from `names` (index list), comma separated, no repeats. */
static int parse_word_list(const char *opt, const char *s, const char *const *names, int nnames,
                           int *out, int cap, int *n) {
  char buf[256];
  DG_CALL(list_copy(opt, s, buf, sizeof buf));
  int k = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int idx = -1;
    for (int i = 0; i < nnames; ++i)
      if (!strcmp(tok, names[i])) idx = i;
    if (idx < 0) {
      char list[256] = "";
      for (int i = 0; i < nnames; ++i) {
        strncat(list, names[i], sizeof list - strlen(list) - 1);
        if (i + 1 < nnames) strncat(list, ", ", sizeof list - strlen(list) - 1);
      }
      return dg_error(DG_ERR_ARG, "option %s: '%s' is not one of %s", opt, tok, list);
    }
    for (int i = 0; i < k; ++i)
      if (out[i] == idx) return dg_error(DG_ERR_ARG, "option %s: '%s' given twice", opt, tok);
    if (k >= cap) return dg_error(DG_ERR_ARG, "option %s: more than %d values", opt, cap);
    out[k++] = idx;
  }
  *n = k;
  return 0;
}

/* DOF counts with K/M/G (binary) suffixes. */
static int parse_sizes(const char *opt, const char *s, long *out, int *n) {
  char buf[256];
  DG_CALL(list_copy(opt, s, buf, sizeof buf));
  int k = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    size_t len = strlen(tok);
    long mult = 1;
    const char suf = tok[len - 1];
    if (suf == 'K' || suf == 'k') mult = 1L << 10;
    if (suf == 'M' || suf == 'm') mult = 1L << 20;
    if (suf == 'G' || suf == 'g') mult = 1L << 30;
    if (mult > 1) tok[len - 1] = '\0';
    long v;
    DG_CALL(dg_app_parse_long(opt, tok, 1, (1L << 40) / mult, &v));
    if (k >= MAX_SIZES)
      return dg_error(DG_ERR_ARG, "option %s: more than %d sizes", opt, MAX_SIZES);
    for (int i = 0; i < k; ++i)
      if (out[i] == v * mult)
        return dg_error(DG_ERR_ARG, "option %s: size %ld given twice", opt, v * mult);
    out[k++] = v * mult;
  }
  *n = k;
  return 0;
}

static int parse_cells(const char *opt, const char *s, int *cells, int *n) {
  char buf[128];
  if (strlen(s) >= sizeof buf) return dg_error(DG_ERR_ARG, "option %s: value too long", opt);
  if (s[0] == '\0' || s[0] == 'x' || s[strlen(s) - 1] == 'x' || strstr(s, "xx"))
    return dg_error(DG_ERR_ARG, "option %s: '%s' is not N1xN2 or N1xN2xN3", opt, s);
  strcpy(buf, s);
  int k = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
    if (k >= 3) return dg_error(DG_ERR_ARG, "option %s: '%s' has more than 3 sizes", opt, s);
    long v;
    DG_CALL(dg_app_parse_long(opt, tok, 1, 1 << 24, &v));
    cells[k++] = (int)v;
  }
  if (k < 2) return dg_error(DG_ERR_ARG, "option %s: '%s' is not N1xN2 or N1xN2xN3", opt, s);
  *n = k;
  return 0;
}

/* Options handed to dg_app_parse (model, time step, map file), and every
 * parameter of a model of the build. */
static const char *const forwarded[] = {"box", "map-file", "seed", "q",      "model",
                                        "dt",  "cfl",      "grid", "radius", NULL};
static int is_forwarded(const char *name) {
  for (int i = 0; forwarded[i]; ++i)
    if (!strcmp(name, forwarded[i])) return 1;
  for (int m = 0; m < dg_nmodels; ++m)
    for (int k = 0; k < dg_models[m]->nparam; ++k)
      if (!strcmp(name, dg_models[m]->params[k].name)) return 1;
  return 0;
}

static int is_flag(const char *name) {
  static const char *const flags[] = {"help",  "full",    "case", "gridtools",
                                      "quiet", "no-peak", NULL};
  for (int i = 0; flags[i]; ++i)
    if (!strcmp(name, flags[i])) return 1;
  return 0;
}

/* Mark an axis given; --dim and --dims are the same axis. */
static int once(int *flag, const char *opt) {
  if (*flag) return dg_error(DG_ERR_ARG, "option %s: this setting is given twice", opt);
  *flag = 1;
  return 0;
}

static int apply(bench_opts *o, const char *name, const char *v) {
  char opt[80];
  snprintf(opt, sizeof opt, "--%s", name);
  if (!strcmp(name, "dims") || !strcmp(name, "dim")) {
    DG_CALL(once(&o->set_dims, opt));
    return parse_int_list(opt, v, 2, 3, o->dims, 2, &o->ndims);
  }
  if (!strcmp(name, "degrees") || !strcmp(name, "degree")) {
    DG_CALL(once(&o->set_deg, opt));
    return parse_int_list(opt, v, 0, DG_MAX_DEGREE, o->degrees, DG_MAX_DEGREE + 1, &o->ndeg);
  }
  if (!strcmp(name, "degree-min")) {
    long r;
    DG_CALL(once(&o->degree_min_set, opt));
    DG_CALL(dg_app_parse_long(opt, v, 0, DG_MAX_DEGREE, &r));
    o->degree_min = (int)r;
    return 0;
  }
  if (!strcmp(name, "sizes") || !strcmp(name, "dofs")) {
    DG_CALL(once(&o->set_sizes, opt));
    return parse_sizes(opt, v, o->sizes, &o->nsizes);
  }
  if (!strcmp(name, "cells")) {
    DG_CALL(once(&o->set_cells, opt));
    return parse_cells(opt, v, o->cells, &o->cells_n);
  }
  if (!strcmp(name, "maps") || !strcmp(name, "map")) {
    DG_CALL(once(&o->set_maps, opt));
    return parse_word_list(opt, v, map_names, 4, o->maps, 4, &o->nmaps);
  }
  if (!strcmp(name, "integrators") || !strcmp(name, "integrator")) {
    const char *names[DG_TS_COUNT];
    for (int i = 0; i < DG_TS_COUNT; ++i) names[i] = dg_ts_name((dg_ts_kind)i);
    DG_CALL(once(&o->set_integ, opt));
    return parse_word_list(opt, v, names, DG_TS_COUNT, o->integ, DG_TS_COUNT, &o->ninteg);
  }
  if (!strcmp(name, "steps")) return dg_app_parse_long(opt, v, 1, 1L << 40, &o->steps);
  if (!strcmp(name, "repeats")) {
    long r;
    DG_CALL(dg_app_parse_long(opt, v, 1, 10000, &r));
    o->repeats = (int)r;
    o->repeats_set = 1;
    return 0;
  }
  if (!strcmp(name, "warmup")) return dg_app_parse_real(opt, v, 0, 3600, &o->warmup);
  if (!strcmp(name, "min-time")) {
    o->min_time_set = 1;
    DG_CALL(dg_app_parse_real(opt, v, 1e-6, 3600, &o->min_time));
    return 0;
  }
  if (!strcmp(name, "stream-mib")) return dg_app_parse_real(opt, v, 1, 1 << 20, &o->stream_mib);
  if (!strcmp(name, "max-mem")) return dg_app_parse_real(opt, v, 1e-3, 1 << 20, &o->max_mem_gib);
  if (!strcmp(name, "csv")) return dg_app_parse_path(opt, v, o->csv, sizeof o->csv);
  if (!strcmp(name, "json")) return dg_app_parse_path(opt, v, o->json, sizeof o->json);
  if (is_forwarded(name)) {
    if (o->nfwd >= 63) return dg_error(DG_ERR_ARG, "too many options");
    const size_t len = strlen(name) + strlen(v) + 4;
    char *a = malloc(len);
    if (!a) return dg_error(DG_ERR_MEM, "out of memory");
    snprintf(a, len, "--%s=%s", name, v);
    o->fwd[++o->nfwd] = a; /* fwd[0] is the program name */
    return 0;
  }
  return dg_error(DG_ERR_ARG, "unknown option '--%s' (see --help)", name);
}

static void opts_free(bench_opts *o) {
  for (int i = 1; i <= o->nfwd; ++i) free(o->fwd[i]);
  o->nfwd = 0;
  dg_app_config_free(&o->base);
}

#define BENCH_HELP (-1) /* distinct from every DG_ERR_* code */

/* Returns 0, BENCH_HELP for --help, or DG_ERR_ARG with the message recorded. */
static int parse_args(bench_opts *o, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  dg_app_defaults(&o->base);
  o->degree_min = 1;
  o->repeats = 5;
  o->warmup = 0.2;
  o->min_time = 0.1;
  o->peak = 1;
  o->fwd[0] = "bench";
  size_t cl = 0;
  for (int i = 0; i < argc && cl + 2 < sizeof o->command; ++i)
    cl += (size_t)snprintf(o->command + cl, sizeof o->command - cl, "%s%s", i ? " " : "", argv[i]);
  if (cl >= sizeof o->command) o->command[sizeof o->command - 1] = '\0';

  char seen[128][64];
  int nseen = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    char name[64];
    const char *eq; /* the value after '=', or NULL */
    DG_CALL(dg_app_split_option(a, name, sizeof name, &eq));
    if (is_flag(name)) {
      if (eq) return dg_error(DG_ERR_ARG, "option --%s takes no value", name);
      if (!strcmp(name, "help")) return BENCH_HELP;
      int *f = !strcmp(name, "full")        ? &o->full
               : !strcmp(name, "case")      ? &o->one_case
               : !strcmp(name, "gridtools") ? &o->gridtools
               : !strcmp(name, "quiet")     ? &o->quiet
                                            : NULL;
      if (f) {
        if (*f) return dg_error(DG_ERR_ARG, "option --%s given twice", name);
        *f = 1;
      } else { /* no-peak */
        if (!o->peak) return dg_error(DG_ERR_ARG, "option --%s given twice", name);
        o->peak = 0;
      }
      continue;
    }
    /* every setting once; --dim and --dims (etc.) are one setting */
    {
      static const char *const alias[][2] = {{"dim", "dims"},
                                             {"degree", "degrees"},
                                             {"map", "maps"},
                                             {"integrator", "integrators"},
                                             {"dofs", "sizes"}};
      const char *canon = name;
      for (size_t k = 0; k < sizeof alias / sizeof *alias; ++k)
        if (!strcmp(name, alias[k][0])) canon = alias[k][1];
      for (int k = 0; k < nseen; ++k)
        if (!strcmp(seen[k], canon))
          return dg_error(DG_ERR_ARG, "option --%s: this setting is given twice", name);
      if (nseen < (int)(sizeof seen / sizeof *seen)) snprintf(seen[nseen++], 64, "%s", canon);
    }
    const char *val;
    if (eq) {
      val = eq;
    } else {
      if (i + 1 >= argc) {
        /* unknown names are reported as such, not as missing values */
        if (!is_forwarded(name)) {
          bench_opts probe;
          memset(&probe, 0, sizeof probe);
          int rc = apply(&probe, name, "");
          if (rc && strstr(dg_error_message(), "unknown option")) return rc;
        }
        return dg_error(DG_ERR_ARG, "option --%s needs a value", name);
      }
      val = argv[++i];
    }
    DG_CALL(apply(o, name, val));
  }

  /* physics, time step and map file through the apps' parser (never --help
   * here, so any non-zero status is an error) */
  {
    const int rc = dg_app_parse(&o->base, o->nfwd + 1, o->fwd, "bench");
    if (rc > 0) return rc;
    if (rc < 0) return dg_error(DG_ERR_ARG, "unexpected status %d from the option parser", rc);
  }
  /* advection: nonzero everywhere, so no zeros are timed */
  DG_CALL(dg_app_default_param(&o->base, "init", "sine"));
  if (o->base.dt_set && o->base.cfl_set)
    return dg_error(DG_ERR_ARG, "options --dt and --cfl exclude each other");

  /* modes */
  const int axes = o->set_dims || o->set_deg || o->set_sizes || o->set_maps || o->set_integ ||
                   o->set_cells || o->degree_min_set || o->base.map_file[0];
  if (o->gridtools) {
    if (axes || o->full || o->one_case || o->steps)
      return dg_error(DG_ERR_ARG,
                      "option --gridtools runs a fixed pair of cases; drop --dim/--degree/"
                      "--cells/--sizes/--map/--map-file/--integrator/--steps/--full/--case");
  }
  if (o->full && o->one_case)
    return dg_error(DG_ERR_ARG, "options --full and --case exclude each other");
  if (o->full && !o->min_time_set) o->min_time = 0.2;
  if (o->set_cells && o->set_sizes)
    return dg_error(DG_ERR_ARG, "options --cells and --sizes exclude each other");
  if (o->set_cells) {
    if (!o->set_dims) {
      o->dims[0] = o->cells_n;
      o->ndims = 1;
      o->set_dims = 1;
    } else if (o->ndims != 1 || o->dims[0] != o->cells_n) {
      return dg_error(DG_ERR_ARG, "option --cells: %d sizes given but --dim is %s", o->cells_n,
                      o->ndims == 1 ? (o->dims[0] == 2 ? "2" : "3") : "a list");
    }
  }
  if (!strcmp(o->base.grid, "latlon")) {
    if (o->set_dims && (o->ndims != 1 || o->dims[0] != 2))
      return dg_error(DG_ERR_ARG, "option --grid latlon: the sphere is 2D, drop --dim 3");
    o->dims[0] = 2;
    o->ndims = 1;
    o->set_dims = 1;
  } else {
    for (int i = 0; i < o->nmaps; ++i)
      if (o->maps[i] == MAP_LATITUDE)
        return dg_error(DG_ERR_ARG, "option --map latitude: needs --grid latlon");
  }
  if (o->base.map_file[0]) {
    if (!o->set_cells) return dg_error(DG_ERR_ARG, "option --map-file: give the grid with --cells");
    if (o->set_deg || o->set_maps || o->degree_min_set)
      return dg_error(DG_ERR_ARG,
                      "option --map-file sets every degree; drop --degree/--map/--degree-min");
  }
  if (o->gridtools) {
    o->dims[0] = 2;
    o->ndims = 1;
    o->degrees[0] = 4;
    o->ndeg = 1;
    o->cells[0] = o->cells[1] = GT_CELLS;
    o->cells[2] = 1;
    o->cells_n = 2;
    o->set_cells = 1;
    o->maps[0] = MAP_UNIFORM;
    o->maps[1] = MAP_BAND;
    o->nmaps = 2;
    o->degree_min = 1;
    o->integ[0] = DG_TS_EULER;
    o->ninteg = 1;
    o->steps = GT_STEPS;
    if (!o->repeats_set) o->repeats = 3;
    return 0;
  }
  if (o->one_case) {
    const char *lists[] = {"--dims", "--degrees", "--sizes", "--maps", "--integrators"};
    const int counts[] = {o->set_dims ? o->ndims : 1, o->set_deg ? o->ndeg : 1,
                          o->set_sizes ? o->nsizes : 1, o->set_maps ? o->nmaps : 1,
                          o->set_integ ? o->ninteg : 1};
    for (int i = 0; i < 5; ++i)
      if (counts[i] > 1)
        return dg_error(DG_ERR_ARG, "option %s: --case runs one configuration, not a list of %d",
                        lists[i], counts[i]);
  }
  if (!o->set_dims) {
    o->dims[0] = 2;
    o->dims[1] = 3;
    o->ndims = o->one_case ? 1 : 2;
  }
  if (!o->set_deg) {
    if (o->one_case) {
      o->degrees[0] = 3;
      o->ndeg = 1;
    } else {
      o->ndeg = 8;
      for (int r = 0; r < 8; ++r) o->degrees[r] = r;
    }
  }
  if (!o->set_sizes && !o->set_cells) {
    if (o->one_case) {
      o->sizes[0] = 1L << 20;
      o->nsizes = 1;
    } else if (o->full) {
      const long s[] = {16L << 10, 256L << 10, 1L << 20, 4L << 20, 16L << 20};
      o->nsizes = 5;
      for (int i = 0; i < 5; ++i) o->sizes[i] = s[i];
    } else {
      o->sizes[0] = 32L << 10;
      o->sizes[1] = 1L << 20;
      o->nsizes = 2;
    }
  }
  if (o->base.map_file[0]) {
    o->maps[0] = MAP_FILE;
    o->nmaps = 1;
    o->degrees[0] = -1; /* from the file */
    o->ndeg = 1;
  } else if (!o->set_maps) {
    o->maps[0] = MAP_UNIFORM;
    o->maps[1] = MAP_BAND;
    o->maps[2] = MAP_RANDOM;
    o->nmaps = o->one_case ? 1 : (o->full ? 3 : 2);
  }
  if (!o->set_integ) {
    if (o->full) {
      o->ninteg = DG_TS_COUNT;
      for (int i = 0; i < DG_TS_COUNT; ++i) o->integ[i] = i;
    } else {
      o->integ[0] = DG_TS_SSPRK3;
      o->ninteg = 1;
    }
  }
  if (o->base.q)
    for (int i = 0; i < o->ndeg; ++i)
      if (o->degrees[i] >= o->base.q)
        return dg_error(DG_ERR_ARG, "option --q: %d points cannot carry degree %d (need q >= %d)",
                        o->base.q, o->degrees[i], o->degrees[i] + 1);
  /* one explicitly requested non-uniform case must be runnable as asked */
  if (o->ndeg == 1 && o->degrees[0] >= 0 && o->degree_min > o->degrees[0])
    for (int i = 0; i < o->nmaps; ++i)
      if (o->set_maps && o->maps[i] != MAP_UNIFORM)
        return dg_error(DG_ERR_ARG, "option --degree-min: %d is above --degree %d", o->degree_min,
                        o->degrees[0]);
  /* canonical order: uniform first, so band/random find their reference */
  for (int i = 0; i < o->nmaps; ++i)
    for (int j = i + 1; j < o->nmaps; ++j)
      if (o->maps[j] < o->maps[i]) {
        const int t = o->maps[i];
        o->maps[i] = o->maps[j];
        o->maps[j] = t;
      }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* machine                                                                   */

static double wall(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return NAN;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Quantile q of sorted v[0..n-1], linear interpolation. */
static double quantile(const double *v, int n, double q) {
  if (n <= 0) return NAN;
  const double pos = q * (n - 1);
  const int i = (int)floor(pos);
  if (i + 1 >= n) return v[n - 1];
  return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static double median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return quantile(v, n, 0.5);
}

/* Bytes of memory the process may still use (MemAvailable). */
static double mem_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f)) {
      long kb;
      if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1) {
        fclose(f);
        return 1024.0 * (double)kb;
      }
    }
    fclose(f);
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  return pages > 0 && psz > 0 ? (double)pages * (double)psz : INFINITY;
}

/* Last-level cache: sysfs first (sysconf reports the host's L3 in some VMs). */
static double llc_bytes(void) {
  double best = 0;
  for (int i = 0; i < 8; ++i) {
    char path[128], buf[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    FILE *f = fopen(path, "r");
    if (!f) break;
    const int ok = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    char unit = 0;
    double v;
    if (ok && sscanf(buf, "%lf%c", &v, &unit) >= 1) {
      v *= unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 : unit == 'G' ? 1073741824.0 : 1.0;
      if (v > best) best = v;
    }
  }
  if (best > 0) return best;
  long b = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
  b = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (b <= 0) b = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return b > 0 ? (double)b : 0;
}

static void cpu_model(char *out, size_t cap) {
  snprintf(out, cap, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "model name", 10)) {
      const char *c = strchr(line, ':');
      if (c) {
        c++;
        while (*c == ' ' || *c == '\t') c++;
        snprintf(out, cap, "%s", c);
        out[strcspn(out, "\n")] = '\0';
      }
      break;
    }
  }
  fclose(f);
}

static const char *simd_name(void) {
#if defined(__AVX512F__)
  return "avx512";
#elif defined(__AVX2__) && defined(__FMA__)
  return "avx2+fma";
#elif defined(__AVX2__)
  return "avx2";
#elif defined(__AVX__)
  return "avx";
#else
  return "generic";
#endif
}

typedef struct {
  double gbs_median, gbs_best;
  double mib; /* per array */
  int reps;
} stream_result;

/* STREAM triad a = b + s c of the backend over 3 arrays of `mib` MiB:
 * 3 x sizeof(dg_real) bytes per element (no write-allocate counted). */
static int measure_stream(double mib, int reps, stream_result *res) {
  const dg_backend_ops *be = dg_backend();
  const size_t n = (size_t)(mib * 1048576.0 / sizeof(dg_real));
  const size_t bytes = n * sizeof(dg_real);
  void *a = NULL, *b = NULL, *c = NULL;
  dg_real *h = malloc(bytes);
  double *t = malloc((size_t)reps * sizeof *t);
  int rc = 0;
  if (!h || !t) {
    rc = dg_error(DG_ERR_MEM, "stream triad: out of memory for %zu bytes", bytes);
    goto done;
  }
  if ((rc = be->alloc(&a, bytes)) || (rc = be->alloc(&b, bytes)) || (rc = be->alloc(&c, bytes)))
    goto done;
  for (size_t i = 0; i < n; ++i) h[i] = (dg_real)(1 + (i & 7));
  if ((rc = be->to_device(b, h, bytes))) goto done;
  for (size_t i = 0; i < n; ++i) h[i] = (dg_real)(2 + (i & 3));
  if ((rc = be->to_device(c, h, bytes))) goto done;
  const dg_real s = (dg_real)0.5;
  for (int w = 0; w < 2; ++w)
    if ((rc = be->triad(a, b, c, s, n)) || (rc = be->sync())) goto done;
  for (int k = 0; k < reps; ++k) {
    const double t0 = wall();
    if ((rc = be->triad(a, b, c, s, n)) || (rc = be->sync())) goto done;
    t[k] = wall() - t0;
  }
  /* every element written, with the right value */
  if ((rc = be->to_host(h, a, bytes))) goto done;
  for (size_t i = 0; i < n; ++i) {
    const dg_real want = (dg_real)(1 + (i & 7)) + s * (dg_real)(2 + (i & 3));
    if (h[i] != want) {
      rc = dg_error(DG_ERR_BACKEND, "stream triad: element %zu is %g, expected %g", i, (double)h[i],
                    (double)want);
      goto done;
    }
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  res->gbs_median = 3.0 * (double)bytes / quantile(t, reps, 0.5) / 1e9;
  res->gbs_best = 3.0 * (double)bytes / t[0] / 1e9;
  res->mib = (double)bytes / 1048576.0;
  res->reps = reps;
done:
  if (a) be->free(a);
  if (b) be->free(b);
  if (c) be->free(c);
  free(h);
  free(t);
  return rc;
}

/* Peak of fused multiply-adds on the host: PEAK_CHAINS independent chains
 * of dg_lane FMAs per thread, all OpenMP threads (CPU backends only). */
#define PEAK_CHAINS 12
static volatile double peak_sink;
static double peak_kernel(long iters) {
  dg_lane acc[PEAK_CHAINS];
  const dg_lane m = dg_lane_set((dg_real)0.999999), a = dg_lane_set((dg_real)1e-3);
  for (int c = 0; c < PEAK_CHAINS; ++c) acc[c] = dg_lane_set((dg_real)c);
  for (long i = 0; i < iters; ++i)
    for (int c = 0; c < PEAK_CHAINS; ++c) acc[c] = acc[c] * m + a;
  double sink = 0;
  for (int c = 0; c < PEAK_CHAINS; ++c)
    for (int l = 0; l < DG_VL; ++l) sink += (double)dg_lane_get(acc[c], l);
  return sink;
}

static double peak_run(long iters, int *nthr_out) {
  double sink = 0;
  int nthr = 0;
#ifdef _OPENMP
#pragma omp parallel reduction(+ : sink, nthr)
#endif
  {
    sink += peak_kernel(iters);
    nthr += 1;
  }
  peak_sink = sink;
  *nthr_out = nthr;
  return 2.0 * PEAK_CHAINS * DG_VL * (double)iters * nthr; /* flops */
}

/* Iterations are sized on one thread (no parallel region, whose start-up
 * on a shared machine can take a scheduler slice) to ~50 ms; the best of
 * 10 parallel trials is the peak. */
static double measure_peak(void) {
  long iters = 1L << 12;
  double best1 = INFINITY;
  for (int k = 0; k < 40 && iters < (1L << 40); ++k) {
    const double t0 = wall();
    peak_sink = peak_kernel(iters);
    const double dt = wall() - t0;
    if (dt / (double)iters < best1) best1 = dt / (double)iters;
    if (dt < 0.005) iters *= 2;
  }
  iters = (long)(0.05 / (best1 > 0 ? best1 : 1e-9)) + 1;
  double best = 0;
  for (int k = 0; k < 10; ++k) {
    int nthr;
    const double t0 = wall();
    const double fl = peak_run(iters, &nthr);
    const double dt = wall() - t0;
    if (dt > 0 && fl / dt > best) best = fl / dt;
  }
  return best / 1e9;
}

/* ------------------------------------------------------------------------ */
/* cases                                                                     */

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

static void map_label(const result *r, char *buf, size_t cap) {
  if (r->p.map == MAP_UNIFORM)
    snprintf(buf, cap, "uniform");
  else
    snprintf(buf, cap, "%s%d-%d", map_names[r->p.map], r->rmin, r->rmax);
}

static void cells_label(const int *cells, int dim, char *buf, size_t cap) {
  if (dim == 3)
    snprintf(buf, cap, "%dx%dx%d", cells[0], cells[1], cells[2]);
  else
    snprintf(buf, cap, "%dx%d", cells[0], cells[1]);
}

static long ipow(long b, int e) {
  long p = 1;
  for (int i = 0; i < e; ++i) p *= b;
  return p;
}

/* Upper bound of the bytes a case allocates (uniform maximum degree). */
static double case_bytes(const plan_item *p, int rmax, int q, int W, int nvar, int needs_x,
                         double *traces) {
  const double rb = sizeof(dg_real);
  const double nelem = (double)p->cells[0] * p->cells[1] * (p->dim == 3 ? p->cells[2] : 1);
  const double nslots = nelem + (double)(DG_MAX_DEGREE + 1) * W;
  const double len = nslots * nvar * (double)ipow(rmax + 1, p->dim);
  const double tr = nslots * 2 * p->dim * nvar * (double)ipow(q, p->dim - 1);
  *traces = tr;
  return 4 * len * rb /* u, initial u, two registers */
         /* two trace buffers, or with nbr_coeffs a second coefficient buffer */
         + (2 * tr > len ? 2 * tr : len) * rb +
         2 * nslots * 2 * p->dim * sizeof(int) /* neighbours: host build + device */
         /* coordinates: always built on the host, kept on the device if needed */
         + (needs_x ? 2 : 1) * nslots * 3 * p->dim * rb + 24 * nslots + 2 * nelem;
}

static int fill_config(const bench_opts *o, const plan_item *p, dg_app_config *c) {
  *c = o->base; /* shallow: the recorded keys and the model stay owned by o->base */
  c->nparams = 0;
  c->dim = p->dim;
  for (int d = 0; d < 3; ++d) c->cells[d] = d < p->dim ? p->cells[d] : 1;
  c->cells_n = p->dim;
  c->degree = p->degree < 0 ? 0 : p->degree;
  c->degree_min = p->degree_min;
  snprintf(c->map, sizeof c->map, "%s", p->map == MAP_FILE ? "uniform" : map_names[p->map]);
  snprintf(c->integrator, sizeof c->integrator, "%s", dg_ts_name(p->ts));
  return 0;
}

/* One timed repeat of `steps` steps from the initial state.  The reset
 * (a copy, an outside change of u) and the first step after it, which also
 * recomputes the face traces the previous update would have left, are not
 * timed: the repeat measures the steady state of a long run. */
static int timed_repeat(dg_disc *d, dg_ts *ts, dg_field *u, dg_field *u_init, long steps, double dt,
                        double *t_step, double *tr_step, double *up_step) {
  const dg_backend_ops *be = dg_backend();
  DG_CALL(dg_field_copy(u, u_init));
  DG_CALL(dg_field_to_device(u));
  DG_CALL(dg_ts_step(ts, u, 0, dt));
  DG_CALL(be->sync());
  dg_disc_set_timing(d, 1);
  const double t0 = wall();
  for (long s = 0; s < steps; ++s) DG_CALL(dg_ts_step(ts, u, (double)(s + 1) * dt, dt));
  DG_CALL(be->sync());
  const double t1 = wall();
  double tr, up;
  dg_disc_timing(d, &tr, &up);
  dg_disc_set_timing(d, 0);
  if (!isfinite(t0) || !isfinite(t1)) return dg_error(DG_ERR_BACKEND, "clock_gettime failed");
  *t_step = (t1 - t0) / (double)steps;
  *tr_step = tr / (double)steps;
  *up_step = up / (double)steps;
  return 0;
}

/* The uniform case on the same grid, degree and integrator (for band/random). */
static const result *find_uniform(const bench_run *b, const result *r) {
  for (long i = b->nres - 1; i >= 0; --i) {
    const result *u = &b->res[i];
    if (u->p.map == MAP_UNIFORM && u->p.dim == r->p.dim && u->p.cells[0] == r->p.cells[0] &&
        u->p.cells[1] == r->p.cells[1] && u->p.cells[2] == r->p.cells[2] && u->p.ts == r->p.ts &&
        u->rmax == r->rmax && u->q == r->q)
      return u;
  }
  return NULL;
}

typedef struct {
  dg_app_config cfg;
  dg_app_setup set;
  int have_set;
  dg_field *u, *u_init;
  double dt, setup_s;
} case_state;

static void case_free(case_state *cs) {
  dg_field_destroy(&cs->u);
  dg_field_destroy(&cs->u_init);
  if (cs->have_set) dg_app_setup_destroy(&cs->set);
  cs->have_set = 0;
}

static int case_setup(bench_run *b, const plan_item *p, case_state *cs) {
  const double t0 = wall();
  memset(cs, 0, sizeof *cs);
  DG_CALL(fill_config(b->o, p, &cs->cfg));
  cs->have_set = 1; /* dg_app_setup_destroy copes with a partial setup */
  DG_CALL(dg_app_setup_create(&cs->set, &cs->cfg));
  dg_disc *d = cs->set.disc;
  DG_CALL(dg_field_create(&cs->u, d));
  DG_CALL(dg_field_create(&cs->u_init, d));
  DG_CALL(dg_project_solution(d, cs->u_init, 0.0));
  DG_CALL(dg_field_to_device(cs->u_init));
  double est;
  DG_CALL(dg_disc_stable_dt(d, cs->u_init, 0.0, &est));
  if (cs->cfg.dt_set) {
    cs->dt = cs->cfg.dt;
  } else {
    if (!isfinite(est) || !(est > 0))
      return dg_error(DG_ERR_ARG, "option --cfl: the wave speed is zero everywhere, give --dt");
    cs->dt = cs->cfg.cfl * est;
  }
  cs->setup_s = wall() - t0;
  return 0;
}

static int run_case(bench_run *b, const plan_item *p, case_state *cs, result *r) {
  const bench_opts *o = b->o;
  dg_disc *d = cs->set.disc;
  const dg_degree_map *m = dg_disc_degrees(d);
  memset(r, 0, sizeof *r);
  r->p = *p;
  r->degree_req = p->degree;
  r->rmin = m->rmin;
  r->rmax = m->rmax;
  r->p.degree = m->rmax;
  r->p.degree_min = m->rmin;
  r->q = dg_disc_q(d);
  r->nbr_coeffs = dg_disc_nbr_coeffs(d);
  r->team = dg_disc_team(d);
  r->own_q = dg_disc_own_q(d);
  r->reuse_traces = dg_disc_reuse_traces(d);
  r->stages = dg_ts_stages(p->ts);
  r->lane_width = b->be->lane_width;
  r->nelem = dg_disc_grid(d)->nelem;
  r->dofs = dg_disc_ndofs(d);
  r->dt = cs->dt;
  r->setup_s = cs->setup_s;
  r->repeats = o->repeats;

  /* counted work: linear in the register streams, so the per-stage average
   * of the scheme (possibly fractional) is interpolated exactly */
  const dg_work w0 = dg_disc_work(d, 0), w1 = dg_disc_work(d, 1);
  if (w0.dofs != r->dofs)
    return dg_error(DG_ERR_NUMERIC, "dg_disc_work counts %ld dofs, the disc has %ld", w0.dofs,
                    r->dofs);
  r->reg_streams = dg_ts_register_streams(p->ts);
  r->flops_stage = w0.flops;
  r->bytes_min_stage = w0.bytes_min + r->reg_streams * (w1.bytes_min - w0.bytes_min);
  r->bytes_moved_stage = w0.bytes_moved + r->reg_streams * (w1.bytes_moved - w0.bytes_moved);
  if (!(r->flops_stage > 0) || !(r->bytes_min_stage > 0) || !(r->bytes_moved_stage > 0))
    return dg_error(DG_ERR_NUMERIC, "dg_disc_work: non-positive flops or bytes");

  dg_ts *ts = NULL;
  double *t = malloc(3 * (size_t)o->repeats * sizeof *t);
  if (!t) return dg_error(DG_ERR_MEM, "out of memory");
  double *ttr = t + o->repeats, *tup = ttr + o->repeats;
  int rc = dg_ts_create(&ts, d, p->ts);
  if (rc) goto done;

  /* warm-up: single timed steps until --warmup seconds have passed (at least
   * two); the fastest of them sets the steps per repeat for --min-time */
  {
    double spent = 0, best = INFINITY;
    if ((rc = dg_field_copy(cs->u, cs->u_init))) goto done;
    for (long k = 0; k < 2 || (spent < o->warmup && k < 1000000); ++k) {
      const double t0 = wall();
      if ((rc = dg_ts_step(ts, cs->u, 0, cs->dt)) || (rc = b->be->sync())) goto done;
      const double dt1 = wall() - t0;
      spent += dt1;
      if (dt1 < best) best = dt1;
    }
    r->warmup_steps_s = spent;
    r->steps = o->steps ? o->steps : (long)ceil(o->min_time / (best > 0 ? best : 1e-9));
    if (r->steps < 1) r->steps = 1;
  }
  for (int k = 0; k < o->repeats; ++k)
    if ((rc = timed_repeat(d, ts, cs->u, cs->u_init, r->steps, cs->dt, &t[k], &ttr[k], &tup[k])))
      goto done;
  r->finite = dg_check_finite(d, cs->u) == 0;
  dg_error_clear();

  qsort(t, (size_t)o->repeats, sizeof *t, cmp_double);
  r->median = quantile(t, o->repeats, 0.5);
  r->tmin = t[0];
  r->tmax = t[o->repeats - 1];
  r->iqr = quantile(t, o->repeats, 0.75) - quantile(t, o->repeats, 0.25);
  r->spread = (r->tmax - r->tmin) / r->median;
  r->trace_s = median_of(ttr, o->repeats);
  r->update_s = median_of(tup, o->repeats);
  const double per_s = (double)r->stages / r->median;
  r->dof_stage_per_s = (double)r->dofs * per_s;
  r->gflops = r->flops_stage * per_s / 1e9;
  r->gbs_min = r->bytes_min_stage * per_s / 1e9;
  r->gbs_moved = r->bytes_moved_stage * per_s / 1e9;
  r->bw_fraction = r->gbs_min / b->st0.gbs_median;
  r->bw_fraction_moved = r->gbs_moved / b->st0.gbs_median;
  r->flop_fraction = b->peak_gflops > 0 ? r->gflops / b->peak_gflops : NAN;
  r->cost_vs_dof_share = r->flops_vs_dof_share = NAN;
  if (p->map != MAP_UNIFORM) {
    const result *u = find_uniform(b, r);
    if (u) {
      const double share = (double)r->dofs / (double)u->dofs;
      r->cost_vs_dof_share = (r->median / u->median) / share;
      r->flops_vs_dof_share = (r->flops_stage / u->flops_stage) / share;
    }
  }
done:
  dg_ts_destroy(&ts);
  free(t);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* output                                                                    */

/* One case's output fields, written once for both formats: the CSV row (and
 * its header) and the JSON object hold the same keys in the same order. */
typedef enum { FLD_INT, FLD_NUM, FLD_STR, FLD_BOOL } fld_kind;
typedef struct {
  const char *name;
  fld_kind kind;
  double num; /* FLD_NUM (non-finite: empty in CSV, null in JSON) */
  long i;     /* FLD_INT, FLD_BOOL */
  const char *s;
  int csv; /* also a CSV column (the JSON holds every field) */
} fld;
enum { NFLD_MAX = 64 };

/* The fields of result r; cells and label are the caller's buffers (64).  The
 * required CSV columns come first (BENCHMARKS.md; tools/plot and bench.smoke
 * read columns by name, bench.smoke reads nbr_coeffs as the last one). */
static int case_fields(const bench_run *b, const result *r, fld *f, char *cells, char *label) {
  int n = 0;
  cells_label(r->p.cells, r->p.dim, cells, 64);
  map_label(r, label, 64);
#define FI(nm, v) f[n++] = (fld){nm, FLD_INT, 0, (long)(v), NULL, 1}
#define FN(nm, v)                                                                                  \
  f[n++] = (fld) { nm, FLD_NUM, (double)(v), 0, NULL, 1 }
#define FS(nm, v)                                                                                  \
  f[n++] = (fld) { nm, FLD_STR, 0, 0, (v), 1 }
#define FJ(nm, v)                                                                                  \
  f[n++] = (fld) { nm, FLD_NUM, (double)(v), 0, NULL, 0 }
#define FSJ(nm, v)                                                                                 \
  f[n++] = (fld) { nm, FLD_STR, 0, 0, (v), 0 }
  FI("dim", r->p.dim);
  FI("degree", r->rmax);
  FS("map", map_names[r->p.map]);
  FS("integrator", dg_ts_name(r->p.ts));
  FI("nelem", r->nelem);
  FI("dofs", r->dofs);
  FI("steps", r->steps);
  FN("median_step_s", r->median);
  FN("spread", r->spread);
  FN("trace_s", r->trace_s);
  FN("update_s", r->update_s);
  FN("dof_stage_per_s", r->dof_stage_per_s);
  FN("gflops", r->gflops);
  FN("gbs_min", r->gbs_min);
  FN("gbs_moved", r->gbs_moved);
  FN("bw_fraction", r->bw_fraction);
  FN("stream_gbs", b->st0.gbs_median);
  FS("backend", b->be->name);
  FI("threads", b->threads);
  FS("real", DG_REAL_NAME);
  FI("degree_min", r->rmin);
  FS("cells", cells);
  FSJ("label", label);
  FI("q", r->q);
  FI("stages", r->stages);
  FI("repeats", r->repeats);
  FN("min_step_s", r->tmin);
  FN("max_step_s", r->tmax);
  FN("iqr_step_s", r->iqr);
  FN("flops_stage", r->flops_stage);
  FN("bytes_min_stage", r->bytes_min_stage);
  FN("bytes_moved_stage", r->bytes_moved_stage);
  FN("reg_streams", r->reg_streams);
  FN("gbs", r->gbs_min);
  FN("bw_fraction_moved", r->bw_fraction_moved);
  FN("peak_gflops", b->peak_gflops);
  FN("flop_fraction", r->flop_fraction);
  FN("cost_vs_dof_share", r->cost_vs_dof_share);
  FN("flops_vs_dof_share", r->flops_vs_dof_share);
  FI("lane_width", r->lane_width);
  FI("target_dofs", r->p.target);
  FI("degree_req", r->degree_req);
  FN("dt", r->dt);
  FN("setup_s", r->setup_s);
  FJ("warmup_run_s", r->warmup_steps_s);
  f[n++] = (fld){"finite", FLD_BOOL, 0, r->finite, NULL, 1};
  FI("own_q", r->own_q);
  FI("team", r->team);
  FI("reuse_traces", r->reuse_traces);
  FI("nbr_coeffs", r->nbr_coeffs);
#undef FI
#undef FN
#undef FS
#undef FJ
#undef FSJ
  return n;
}

/* The CSV header: the names of the CSV fields. */
static void csv_header(const bench_run *b) {
  result r0;
  memset(&r0, 0, sizeof r0);
  fld f[NFLD_MAX];
  char cells[64], label[64];
  const int n = case_fields(b, &r0, f, cells, label);
  int first = 1;
  for (int i = 0; i < n; ++i)
    if (f[i].csv) {
      fprintf(b->csv, "%s%s", first ? "" : ",", f[i].name);
      first = 0;
    }
  fputc('\n', b->csv);
}

static void csv_row(bench_run *b, const result *r) {
  FILE *out = b->csv;
  fld f[NFLD_MAX];
  char cells[64], label[64];
  const int n = case_fields(b, r, f, cells, label);
  int first = 1;
  for (int i = 0; i < n; ++i) {
    if (!f[i].csv) continue;
    if (!first) fputc(',', out);
    first = 0;
    if (f[i].kind == FLD_NUM) {
      if (isfinite(f[i].num)) fprintf(out, "%.9g", f[i].num);
    } else if (f[i].kind == FLD_STR) {
      fputs(f[i].s, out);
    } else {
      fprintf(out, "%ld", f[i].i);
    }
  }
  fputc('\n', out);
  fflush(out);
}

static void json_num(FILE *f, const char *key, double v, int comma) {
  if (isfinite(v))
    fprintf(f, "\"%s\": %.9g%s", key, v, comma ? ", " : "");
  else
    fprintf(f, "\"%s\": null%s", key, comma ? ", " : "");
}

static void json_str(FILE *f, const char *key, const char *s, int comma) {
  fprintf(f, "\"%s\": \"", key);
  for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
    if (*c == '"' || *c == '\\')
      fprintf(f, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(f, "\\u%04x", *c);
    else
      fputc(*c, f);
  }
  fprintf(f, "\"%s", comma ? ", " : "");
}

static int write_json(bench_run *b, const char *error) {
  FILE *f = b->json;
  const bench_opts *o = b->o;
  fprintf(f, "{\n  \"tool\": \"dgrid bench\",\n  \"format\": 1,\n  \"meta\": {");
  json_str(f, "command", o->command, 1);
  json_str(f, "date", b->date, 1);
  json_str(f, "host", b->host, 1);
  json_str(f, "cpu", b->cpu, 1);
  json_str(f, "compiler", __VERSION__, 1);
  json_str(f, "simd", simd_name(), 1);
  json_str(f, "backend", b->be->name, 1);
  json_str(f, "real", DG_REAL_NAME, 1);
  fprintf(f, "\"threads\": %d, \"lane_width\": %d, ", b->threads, b->be->lane_width);
  json_num(f, "stream_gbs", b->st0.gbs_median, 1);
  json_num(f, "stream_gbs_best", b->st0.gbs_best, 1);
  json_num(f, "stream_gbs_end", b->st1.gbs_median, 1);
  json_num(f, "stream_array_mib", b->st0.mib, 1);
  fprintf(f, "\"stream_repeats\": %d, ", b->st0.reps);
  json_num(f, "peak_gflops", b->peak_gflops, 1);
  json_num(f, "loadavg_start", b->load0, 1);
  json_num(f, "loadavg_end", b->load1, 1);
  fprintf(f, "\"repeats\": %d, ", o->repeats);
  json_num(f, "warmup_s", o->warmup, 1);
  json_num(f, "min_time_s", o->min_time, 1);
  fprintf(f, "\"steps_fixed\": %ld, ", o->steps);
  json_str(f, "model", dg_model_file_name(o->base.model), 1);
  json_str(f, "error", error ? error : "", 0);
  fprintf(f, "},\n  \"cases\": [");
  for (long i = 0; i < b->nres; ++i) {
    fld c[NFLD_MAX];
    char cells[64], label[64];
    const int n = case_fields(b, &b->res[i], c, cells, label);
    fprintf(f, "%s\n    {", i ? "," : "");
    for (int k = 0; k < n; ++k) {
      const int comma = k + 1 < n;
      if (c[k].kind == FLD_NUM)
        json_num(f, c[k].name, c[k].num, comma);
      else if (c[k].kind == FLD_STR)
        json_str(f, c[k].name, c[k].s, comma);
      else if (c[k].kind == FLD_BOOL)
        fprintf(f, "\"%s\": %s%s", c[k].name, c[k].i ? "true" : "false", comma ? ", " : "");
      else
        fprintf(f, "\"%s\": %ld%s", c[k].name, c[k].i, comma ? ", " : "");
    }
    fputc('}', f);
  }
  fprintf(f, "\n  ],\n  \"skipped\": [");
  for (long i = 0; i < b->nskip; ++i) {
    fprintf(f, "%s\n    {", i ? "," : "");
    json_str(f, "case", b->skipped[i], 0);
    fputs("}", f);
  }
  fprintf(f, "\n  ]\n}\n");
  return 0;
}

static void table_header(void) {
  printf("%3s %3s %-11s %-6s %-11s %10s %6s %10s %7s %6s %11s %7s %8s %8s %6s\n", "dim", "deg",
         "map", "integ", "cells", "dofs", "steps", "step_s", "spread", "trace%", "dof/stage/s",
         "GFLOP/s", "GB/s_min", "GB/s_mov", "bw%");
}

static void table_row(const result *r) {
  char cells[64], label[64];
  cells_label(r->p.cells, r->p.dim, cells, sizeof cells);
  map_label(r, label, sizeof label);
  const double tsum = r->trace_s + r->update_s;
  printf("%3d %3d %-11s %-6s %-11s %10ld %6ld %10.4g %6.1f%% %6.1f %11.4g %7.3g %8.3g %8.3g "
         "%5.1f%%%s\n",
         r->p.dim, r->rmax, label, dg_ts_name(r->p.ts), cells, r->dofs, r->steps, r->median,
         100 * r->spread, tsum > 0 ? 100 * r->trace_s / tsum : NAN, r->dof_stage_per_s, r->gflops,
         r->gbs_min, r->gbs_moved, 100 * r->bw_fraction, r->finite ? "" : "  (not finite)");
  fflush(stdout);
}

/* ------------------------------------------------------------------------ */
/* sweep                                                                     */

static int add_plan(plan_item *plan, long *n, const plan_item *p) {
  if (*n >= MAX_PLAN) return dg_error(DG_ERR_ARG, "the sweep has more than %d cases", MAX_PLAN);
  plan[(*n)++] = *p;
  return 0;
}

static int build_plan(const bench_opts *o, plan_item *plan, long *n) {
  *n = 0;
  for (int di = 0; di < o->ndims; ++di) {
    const int dim = o->dims[di];
    const int nsz = o->set_cells ? 1 : o->nsizes;
    for (int si = 0; si < nsz; ++si)
      for (int ri = 0; ri < o->ndeg; ++ri) {
        const int r = o->degrees[ri];
        plan_item p;
        memset(&p, 0, sizeof p);
        p.dim = dim;
        p.degree = r;
        p.degree_min = o->degree_min;
        if (o->set_cells) {
          for (int d = 0; d < 3; ++d) p.cells[d] = d < dim ? o->cells[d] : 1;
        } else {
          p.target = o->sizes[si];
          const double per = (double)dg_model_nvar(o->base.model) * (double)ipow(r + 1, dim);
          const int latlon = !strcmp(o->base.grid, "latlon"); /* N1 = 2 N2 */
          long c = lround(pow((double)p.target / per / (latlon ? 2 : 1), 1.0 / dim));
          if (c < 1) c = 1;
          if (c > (1 << 23)) c = 1 << 23; /* N1 = 2 c stays within the grid limit */
          for (int d = 0; d < 3; ++d) p.cells[d] = d < dim ? (int)c : 1;
          if (latlon) p.cells[0] = 2 * (int)c;
        }
        for (int mi = 0; mi < o->nmaps; ++mi) {
          p.map = o->maps[mi];
          if (p.map != MAP_UNIFORM && p.map != MAP_FILE && o->degree_min >= r)
            continue; /* the same as uniform (or impossible) */
          for (int ii = 0; ii < o->ninteg; ++ii) {
            p.ts = (dg_ts_kind)o->integ[ii];
            DG_CALL(add_plan(plan, n, &p));
          }
        }
      }
  }
  return 0;
}

static int same_setup(const plan_item *a, const plan_item *b) {
  return a->dim == b->dim && a->cells[0] == b->cells[0] && a->cells[1] == b->cells[1] &&
         a->cells[2] == b->cells[2] && a->degree == b->degree && a->degree_min == b->degree_min &&
         a->map == b->map;
}

static void fmt_dur(double s, char *buf, size_t cap) {
  if (!isfinite(s) || s < 0)
    snprintf(buf, cap, "?");
  else if (s < 90)
    snprintf(buf, cap, "%.0fs", s);
  else if (s < 5400)
    snprintf(buf, cap, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
  else
    snprintf(buf, cap, "%.0fh%02.0fm", floor(s / 3600), fmod(s / 60, 60));
}

static int add_skip(bench_run *b, const char *what) {
  char(*s)[256] = realloc(b->skipped, (size_t)(b->nskip + 1) * sizeof *s);
  if (!s) return dg_error(DG_ERR_MEM, "out of memory");
  b->skipped = s;
  snprintf(b->skipped[b->nskip++], 256, "%s", what);
  return 0;
}

static int sweep(bench_run *b, const plan_item *plan, long n) {
  const bench_opts *o = b->o;
  case_state cs;
  memset(&cs, 0, sizeof cs);
  int have = 0, rc = 0;
  const plan_item *cur = NULL;
  const double t_start = wall();
  for (long i = 0; i < n; ++i) {
    const plan_item *p = &plan[i];
    char cells[64], what[768];
    cells_label(p->cells, p->dim, cells, sizeof cells);
    if (p->map == MAP_FILE)
      snprintf(what, sizeof what, "dim=%d map=file(%s) %s cells=%s", p->dim, o->base.map_file,
               dg_ts_name(p->ts), cells);
    else if (p->map == MAP_UNIFORM)
      snprintf(what, sizeof what, "dim=%d degree=%d map=uniform %s cells=%s", p->dim, p->degree,
               dg_ts_name(p->ts), cells);
    else
      snprintf(what, sizeof what, "dim=%d degree=%d..%d map=%s %s cells=%s", p->dim, p->degree_min,
               p->degree, map_names[p->map], dg_ts_name(p->ts), cells);
    if (!cur || !same_setup(cur, p)) {
      if (have) case_free(&cs);
      have = 0;
      cur = NULL;
      /* memory and layout limits before allocating */
      const int rmax = p->degree < 0 ? DG_MAX_DEGREE : p->degree;
      const int q = o->base.q ? o->base.q : rmax + 1;
      double traces;
      double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
      for (int k = 0; k < 3; ++k)
        if (o->base.box_n > 2 * k) lo[k] = o->base.box[2 * k], hi[k] = o->base.box[2 * k + 1];
      dg_grid g0;
      if (!strcmp(o->base.grid, "latlon"))
        DG_CALL(dg_grid_init_latlon(&g0, p->cells[0], p->cells[1], o->base.radius));
      else
        DG_CALL(dg_grid_init(&g0, p->dim, p->cells, lo, hi));
      DG_CALL(dg_model_finish_grid(o->base.model, &g0));
      const double need = case_bytes(p, rmax, q, b->be->lane_width, dg_model_nvar(o->base.model),
                                     dg_model_uses_x(o->base.model), &traces);
      char why[160] = "";
      if (need > b->mem_limit)
        snprintf(why, sizeof why, "needs %.2f GiB, limit %.2f GiB", need / 1073741824.0,
                 b->mem_limit / 1073741824.0);
      else if (traces >= 2147483647.0)
        snprintf(why, sizeof why, "%.3g face-trace values exceed the library's int offsets",
                 traces);
      if (why[0]) {
        /* skip every case of this setup */
        long j = i;
        while (j < n && same_setup(&plan[j], p)) {
          char w2[256];
          snprintf(w2, sizeof w2, "dim=%d degree=%d map=%s %s cells=%s: %s", plan[j].dim,
                   plan[j].degree, map_names[plan[j].map], dg_ts_name(plan[j].ts), cells, why);
          if (!o->quiet) fprintf(stderr, "bench: skipped %s\n", w2);
          DG_CALL(add_skip(b, w2));
          ++j;
        }
        i = j - 1;
        continue;
      }
      if (!o->quiet && need > 256.0 * 1048576.0) {
        fprintf(stderr, "bench: setting up %s (%.2f GiB)\n", what, need / 1073741824.0);
        fflush(stderr);
      }
      rc = case_setup(b, p, &cs);
      have = 1;
      if (rc) {
        rc = dg_error_prefix(rc, "case %s", what);
        break;
      }
      cur = p;
    }
    if (!o->quiet) {
      const double el = wall() - t_start;
      char e1[32], e2[32];
      fmt_dur(el, e1, sizeof e1);
      fmt_dur(i ? el / (double)i * (double)(n - i) : NAN, e2, sizeof e2);
      fprintf(stderr, "bench: [%ld/%ld] %s dofs=%ld  (elapsed %s, eta ~%s)\n", i + 1, n, what,
              dg_disc_ndofs(cs.set.disc), e1, e2);
      fflush(stderr);
    }
    if (b->nres == b->cap) {
      const long cap = b->cap ? 2 * b->cap : 64;
      result *r = realloc(b->res, (size_t)cap * sizeof *r);
      if (!r) {
        rc = dg_error(DG_ERR_MEM, "out of memory for results");
        break;
      }
      b->res = r;
      b->cap = cap;
    }
    result *r = &b->res[b->nres];
    rc = run_case(b, p, &cs, r);
    if (rc) {
      rc = dg_error_prefix(rc, "case %s", what);
      break;
    }
    b->nres++;
    if (b->csv) csv_row(b, r);
    table_row(r);
    if (p->degree >= 0 && r->rmax != p->degree && !o->quiet)
      fprintf(stderr,
              "bench: note: the %s map on %s cells reaches degrees %d..%d only (asked "
              "%d..%d); the row reports what ran\n",
              map_names[p->map], cells, r->rmin, r->rmax, p->degree_min, p->degree);
    if (!r->finite && !o->quiet)
      fprintf(stderr,
              "bench: warning: %s: the solution is not finite after the timed steps "
              "(the timing stands; use a smaller --cfl)\n",
              what);
  }
  if (have) case_free(&cs);
  return rc;
}

static void summary(bench_run *b) {
  const bench_opts *o = b->o;
  printf("\nstream triad (%s backend, %d threads, %.0f MiB arrays): %.2f GB/s median, %.2f best "
         "at start; %.2f GB/s median at end; load average %.2f at start, %.2f at end\n",
         b->be->name, b->threads, b->st0.mib, b->st0.gbs_median, b->st0.gbs_best, b->st1.gbs_median,
         b->load0, b->load1);
  if (b->load1 > b->threads || b->load0 > b->threads)
    printf("warning: the load average exceeds the %d threads: other processes share the cores "
           "and the timings are noisy (see spread)\n",
           b->threads);
  if (b->peak_gflops > 0)
    printf("FMA loop peak: %.1f GFLOP/s (%s, %d lanes of %s)\n", b->peak_gflops, simd_name(), DG_VL,
           DG_REAL_NAME);
  /* issue 6 targets: 2D uniform ~1M DOFs */
  for (long i = 0; i < b->nres; ++i) {
    const result *r = &b->res[i];
    if (r->p.dim == 2 && r->p.map == MAP_UNIFORM && (r->rmax == 3 || r->rmax == 5) &&
        r->dofs >= 500000 && r->dofs <= 2000000) {
      const double want = r->rmax == 3 ? 3e8 : 4e8;
      printf("target 2D degree %d, %ld dofs, %s, %d thread%s: %.3g dof_stage_per_s (target >= "
             "%.0e: %s)\n",
             r->rmax, r->dofs, dg_ts_name(r->p.ts), b->threads, b->threads == 1 ? "" : "s",
             r->dof_stage_per_s, want, r->dof_stage_per_s >= want ? "met" : "not met");
    }
  }
  for (long i = 0; i < b->nres; ++i) {
    const result *r = &b->res[i];
    if ((r->p.map == MAP_BAND || r->p.map == MAP_LATITUDE) && isfinite(r->cost_vs_dof_share) &&
        !o->gridtools) {
      char cells[64];
      cells_label(r->p.cells, r->p.dim, cells, sizeof cells);
      const double share = r->dofs / (double)find_uniform(b, r)->dofs;
      printf("%s %d..%d vs uniform %d (%dD %s %s): time x%.3f for DOFs x%.3f -> cost %.3f x "
             "its DOF share (target <= %.2f: %s; counted flops: %.3f x)\n",
             map_names[r->p.map], r->rmin, r->rmax, r->rmax, r->p.dim, cells, dg_ts_name(r->p.ts),
             r->cost_vs_dof_share * share, share, r->cost_vs_dof_share, VAR_TARGET(b),
             r->cost_vs_dof_share <= VAR_TARGET(b) ? "met" : "not met", r->flops_vs_dof_share);
    }
  }
  if (o->gridtools && b->nres == 2) {
    const result *u = b->res[0].p.map == MAP_UNIFORM ? &b->res[0] : &b->res[1];
    const result *v = u == &b->res[0] ? &b->res[1] : &b->res[0];
    printf("\nGridTools CPU case (200x200, forward Euler, %ld steps, %s, %d thread%s):\n",
           (long)GT_STEPS, DG_REAL_NAME, b->threads, b->threads == 1 ? "" : "s");
    printf(
        "  variable 1..4 (band): %8ld dofs  %9.4f s for %d steps  (2016 GridTools CPU: %.0f s)\n",
        v->dofs, v->median * GT_STEPS, GT_STEPS, GT_2016_VAR_S);
    printf(
        "  uniform 4:            %8ld dofs  %9.4f s for %d steps  (2016 GridTools CPU: %.0f s)\n",
        u->dofs, u->median * GT_STEPS, GT_STEPS, GT_2016_UNI_S);
    printf("  variable/uniform: time x%.3f, DOFs x%.3f -> cost %.3f x its DOF share (target <= "
           "%.2f: %s; counted flops: %.3f x; 2016: time x%.3f)\n",
           v->median / u->median, (double)v->dofs / u->dofs, v->cost_vs_dof_share, VAR_TARGET(b),
           v->cost_vs_dof_share <= VAR_TARGET(b) ? "met" : "not met", v->flops_vs_dof_share,
           GT_2016_VAR_S / GT_2016_UNI_S);
  }
  for (long i = 0; i < b->nskip; ++i) printf("skipped: %s\n", b->skipped[i]);
}

int main(int argc, char **argv) {
  bench_opts o;
  int rc = parse_args(&o, argc, argv);
  if (rc == BENCH_HELP) {
    help(stdout);
    opts_free(&o);
    return 0;
  }
  if (rc) {
    fprintf(stderr, "bench: %s\n", message());
    opts_free(&o);
    return EXIT_ARG;
  }
  bench_run b;
  memset(&b, 0, sizeof b);
  b.o = &o;
  b.be = dg_backend();
  b.peak_gflops = NAN;
  b.st1.gbs_median = NAN;
  plan_item *plan = malloc(MAX_PLAN * sizeof *plan);
  long n = 0;
  int status = 0;
  const char *phase = "";
  if (!plan) {
    fprintf(stderr, "bench: out of memory\n");
    opts_free(&o);
    return EXIT_RUN;
  }
  if ((rc = build_plan(&o, plan, &n))) {
    fprintf(stderr, "bench: %s\n", message());
    free(plan);
    opts_free(&o);
    return EXIT_ARG;
  }
  if (n == 0) {
    fprintf(stderr, "bench: the options select no case (band/random maps run only for degrees "
                    "above --degree-min)\n");
    free(plan);
    opts_free(&o);
    return EXIT_ARG;
  }
  /* outputs first: a bad path fails before the sweep */
  if (o.csv[0] && !(b.csv = fopen(o.csv, "w"))) {
    fprintf(stderr, "bench: option --csv: cannot write '%s': %s\n", o.csv, strerror(errno));
    free(plan);
    opts_free(&o);
    return EXIT_ARG;
  }
  if (o.json[0] && !(b.json = fopen(o.json, "w"))) {
    fprintf(stderr, "bench: option --json: cannot write '%s': %s\n", o.json, strerror(errno));
    if (b.csv) fclose(b.csv);
    free(plan);
    opts_free(&o);
    return EXIT_ARG;
  }
  if (b.csv) {
    csv_header(&b);
    fflush(b.csv);
  }

  {
    struct utsname u;
    if (uname(&u) == 0)
      snprintf(b.host, sizeof b.host, "%s %s %s", u.nodename, u.sysname, u.release);
    const time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv)) strftime(b.date, sizeof b.date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    cpu_model(b.cpu, sizeof b.cpu);
  }
  phase = "backend";
  if ((rc = b.be->init())) goto out;
  b.threads = b.be->parallelism();
  b.load0 = b.load1 = NAN;
  {
    double l;
    if (getloadavg(&l, 1) == 1) b.load0 = l;
  }
  b.mem_limit = o.max_mem_gib > 0 ? o.max_mem_gib * 1073741824.0 : 0.8 * mem_available();
  {
    double mib = o.stream_mib;
    if (!(mib > 0)) {
      mib = 4 * llc_bytes() / 1048576.0;
      if (mib < 128) mib = 128;
    }
    if (!o.quiet)
      fprintf(stderr,
              "bench: %ld cases; %s backend, %d threads, %s; stream triad on 3 x %.0f MiB\n", n,
              b.be->name, b.threads, DG_REAL_NAME, mib);
    phase = "stream triad";
    if ((rc = measure_stream(mib, 10, &b.st0))) goto out;
    if (o.peak && b.be->host_is_device) b.peak_gflops = measure_peak();
    char peak[32] = "n/a";
    if (isfinite(b.peak_gflops)) snprintf(peak, sizeof peak, "%.1f GFLOP/s", b.peak_gflops);
    printf("bench: %s backend, %d threads, %s, %s; stream triad %.2f GB/s; FMA peak %s; "
           "load average %.2f\n",
           b.be->name, b.threads, DG_REAL_NAME, simd_name(), b.st0.gbs_median, peak, b.load0);
    table_header();
    phase = "sweep";
    rc = sweep(&b, plan, n);
    if (!rc) {
      phase = "stream triad (end)";
      rc = measure_stream(mib, 10, &b.st1);
    }
    double l;
    if (getloadavg(&l, 1) == 1) b.load1 = l;
  }
out:
  if (rc) {
    fflush(stdout);
    fprintf(stderr, "bench: %s%s%s\n", phase[0] && strcmp(phase, "sweep") ? phase : "",
            phase[0] && strcmp(phase, "sweep") ? ": " : "", message());
    status = EXIT_RUN;
  } else {
    summary(&b);
  }
  if (b.json) {
    write_json(&b, rc ? dg_error_message() : NULL);
    if (ferror(b.json) | fclose(b.json)) {
      fprintf(stderr, "bench: option --json: writing '%s' failed\n", o.json);
      status = EXIT_RUN;
    }
  }
  if (b.csv && (ferror(b.csv) | fclose(b.csv))) {
    fprintf(stderr, "bench: option --csv: writing '%s' failed\n", o.csv);
    status = EXIT_RUN;
  }
  free(b.res);
  free(b.skipped);
  free(plan);
  opts_free(&o);
  return status;
}
