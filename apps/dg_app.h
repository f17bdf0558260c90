/* dg_app.h - the run configuration shared by the apps: every numerical
 * choice as a command-line option or a key of a configuration file
 * (dg_app_config.h), strict parsing with one clear message per bad value, and
 * the setup of grid, degree map, discretisation and problem. */
#ifndef DG_APP_H
#define DG_APP_H

#include "dg_backends.h"
#include "dg_degree_map.h"
#include "dg_disc.h"
#include "dg_model.h"
#include "dg_ts.h"

#include <stdint.h>
#include <stdio.h>

typedef struct {
  int dim;
  int cells[3];
  int cells_n; /* sizes given with --cells (0: default) */
  int box_n;   /* numbers given (0: default) */
  double box[6];
  char grid[16]; /* box | latlon */
  int bc[6];     /* --bc: a dg_bc_kind per side x-, x+, y-, y+, z-, z+ */
  int bc_n;      /* kinds given (0: default, every side periodic; 1: all sides) */
  double radius; /* latlon: the sphere's radius */
  int degree, degree_min;
  char map[16];       /* uniform | band | random */
  char map_file[512]; /* overrides map when set */
  long seed;
  int q;
  char model_name[64];   /* --model */
  char model_file[512];  /* --model-file: a model header outside the tree */
  char model_digest[33]; /* its digest (dg_model_file_digest), stored with the configuration */
  dg_model *model;       /* the model with the values of its options (owned) */
  int verbose;           /* --verbose: print the backend's plan */
  char backend[24];      /* --backend ("": DGRID_BACKEND or the build's default) */
  int node_rank;         /* this rank's index on its node under mpirun, else -1 */
  dg_backend *be;        /* the backend the run uses (owned) */
  char integrator[16];
  double dt, cfl, t_end;
  long steps;
  int dt_set, cfl_set, t_end_set, steps_set;
  char output[512], text_output[512], restart[512];
  long output_every, progress_every;
  int view_samples;
  int quiet, history;
  char config[512]; /* --config, or the one argument without -- ("": none) */
  int print_config; /* --print-config */
  /* A restart of a --map-file run takes its degrees from the snapshot
   * (borrowed, restart_nelem of them), not from the map file. */
  const uint8_t *restart_degrees;
  long restart_nelem;
  /* the options as given (command line and configuration file), for the
   * snapshot's /parameters */
  int nparams;
  char *keys[64], *values[64];
} dg_app_config;

typedef struct {
  dg_grid grid;
  dg_degree_map *map;
  dg_disc *disc;
  const dg_model *model; /* the config's, parameters finished for the grid */
  dg_ts_kind ts_kind;
} dg_app_setup;

/* Defaults for every option. */
void dg_app_defaults(dg_app_config *c);
/* dg_app_parse's status for --help: distinct from every DG_ERR_* code. */
#define DG_APP_HELP (-1)

/* Parse argv into c.  --model NAME (default advection) chooses the model
 * first; options the apps do not know are the model's parameters.  Returns
 * 0, DG_APP_HELP for --help (the caller prints it to stdout), or DG_ERR_ARG
 * with a message naming the option and value. */
int dg_app_parse(dg_app_config *c, int argc, char **argv, const char *prog);
/* dg_app_parse over a base configuration (a snapshot's, for a restart, or
 * NULL): the configuration file overrides it, the command line overrides
 * both (dg_app_config.h). */
struct dg_config;
int dg_app_parse_base(dg_app_config *c, int argc, char **argv, const char *prog,
                      const struct dg_config *base);
/* 1 for an option without a value (--quiet, --history, ...). */
int dg_app_is_flag(const char *name);
/* Strict numbers for option values: the whole text must parse, lo <= value
 * <= hi; errors name the option and the value. */
int dg_app_parse_long(const char *opt, const char *s, long lo, long hi, long *out);
int dg_app_parse_real(const char *opt, const char *s, double lo, double hi, double *out);
/* A path option: non-empty and shorter than cap, copied into out. */
int dg_app_parse_path(const char *opt, const char *s, char *out, size_t cap);
/* Split one argument "--name[=value]": name into name[cap], *value = the text
 * after '=' or NULL.  DG_ERR_ARG for an argument that is not an option. */
int dg_app_split_option(const char *arg, char *name, size_t cap, const char **value);
/* Print the option reference with defaults. */
void dg_app_help(FILE *f, const char *prog);
/* A model parameter's value unless the user gave one (an app's default). */
int dg_app_default_param(dg_app_config *c, const char *key, const char *value);
/* The model's diffusion: its parameter nu, 0 where it has none (the
 * implicit part of a model; the explicit stages never see it). */
int dg_app_model_nu(const dg_model *m, double *nu);
/* The degree map of c on grid g (map, map file or the restart's degrees). */
int dg_app_map_create(dg_degree_map **m, const dg_grid *g, const dg_app_config *c);
/* The grid of c: the box with its sides' kinds (--bc), or the sphere. */
int dg_app_grid(const dg_app_config *c, dg_grid *g);
/* Build grid, map and disc from c (the model's parameters finished for the
 * grid). */
int dg_app_setup_create(dg_app_setup *s, const dg_app_config *c);
/* The same without the disc (s->disc NULL): under mpirun each rank builds
 * only its block's (dg_app_ranks_setup). */
int dg_app_setup_create_map(dg_app_setup *s, const dg_app_config *c);
void dg_app_setup_destroy(dg_app_setup *s);
void dg_app_config_free(dg_app_config *c);

/* `dgrid cache list|clear|warm ...` (argv[0] is "cache"): the exit status. */
int dg_app_cache_command(int argc, char **argv);

#endif
