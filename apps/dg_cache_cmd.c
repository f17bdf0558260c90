/* dg_cache_cmd.c - `dgrid cache list | clear | warm MODEL|--solvers [--dims L]
 * [--degrees L] [--backends L]`: the per-user kernel cache, and kernels
 * compiled ahead of a run for machines whose compute nodes have no
 * compiler (docs/ARCHITECTURE.md, "Kernels on demand"). */
#include "dg_app.h"

#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_backends.h"
#include "dg_model.h"
#include "dg_stage_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f, "usage: dgrid cache list\n"
             "       dgrid cache clear\n"
             "       dgrid cache warm MODEL|PATH.h [--dims 2,3] [--degrees 0-4] [--backends omp]\n"
             "       dgrid cache warm --solvers [--dims 2,3] [--degrees 0-10] [--backends omp]\n"
             "warm compiles the stages of MODEL (a model of the library, or a header of\n"
             "your own) for each dimension and each degree r of the list with q = s + 1\n"
             "points for every listed degree s >= r (uniform and band maps of those\n"
             "degrees); defaults: the model's dimensions, degrees 0-4, this build's backend.\n"
             "warm --solvers compiles the solvers' kernels (poisson, the implicit steps)\n"
             "of the listed degrees in double and float; defaults: 2,3 and every degree.\n"
             "The cache: $DGRID_CACHE_DIR, else $XDG_CACHE_HOME/dgrid, else ~/.cache/dgrid.\n");
}

/* A comma list with an empty item ("", ",1", "1,", "1,,2"), which strtok
 * would skip. */
static int empty_item(const char *v) {
  const size_t n = strlen(v);
  return n == 0 || v[0] == ',' || v[n - 1] == ',' || strstr(v, ",,") != NULL;
}

/* "a,b,c-d" into mask bits lo..hi; 0 or an error naming the option. */
static int parse_set(const char *opt, const char *v, int lo, int hi, unsigned *mask) {
  *mask = 0;
  char buf[128], esc[160];
  if (!v || strlen(v) >= sizeof buf)
    return dg_error(DG_ERR_ARG, "option %s: needs a list such as %d,%d or %d-%d", opt, lo, hi, lo,
                    hi);
  snprintf(buf, sizeof buf, "%s", v);
  if (empty_item(buf))
    return dg_error(DG_ERR_ARG, "option %s: '%s' is not a list of values in %d..%d", opt,
                    dg_escape(esc, sizeof esc, v), lo, hi);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    char *end;
    long a = strtol(tok, &end, 10), b = a;
    if (end != tok && *end == '-') b = strtol(end + 1, &end, 10);
    if (end == tok || *end || a < lo || b > hi || a > b)
      return dg_error(DG_ERR_ARG, "option %s: '%s' is not a list of values in %d..%d", opt,
                      dg_escape(esc, sizeof esc, v), lo, hi);
    for (long k = a; k <= b; ++k) *mask |= 1u << k;
  }
  if (!*mask) return dg_error(DG_ERR_ARG, "option %s: empty list", opt);
  return 0;
}

static int warm(int argc, char **argv) {
  const int solvers = argc >= 1 && !strcmp(argv[0], "--solvers");
  if (argc < 1 || (argv[0][0] == '-' && !solvers))
    return dg_error(DG_ERR_ARG, "warm: name a model (or a model header), or --solvers");
  const char *model = argv[0];
  unsigned dims = 0, degrees = solvers ? (2u << DG_MAX_DEGREE) - 1 : 0x1f;
  int dims_set = 0;
  char backends[128] = "";
  unsigned given = 0; /* --dims, --degrees, --backends: each once */
  for (int i = 1; i < argc; ++i) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char esc[160];
    static const char *const names[] = {"--dims", "--degrees", "--backends"};
    for (int k = 0; k < 3; ++k)
      if (!strcmp(o, names[k])) {
        if (given >> k & 1) return dg_error(DG_ERR_ARG, "option %s given twice", o);
        given |= 1u << k;
      }
    if (!strcmp(o, "--dims")) {
      DG_CALL(parse_set("--dims", v, 2, 3, &dims));
      dims_set = 1;
    } else if (!strcmp(o, "--degrees")) {
      DG_CALL(parse_set("--degrees", v, 0, DG_MAX_DEGREE, &degrees));
    } else if (!strcmp(o, "--backends")) {
      if (!v) return dg_error(DG_ERR_ARG, "option --backends needs a value");
      if (strlen(v) >= sizeof backends || empty_item(v))
        return dg_error(DG_ERR_ARG, "option --backends: '%s' is not a list such as omp,cuda",
                        dg_escape(esc, sizeof esc, v));
      snprintf(backends, sizeof backends, "%s", v);
    } else {
      return dg_error(DG_ERR_ARG, "warm: unknown option '%s' (see dgrid cache --help)",
                      dg_escape(esc, sizeof esc, o));
    }
    ++i;
  }
  dg_model *m = NULL;
  const size_t len = strlen(model);
  if (solvers)
    ; /* no model: the solvers' kernels, double and float */
  else if (strchr(model, '/') || (len > 2 && !strcmp(model + len - 2, ".h")))
    DG_CALL(dg_model_load(&m, model));
  else
    DG_CALL(dg_model_create(&m, model));
  const int md = m ? dg_model_dims(m) : (1 << 2) | (1 << 3);
  if (!dims_set) dims = (md & ((1 << 2) | (1 << 3))) | ((md & DG_MODEL_SPHERE) ? 1u << 2 : 0);
  int rq[(DG_MAX_DEGREE + 1) * (DG_MAX_DEGREE + 1)][2], n = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    for (int s = r; s <= DG_MAX_DEGREE; ++s)
      if ((degrees >> r & 1) && (degrees >> s & 1)) {
        rq[n][0] = r;
        rq[n++][1] = s + 1;
      }
  /* each backend named (default: the one a run would take) */
  int rc = 0;
  char *save = NULL;
  char *t = backends[0] ? strtok_r(backends, ",", &save) : NULL;
  do {
    dg_backend *be = NULL;
    rc = dg_backend_create(&be, t);
    if (rc && t) rc = dg_error_prefix(rc, "option --backends");
    for (int dim = 2; dim <= 3 && !rc; ++dim) {
      if (!(dims >> dim & 1)) continue;
      if (solvers) {
        rc = dg_backend_warm_solvers(be, dim, degrees);
        if (!rc)
          printf("dgrid cache: %s solvers %dD: ready (double and float)\n", dg_backend_name(be),
                 dim);
        continue;
      }
      rc = dg_model_warm(be, m, dim, n, (const int(*)[2])rq);
      if (!rc)
        printf("dgrid cache: %s %s %dD: %d (degree, points) pairs ready\n", dg_backend_name(be),
               dg_model_name(m), dim, n);
    }
    dg_backend_destroy(&be);
  } while (!rc && t && (t = strtok_r(NULL, ",", &save)));
  dg_model_destroy(&m);
  return rc;
}

int dg_app_cache_command(int argc, char **argv) {
  int rc;
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  dg_backend_verbose(1);
  char esc[160];
  const int plain = !strcmp(argv[1], "list") || !strcmp(argv[1], "clear");
  if (plain && argc > 2)
    rc = dg_error(DG_ERR_ARG, "%s takes no arguments (given '%s')", argv[1],
                  dg_escape(esc, sizeof esc, argv[2]));
  else if (plain)
    rc = dg_backend_cache(argv[1]);
  else if (!strcmp(argv[1], "warm"))
    rc = warm(argc - 2, argv + 2);
  else
    rc = dg_error(DG_ERR_ARG, "unknown command '%s' (list, clear, warm)",
                  dg_escape(esc, sizeof esc, argv[1]));
  if (rc) {
    char line[4200];
    fprintf(stderr, "dgrid cache: %s\n", dg_escape_message(line, sizeof line, dg_error_message()));
    return 2;
  }
  return 0;
}
