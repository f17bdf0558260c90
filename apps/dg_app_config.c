/* dg_app_config.c - options in layers (snapshot, configuration file, command
 * line) and the effective configuration of a run (dg_app_config.h). */
#include "dg_app_config.h"

#include "dg_error.h"
#include "dg_escape.h"
#include "dg_model_internal.h"
#include "dg_parse.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const dg_app_sections[DG_APP_NSECTIONS] = {"grid", "physics", "time", "output"};

/* Every option of a configuration, in the order of the effective
 * configuration (the model's parameters follow "model"). */
static const struct {
  const char *name;
  int section;
} keys[] = {
    {"dim", DG_APP_GRID},
    {"grid", DG_APP_GRID},
    {"radius", DG_APP_GRID},
    {"cells", DG_APP_GRID},
    {"box", DG_APP_GRID},
    {"bc", DG_APP_GRID},
    {"degree", DG_APP_GRID},
    {"degree-min", DG_APP_GRID},
    {"map", DG_APP_GRID},
    {"map-file", DG_APP_GRID},
    {"seed", DG_APP_GRID},
    {"q", DG_APP_GRID},
    {"model", DG_APP_PHYSICS},
    {"model-file", DG_APP_PHYSICS},
    {"model-digest", DG_APP_PHYSICS},
    {"integrator", DG_APP_TIME},
    {"dt", DG_APP_TIME},
    {"cfl", DG_APP_TIME},
    {"t-end", DG_APP_TIME},
    {"steps", DG_APP_TIME},
    {"output", DG_APP_OUTPUT},
    {"output-every", DG_APP_OUTPUT},
    {"text-output", DG_APP_OUTPUT},
    {"view-samples", DG_APP_OUTPUT},
    {"restart", DG_APP_OUTPUT},
    {"progress-every", DG_APP_OUTPUT},
    {"history", DG_APP_OUTPUT},
    {"quiet", DG_APP_OUTPUT},
    {"verbose", DG_APP_OUTPUT},
    {"backend", DG_APP_OUTPUT},
};
enum { NKEYS = (int)(sizeof keys / sizeof keys[0]) };

int dg_app_key_section(const dg_model *m, const char *key) {
  for (int i = 0; i < NKEYS; ++i)
    if (!strcmp(keys[i].name, key)) return keys[i].section;
  if (m && dg_model_has_param(m, key)) return DG_APP_PHYSICS;
  return -1;
}

/* The other option of an exclusive pair, or NULL. */
static const char *partner(const char *key) {
  if (!strcmp(key, "dt")) return "cfl";
  if (!strcmp(key, "cfl")) return "dt";
  if (!strcmp(key, "steps")) return "t-end";
  if (!strcmp(key, "t-end")) return "steps";
  if (!strcmp(key, "model")) return "model-file";
  if (!strcmp(key, "model-file")) return "model";
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* layers                                                                   */
/* ------------------------------------------------------------------------ */

void dg_app_layers_free(dg_app_layers *L) {
  for (int i = 0; i < L->ncli; ++i) free((char *)L->cli[i].key);
  free(L->cli);
  free(L->opt);
  dg_config_free(&L->file);
  memset(L, 0, sizeof *L);
}

const dg_app_opt *dg_app_layers_find(const dg_app_layers *L, const char *key) {
  for (int i = 0; i < L->nopt; ++i)
    if (!strcmp(L->opt[i].key, key)) return &L->opt[i];
  return NULL;
}

int dg_app_opt_fail(const dg_app_opt *o, int rc) {
  if (rc && o && o->from) return dg_error_prefix(rc, "%s:%d", o->from->label, o->line);
  return rc;
}

/* Put o on top of the merged options: it replaces the same option and its
 * exclusive partner of the layers below. */
static void overlay(dg_app_layers *L, dg_app_opt o) {
  const char *p = partner(o.key);
  int k = 0;
  for (int i = 0; i < L->nopt; ++i)
    if (strcmp(L->opt[i].key, o.key) != 0 && !(p && !strcmp(L->opt[i].key, p)))
      L->opt[k++] = L->opt[i];
  L->nopt = k;
  L->opt[L->nopt++] = o;
}

/* Both options of an exclusive pair in one configuration: an error at the
 * later line. */
static int file_pairs(const dg_config *f) {
  for (int i = 0; i < f->n; ++i) {
    const char *p = partner(f->e[i].key);
    const int j = p ? dg_config_find(f, p) : -1;
    if (j >= 0 && j < i)
      return dg_config_error(f, f->e[i].line, DG_ERR_ARG,
                             "keys %s (line %d) and %s exclude each other", f->e[j].key,
                             f->e[j].line, f->e[i].key);
  }
  return 0;
}

static int cli_find(const dg_app_layers *L, const char *key) {
  for (int i = 0; i < L->ncli; ++i)
    if (!strcmp(L->cli[i].key, key)) return i;
  return -1;
}

int dg_app_layers_build(dg_app_layers *L, int argc, char **argv, const dg_config *base) {
  memset(L, 0, sizeof *L);
  L->base = base;
  L->cli = calloc((size_t)(argc > 0 ? argc : 1), sizeof *L->cli);
  if (!L->cli) return dg_error(DG_ERR_MEM, "out of memory");
  int config_given = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (a[0] != '-' && a[0] != '\0') { /* the configuration file */
      if (config_given)
        return dg_error(DG_ERR_ARG,
                        "unexpected argument '%s' (one configuration file at most; options start "
                        "with --; see --help)",
                        a);
      DG_CALL(dg_app_parse_path("--config", a, L->config_path, sizeof L->config_path));
      config_given = 1;
      continue;
    }
    char name[64];
    const char *eq; /* the value after '=', or NULL */
    DG_CALL(dg_app_split_option(a, name, sizeof name, &eq));
    const char *val;
    if (dg_app_is_flag(name)) {
      const int action = !strcmp(name, "help") || !strcmp(name, "print-config");
      if (eq && action) return dg_error(DG_ERR_ARG, "option --%s takes no value", name);
      if (!strcmp(name, "help")) return DG_APP_HELP;
      if (!strcmp(name, "print-config")) {
        if (L->print_config) return dg_error(DG_ERR_ARG, "option --%s given twice", name);
        L->print_config = 1;
        continue;
      }
      /* --quiet, or --quiet=false to undo a configuration's quiet = true */
      int on;
      if (eq) DG_CALL(dg_app_parse_bool(name, eq, &on));
      val = eq ? eq : "true";
    } else {
      val = eq ? eq : (i + 1 < argc ? argv[++i] : NULL);
    }
    if (!strcmp(name, "config")) {
      if (!val) return dg_error(DG_ERR_ARG, "option --%s needs a value", name);
      if (config_given)
        return dg_error(DG_ERR_ARG,
                        "option --config: one configuration file at most ('%s' given before)",
                        L->config_path);
      DG_CALL(dg_app_parse_path("--config", val, L->config_path, sizeof L->config_path));
      config_given = 1;
      continue;
    }
    if (cli_find(L, name) >= 0) return dg_error(DG_ERR_ARG, "option --%s given twice", name);
    char *key = strdup(name);
    if (!key) return dg_error(DG_ERR_MEM, "out of memory");
    L->cli[L->ncli++] = (dg_app_opt){key, val, NULL, i, -1};
  }
  for (int i = 0; i < L->ncli; ++i) {
    const char *p = partner(L->cli[i].key);
    if (p && cli_find(L, p) > i) {
      /* named in one order whichever came first */
      const char *first = !strcmp(p, "dt") || !strcmp(p, "cfl")        ? "dt"
                          : !strcmp(p, "steps") || !strcmp(p, "t-end") ? "steps"
                                                                       : "model";
      return dg_error(DG_ERR_ARG, "options --%s and --%s exclude each other", first,
                      partner(first));
    }
  }
  if (config_given) {
    DG_CALL(dg_config_read(&L->file, L->config_path, dg_app_sections, DG_APP_NSECTIONS));
    DG_CALL(file_pairs(&L->file));
  }
  const int cap = (base ? base->n : 0) + L->file.n + L->ncli;
  L->opt = calloc((size_t)(cap > 0 ? cap : 1), sizeof *L->opt);
  if (!L->opt) return dg_error(DG_ERR_MEM, "out of memory");
  for (int i = 0; base && i < base->n; ++i)
    overlay(L, (dg_app_opt){base->e[i].key, base->e[i].value, base, base->e[i].line,
                            base->e[i].section});
  for (int i = 0; i < L->file.n; ++i)
    overlay(L, (dg_app_opt){L->file.e[i].key, L->file.e[i].value, &L->file, L->file.e[i].line,
                            L->file.e[i].section});
  for (int i = 0; i < L->ncli; ++i) overlay(L, L->cli[i]);
  return 0;
}

int dg_app_opt_check_key(const dg_app_opt *o, const dg_model *m) {
  char k[96];
  dg_escape(k, sizeof k, o->key);
  const int sec = dg_app_key_section(m, o->key);
  if (sec < 0) {
    for (int i = 0; i < dg_nmodels; ++i)
      for (int j = 0; j < dg_models[i]->nparam; ++j)
        if (!strcmp(dg_models[i]->params[j].name, o->key))
          return dg_config_error(o->from, o->line, DG_ERR_ARG,
                                 "unknown key '%s' (a parameter of model %s, not of %s)", k,
                                 dg_models[i]->name, dg_model_name(m));
    return dg_config_error(o->from, o->line, DG_ERR_ARG, "unknown key '%s'", k);
  }
  if (o->section >= 0 && o->section != sec)
    return dg_config_error(o->from, o->line, DG_ERR_ARG, "key '%s' belongs in [%s], not [%s]", k,
                           dg_app_sections[sec], dg_app_sections[o->section]);
  return 0;
}

int dg_app_parse_bool(const char *name, const char *value, int *on) {
  char opt[80];
  snprintf(opt, sizeof opt, "--%s", name);
  return dg_parse_word(opt, value, "false|true", on);
}

int dg_app_layers_check_model(const dg_app_layers *L, dg_app_config *c) {
  int any = 0;
  for (int i = 0; i < L->nopt; ++i) any |= L->opt[i].from != NULL;
  if (!any) return 0;
  /* on the run's grid: a model may need its kind (the sphere's), its
     dimension, its boundary kinds; a refusal names the line of the key at
     fault where a file gave it */
  dg_grid g;
  int rc = dg_app_grid(c, &g);
  if (rc == 0) rc = dg_model_finish_grid(c->model, &g);
  if (rc == 0) rc = dg_model_check_bc(c->model, &g);
  if (rc == 0) return 0;
  char key[64] = "";
  const char *msg = dg_error_message();
  if (sscanf(msg, "option --%63[a-z0-9-]", key) != 1) {
    if (!strncmp(msg, "boundary ", 9))
      snprintf(key, sizeof key, "bc");
    else if (strstr(msg, " does not run in "))
      snprintf(key, sizeof key, "dim");
  }
  const dg_app_opt *o = key[0] ? dg_app_layers_find(L, key) : NULL;
  if (!o || !o->from) o = dg_app_layers_find(L, "model"); /* else the model's line */
  return dg_app_opt_fail(o, rc);
}

int dg_app_layers_blame(const dg_app_layers *L, int rc) {
  char key[64];
  if (rc && rc != DG_APP_HELP && sscanf(dg_error_message(), "option --%63[a-z0-9-]", key) == 1)
    return dg_app_opt_fail(dg_app_layers_find(L, key), rc);
  return rc;
}

int dg_app_peek(int argc, char **argv, const char *key, char *out, size_t cap, int *found) {
  dg_app_layers L;
  *found = 0;
  int rc = dg_app_layers_build(&L, argc, argv, NULL);
  const dg_app_opt *o = rc == 0 ? dg_app_layers_find(&L, key) : NULL;
  if (o && o->value) {
    if (strlen(o->value) >= cap) {
      rc = dg_app_opt_fail(
          o, dg_error(DG_ERR_ARG, "option --%s: value longer than %zu", key, cap - 1));
    } else {
      strcpy(out, o->value);
      *found = 1;
    }
  }
  dg_app_layers_free(&L);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* the effective configuration                                              */
/* ------------------------------------------------------------------------ */

static int add(dg_config *out, const char *key, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int add(dg_config *out, const char *key, const char *fmt, ...) {
  char v[1200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v, sizeof v, fmt, ap);
  va_end(ap);
  return dg_config_add(out, key, v, dg_app_key_section(NULL, key));
}

static int effective(dg_app_config *c, int q, int restart, dg_config *out) {
  dg_grid g;
  const int latlon = !strcmp(c->grid, "latlon");
  DG_CALL(dg_app_grid(c, &g));
  DG_CALL(dg_model_finish_grid(c->model, &g));
  if (q <= 0) q = c->q;
  if (q <= 0) { /* max degree + 1 of the map (a step map's is --degree, as uniform's) */
    dg_degree_map *m = NULL;
    DG_CALL(dg_app_map_create(&m, &g, c));
    q = m->rmax + 1;
    dg_degree_map_destroy(&m);
  }
  char v[1200];
  const int dim = c->dim;
  DG_CALL(add(out, "dim", "%d", dim));
  DG_CALL(add(out, "grid", "%s", c->grid));
  if (latlon) {
    dg_format_real(v, sizeof v, c->radius);
    DG_CALL(add(out, "radius", "%s", v));
  }
  DG_CALL(dim == 3 ? add(out, "cells", "%dx%dx%d", c->cells[0], c->cells[1], c->cells[2])
                   : add(out, "cells", "%dx%d", c->cells[0], c->cells[1]));
  if (!latlon) { /* the sphere implies its box and its sides */
    dg_format_list(v, sizeof v, c->box, 2 * dim);
    DG_CALL(add(out, "box", "%s", v));
    /* one kind where every side has it, else every side's */
    int same = 1;
    for (int f = 1; f < 2 * dim; ++f) same &= g.bc[f] == g.bc[0];
    size_t o = 0;
    v[0] = '\0';
    for (int f = 0; f < (same ? 1 : 2 * dim); ++f)
      o += (size_t)snprintf(v + o, sizeof v - o, "%s%s", f ? "," : "", dg_bc_name(g.bc[f]));
    DG_CALL(add(out, "bc", "%s", v));
  }
  /* only the keys that act (dg_app_check_config refuses the others) */
  if (c->map_file[0]) {
    DG_CALL(add(out, "map-file", "%s", c->map_file));
  } else {
    DG_CALL(add(out, "degree", "%d", c->degree));
    if (strcmp(c->map, "uniform")) DG_CALL(add(out, "degree-min", "%d", c->degree_min));
    DG_CALL(add(out, "map", "%s", c->map));
  }
  DG_CALL(add(out, "seed", "%ld", c->seed));
  DG_CALL(add(out, "q", "%d", q));
  if (c->model_file[0]) {
    DG_CALL(add(out, "model-file", "%s", c->model_file));
    DG_CALL(add(out, "model-digest", "%s", c->model_digest));
  } else
    DG_CALL(add(out, "model", "%s", dg_model_name(c->model)));
  for (int i = 0; i < dg_model_nparam(c->model); ++i) {
    DG_CALL(dg_model_param_text(c->model, i, v, sizeof v));
    DG_CALL(dg_config_add(out, dg_model_param_name(c->model, i), v, DG_APP_PHYSICS));
  }
  DG_CALL(add(out, "integrator", "%s", c->integrator));
  dg_format_real(v, sizeof v, c->dt_set ? c->dt : c->cfl);
  DG_CALL(add(out, c->dt_set ? "dt" : "cfl", "%s", v));
  if (c->steps_set) {
    DG_CALL(add(out, "steps", "%ld", c->steps));
  } else {
    dg_format_real(v, sizeof v, c->t_end);
    DG_CALL(add(out, "t-end", "%s", v));
  }
  DG_CALL(add(out, "output", "%s", c->output));
  DG_CALL(add(out, "output-every", "%ld", c->output_every));
  if (c->text_output[0]) DG_CALL(add(out, "text-output", "%s", c->text_output));
  DG_CALL(add(out, "view-samples", "%d", c->view_samples));
  if (restart && c->restart[0]) DG_CALL(add(out, "restart", "%s", c->restart));
  DG_CALL(add(out, "progress-every", "%ld", c->progress_every));
  DG_CALL(add(out, "history", "%s", c->history ? "true" : "false"));
  DG_CALL(add(out, "quiet", "%s", c->quiet ? "true" : "false"));
  DG_CALL(add(out, "verbose", "%s", c->verbose ? "true" : "false"));
  if (c->backend[0]) DG_CALL(add(out, "backend", "%s", c->backend));
  return 0;
}

int dg_app_effective(dg_app_config *c, int q, int restart, dg_config *out) {
  DG_CALL(dg_config_init(out, "configuration"));
  const int rc = effective(c, q, restart, out);
  if (rc) dg_config_free(out);
  return rc;
}

static const char header[] =
    "# dgrid run configuration (`advect --print-config`; `advect FILE` runs it).\n"
    "# Every key is an option without its dashes; the command line overrides it.\n";

int dg_app_config_text(dg_app_config *c, int q, int restart, char **text) {
  dg_config e;
  *text = NULL;
  DG_CALL(dg_app_effective(c, q, restart, &e));
  const int rc = dg_config_format(&e, header, dg_app_sections, DG_APP_NSECTIONS, text);
  dg_config_free(&e);
  return rc;
}

int dg_app_print_config(FILE *f, dg_app_config *c) {
  char *text;
  DG_CALL(dg_app_config_text(c, 0, 1, &text));
  const int bad = fputs(text, f) < 0 || fflush(f) != 0;
  free(text);
  if (bad) return dg_error(DG_ERR_IO, "--print-config: cannot write the configuration");
  return 0;
}
