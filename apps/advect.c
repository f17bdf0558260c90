/* advect - runs any model of the build with dgrid (--model; advection by
 * default): the main example app.  Also installed as `dgrid`.
 * See `advect --help`; errors print one line "advect: ..." and exit 2. */
#include "dg_app.h"
#include "dg_backend.h"
#include "dg_error.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_io.h"
#include "dg_output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
  dg_app_config cfg;
  dg_app_setup set;
  dg_field *u;
  dg_ts *ts;
  double dt, t0, mass0[DG_MAX_NVAR];
  double t;     /* the time of u */
  int adaptive; /* dt re-estimated every step (the model's speed changes) */
  long step0, steps;
  double *hist;
  long nhist, cap_hist;
  char **snap_paths;
  double *snap_times;
  int nsnap;
} run_state;

static int add_history(run_state *r, long step, double t, double mass, double l2) {
  if (r->nhist == r->cap_hist) {
    const long cap = r->cap_hist ? 2 * r->cap_hist : 64;
    double *h = realloc(r->hist, (size_t)cap * 4 * sizeof *h);
    if (!h) return dg_error(DG_ERR_MEM, "out of memory for history");
    r->hist = h;
    r->cap_hist = cap;
  }
  double *row = r->hist + 4 * r->nhist++;
  row[0] = (double)step;
  row[1] = t;
  row[2] = mass;
  row[3] = l2;
  return 0;
}

/* "out.h5" + step -> "out_000123.h5" */
static void snap_name(char *buf, size_t cap, const char *path, long step) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  int stem = (dot && (!slash || dot > slash)) ? (int)(dot - path) : (int)strlen(path);
  snprintf(buf, cap, "%.*s_%06ld.h5", stem, path, step);
}

static void xdmf_name(char *buf, size_t cap, const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  int stem = (dot && (!slash || dot > slash)) ? (int)(dot - path) : (int)strlen(path);
  snprintf(buf, cap, "%.*s.xdmf", stem, path);
}

static int write_snapshot(run_state *r, const char *path, long step, double t, int text) {
  dg_app_config *c = &r->cfg;
  dg_snapshot s;
  DG_CALL(dg_field_to_host(r->u));
  DG_CALL(
      dg_snapshot_from_field(&s, r->set.disc, r->u, t, step, text ? 0 : c->view_samples, !text));
  s.nparams = c->nparams;
  s.param_keys = c->keys;
  s.param_values = c->values;
  s.nhist = r->nhist;
  s.history = r->hist;
  int rc = text ? dg_snapshot_write_text(path, &s) : dg_snapshot_write(path, &s);
  /* the borrowed arrays are not the snapshot's to free */
  s.nparams = 0;
  s.param_keys = s.param_values = NULL;
  s.nhist = 0;
  s.history = NULL;
  dg_snapshot_free(&s);
  return rc;
}

static int record_snapshot(run_state *r, const char *path, double t) {
  char **p = realloc(r->snap_paths, (size_t)(r->nsnap + 1) * sizeof *p);
  if (!p) return dg_error(DG_ERR_MEM, "out of memory");
  r->snap_paths = p;
  double *tt = realloc(r->snap_times, (size_t)(r->nsnap + 1) * sizeof *tt);
  if (!tt) return dg_error(DG_ERR_MEM, "out of memory");
  r->snap_times = tt;
  r->snap_paths[r->nsnap] = strdup(path);
  if (!r->snap_paths[r->nsnap]) return dg_error(DG_ERR_MEM, "out of memory");
  r->snap_times[r->nsnap++] = t;
  return 0;
}

static int write_xdmf(run_state *r) {
  char xp[600];
  xdmf_name(xp, sizeof xp, r->cfg.output);
  dg_snapshot shape;
  memset(&shape, 0, sizeof shape);
  const dg_grid *g = &r->set.grid;
  shape.dim = g->dim;
  shape.nvar = dg_disc_nvar(r->set.disc);
  shape.q = dg_disc_q(r->set.disc);
  for (int k = 0; k < 3; ++k) {
    shape.cells[k] = g->n[k];
    shape.lo[k] = g->lo[k];
    shape.hi[k] = g->hi[k];
  }
  shape.radius = g->kind == DG_GRID_LATLON ? g->radius : 0; /* the globe's nodes */
  shape.nelem = g->nelem;
  shape.view_s = r->cfg.view_samples;
  for (int v = 0, o = 0; v < shape.nvar && o < (int)sizeof shape.variables; ++v)
    o += snprintf(shape.variables + o, sizeof shape.variables - (size_t)o, "%s%s", v ? "," : "",
                  dg_model_var_name(r->set.model, v));
  /* /view/error where the model knows its solution at every time of the series */
  double err_marker = 0, x0[3] = {g->lo[0], g->lo[1], g->lo[2]}, u0[DG_MAX_NVAR];
  int known = 1;
  for (int i = 0; i < r->nsnap; ++i)
    known &= dg_model_solution(r->set.model, x0, r->snap_times[i], u0);
  shape.view_error = known ? &err_marker : NULL;
  return dg_xdmf_write(xp, r->nsnap, (const char *const *)r->snap_paths, r->snap_times, &shape);
}

/* An output path the run could not write is reported before the run, not after it. */
static int check_output_path(const char *opt, const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return dg_error(DG_ERR_IO, "option %s: %s is a folder, not a file", opt, path);
  char dir[600];
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else if (slash == path)
    snprintf(dir, sizeof dir, "/");
  else
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
  int err = 0;
  if (stat(dir, &st) != 0)
    err = errno;
  else if (!S_ISDIR(st.st_mode))
    err = ENOTDIR;
  else if (access(dir, W_OK | X_OK) != 0)
    err = errno;
  if (err)
    return dg_error(DG_ERR_IO, "option %s: cannot write in folder %s: %s", opt, dir, strerror(err));
  return 0;
}

/* The step: --dt, or --cfl times the stable step on the current solution;
 * where the model's wave speed changes with u or t (and --dt is not given)
 * it is re-estimated every step (adaptive). */
static int setup_time(run_state *r) {
  dg_app_config *c = &r->cfg;
  double est;
  DG_CALL(dg_disc_stable_dt(r->set.disc, r->u, r->t, &est));
  r->adaptive = !c->dt_set && dg_model_speed_varies(r->set.model);
  if (c->dt_set) {
    r->dt = c->dt;
    if (r->dt > est && isfinite(est))
      fprintf(stderr,
              "advect: warning: --dt %g is above the stable estimate %.6g (CFL 1 for the "
              "element degrees and sizes); expect growth\n",
              r->dt, est);
  } else {
    if (!isfinite(est))
      return dg_error(DG_ERR_ARG, "option --cfl: the wave speed is zero everywhere, give --dt");
    r->dt = c->cfl * est;
  }
  if (r->adaptive) {
    r->steps = c->steps_set ? c->steps : -1; /* -1: until --t-end */
    return 0;
  }
  if (c->steps_set) {
    r->steps = c->steps;
  } else {
    r->steps = (long)ceil(c->t_end / r->dt * (1 - 1e-12));
    if (r->steps < 1) r->steps = 1;
    r->dt = c->t_end / (double)r->steps; /* land on t_end exactly */
  }
  return 0;
}

/* Mass of every variable; the relative change of each against m0 (against 1
 * where the initial mass is zero) and the largest, into *drift. */
static int mass_drift(run_state *r, double *mass, double *drift) {
  DG_CALL(dg_mass(r->set.disc, r->u, mass));
  *drift = 0;
  for (int v = 0; v < dg_disc_nvar(r->set.disc); ++v) {
    const double dv =
        (mass[v] - r->mass0[v]) / (fabs(r->mass0[v]) > 1e-300 ? fabs(r->mass0[v]) : 1.0);
    if (v == 0 || fabs(dv) > fabs(*drift)) *drift = dv;
  }
  return 0;
}

/* The error norms over all variables (L2 of the vector, largest Linf), and
 * per variable into l2v, linfv. */
static int errors(run_state *r, double t, double *l2, double *linf, double *l2v, double *linfv) {
  DG_CALL(dg_error_norms(r->set.disc, r->u, t, l2v, linfv));
  double s2 = 0, mx = 0;
  for (int v = 0; v < dg_disc_nvar(r->set.disc); ++v) {
    s2 += l2v[v] * l2v[v];
    if (linfv[v] > mx || linfv[v] != linfv[v]) mx = linfv[v];
  }
  *l2 = sqrt(s2);
  *linf = mx;
  return 0;
}

static int run(run_state *r) {
  dg_app_config *c = &r->cfg;
  DG_CALL(check_output_path("--output", c->output));
  if (c->text_output[0]) DG_CALL(check_output_path("--text-output", c->text_output));
  DG_CALL(dg_app_setup_create(&r->set, c));
  dg_disc *d = r->set.disc;
  const int nv = dg_disc_nvar(d);
  DG_CALL(dg_field_create(&r->u, d));
  double tfile = 0;
  if (c->restart[0]) {
    dg_snapshot s;
    {
      int rrc = dg_snapshot_read(c->restart, &s);
      if (rrc) return dg_error_prefix(rrc, "restart");
    }
    int rc = dg_field_from_snapshot(d, r->u, &s, c->restart);
    r->step0 = (long)s.step;
    tfile = s.time;
    dg_snapshot_free(&s);
    if (rc) return rc;
    r->t = tfile;
  } else {
    DG_CALL(dg_project_solution(d, r->u, 0.0));
  }
  DG_CALL(setup_time(r));
  if (c->restart[0] && !r->adaptive) {
    if (fabs(tfile - (double)r->step0 * r->dt) > 1e-12 * (fabs(tfile) + r->dt))
      return dg_error(DG_ERR_ARG,
                      "restart %s: time %.17g is not step %ld x dt %.17g of this run (different "
                      "--dt/--cfl?)",
                      c->restart, tfile, r->step0, r->dt);
    if (r->step0 > r->steps)
      return dg_error(DG_ERR_ARG, "restart %s: file is at step %ld, beyond this run's %ld steps",
                      c->restart, r->step0, r->steps);
  }
  DG_CALL(dg_mass(d, r->u, r->mass0));
  DG_CALL(dg_ts_create(&r->ts, d, r->set.ts_kind));
  const long dofs = dg_disc_ndofs(d);
  const int nst = dg_ts_stages(r->set.ts_kind);
  if (!c->quiet) {
    char nsteps[64];
    if (r->adaptive && r->steps < 0)
      snprintf(nsteps, sizeof nsteps, "steps to t=%.6g (dt re-estimated every step)", c->t_end);
    else
      snprintf(nsteps, sizeof nsteps, "%ld steps%s", r->steps - r->step0,
               r->adaptive ? " (dt re-estimated every step)" : "");
    printf("advect: %s backend, model %s, %dD, %ld elements, degrees %d..%d, q=%d, %ld dofs, %s, "
           "dt=%.6g, %s\n",
           dg_backend()->name, dg_model_name(r->set.model), c->dim, r->set.grid.nelem,
           dg_disc_degrees(d)->rmin, dg_disc_degrees(d)->rmax, dg_disc_q(d), dofs, c->integrator,
           r->dt, nsteps);
  }
  if (c->verbose) {
    char plan[600];
    dg_disc_describe(d, plan, sizeof plan);
    printf("%s\n", plan);
  }
  if (c->history) DG_CALL(add_history(r, r->step0, r->t, r->mass0[0], NAN));
  const double w0 = wall();
  double wprev = w0;
  long sprev = r->step0, step = r->step0;
  const double t_end = c->t_end;
  for (;;) {
    if (r->adaptive) {
      if (r->steps >= 0 ? step >= r->steps : r->t >= t_end * (1 - 1e-14)) break;
      if (step > r->step0) {
        double est;
        DG_CALL(dg_disc_stable_dt(d, r->u, r->t, &est));
        if (!isfinite(est))
          return dg_error(DG_ERR_ARG,
                          "option --cfl: the wave speed is zero everywhere at t=%g, "
                          "give --dt",
                          r->t);
        r->dt = c->cfl * est;
      }
      if (r->steps < 0 && r->t + r->dt > t_end) r->dt = t_end - r->t;
    } else if (step >= r->steps) {
      break;
    }
    DG_CALL(dg_ts_step(r->ts, r->u, r->t, r->dt));
    ++step;
    /* fixed steps: the time of step n is n dt (no drift of a running sum) */
    r->t = r->adaptive ? r->t + r->dt : (double)step * r->dt;
    const int last = r->adaptive ? (r->steps >= 0 ? step >= r->steps : r->t >= t_end * (1 - 1e-14))
                                 : step >= r->steps;
    const int progress = c->progress_every > 0 && step % c->progress_every == 0;
    const int snap = c->output_every > 0 && step % c->output_every == 0 && !last;
    if (progress || snap) {
      const double t = r->t;
      int rc = dg_check_finite(d, r->u);
      if (rc)
        return dg_error_prefix(
            rc, "solution not finite at step %ld, t=%.6g (last good output kept)", step, t);
      double mass[DG_MAX_NVAR], drift, l2 = NAN, linf, l2v[DG_MAX_NVAR], linfv[DG_MAX_NVAR];
      DG_CALL(mass_drift(r, mass, &drift));
      if (progress && c->history) {
        DG_CALL(errors(r, t, &l2, &linf, l2v, linfv));
        DG_CALL(add_history(r, step, t, mass[0], l2));
      }
      if (progress && !c->quiet) {
        const double w = wall();
        printf("progress: step %ld t=%.6g mass=%.15g wall=%.3fs dof_stage_per_s=%.3e\n", step, t,
               mass[0], w - w0, (double)dofs * nst * (double)(step - sprev) / (w - wprev));
        fflush(stdout);
        wprev = w;
        sprev = step;
      }
      if (snap) {
        char path[600];
        snap_name(path, sizeof path, c->output, step);
        DG_CALL(write_snapshot(r, path, step, t, 0));
        DG_CALL(record_snapshot(r, path, t));
        DG_CALL(write_xdmf(r));
      }
    }
  }
  DG_CALL(dg_backend()->sync());
  const double wall_s = wall() - w0;
  const double t = r->t;
  {
    int rc = dg_check_finite(d, r->u);
    if (rc)
      return dg_error_prefix(rc, "solution not finite at step %ld, t=%.6g (last good output kept)",
                             step, t);
  }
  double mass[DG_MAX_NVAR], drift, l2, linf, l2v[DG_MAX_NVAR], linfv[DG_MAX_NVAR];
  DG_CALL(mass_drift(r, mass, &drift));
  DG_CALL(errors(r, t, &l2, &linf, l2v, linfv));
  if (c->history && (r->nhist == 0 || r->hist[4 * (r->nhist - 1)] != (double)step))
    DG_CALL(add_history(r, step, t, mass[0], l2));
  DG_CALL(write_snapshot(r, c->output, step, t, 0));
  if (c->output_every > 0) {
    DG_CALL(record_snapshot(r, c->output, t));
    DG_CALL(write_xdmf(r));
  }
  if (c->text_output[0]) DG_CALL(write_snapshot(r, c->text_output, step, t, 1));
  const long nsteps = step - r->step0;
  char pervar[1024] = "";
  if (nv > 1) {
    size_t o = 0;
    for (int v = 0; v < nv && o < sizeof pervar; ++v) {
      const char *vn = dg_model_var_name(r->set.model, v);
      o += (size_t)snprintf(pervar + o, sizeof pervar - o,
                            " l2_error_%s=%.17g linf_error_%s=%.17g mass_%s=%.17g", vn, l2v[v], vn,
                            linfv[v], vn, mass[v]);
    }
  }
  if (dg_disc_grid(d)->kind == DG_GRID_LATLON) { /* Williamson's normalised norms */
    double n1[DG_MAX_NVAR], n2[DG_MAX_NVAR], ni[DG_MAX_NVAR];
    DG_CALL(dg_error_norms_rel(d, r->u, t, n1, n2, ni));
    const size_t o = strlen(pervar);
    snprintf(pervar + o, sizeof pervar - o, " l1_rel=%.6e l2_rel=%.6e linf_rel=%.6e", n1[0], n2[0],
             ni[0]);
  }
  printf("advect: backend=%s dofs=%ld steps=%ld t=%.17g dt=%.17g l2_error=%.17g linf_error=%.17g "
         "mass=%.17g mass_drift=%.3e wall_s=%.6f dof_stage_per_s=%.6e model=%s%s\n",
         dg_backend()->name, dofs, nsteps, t, r->dt, l2, linf, mass[0], drift, wall_s,
         wall_s > 0 ? (double)dofs * nst * (double)nsteps / wall_s : 0.0,
         dg_model_name(r->set.model), pervar);
  return 0;
}

static void cleanup(run_state *r) {
  dg_ts_destroy(&r->ts);
  dg_field_destroy(&r->u);
  dg_app_setup_destroy(&r->set);
  dg_app_config_free(&r->cfg);
  for (int i = 0; i < r->nsnap; ++i) free(r->snap_paths[i]);
  free(r->snap_paths);
  free(r->snap_times);
  free(r->hist);
}

int main(int argc, char **argv) {
  dg_io_set_fail(getenv("DGRID_IO_FAIL")); /* fault injection for tests (dg_io.h) */
  run_state r;
  memset(&r, 0, sizeof r);
  dg_app_defaults(&r.cfg);
  int rc = dg_app_parse(&r.cfg, argc, argv, "advect");
  if (rc == DG_APP_HELP) {
    dg_app_help(stdout, "advect");
    dg_app_config_free(&r.cfg);
    return 0;
  }
  if (rc == 0) rc = run(&r);
  if (rc) {
    fflush(stdout);
    fprintf(stderr, "advect: %s\n", dg_error_message());
  }
  cleanup(&r);
  return rc ? 2 : 0;
}
