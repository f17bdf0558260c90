/* dg_app.c - command-line options of the apps and the setup they drive. */
#include "dg_app.h"

#include "dg_app_check.h"
#include "dg_backend.h"
#include "dg_backends.h"
#include "dg_app_config.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void dg_app_defaults(dg_app_config *c) {
  memset(c, 0, sizeof *c);
  c->dim = 2;
  c->node_rank = -1;
  c->cells[0] = c->cells[1] = c->cells[2] = 32;
  for (int d = 0; d < 3; ++d) {
    c->box[2 * d] = 0;
    c->box[2 * d + 1] = 1;
  }
  strcpy(c->grid, "box");
  c->radius = 6.37122e6;
  c->degree = 3;
  c->degree_min = 0;
  strcpy(c->map, "uniform");
  c->seed = 1;
  c->q = 0;
  c->model_name[0] = '\0'; /* the build's first model */
  strcpy(c->integrator, "ssprk3");
  c->cfl = 0.5;
  c->t_end = 1.0;
  strcpy(c->output, "advect.h5");
  c->progress_every = 100;
  c->view_samples = 0;
}

void dg_app_help(FILE *f, const char *prog) {
  fprintf(f,
          "usage: %s [CONFIG_FILE] [options]   (every option also as --name=value;\n"
          "       --quiet, --history, --verbose also as --name=true|false)\n",
          prog);
  if (!strcmp(prog, "advect"))
    fprintf(f, "       %s cache list|clear|warm MODEL ...   (the kernel cache: %s cache --help)\n",
            prog, prog);
  fprintf(f, "\n"
             "configuration\n"
             "  --config PATH        options from a configuration file: name = value lines,\n"
             "                       optionally under [grid] [physics] [time] [output];\n"
             "                       also as the one argument without --; the command\n"
             "                       line overrides it                        [none]\n"
             "  --print-config       print the run's whole configuration in that format\n"
             "                       (defaults and model parameters included) and exit\n"
             "\n"
             "grid and degrees\n"
             "  --dim D              2 or 3                                  [2]\n"
             "  --cells N1xN2[xN3]   elements per direction                  [32x32(x32)]\n"
             "                       (latlon: N1xN2 or N2 alone, then N1 = 2 N2)\n"
             "  --box x0,x1,y0,y1[,z0,z1]  the box                           [unit box]\n"
             "  --grid KIND          box (sides: --bc) | latlon (the sphere, 2D: lambda x\n"
             "                       theta, periodic in lambda, poles at theta = +-pi/2) [box]\n"
             "  --radius A           latlon: the sphere's radius (m)         [6.37122e6]\n"
             "  --bc KINDS           box sides: one kind for all, or one per side in the\n"
             "                       order x-,x+,y-,y+[,z-,z+]; kinds periodic | inflow\n"
             "                       (the model's data, advection: its exact solution) |\n"
             "                       outflow | wall (the model's reflection, acoustics);\n"
             "                       periodic on both sides of a direction or neither\n"
             "                                                               [periodic]\n"
             "  --degree R           uniform degree; max of the other maps   [3]\n"
             "  --degree-min R       min degree of band/random/latitude/step (an error\n"
             "                       with a uniform map or a map file)       [0]\n"
             "  --map KIND           uniform | band | random | latitude | step [uniform]\n"
             "                       (latitude, --grid latlon: one degree less per row\n"
             "                       toward the poles; step: each row's degree from its\n"
             "                       stable step)\n"
             "                       (band: degree-min at y edges up to --degree in the\n"
             "                       middle; on fewer than 2(R-Rmin)+1 rows it stops\n"
             "                       below --degree and a note says so)\n"
             "  --map-file PATH      degree map file (N2 lines of N1 integers, first line\n"
             "                       is the lowest row; 3D: N3 such blocks; excludes\n"
             "                       --map, --degree, --degree-min)          [none]\n"
             "  --seed S             seed of the random map                  [1]\n"
             "  --q Q                Gauss points per direction              [max degree + 1]\n"
             "physics\n"
             "  --model NAME         the model (its options below)   [the build's first]\n"
             "  --model-file PATH    a model header of your own (NAME.h, docs/MODELS.md),\n"
             "                       compiled for this run (excludes --model)  [none]\n"
             "  --model-digest D     the digest --model-file's header must have (a snapshot\n"
             "                       stores it: a restart refuses a changed header)  [none]\n"
             "time stepping\n"
             "  --integrator KIND    euler | ssprk2 | ssprk3 | rk4 | lsrk4   [ssprk3]\n"
             "  --dt DT              fixed time step (excludes --cfl); where DT does not\n"
             "                       divide T, dt = T / ceil(T/DT) and the header notes\n"
             "                       it; more than 2^40 steps are refused    [from --cfl]\n"
             "  --cfl C              dt = C x stable step on the solution    [0.5]\n"
             "                       (re-estimated every step where the model's wave\n"
             "                       speed changes with u or t); a warning above the\n"
             "                       integrator's stable range\n");
  fprintf(f, "                       stable --cfl by degree 0..%d (higher: as %d):\n",
          DG_APP_CFL_DEGREES - 1, DG_APP_CFL_DEGREES - 1);
  for (int k = 0; k < DG_TS_COUNT; ++k) {
    fprintf(f, "                         %-7s", dg_ts_name((dg_ts_kind)k));
    for (int r = 0; r < DG_APP_CFL_DEGREES; ++r)
      fprintf(f, " %g", dg_app_cfl_limit((dg_ts_kind)k, r));
    fprintf(f, "\n");
  }
  fprintf(f,
          "  --t-end T            final time (excludes --steps)           [1]\n"
          "  --steps N            number of steps; T = N dt               [from --t-end]\n"
          "output\n"
          "  --output PATH        final HDF5 snapshot                     [advect.h5]\n"
          "  --output-every N     also a snapshot every N steps (PATH_<step>.h5)\n"
          "                       and an XDMF time series (PATH.xdmf)      [0: off]\n"
          "  --text-output PATH   final solution in the text modal format  [none]\n"
          "  --view-samples S     view sub-grid samples per element        [max degree+1, 2..8]\n"
          "  --restart PATH       continue the run of a snapshot with the configuration\n"
          "                       it holds; options may change only t-end, steps,\n"
          "                       output, output-every, text-output, view-samples,\n"
          "                       progress-every, history, quiet, verbose, backend;\n"
          "                       --steps/--t-end still count from t=0    [none]\n"
          "  --progress-every N   progress line every N steps (0: off)    [100]\n"
          "  --history            record mass and L2 error at each progress line\n"
          "  --quiet              no progress lines\n"
          "  --verbose            print the backend's plan (how the stages run) and, on\n"
          "                       stderr, the kernels compiled and how long they took\n"
          "  --backend B          omp (CPU threads), cuda or cuda:N (GPU N) where the\n"
          "                       build has CUDA     [DGRID_BACKEND, else the build's]\n"
          "  --help               this text\n"
          "\n"
          "The last line on stdout is a machine-readable summary:\n"
          "  advect: backend=B dofs=N steps=N t=T dt=DT l2_error=E linf_error=E mass=M\n"
          "          mass_drift=D wall_s=S dof_stage_per_s=X\n"
          "mass_drift is the largest relative change of a variable's mass; a variable\n"
          "whose initial mass is below 1e-8 x the sum of |cell mean| x volume has no\n"
          "mass to be relative to: the largest absolute change of those is\n"
          "mass_drift_abs=A (each field only where it applies).  A model of several\n"
          "variables adds each one's l2_error_V, linf_error_V, mass_V and mass_drift_V\n"
          "(or mass_drift_abs_V): with sources (shallow water's momentum) only some\n"
          "masses are conserved, and mass_drift is the largest change of any.\n"
          "\n"
          "Before the first step every output path is checked and the memory the run\n"
          "needs is compared with what the machine has; a run that does not fit is\n"
          "refused.  A non-finite solution stops the run at the step it appears in\n"
          "(host-memory backends; otherwise at the next progress line, snapshot or\n"
          "the end), naming the files kept.  Warnings and the band note go to stderr.\n"
          "\n"
          "models of this build and their options:\n");
  dg_model_help(f);
}

int dg_app_parse_long(const char *opt, const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  /* strtol skips leading blanks: " 5" is not what the user meant to type */
  if (*s == '\0' || isspace((unsigned char)*s) || *end != '\0' || errno) {
    char esc[160];
    return dg_error(DG_ERR_ARG, "option %s: '%s' is not an integer", opt,
                    dg_escape(esc, sizeof esc, s));
  }
  if (v < lo || v > hi)
    return dg_error(DG_ERR_ARG, "option %s: %ld is outside %ld..%ld", opt, v, lo, hi);
  *out = v;
  return 0;
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out) {
  long v;
  DG_CALL(dg_app_parse_long(opt, s, lo, hi, &v));
  *out = (int)v;
  return 0;
}

int dg_app_parse_real(const char *opt, const char *s, double lo, double hi, double *out) {
  return dg_parse_real(opt, s, lo, hi, out);
}

/* Any finite real. */
static int parse_real(const char *opt, const char *s, double *out) {
  return dg_app_parse_real(opt, s, -HUGE_VAL, HUGE_VAL, out);
}

static int parse_pos(const char *opt, const char *s, double *out) {
  DG_CALL(parse_real(opt, s, out));
  if (!(*out > 0)) return dg_error(DG_ERR_ARG, "option %s: %s must be positive", opt, s);
  return 0;
}

/* Comma-separated reals: between nmin and nmax of them. */
static int parse_list(const char *opt, const char *s, int nmin, int nmax, double *out, int *n) {
  return dg_parse_list(opt, s, nmin, nmax, out, n);
}

static int parse_cells(const char *opt, const char *s, int *cells, int *n) {
  char buf[128], esc[160];
  if (strlen(s) >= sizeof buf) return dg_error(DG_ERR_ARG, "option %s: value too long", opt);
  strcpy(buf, s);
  dg_escape(esc, sizeof esc, s);
  int k = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
    if (k >= 3) return dg_error(DG_ERR_ARG, "option %s: '%s' has more than 3 sizes", opt, esc);
    DG_CALL(parse_int(opt, tok, 1, 1 << 24, &cells[k]));
    ++k;
  }
  if (k < 1 || s[strlen(s) - 1] == 'x' || s[0] == 'x' || strstr(s, "xx"))
    return dg_error(DG_ERR_ARG, "option %s: '%s' is not N1xN2 or N1xN2xN3", opt, esc);
  *n = k;
  return 0;
}

/* One of the '|'-separated words into out. */
static int parse_word(const char *opt, const char *s, const char *words, char *out, size_t cap) {
  int i;
  DG_CALL(dg_parse_word(opt, s, words, &i));
  snprintf(out, cap, "%s", s);
  return 0;
}

int dg_app_parse_path(const char *opt, const char *s, char *out, size_t cap) {
  if (s[0] == '\0') return dg_error(DG_ERR_ARG, "option %s: empty path", opt);
  /* `--csv --help` must not write a file called --help; ./-x names such a file */
  if (s[0] == '-')
    return dg_error(DG_ERR_ARG, "option %s: '%s' looks like an option, not a path (write ./%s)",
                    opt, s, s);
  if (strlen(s) >= cap)
    return dg_error(DG_ERR_ARG, "option %s: path longer than %zu", opt, cap - 1);
  strcpy(out, s);
  return 0;
}

static int record(dg_app_config *c, const char *key, const char *val) {
  for (int i = 0; i < c->nparams; ++i)
    if (strcmp(c->keys[i], key) == 0) return dg_error(DG_ERR_ARG, "option --%s given twice", key);
  if (c->nparams >= 64) return dg_error(DG_ERR_ARG, "too many options");
  c->keys[c->nparams] = strdup(key);
  c->values[c->nparams] = strdup(val);
  if (!c->keys[c->nparams] || !c->values[c->nparams]) return dg_error(DG_ERR_MEM, "out of memory");
  c->nparams++;
  return 0;
}

static const char *const maps = "uniform|band|random|latitude|step";
static const char *const bcs = "periodic|inflow|outflow|wall";

/* --bc: one kind (every side) or one per side, comma-separated; the count
 * is checked against --dim once every option is known. */
static int parse_bc(const char *opt, const char *s, int *bc, int *n) {
  char buf[128], esc[160];
  if (strlen(s) >= sizeof buf) return dg_error(DG_ERR_ARG, "option %s: value too long", opt);
  strcpy(buf, s);
  int k = 0;
  const size_t len = strlen(s);
  if (len == 0 || s[0] == ',' || s[len - 1] == ',' || strstr(s, ",,"))
    return dg_error(DG_ERR_ARG, "option %s: '%s' is not a comma-separated list of kinds", opt,
                    dg_escape(esc, sizeof esc, s));
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (k >= 6)
      return dg_error(DG_ERR_ARG, "option %s: '%s' has more than 6 kinds", opt,
                      dg_escape(esc, sizeof esc, s));
    DG_CALL(dg_parse_word(opt, tok, bcs, &bc[k]));
    ++k;
  }
  *n = k;
  return 0;
}
static const char *const tss = "euler|ssprk2|ssprk3|rk4|lsrk4";

/* Options without a value. */
static int is_flag(const char *name) {
  return !strcmp(name, "quiet") || !strcmp(name, "history") || !strcmp(name, "help") ||
         !strcmp(name, "verbose") || !strcmp(name, "print-config");
}

int dg_app_is_flag(const char *name) { return is_flag(name); }

/* The header --model-file names must be the one --model-digest (a
 * snapshot's stored configuration) was taken of: a header edited since
 * would continue a run with other equations. */
static int check_model_digest(dg_app_config *c, const dg_app_opt *o) {
  DG_CALL(dg_model_file_digest(c->model_file, c->model_digest));
  if (!o || !o->value) return 0;
  char esc[160], path[600];
  dg_escape(path, sizeof path, c->model_file);
  if (strlen(o->value) != 32 || strspn(o->value, "0123456789abcdef") != 32)
    return dg_app_opt_fail(o,
                           dg_error(DG_ERR_ARG, "option --model-digest: '%s' is not 32 hex digits",
                                    dg_escape(esc, sizeof esc, o->value)));
  if (strcmp(o->value, c->model_digest) != 0)
    return dg_app_opt_fail(
        o, dg_error(DG_ERR_ARG,
                    "option --model-digest: model file %s has changed: its digest is %s, not %s "
                    "(the header the configuration was written with)",
                    path, c->model_digest, o->value));
  return 0;
}

static int apply(dg_app_config *c, const char *name, const char *v) {
  char opt[80];
  snprintf(opt, sizeof opt, "--%s", name);
  int n = 0;
  if (!strcmp(name, "dim")) return parse_int(opt, v, 2, 3, &c->dim);
  if (!strcmp(name, "cells")) {
    int cells[3] = {0, 0, 1};
    DG_CALL(parse_cells(opt, v, cells, &n));
    for (int d = 0; d < 3; ++d) c->cells[d] = cells[d];
    c->cells_n = n;
    return 0;
  }
  if (!strcmp(name, "grid")) return parse_word(opt, v, "box|latlon", c->grid, sizeof c->grid);
  if (!strcmp(name, "bc")) return parse_bc(opt, v, c->bc, &c->bc_n);
  if (!strcmp(name, "radius")) {
    DG_CALL(parse_real(opt, v, &c->radius));
    if (!(c->radius > 0) || !isfinite(c->radius))
      return dg_error(DG_ERR_ARG, "option --radius: %s must be positive and finite", v);
    return 0;
  }
  if (!strcmp(name, "box")) {
    double b[6];
    DG_CALL(parse_list(opt, v, 4, 6, b, &n));
    if (n != 4 && n != 6) {
      char esc[160];
      return dg_error(DG_ERR_ARG, "option --box: '%s' needs 4 or 6 numbers",
                      dg_escape(esc, sizeof esc, v));
    }
    for (int i = 0; i < n; ++i) c->box[i] = b[i];
    c->box_n = n;
    for (int d = 0; d < n / 2; ++d)
      if (!(b[2 * d + 1] > b[2 * d]))
        return dg_error(DG_ERR_ARG, "option --box: upper bound %g not above lower bound %g",
                        b[2 * d + 1], b[2 * d]);
    return 0;
  }
  if (!strcmp(name, "degree")) return parse_int(opt, v, 0, DG_MAX_DEGREE, &c->degree);
  if (!strcmp(name, "degree-min")) return parse_int(opt, v, 0, DG_MAX_DEGREE, &c->degree_min);
  if (!strcmp(name, "map")) return parse_word(opt, v, maps, c->map, sizeof c->map);
  if (!strcmp(name, "map-file")) return dg_app_parse_path(opt, v, c->map_file, sizeof c->map_file);
  if (!strcmp(name, "seed")) return dg_app_parse_long(opt, v, 0, 1L << 62, &c->seed);
  if (!strcmp(name, "q")) return parse_int(opt, v, 1, DG_MAX_Q, &c->q);
  /* taken before the other options (dg_app_parse) */
  if (!strcmp(name, "model")) return 0;
  if (!strcmp(name, "model-file")) return 0;
  if (!strcmp(name, "model-digest")) return 0;
  if (!strcmp(name, "backend")) return 0;
  if (!strcmp(name, "integrator"))
    return parse_word(opt, v, tss, c->integrator, sizeof c->integrator);
  if (!strcmp(name, "dt")) {
    c->dt_set = 1;
    return parse_pos(opt, v, &c->dt);
  }
  if (!strcmp(name, "cfl")) {
    c->cfl_set = 1;
    return parse_pos(opt, v, &c->cfl);
  }
  if (!strcmp(name, "t-end")) {
    c->t_end_set = 1;
    return parse_pos(opt, v, &c->t_end);
  }
  if (!strcmp(name, "steps")) {
    c->steps_set = 1;
    return dg_app_parse_long(opt, v, 0, 1L << 40, &c->steps);
  }
  if (!strcmp(name, "output")) return dg_app_parse_path(opt, v, c->output, sizeof c->output);
  if (!strcmp(name, "text-output"))
    return dg_app_parse_path(opt, v, c->text_output, sizeof c->text_output);
  if (!strcmp(name, "restart")) return dg_app_parse_path(opt, v, c->restart, sizeof c->restart);
  if (!strcmp(name, "output-every"))
    return dg_app_parse_long(opt, v, 0, 1L << 40, &c->output_every);
  if (!strcmp(name, "progress-every"))
    return dg_app_parse_long(opt, v, 0, 1L << 40, &c->progress_every);
  if (!strcmp(name, "view-samples")) return parse_int(opt, v, 1, 64, &c->view_samples);
  if (c->model && dg_model_has_param(c->model, name)) return dg_model_set(c->model, name, v);
  return dg_error(DG_ERR_ARG, "unknown option '--%s' (see --help)", name);
}

int dg_app_split_option(const char *arg, char *name, size_t cap, const char **value) {
  char esc[160];
  if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
    return dg_error(DG_ERR_ARG, "unexpected argument '%s' (options start with --; see --help)",
                    dg_escape(esc, sizeof esc, arg));
  const char *eq = strchr(arg + 2, '=');
  const size_t len = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
  /* no option name holds other characters: the name is never echoed raw */
  if (len >= cap || strspn(arg + 2, "abcdefghijklmnopqrstuvwxyz0123456789-") < len)
    return dg_error(DG_ERR_ARG, "unknown option '%s' (see --help)",
                    dg_escape_n(esc, sizeof esc, arg, eq ? (size_t)(eq - arg) : strlen(arg)));
  memcpy(name, arg + 2, len);
  name[len] = '\0';
  *value = eq ? eq + 1 : NULL;
  return 0;
}

int dg_app_parse(dg_app_config *c, int argc, char **argv, const char *prog) {
  return dg_app_parse_base(c, argc, argv, prog, NULL);
}

/* Apply the options of L (dg_app_config.h: base, configuration file and
 * command line merged); an error about an option from a configuration names
 * its file and line. */
static int parse_layers(dg_app_config *c, const dg_app_layers *L) {
  snprintf(c->config, sizeof c->config, "%s", L->config_path);
  c->print_config = L->print_config;
  {
    const dg_app_opt *vo = dg_app_layers_find(L, "verbose");
    int on = 0;
    if (vo) DG_CALL(dg_app_opt_fail(vo, dg_app_parse_bool("verbose", vo->value, &on)));
    dg_backend_verbose(on); /* before a model file is compiled */
    const dg_app_opt *bo = dg_app_layers_find(L, "backend");
    if (bo && bo->value) {
      if (!bo->value[0] || strlen(bo->value) >= sizeof c->backend)
        return dg_app_opt_fail(bo,
                               dg_error(DG_ERR_ARG, "option --backend: not omp, cuda or cuda:N"));
      snprintf(c->backend, sizeof c->backend, "%s", bo->value);
    }
    dg_backend_destroy(&c->be);
    const int brc = dg_backend_create_on_node(&c->be, c->backend, c->node_rank);
    if (brc) return dg_app_opt_fail(bo, brc);
    const dg_app_opt *mo = dg_app_layers_find(L, "model");
    const dg_app_opt *mf = dg_app_layers_find(L, "model-file");
    if (mo && mf && mo->value && mf->value)
      return dg_error(DG_ERR_ARG, "options --model and --model-file exclude each other");
    dg_model_destroy(&c->model);
    if (mf && mf->value) {
      DG_CALL(dg_app_opt_fail(
          mf, dg_app_parse_path("--model-file", mf->value, c->model_file, sizeof c->model_file)));
      DG_CALL(dg_app_opt_fail(mf, dg_model_load(&c->model, c->model_file)));
      DG_CALL(check_model_digest(c, dg_app_layers_find(L, "model-digest")));
      snprintf(c->model_name, sizeof c->model_name, "%s", dg_model_name(c->model));
    } else {
      if (mo && mo->value)
        DG_CALL(dg_app_opt_fail(
            mo, dg_app_parse_path("--model", mo->value, c->model_name, sizeof c->model_name)));
      if (!c->model_name[0])
        snprintf(c->model_name, sizeof c->model_name, "%s", dg_models[0]->name);
      DG_CALL(dg_app_opt_fail(mo, dg_model_create(&c->model, c->model_name)));
    }
  }
  for (int i = 0; i < L->nopt; ++i) {
    const dg_app_opt *o = &L->opt[i];
    const char *name = o->key;
    const int given = !L->base || o->from != L->base; /* not a restart's stored configuration */
    if (o->from) DG_CALL(dg_app_opt_check_key(o, c->model));
    if (is_flag(name)) {
      int on;
      DG_CALL(dg_app_opt_fail(o, dg_app_parse_bool(name, o->value, &on)));
      if (!strcmp(name, "quiet")) c->quiet = on;
      if (!strcmp(name, "history")) c->history = on;
      if (!strcmp(name, "verbose")) c->verbose = on;
      if (given) DG_CALL(record(c, name, o->from || strcmp(o->value, "true") ? o->value : "1"));
      continue;
    }
    if (!o->value) {
      /* unknown names are reported as such, not as missing values */
      int rc = apply(c, name, "");
      if (rc && strstr(dg_error_message(), "unknown option")) return rc;
      return dg_error(DG_ERR_ARG, "option --%s needs a value", name);
    }
    DG_CALL(dg_app_opt_fail(o, apply(c, name, o->value)));
    if (given) DG_CALL(record(c, name, o->value));
  }
  if (c->dt_set && c->cfl_set)
    return dg_error(DG_ERR_ARG, "options --dt and --cfl exclude each other");
  if (c->steps_set && c->t_end_set)
    return dg_error(DG_ERR_ARG, "options --steps and --t-end exclude each other");
  if (strcmp(c->map, "uniform") != 0 && c->degree_min > c->degree)
    return dg_error(DG_ERR_ARG, "option --degree-min: %d is above --degree %d", c->degree_min,
                    c->degree);
  /* a value list must match the dimension: no number is silently ignored or defaulted */
  if (c->box_n && c->box_n != 2 * c->dim)
    return dg_error(DG_ERR_ARG, "option --box: %d numbers given but --dim %d needs %d", c->box_n,
                    c->dim, 2 * c->dim);
  const int latlon = !strcmp(c->grid, "latlon");
  if (latlon && c->dim != 2)
    return dg_error(DG_ERR_ARG, "option --grid latlon: the sphere is 2D, --dim is %d", c->dim);
  if (latlon && c->box_n)
    return dg_error(DG_ERR_ARG, "option --box: not with --grid latlon (the sphere is implied)");
  if (latlon && c->bc_n)
    return dg_error(DG_ERR_ARG, "option --bc: not with --grid latlon (the sphere's sides are "
                                "fixed: lambda periodic, poles)");
  if (c->bc_n > 1 && c->bc_n != 2 * c->dim)
    return dg_error(DG_ERR_ARG,
                    "option --bc: %d kinds given but --dim %d needs 1 or %d (sides x-,x+,y-,y+%s)",
                    c->bc_n, c->dim, 2 * c->dim, c->dim == 3 ? ",z-,z+" : "");
  if (c->bc_n == 1)
    for (int f = 1; f < 6; ++f) c->bc[f] = c->bc[0];
  if (c->bc_n) { /* the pairing of each direction's sides */
    dg_grid g;
    const int one[3] = {1, 1, 1};
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    DG_CALL(dg_grid_init(&g, c->dim, one, lo, hi));
    const int rc = dg_grid_set_bc(&g, c->bc);
    if (rc) return dg_error_prefix(rc, "option --bc");
  }
  if (!latlon && c->cells_n == 1)
    return dg_error(DG_ERR_ARG, "option --cells: one size is for --grid latlon (N1 = 2 N2)");
  if (latlon && c->cells_n == 1) {
    c->cells[1] = c->cells[0];
    c->cells[0] = 2 * c->cells[1];
  } else if (latlon && !c->cells_n) {
    c->cells[0] = 2 * c->cells[1];
  }
  if (latlon && c->cells_n == 1) c->cells_n = 2;
  if (c->cells_n && c->cells_n != c->dim)
    return dg_error(DG_ERR_ARG, "option --cells: %d sizes given but --dim is %d", c->cells_n,
                    c->dim);
  DG_CALL(dg_app_check_config(c));
  if (c->view_samples == 0) {
    c->view_samples = c->degree + 1;
    if (c->view_samples < 2) c->view_samples = 2;
    if (c->view_samples > 8) c->view_samples = 8;
  }
  /* the model's values from a configuration: checked now, so an error names its line */
  return dg_app_layers_check_model(L, c);
}

int dg_app_parse_base(dg_app_config *c, int argc, char **argv, const char *prog,
                      const struct dg_config *base) {
  (void)prog;
  dg_app_layers L;
  int rc = dg_app_layers_build(&L, argc, argv, base);
  if (rc == 0) rc = dg_app_layers_blame(&L, parse_layers(c, &L));
  dg_app_layers_free(&L);
  return rc;
}

static int restart_degree(const int ijk[3], const double centre[3], void *ctx) {
  (void)centre;
  const dg_app_config *c = ctx;
  return c->restart_degrees[ijk[0] + (long)c->cells[0] * (ijk[1] + (long)c->cells[1] * ijk[2])];
}

int dg_app_map_create(dg_degree_map **m, const dg_grid *g, const dg_app_config *c) {
  if (c->map_file[0] && c->restart_degrees) {
    if (c->restart_nelem != g->nelem)
      return dg_error(DG_ERR_ARG, "restart: the file's degree map has %ld elements, the grid %ld",
                      c->restart_nelem, g->nelem);
    return dg_degree_map_create_callback(m, g, restart_degree, (void *)c);
  }
  if (c->map_file[0]) return dg_degree_map_create_file(m, g, c->map_file);
  if (!strcmp(c->map, "latitude"))
    return dg_degree_map_create_latitude(m, g, c->degree_min, c->degree);
  if (!strcmp(c->map, "band")) return dg_degree_map_create_band(m, g, c->degree_min, c->degree);
  if (!strcmp(c->map, "random"))
    return dg_degree_map_create_random(m, g, c->degree_min, c->degree, (uint64_t)c->seed);
  return dg_degree_map_create_uniform(m, g, c->degree);
}

/* --map step: each row the highest degree whose stable step (on the initial
 * state) is not below that of the equatorial rows at --degree
 * (dg_degree_rows_for_step); says so where --degree-min cannot reach it. */
static int step_map(dg_app_setup *s, const dg_app_config *c) {
  const dg_grid *g = &s->grid;
  dg_degree_map *uni = NULL;
  dg_disc *d = NULL;
  dg_field *u = NULL;
  double *rate = malloc((size_t)g->nelem * sizeof *rate);
  double *row = calloc((size_t)g->n[1], sizeof *row);
  int *deg = malloc((size_t)g->n[1] * sizeof *deg);
  int rc = !rate || !row || !deg ? dg_error(DG_ERR_MEM, "out of memory for --map step") : 0;
  if (!rc) rc = dg_degree_map_create_uniform(&uni, g, c->degree);
  if (!rc) rc = dg_model_finish_grid(c->model, g);
  if (!rc) rc = dg_disc_create(&d, c->be, g, uni, c->q, c->model);
  if (!rc) rc = dg_field_create(&u, d);
  if (!rc) rc = dg_project_solution(d, u, 0.0);
  if (!rc) rc = dg_disc_element_rates(d, u, 0.0, rate);
  double target = 0, reached = 0;
  if (!rc) {
    for (long e = 0; e < g->nelem; ++e) {
      const long j = (e / g->n[0]) % g->n[1];
      if (rate[e] > row[j]) row[j] = rate[e];
    }
    rc = dg_degree_rows_for_step(g->n[1], row, c->degree, c->degree_min, deg, &target, &reached);
  }
  if (!rc) rc = dg_degree_map_create_rows(&s->map, g, deg);
  if (!rc && reached < target * (1 - 1e-12)) {
    printf("map step: degree reduction alone cannot reach the equatorial step %.6g at degree %d: "
           "degrees %d..%d reach %.6g (%.3f of it)\n",
           target, c->degree, c->degree_min, c->degree, reached, reached / target);
    /* what local time stepping of the rows would gain (docs/ARCHITECTURE.md) */
    int *lev = malloc((size_t)g->n[1] * sizeof *lev);
    double ratio = 1;
    rc = lev ? dg_degree_rows_lts(g->n[1], row, c->degree, deg, target, reached, lev, &ratio)
             : dg_error(DG_ERR_MEM, "out of memory for --map step");
    if (!rc) {
      int lmax = 0, nsub = 0;
      for (int j = 0; j < g->n[1]; ++j) {
        if (lev[j] > lmax) lmax = lev[j];
        nsub += lev[j] > 0;
      }
      printf("map step: local time stepping (not built: each row at the equatorial step / 2^l, "
             "l <= %d on %d of %d rows) would do %.3f of the work of the global step\n",
             lmax, nsub, g->n[1], ratio);
    }
    free(lev);
  }
  dg_field_destroy(&u);
  dg_disc_destroy(&d);
  dg_degree_map_destroy(&uni);
  free(rate);
  free(row);
  free(deg);
  return rc;
}

int dg_app_grid(const dg_app_config *c, dg_grid *g) {
  if (!strcmp(c->grid, "latlon"))
    return dg_grid_init_latlon(g, c->cells[0], c->cells[1], c->radius);
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = c->box[2 * d];
    hi[d] = c->box[2 * d + 1];
  }
  DG_CALL(dg_grid_init(g, c->dim, c->cells, lo, hi));
  if (c->bc_n) DG_CALL(dg_grid_set_bc(g, c->bc));
  return 0;
}

int dg_app_setup_create(dg_app_setup *s, const dg_app_config *c) {
  DG_CALL(dg_app_setup_create_map(s, c));
  return dg_disc_create(&s->disc, c->be, &s->grid, s->map, c->q, c->model);
}

int dg_app_setup_create_map(dg_app_setup *s, const dg_app_config *c) {
  memset(s, 0, sizeof *s);
  /* the memory a run needs, before anything is allocated (again below with
     the map's own degrees) */
  DG_CALL(dg_app_check_memory(c, NULL));
  DG_CALL(dg_app_grid(c, &s->grid));
  const dg_grid *g = &s->grid;
  if (!c->map_file[0] && !strcmp(c->map, "step"))
    DG_CALL(step_map(s, c));
  else
    DG_CALL(dg_app_map_create(&s->map, g, c));
  DG_CALL(dg_app_check_memory(c, s->map));
  DG_CALL(dg_model_finish_grid(c->model, g));
  s->model = c->model;
  DG_CALL(dg_ts_parse(c->integrator, &s->ts_kind));
  return 0;
}

void dg_app_setup_destroy(dg_app_setup *s) {
  dg_disc_destroy(&s->disc);
  dg_degree_map_destroy(&s->map);
}

int dg_app_default_param(dg_app_config *c, const char *key, const char *value) {
  for (int i = 0; i < c->nparams; ++i)
    if (!strcmp(c->keys[i], key)) return 0;
  if (!c->model || !dg_model_has_param(c->model, key)) return 0;
  return dg_model_set(c->model, key, value);
}

int dg_app_model_nu(const dg_model *m, double *nu) {
  *nu = 0;
  for (int i = 0; m && i < dg_model_nparam(m); ++i)
    if (!strcmp(dg_model_param_name(m, i), "nu")) {
      char buf[64];
      DG_CALL(dg_model_param_text(m, i, buf, sizeof buf));
      *nu = strtod(buf, NULL);
    }
  return 0;
}

void dg_app_config_free(dg_app_config *c) {
  dg_model_destroy(&c->model);
  dg_backend_destroy(&c->be);
  for (int i = 0; i < c->nparams; ++i) {
    free(c->keys[i]);
    free(c->values[i]);
  }
  c->nparams = 0;
}
