/* advect - planar advection with dgrid: the main example app.
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

static double init_fn(const double x[3], int v, void *ctx) {
  (void)v;
  return dg_problem_initial((const dg_problem *)ctx, x);
}

typedef struct {
  dg_app_config cfg;
  dg_app_setup set;
  dg_field *u;
  dg_ts *ts;
  double dt, t0, mass0;
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

static int write_snapshot(run_state *r, const char *path, long step, int text) {
  dg_app_config *c = &r->cfg;
  const double t = (double)step * r->dt;
  dg_snapshot s;
  DG_CALL(dg_field_to_host(r->u));
  DG_CALL(dg_snapshot_from_field(&s, r->set.disc, r->u, t, step, text ? 0 : c->view_samples,
                                 text ? NULL : &r->set.problem));
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
  shape.nelem = g->nelem;
  shape.view_s = r->cfg.view_samples;
  /* every snapshot has /view/error (write_snapshot passes the problem): list it too */
  double err_marker = 0;
  shape.view_error = &err_marker;
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

static int setup_time(run_state *r) {
  dg_app_config *c = &r->cfg;
  const double est = dg_disc_dt_estimate(r->set.disc);
  if (c->dt_set) {
    r->dt = c->dt;
    if (r->dt > est && isfinite(est))
      fprintf(stderr,
              "advect: warning: --dt %g is above the stable estimate %.6g (CFL 1 for the "
              "element degrees and sizes); expect growth\n",
              r->dt, est);
  } else {
    if (!isfinite(est))
      return dg_error(DG_ERR_ARG, "option --cfl: the velocity is zero everywhere, give --dt");
    r->dt = c->cfl * est;
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

static int run(run_state *r) {
  dg_app_config *c = &r->cfg;
  DG_CALL(check_output_path("--output", c->output));
  if (c->text_output[0]) DG_CALL(check_output_path("--text-output", c->text_output));
  DG_CALL(dg_app_setup_create(&r->set, c));
  dg_disc *d = r->set.disc;
  DG_CALL(dg_field_create(&r->u, d));
  DG_CALL(setup_time(r));
  if (c->restart[0]) {
    dg_snapshot s;
    {
      int rrc = dg_snapshot_read(c->restart, &s);
      if (rrc) return dg_error_prefix(rrc, "restart");
    }
    int rc = dg_field_from_snapshot(d, r->u, &s, c->restart);
    r->step0 = (long)s.step;
    const double tfile = s.time;
    dg_snapshot_free(&s);
    if (rc) return rc;
    if (fabs(tfile - (double)r->step0 * r->dt) > 1e-12 * (fabs(tfile) + r->dt))
      return dg_error(DG_ERR_ARG,
                      "restart %s: time %.17g is not step %ld x dt %.17g of this run (different "
                      "--dt/--cfl?)",
                      c->restart, tfile, r->step0, r->dt);
    if (r->step0 > r->steps)
      return dg_error(DG_ERR_ARG, "restart %s: file is at step %ld, beyond this run's %ld steps",
                      c->restart, r->step0, r->steps);
  } else {
    DG_CALL(dg_project(d, r->u, init_fn, &r->set.problem));
  }
  DG_CALL(dg_mass(d, r->u, &r->mass0));
  DG_CALL(dg_ts_create(&r->ts, d, r->set.ts_kind));
  const long dofs = dg_disc_ndofs(d);
  const int nst = dg_ts_stages(r->set.ts_kind);
  if (!c->quiet)
    printf("advect: %s backend, %dD, %ld elements, degrees %d..%d, q=%d, %ld dofs, %s, "
           "dt=%.6g, %ld steps\n",
           dg_backend()->name, c->dim, r->set.grid.nelem, dg_disc_degrees(d)->rmin,
           dg_disc_degrees(d)->rmax, dg_disc_q(d), dofs, c->integrator, r->dt, r->steps - r->step0);
  if (c->history) DG_CALL(add_history(r, r->step0, r->step0 * r->dt, r->mass0, NAN));
  const double w0 = wall();
  double wprev = w0;
  long sprev = r->step0;
  for (long step = r->step0 + 1; step <= r->steps; ++step) {
    DG_CALL(dg_ts_step(r->ts, r->u, r->dt));
    const int progress = c->progress_every > 0 && step % c->progress_every == 0;
    const int snap = c->output_every > 0 && step % c->output_every == 0 && step < r->steps;
    if (progress || snap) {
      const double t = (double)step * r->dt;
      int rc = dg_check_finite(d, r->u);
      if (rc)
        return dg_error_prefix(
            rc, "solution not finite at step %ld, t=%.6g (last good output kept)", step, t);
      double mass, l2 = NAN, linf;
      DG_CALL(dg_mass(d, r->u, &mass));
      if (progress && c->history) {
        DG_CALL(dg_error_norms(d, r->u, &r->set.problem, t, &l2, &linf));
        DG_CALL(add_history(r, step, t, mass, l2));
      }
      if (progress && !c->quiet) {
        const double w = wall();
        printf("progress: step %ld t=%.6g mass=%.15g wall=%.3fs dof_stage_per_s=%.3e\n", step, t,
               mass, w - w0, (double)dofs * nst * (double)(step - sprev) / (w - wprev));
        fflush(stdout);
        wprev = w;
        sprev = step;
      }
      if (snap) {
        char path[600];
        snap_name(path, sizeof path, c->output, step);
        DG_CALL(write_snapshot(r, path, step, 0));
        DG_CALL(record_snapshot(r, path, t));
        DG_CALL(write_xdmf(r));
      }
    }
  }
  DG_CALL(dg_backend()->sync());
  const double wall_s = wall() - w0;
  const double t = (double)r->steps * r->dt;
  {
    int rc = dg_check_finite(d, r->u);
    if (rc)
      return dg_error_prefix(rc, "solution not finite at step %ld, t=%.6g (last good output kept)",
                             r->steps, t);
  }
  double mass, l2, linf;
  DG_CALL(dg_mass(d, r->u, &mass));
  DG_CALL(dg_error_norms(d, r->u, &r->set.problem, t, &l2, &linf));
  if (c->history && (r->nhist == 0 || r->hist[4 * (r->nhist - 1)] != (double)r->steps))
    DG_CALL(add_history(r, r->steps, t, mass, l2));
  DG_CALL(write_snapshot(r, c->output, r->steps, 0));
  if (c->output_every > 0) {
    DG_CALL(record_snapshot(r, c->output, t));
    DG_CALL(write_xdmf(r));
  }
  if (c->text_output[0]) DG_CALL(write_snapshot(r, c->text_output, r->steps, 1));
  const double drift = (mass - r->mass0) / (fabs(r->mass0) > 1e-300 ? fabs(r->mass0) : 1.0);
  const long nsteps = r->steps - r->step0;
  printf("advect: backend=%s dofs=%ld steps=%ld t=%.17g dt=%.17g l2_error=%.17g linf_error=%.17g "
         "mass=%.17g mass_drift=%.3e wall_s=%.6f dof_stage_per_s=%.6e\n",
         dg_backend()->name, dofs, nsteps, t, r->dt, l2, linf, mass, drift, wall_s,
         wall_s > 0 ? (double)dofs * nst * (double)nsteps / wall_s : 0.0);
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
