/* dg_app_config.h - the options of a run as a configuration (core/dg_config.h):
 * a file's keys are the option names without their dashes, in the sections
 * [grid] [physics] [time] [output] (or before any section header); values
 * are parsed as strictly as on the command line.
 *
 * A run's options come in layers, each overriding the one before: a base
 * configuration (the one a snapshot stores, for --restart), the
 * configuration file (--config PATH, or the one argument without --), the
 * command line.  An option of a higher layer replaces the same option of a
 * lower one, and also its partner of an exclusive pair: --dt or --cfl,
 * --steps or --t-end.  Within one layer an option is given once.
 *
 * The effective configuration is every option of the run, defaults and the
 * model's parameters included, each value in one canonical spelling (reals in
 * the shortest text that reads back to the same double): what --print-config
 * writes and every snapshot stores (attribute `config`), and what the
 * parser reads back to the same run. */
#ifndef DG_APP_CONFIG_H
#define DG_APP_CONFIG_H

#include "dg_app.h"
#include "dg_config.h"

enum { DG_APP_GRID, DG_APP_PHYSICS, DG_APP_TIME, DG_APP_OUTPUT, DG_APP_NSECTIONS };
/* "grid", "physics", "time", "output" */
extern const char *const dg_app_sections[DG_APP_NSECTIONS];

/* The section of `key` (an app option, or a parameter of model m), or -1
 * where it is no key of a configuration file. */
int dg_app_key_section(const dg_model *m, const char *key);

/* One option of a run and where it came from. */
typedef struct {
  const char *key;
  const char *value;     /* NULL: a command-line option without its value */
  const dg_config *from; /* the configuration that gave it; NULL: the command line */
  int line;              /* its line there */
  int section;           /* its section there (-1: none) */
} dg_app_opt;

typedef struct {
  const dg_config *base; /* the lowest layer, or NULL */
  dg_config file;        /* the configuration file (label NULL: none) */
  char config_path[512];
  int print_config;
  int ncli;
  dg_app_opt *cli; /* the command line's options (keys owned) */
  int nopt;
  dg_app_opt *opt; /* the merged options, in the order they apply */
} dg_app_layers;

/* Split argv into options, read the configuration file it names and merge
 * base, file and command line.  Returns 0, DG_APP_HELP at --help, or an
 * error (an option given twice, a file that does not parse, both options of
 * an exclusive pair in one layer).  Free L in every case. */
int dg_app_layers_build(dg_app_layers *L, int argc, char **argv, const dg_config *base);
void dg_app_layers_free(dg_app_layers *L);
/* The merged option `key`, or NULL. */
const dg_app_opt *dg_app_layers_find(const dg_app_layers *L, const char *key);
/* Where o came from a configuration and rc != 0, prefix the recorded message
 * with "FILE:LINE: "; returns rc. */
int dg_app_opt_fail(const dg_app_opt *o, int rc);
/* An option from a configuration: a key of the run (model m) in its section. */
int dg_app_opt_check_key(const dg_app_opt *o, const dg_model *m);
/* A flag's value in a configuration: true or false. */
int dg_app_parse_bool(const char *name, const char *value, int *on);
/* After the options are applied: the model's parameters that a
 * configuration gave are parsed now, so that an error names their line. */
int dg_app_layers_check_model(const dg_app_layers *L, dg_app_config *c);
/* A refusal "option --KEY..." of a check across options, prefixed with the
 * FILE:LINE of KEY where a configuration file gave it; rc unchanged. */
int dg_app_layers_blame(const dg_app_layers *L, int rc);

/* The value of option `key` that argv gives (command line over its
 * configuration file) without applying anything, into out[cap]; *found = 0
 * where neither gives it.  DG_APP_HELP at --help. */
int dg_app_peek(int argc, char **argv, const char *key, char *out, size_t cap, int *found);

/* The effective configuration of c (which dg_app_parse filled) into out:
 * the model's parameters finished for the grid, q resolved (q > 0: the
 * discretisation's, else from c and the degree map).  `restart` keeps the
 * --restart option (print-config), else it is left out (a snapshot's
 * configuration describes the run, not how it was started). */
int dg_app_effective(dg_app_config *c, int q, int restart, dg_config *out);
/* The same as text in the configuration file format, malloc'd. */
int dg_app_config_text(dg_app_config *c, int q, int restart, char **text);
/* --print-config: the effective configuration to f. */
int dg_app_print_config(FILE *f, dg_app_config *c);

#endif
