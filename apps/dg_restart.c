/* dg_restart.c - restart from a snapshot and its stored configuration
 * (dg_restart.h). */
#include "dg_restart.h"

#include "dg_app_config.h"
#include "dg_comm.h"
#include "dg_disc_internal.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_ranks.h"
#include "dg_ts.h"
#include "dg_xsum.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const may_change[] = {
    "t-end",        "steps",          "output",  "output-every", "text-output",
    "view-samples", "progress-every", "history", "quiet",        "verbose",
    "restart",      "backend",        NULL};

int dg_restart_may_change(const char *key) {
  for (int i = 0; may_change[i]; ++i)
    if (!strcmp(may_change[i], key)) return 1;
  return 0;
}

void dg_restart_close(dg_restart *r) {
  dg_snapshot_free(&r->snap);
  dg_config_free(&r->stored);
}

/* The file and its stored configuration, whichever program wrote it. */
static int open_file(dg_restart *r, const char *path, int head) {
  memset(r, 0, sizeof *r);
  char lab[600];
  dg_escape(lab, sizeof lab, path);
  if (strlen(path) >= sizeof r->path)
    return dg_error(DG_ERR_ARG, "option --restart: path longer than %zu", sizeof r->path - 1);
  strcpy(r->path, path);
  int rc =
      head ? dg_snapshot_read_part(path, &r->snap, NULL, NULL) : dg_snapshot_read(path, &r->snap);
  if (rc) return dg_error_prefix(rc, "restart");
  if (!r->snap.config && !strcmp(r->snap.model, "poisson-sipg"))
    return dg_error(DG_ERR_ARG,
                    "restart %s: a solution of poisson (model poisson-sipg), a steady state with "
                    "no time step: there is no run to continue (compare and tools/plot read it)",
                    lab);
  if (!r->snap.config)
    return dg_error(DG_ERR_ARG,
                    "restart %s: the file stores no configuration (attribute 'config' of /; "
                    "written by an older dgrid), so there is no run to continue",
                    lab);
  char label[700];
  snprintf(label, sizeof label, "%s:/config", path);
  rc = dg_config_parse(&r->stored, label, r->snap.config, strlen(r->snap.config), dg_app_sections,
                       DG_APP_NSECTIONS);
  if (rc) return dg_error_prefix(rc, "restart");
  return 0;
}

int dg_restart_open(dg_restart *r, const char *path, int head) {
  DG_CALL(open_file(r, path, head));
  char lab[600];
  dg_escape(lab, sizeof lab, path);
  /* advdiff stores its implicit or IMEX scheme as the integrator: advect's
     explicit integrators would continue it with another method */
  const int k = dg_config_find(&r->stored, "integrator");
  dg_ts_kind kind;
  if (k >= 0 && dg_ts_parse(r->stored.e[k].value, &kind) != 0) {
    char v[160];
    return dg_error(DG_ERR_ARG,
                    "restart %s: integrator is '%s' in the file (advdiff's scheme); advect "
                    "continues only its explicit integrators (euler, ssprk2, ssprk3, rk4, lsrk4)",
                    lab, dg_escape(v, sizeof v, r->stored.e[k].value));
  }
  return 0;
}

int dg_restart_open_scheme(dg_restart *r, const char *path, int head, const char *scheme) {
  DG_CALL(open_file(r, path, head));
  char lab[600], v[160], w[160];
  dg_escape(lab, sizeof lab, path);
  const int k = dg_config_find(&r->stored, "integrator");
  const char *file = k >= 0 ? r->stored.e[k].value : "ssprk3"; /* advect's default */
  dg_ts_kind kind;
  if (dg_ts_parse(file, &kind) == 0)
    return dg_error(DG_ERR_ARG,
                    "restart %s: integrator is '%s' in the file (advect's); advdiff continues "
                    "only its own schemes (--scheme)",
                    lab, dg_escape(v, sizeof v, file));
  if (strcmp(file, scheme) != 0)
    return dg_error(DG_ERR_ARG,
                    "restart %s: option --scheme: '%s' in the file, '%s' in this run (a restart "
                    "continues with the file's scheme)",
                    lab, dg_escape(v, sizeof v, file), dg_escape(w, sizeof w, scheme));
  /* the scheme is checked: the options' parser knows advect's integrators
     only, so the key leaves the stored configuration */
  free(r->stored.e[k].key);
  free(r->stored.e[k].value);
  memmove(r->stored.e + k, r->stored.e + k + 1,
          sizeof *r->stored.e * (size_t)(r->stored.n - k - 1));
  r->stored.n--;
  return 0;
}

/* "restart F: KEY is 'A' in the file, 'B' in this run (...)"; where this run
 * sets the other key of an exclusive pair instead (bkey != key): "KEY is 'A'
 * in the file, this run has BKEY 'B' instead (...)". */
static int refuse(const dg_restart *r, const char *key, const char *a, const char *bkey,
                  const char *b) {
  char lab[300], ka[300], kb[300], t[280];
  dg_escape(lab, sizeof lab, r->path);
  if (a)
    snprintf(ka, sizeof ka, "'%s'", dg_escape(t, sizeof t, a));
  else
    snprintf(ka, sizeof ka, "not set");
  if (b)
    snprintf(kb, sizeof kb, "'%s'", dg_escape(t, sizeof t, b));
  else
    snprintf(kb, sizeof kb, "not set");
  const char *why = "a restart changes only t-end, steps, output, output-every, text-output, "
                    "view-samples, progress-every, history, quiet, verbose, backend";
  if (strcmp(key, bkey) != 0)
    return dg_error(DG_ERR_ARG, "restart %s: %s is %s in the file, this run has %s %s instead (%s)",
                    lab, key, ka, bkey, kb, why);
  return dg_error(DG_ERR_ARG, "restart %s: %s is %s in the file, %s in this run (%s)", lab, key, ka,
                  kb, why);
}

/* The other key of an exclusive pair that changes the problem (dt, cfl). */
static const char *problem_partner(const char *key) {
  if (!strcmp(key, "dt")) return "cfl";
  if (!strcmp(key, "cfl")) return "dt";
  return NULL;
}

int dg_restart_check_model(const dg_restart *r, int argc, char **argv) {
  char name[512];
  int found;
  DG_CALL(dg_app_peek(argc, argv, "model", name, sizeof name, &found));
  if (!found) return 0;
  const int k = dg_config_find(&r->stored, "model");
  const char *file = k >= 0 ? r->stored.e[k].value : dg_models[0]->name;
  if (strcmp(file, name) != 0) return refuse(r, "model", file, "model", name);
  return 0;
}

/* a and b the same numbers (lists split at ',' or 'x' compare by value), or
 * the same text. */
static int same_value(const char *a, const char *b) {
  if (!strcmp(a, b)) return 1;
  while (*a || *b) {
    char *ea, *eb;
    const double x = strtod(a, &ea), y = strtod(b, &eb);
    if (ea == a || eb == b || x != y || *ea != *eb) return 0;
    a = ea + (*ea ? 1 : 0);
    b = eb + (*eb ? 1 : 0);
  }
  return 1;
}

int dg_restart_explain(const dg_restart *r, int argc, char **argv, int rc) {
  dg_app_layers L;
  if (dg_app_layers_build(&L, argc, argv, NULL) == 0) {
    for (int i = 0; i < L.nopt; ++i) {
      const dg_app_opt *o = &L.opt[i];
      if (!o->value || dg_restart_may_change(o->key)) continue;
      const int k = dg_config_find(&r->stored, o->key);
      if (k >= 0) {
        if (same_value(r->stored.e[k].value, o->value)) continue;
        rc = refuse(r, o->key, r->stored.e[k].value, o->key, o->value);
        break;
      }
      const char *p = problem_partner(o->key);
      const int kp = p ? dg_config_find(&r->stored, p) : -1;
      if (kp >= 0) {
        rc = refuse(r, p, r->stored.e[kp].value, o->key, o->value);
        break;
      }
      if (dg_app_key_section(NULL, o->key) >= 0) { /* an option the file leaves unset */
        rc = refuse(r, o->key, NULL, o->key, o->value);
        break;
      }
    }
  }
  dg_app_layers_free(&L);
  return rc;
}

int dg_restart_compare(dg_restart *r, dg_app_config *run) {
  dg_app_config a;
  dg_config ea, eb;
  memset(&ea, 0, sizeof ea);
  memset(&eb, 0, sizeof eb);
  dg_app_defaults(&a);
  char prog[] = "advect";
  char *args[] = {prog, NULL};
  int rc = dg_app_parse_base(&a, 1, args, "advect", &r->stored);
  a.restart_degrees = run->restart_degrees = r->snap.degree;
  a.restart_nelem = run->restart_nelem = (long)r->snap.nelem;
  if (rc == 0) rc = dg_app_effective(&a, 0, 0, &ea);
  if (rc == 0) rc = dg_app_effective(run, 0, 0, &eb);
  /* the file's keys in order, then those only this run has */
  for (int i = 0; rc == 0 && i < ea.n + eb.n; ++i) {
    const char *key = i < ea.n ? ea.e[i].key : eb.e[i - ea.n].key;
    if (i >= ea.n && dg_config_find(&ea, key) >= 0) continue;
    if (dg_restart_may_change(key)) continue;
    const int ia = dg_config_find(&ea, key), ib = dg_config_find(&eb, key);
    const char *va = ia >= 0 ? ea.e[ia].value : NULL, *vb = ib >= 0 ? eb.e[ib].value : NULL;
    const char *bkey = key, *p = problem_partner(key);
    if (va && !vb && p && dg_config_find(&eb, p) >= 0) { /* --dt for --cfl, or the reverse */
      bkey = p;
      vb = eb.e[dg_config_find(&eb, p)].value;
    }
    if (!va || !vb || strcmp(key, bkey) != 0 || strcmp(va, vb) != 0)
      rc = refuse(r, key, va, bkey, vb);
  }
  dg_config_free(&ea);
  dg_config_free(&eb);
  dg_app_config_free(&a);
  return rc;
}

int dg_restart_check_time(const dg_restart *r, const dg_app_config *c, int adaptive, double *dt) {
  const dg_snapshot *s = &r->snap;
  char lab[600];
  dg_escape(lab, sizeof lab, r->path);
  if (!isfinite(s->time) || s->time < 0)
    return dg_error(DG_ERR_ARG, "restart %s: time %.17g is not a finite number >= 0", lab, s->time);
  if (s->step < 0)
    return dg_error(DG_ERR_ARG, "restart %s: step %" PRId64 " is negative", lab, s->step);
  if (!adaptive) {
    if (!isfinite(s->dt) || !(s->dt > 0))
      return dg_error(DG_ERR_ARG, "restart %s: time step dt %.17g is not a finite number > 0%s",
                      lab, s->dt, s->dt == 0 ? " (attribute 'dt' of / is missing)" : "");
    if (c->dt_set && s->dt != c->dt)
      return dg_error(DG_ERR_ARG,
                      "restart %s: time step dt %.17g is not the %.17g of its configuration (an "
                      "inconsistent file)",
                      lab, s->dt, c->dt);
    if (fabs(s->time - (double)s->step * s->dt) > 1e-12 * (fabs(s->time) + s->dt))
      return dg_error(DG_ERR_ARG,
                      "restart %s: time %.17g is not step %" PRId64
                      " x dt %.17g (an inconsistent file)",
                      lab, s->time, s->step, s->dt);
    *dt = s->dt;
  } else if ((s->step == 0) != (s->time == 0)) {
    return dg_error(DG_ERR_ARG, "restart %s: time %.17g at step %" PRId64 " (an inconsistent file)",
                    lab, s->time, s->step);
  }
  double prev = 0;
  for (int64_t i = 0; i < s->nhist; ++i) {
    const double st = s->history[4 * i], t = s->history[4 * i + 1];
    const char *why = NULL;
    if (!isfinite(st) || !isfinite(t) || st < 0 || t < 0 || st != floor(st))
      why = "is not a step and a time >= 0";
    else if (st < prev)
      why = "goes back in steps";
    else if (st > (double)s->step || t > s->time * (1 + 1e-12))
      why = "is after the file's own step and time";
    if (why)
      return dg_error(DG_ERR_ARG,
                      "restart %s: /history row %" PRId64
                      " (step %.17g, t=%.17g) %s (an inconsistent file)",
                      lab, i, st, t, why);
    prev = st;
  }
  return 0;
}

int dg_restart_mass_scales(const dg_disc *d, dg_field *u, double *scale) {
  const dg_grid *g = dg_disc_grid(d);
  const int nv = dg_disc_nvar(d);
  DG_CALL(dg_field_to_host(u));
  const double vol = g->h[0] * g->h[1] * (g->dim == 3 ? g->h[2] : 1.0);
  dg_xsum s[DG_MAX_NVAR];
  for (int v = 0; v < nv; ++v) {
    dg_xsum_init(&s[v]);
    for (long e = 0; e < g->nelem; ++e)
      if (dg_disc_counts(d, e)) dg_xsum_add(&s[v], fabs((double)u->h[dg_disc_index(d, e, v, 0)]));
  }
  if (dg_disc_comm(d)) DG_CALL(dg_comm_allreduce_xsum(dg_disc_comm(d), s, nv));
  for (int v = 0; v < nv; ++v) scale[v] = dg_xsum_value(&s[v]) * vol;
  return 0;
}
