/* bench_opts.c - the options of apps/bench: help text and parsing (bench.h). */
#include "bench.h"
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

const char *const bench_map_names[MAP_COUNT] = {"uniform", "band", "random", "latitude", "file"};

void bench_help(FILE *f) {
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
static const char *const forwarded[] = {"box", "map-file", "seed",   "q",       "model",      "dt",
                                        "cfl", "grid",     "radius", "backend", "model-file", NULL};
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
    return parse_word_list(opt, v, bench_map_names, 4, o->maps, 4, &o->nmaps);
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

void bench_opts_free(bench_opts *o) {
  for (int i = 1; i <= o->nfwd; ++i) free(o->fwd[i]);
  o->nfwd = 0;
  dg_app_config_free(&o->base);
}

/* Returns 0, BENCH_HELP for --help, or DG_ERR_ARG with the message recorded. */
int bench_parse_args(bench_opts *o, int argc, char **argv) {
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
