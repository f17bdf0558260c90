/* advect - runs any model of the build with dgrid (--model; advection by
 * default): the main example app.  Also installed as `dgrid`.
 * See `advect --help`; errors print one line "advect: ..." and exit 2.
 * Options may come from a configuration file (dg_app_config.h); every
 * snapshot stores the run's configuration, from which --restart continues
 * it (dg_restart.h). */
#include "dg_app.h"
#include "dg_app_check.h"
#include "dg_app_config.h"
#include "dg_app_ranks.h"
#include "dg_backend.h"
#include "dg_disc_internal.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_io.h"
#include "dg_output.h"
#include "dg_restart.h"

#include <errno.h>
#include <float.h>
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
  double integ0[16];              /* the model's integral diagnostics at the start */
  double mass_scale[DG_MAX_NVAR]; /* sum of |cell mean| x volume at the start */
  int dt_note;                    /* --dt was shortened to land on --t-end */
  double dt_asked;                /* the --dt given, when dt_note */
  double t;                       /* the time of u */
  int adaptive;                   /* dt re-estimated every step (the model's speed changes) */
  long step0, steps;
  double *hist;
  long nhist, cap_hist;
  char **snap_paths;
  double *snap_times;
  int nsnap;
  long last_snap; /* step of the last snapshot written */
  int restarting; /* --restart: rs holds the file */
  dg_restart rs;
  char *config_text; /* the effective configuration every snapshot stores */
  dg_app_ranks rk;   /* under mpirun: the setup, the steps, the diagnostics and the
                        snapshots run on this rank's block; u is then NULL, or the
                        whole solution gathered for --text-output */
  int halo_timing;   /* DGRID_HALO_TIMING=1 (dg_app_ranks_halo_timing) */
} run_state;

/* What the steps and the diagnostics run on: this rank's block under mpirun
 * (the sums and maxima of dg_eval.h are then combined over the ranks
 * exactly: the bits of one process), else the whole discretisation. */
static dg_disc *run_disc(run_state *r) { return dg_app_ranks_disc(&r->rk, r->set.disc); }
static dg_field *run_field(run_state *r) { return dg_app_ranks_field(&r->rk, r->u); }

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

/* A snapshot (text: the plain-text format).  Under mpirun the HDF5 file is
 * written by every rank together, each its block's part (dg_io_ranks.h);
 * the text format is written by rank 0 from the gathered solution (small
 * cases only: docs/ARCHITECTURE.md, "The I/O plan"). */
static int write_snapshot(run_state *r, const char *path, long step, double t, int text) {
  dg_app_config *c = &r->cfg;
  const int ranks = r->rk.size > 1 && !text;
  if (r->rk.size > 1 && text) DG_CALL(dg_app_ranks_gather(&r->rk, r->set.disc, r->u));
  dg_disc *d = ranks ? run_disc(r) : r->set.disc;
  dg_field *u = ranks ? run_field(r) : r->u;
  dg_snapshot s;
  DG_CALL(dg_field_to_host(u));
  DG_CALL(dg_snapshot_from_field(&s, d, u, t, step, text ? 0 : c->view_samples, !text));
  s.nparams = c->nparams;
  s.param_keys = c->keys;
  s.param_values = c->values;
  s.nhist = r->nhist;
  s.history = r->hist;
  s.config = r->config_text;
  s.dt = r->dt;
  s.mass0 = r->mass0; /* the drift of a restart is measured from t = 0 */
  s.mass_scale = r->mass_scale;
  int rc;
  if (ranks) { /* every rank returns the same status: agreed */
    rc = dg_app_ranks_write(&r->rk, path, &s);
  } else { /* one process, or rank 0 the gathered text; every rank learns how it went */
    rc = r->rk.rank > 0 ? 0 : text ? dg_snapshot_write_text(path, &s) : dg_snapshot_write(path, &s);
    rc = dg_app_ranks_agree(&r->rk, rc);
  }
  /* the borrowed arrays are not the snapshot's to free */
  s.nparams = 0;
  s.param_keys = s.param_values = NULL;
  s.nhist = 0;
  s.history = NULL;
  s.config = NULL;
  s.mass0 = s.mass_scale = NULL;
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

/* A series restarted from one of its own snapshots (--restart names the file
 * the series of --output has at the restart's step) keeps its earlier
 * entries: the snapshots of steps 0, E, 2E, ... before it that are on disk
 * and hold their step (E = --output-every), then the restart file itself.
 * Earlier files that are gone or belong to another run are left out, and a
 * note says how many. */
static int series_so_far(run_state *r) {
  const dg_app_config *c = &r->cfg;
  char own[600], p[600];
  struct stat a, b;
  snap_name(own, sizeof own, c->output, r->step0);
  if (stat(own, &a) != 0 || stat(c->restart, &b) != 0 || a.st_dev != b.st_dev ||
      a.st_ino != b.st_ino)
    return 0; /* not a snapshot of this series: the series starts after it */
  long missing = 0;
  for (long k = 0; k < r->step0; k += c->output_every) {
    snap_name(p, sizeof p, c->output, k);
    dg_snapshot s;
    memset(&s, 0, sizeof s);
    if (access(p, F_OK) == 0 && dg_app_ranks_read_head(&r->rk, p, &s) == 0 && s.step == k) {
      const double t = s.time;
      dg_snapshot_free(&s);
      DG_CALL(record_snapshot(r, p, t));
    } else {
      dg_snapshot_free(&s);
      ++missing;
    }
  }
  dg_error_clear();
  if (missing && !c->quiet)
    printf("advect: note: restart: %ld earlier snapshot%s of the series of %s %s missing or "
           "another run's: left out of its XDMF\n",
           missing, missing > 1 ? "s" : "", dg_escape(p, sizeof p, c->output),
           missing > 1 ? "are" : "is");
  return record_snapshot(r, own, r->t);
}

static int write_xdmf(run_state *r) {
  char xp[600];
  xdmf_name(xp, sizeof xp, r->cfg.output);
  dg_snapshot shape;
  memset(&shape, 0, sizeof shape);
  const dg_grid *g = &r->set.grid;
  shape.dim = g->dim;
  shape.nvar = dg_disc_nvar(run_disc(r));
  shape.q = dg_disc_q(run_disc(r));
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
  const int rc = r->rk.rank > 0 ? 0
                                : dg_xdmf_write(xp, r->nsnap, (const char *const *)r->snap_paths,
                                                r->snap_times, &shape);
  return dg_app_ranks_agree(&r->rk, rc);
}

/* The most steps a run may take (as --steps). */
#define MAX_STEPS (1L << 40)

/* The step: --dt, or --cfl times the stable step on the current solution;
 * where the model's wave speed changes with u or t (and --dt is not given)
 * it is re-estimated every step (adaptive).  The step count to --t-end is
 * computed in floating point and refused above MAX_STEPS (before any cast);
 * a --dt that does not divide --t-end is shortened to T / ceil(T / DT) and
 * the header says so.  A restarted fixed-step run keeps the file's step,
 * whatever its new end. */
static int setup_time(run_state *r) {
  dg_app_config *c = &r->cfg;
  double est;
  /* A wave speed that overflows is inf on one backend and NaN on another (inf x 0):
     both are the model's values at the start, named below, not a blow-up. */
  const int src = dg_disc_stable_dt(run_disc(r), run_field(r), r->t, &est);
  if (src == DG_ERR_NUMERIC && !r->restarting)
    est = 0;
  else
    DG_CALL(src);
  r->adaptive = !c->dt_set && dg_model_speed_varies(r->set.model);
  if (c->dt_set) {
    r->dt = c->dt;
  } else {
    if (!isfinite(est))
      return dg_error(DG_ERR_ARG, "option --cfl: the wave speed is zero everywhere, give --dt");
    r->dt = c->cfl * est;
    if (!(est > 0) || est < DBL_MIN) { /* the speed overflowed: the model's values, not --cfl */
      char given[400] = "", v[120];
      for (int i = 0; i < c->nparams; ++i)
        if (dg_model_has_param(r->set.model, c->keys[i]))
          snprintf(given + strlen(given), sizeof given - strlen(given), "%s--%s %s",
                   given[0] ? ", " : "", c->keys[i], dg_escape(v, sizeof v, c->values[i]));
      return dg_error(DG_ERR_ARG, "model %s: the wave speed at t = 0 overflows a double (%s)",
                      dg_model_name(r->set.model), given[0] ? given : "its default parameters");
    }
    if (!(r->dt > 0) || !isfinite(r->dt))
      return dg_error(DG_ERR_ARG, "option --cfl: %g x the stable estimate %g is not a usable step",
                      c->cfl, est);
  }
  if (r->restarting) {
    double fdt = 0;
    DG_CALL(dg_restart_check_time(&r->rs, c, r->adaptive, &fdt));
    if (!r->adaptive) r->dt = fdt;
  }
  /* refusals first, then the warnings of a run that goes ahead */
  if (c->steps_set) {
    if (!isfinite((double)c->steps * r->dt))
      return dg_error(DG_ERR_ARG, "options --steps and --dt: %ld steps of %g overflow the time",
                      c->steps, r->dt);
  } else {
    /* to --t-end: the count in floating point first (dt may be 1e-300) */
    const double n = (c->t_end - r->t) / r->dt;
    if (!(n <= (double)MAX_STEPS)) {
      if (c->dt_set)
        return dg_error(DG_ERR_ARG, "option --dt: %g needs %.3g steps to --t-end %g, more than %ld",
                        c->dt, n, c->t_end, MAX_STEPS);
      return dg_error(
          DG_ERR_ARG, "option --cfl: %g gives dt=%.3g, %.3g steps to --t-end %g, more than %ld%s",
          c->cfl, r->dt, n, c->t_end, MAX_STEPS, r->adaptive ? " (at the initial wave speed)" : "");
    }
  }
  if (c->dt_set && r->dt > est && isfinite(est))
    fprintf(stderr,
            "advect: warning: --dt %g is above the stable estimate %.6g (CFL 1 for the "
            "element degrees and sizes); expect growth\n",
            r->dt, est);
  const int rmax = dg_disc_degrees(run_disc(r))->rmax;
  const double lim = dg_app_cfl_limit(r->set.ts_kind, rmax);
  if (!c->dt_set && lim == 0)
    fprintf(stderr,
            "advect: warning: --integrator %s has no stable --cfl at degree %d (only at "
            "degree 0); expect growth\n",
            c->integrator, rmax);
  else if (!c->dt_set && c->cfl > lim)
    fprintf(stderr,
            "advect: warning: --cfl %g is above the stable range of %s at degree %d (CFL <= "
            "%g); expect growth\n",
            c->cfl, c->integrator, rmax, lim);
  if (c->steps_set) {
    r->steps = c->steps;
    return 0;
  }
  if (r->adaptive) {
    r->steps = -1; /* until --t-end */
    return 0;
  }
  if (r->restarting) {
    r->steps = (long)ceil(c->t_end / r->dt * (1 - 1e-12));
    if ((double)r->steps * r->dt - c->t_end > 1e-9 * r->dt)
      fprintf(stderr,
              "advect: warning: --t-end %.17g is not a whole number of steps of the restarted "
              "run's dt %.17g: it ends at step %ld, t=%.17g\n",
              c->t_end, r->dt, r->steps, (double)r->steps * r->dt);
    return 0;
  }
  r->steps = (long)ceil(c->t_end / r->dt * (1 - 1e-12));
  if (r->steps < 1) r->steps = 1;
  const double dt = c->t_end / (double)r->steps; /* land on t_end exactly */
  r->dt_note = c->dt_set && fabs(dt - c->dt) > 1e-12 * c->dt;
  r->dt = dt;
  if (r->dt_note) { /* the configuration a snapshot stores says the dt used */
    r->dt_asked = c->dt;
    c->dt = dt;
  }
  return 0;
}

/* The scale of each variable's mass at the start (dg_restart.h). */
static int mass_scales(run_state *r) {
  return dg_restart_mass_scales(run_disc(r), run_field(r), r->mass_scale);
}

/* Mass of every variable, and the largest drift since the start: relative
 * (|m - m0| / |m0|) over the variables with a mass, into *drift, absolute
 * (m - m0) over those whose mass is zero (DG_MASS_ZERO), into *drift_abs; NAN
 * where no variable is of that kind. */
static int mass_drift(run_state *r, double *mass, double *drift, double *drift_abs) {
  DG_CALL(dg_mass(run_disc(r), run_field(r), mass));
  *drift = *drift_abs = NAN;
  for (int v = 0; v < dg_disc_nvar(run_disc(r)); ++v) {
    const double m0 = r->mass0[v], dm = mass[v] - m0;
    if (fabs(m0) > DG_MASS_ZERO * r->mass_scale[v]) {
      if (!(fabs(*drift) >= fabs(dm / fabs(m0)))) *drift = dm / fabs(m0);
    } else if (!(fabs(*drift_abs) >= fabs(dm))) {
      *drift_abs = dm;
    }
  }
  return 0;
}

/* The blow-up message: where, what, and which files this run kept. */
static int blown_up(run_state *r, long step, double t) {
  r->rk.agreed = 1; /* every rank reaches this together and agrees on the element */
  int rc = dg_check_finite(run_disc(r), run_field(r));
  if (!rc) /* finite coefficients whose sum overflows */
    rc = dg_error(DG_ERR_NUMERIC, "the sum of the cell means overflows");
  char what[1024], kept[2000], a[600], b[600], x[600], xe[600];
  snprintf(what, sizeof what, "%s", dg_error_message());
  dg_escape(b, sizeof b, r->cfg.output);
  if (r->nsnap > 0) {
    dg_app_xdmf_path(x, sizeof x, r->cfg.output);
    snprintf(kept, sizeof kept, "kept the snapshots up to %s (step %ld) and %s; %s not written",
             dg_escape(a, sizeof a, r->snap_paths[r->nsnap - 1]), r->last_snap,
             dg_escape(xe, sizeof xe, x), b);
  } else {
    snprintf(kept, sizeof kept, "no output written (%s not written)", b);
  }
  return dg_error(rc, "solution not finite at step %ld, t=%.6g: %s; %s", step, t, what, kept);
}

/* The error norms over all variables (L2 of the vector, largest Linf), and
 * per variable into l2v, linfv. */
static int errors(run_state *r, double t, double *l2, double *linf, double *l2v, double *linfv) {
  DG_CALL(dg_error_norms(run_disc(r), run_field(r), t, l2v, linfv));
  double s2 = 0, mx = 0;
  for (int v = 0; v < dg_disc_nvar(run_disc(r)); ++v) {
    s2 += l2v[v] * l2v[v];
    if (linfv[v] > mx || linfv[v] != linfv[v]) mx = linfv[v];
  }
  *l2 = sqrt(s2);
  *linf = mx;
  return 0;
}

/* The degrees of freedom of the whole grid. */
static long whole_dofs(run_state *r) {
  return dg_degree_map_dofs(r->set.map, r->set.grid.dim, dg_disc_nvar(run_disc(r)));
}

static int run_setup(run_state *r) {
  dg_app_config *c = &r->cfg;
  DG_CALL(dg_app_check_outputs(c));
  /* under mpirun no rank builds the whole grid's discretisation, but for
     --text-output (the gathered solution: small cases) */
  const int whole = r->rk.size == 1 || c->text_output[0];
  DG_CALL(whole ? dg_app_setup_create(&r->set, c) : dg_app_setup_create_map(&r->set, c));
  double nu;
  DG_CALL(dg_app_model_nu(r->set.model, &nu));
  if (nu != 0) /* the error against the model's exact solution would be wrong */
    return dg_error(DG_ERR_ARG,
                    "option --nu: model %s: the explicit stages of advect do not diffuse "
                    "(nu = %g); run advdiff, or give --nu 0",
                    dg_model_name(r->set.model), nu);
  /* the whole solution: one process's, or under mpirun the gathered one
     for --text-output only */
  if (whole) DG_CALL(dg_field_create(&r->u, r->set.disc));
  /* under mpirun: the partition, this rank's block and its field; the
     projection, the restart's coefficients and the setup's diagnostics are
     the block's (collective) */
  DG_CALL(dg_app_ranks_setup(&r->rk, c->be, &r->set.grid, r->set.map, c->q, r->set.model,
                             c->verbose && !c->quiet));
  dg_disc *sd = run_disc(r), *d = sd;
  dg_field *su = run_field(r);
  const int nv = dg_disc_nvar(d);
  if (r->restarting) {
    if (r->rk.size > 1) DG_CALL(dg_app_ranks_read(&r->rk, c->restart, &r->rs.snap));
    const dg_snapshot *s = &r->rs.snap;
    DG_CALL(dg_field_from_snapshot(sd, su, s, c->restart));
    r->step0 = (long)s->step;
    r->t = s->time;
  } else {
    DG_CALL(dg_project_solution(sd, su, 0.0));
  }
  DG_CALL(setup_time(r));
  DG_CALL(dg_app_config_text(c, dg_disc_q(d), 0, &r->config_text));
  DG_CALL(dg_mass(sd, su, r->mass0));
  const double mass_start = r->mass0[0];
  DG_CALL(mass_scales(r));
  /* the model's integral diagnostics drift from this run's start */
  DG_CALL(dg_integrals(sd, su, r->integ0));
  if (r->restarting) {
    if (r->steps >= 0 && r->step0 > r->steps)
      return dg_error(DG_ERR_ARG, "restart %s: file is at step %ld, beyond this run's %ld steps",
                      c->restart, r->step0, r->steps);
    if (r->steps < 0 && r->t > c->t_end * (1 + 1e-12))
      return dg_error(DG_ERR_ARG, "restart %s: file is at t=%.17g, beyond this run's t-end %.17g",
                      c->restart, r->t, c->t_end);
    /* the history goes on from the file's */
    const dg_snapshot *s = &r->rs.snap;
    for (int64_t i = 0; c->history && i < s->nhist; ++i)
      DG_CALL(add_history(r, (long)s->history[4 * i], s->history[4 * i + 1], s->history[4 * i + 2],
                          s->history[4 * i + 3]));
    /* the drift goes on from t = 0's mass where the file has it (files
       written before it had mass0: from the file's state) */
    if (s->mass0 && s->mass_scale)
      for (int v = 0; v < nv; ++v) {
        r->mass0[v] = s->mass0[v];
        r->mass_scale[v] = s->mass_scale[v];
      }
    /* the file's arrays are in u now: not kept through the run */
    dg_snapshot_free(&r->rs.snap);
    c->restart_degrees = NULL;
    if (c->output_every > 0) DG_CALL(series_so_far(r));
  }
  DG_CALL(dg_ts_create(&r->ts, sd, r->set.ts_kind));
  const long dofs = whole_dofs(r);
  if (!c->quiet) {
    char nsteps[64];
    if (r->adaptive && r->steps < 0)
      snprintf(nsteps, sizeof nsteps, "steps to t=%.6g (dt re-estimated every step)", c->t_end);
    else
      snprintf(nsteps, sizeof nsteps, "%ld steps%s", r->steps - r->step0,
               r->adaptive ? " (dt re-estimated every step)" : "");
    printf("advect: %s backend, model %s, %dD, %ld elements, degrees %d..%d, q=%d, %ld dofs, %s, "
           "dt=%.6g, %s\n",
           dg_backend_resource(c->be), dg_model_name(r->set.model), c->dim, r->set.grid.nelem,
           dg_disc_degrees(d)->rmin, dg_disc_degrees(d)->rmax, dg_disc_q(d), dofs, c->integrator,
           r->dt, nsteps);
    if (r->dt_note)
      printf("advect: note: --dt %g does not divide --t-end %g: dt=%.6g (%ld steps)\n", r->dt_asked,
             c->t_end, r->dt, r->steps);
  }
  dg_app_notes(stderr, c, "advect");
  if (c->verbose) {
    char plan[600];
    dg_disc_describe(d, plan, sizeof plan);
    printf("%s\n", plan);
    printf("memory: needs %.1f MiB (estimate), %.1f MiB available\n",
           (double)dg_app_bytes_needed(c, dg_disc_degrees(d)) / 1048576.0,
           (double)dg_app_bytes_available() / 1048576.0);
  }
  if (c->history && r->nhist == 0) DG_CALL(add_history(r, r->step0, r->t, mass_start, NAN));
  return 0;
}

/* The steps, the diagnostics and the output of a run set up by run_setup
 * (collective under mpirun: every rank takes the same branches, on the
 * same values combined over the ranks). */
static int run_steps(run_state *r) {
  dg_app_config *c = &r->cfg;
  /* what the steps run on: this rank's block under mpirun, else d and u */
  dg_disc *sd = run_disc(r), *d = sd;
  dg_field *su = run_field(r);
  const long dofs = whole_dofs(r);
  const int nst = dg_ts_stages(r->set.ts_kind), nv = dg_disc_nvar(d);
  /* a series starts with the initial state (a restarted one goes on after its file) */
  if (c->output_every > 0 && !r->restarting && r->steps != 0) {
    char path[600];
    snap_name(path, sizeof path, c->output, r->step0);
    DG_CALL(write_snapshot(r, path, r->step0, r->t, 0));
    DG_CALL(record_snapshot(r, path, r->t));
    DG_CALL(write_xdmf(r));
  }
  if (r->halo_timing) { /* every rank starts the clock together (an agreement is a barrier) */
    dg_disc_set_timing(sd, 1);
    if (dg_disc_comm(sd)) DG_CALL(dg_comm_agree(dg_disc_comm(sd), 0));
  }
  const double w0 = wall();
  double wprev = w0;
  long sprev = r->step0, step = r->step0;
  /* every step queues a check of the cell means (dg_disc_watch); its
     result is read where the run waits anyway (host memory, the adaptive
     step's reduction, progress, snapshots, the end) and every watch_every
     steps, so a blow-up is reported at the step it happened on any backend */
  const int each_step = c->be->ops->host_is_device || r->adaptive;
  enum { watch_every = 64 };
  const double t_end = c->t_end;
  for (;;) {
    if (r->adaptive) {
      if (r->steps >= 0 ? step >= r->steps : r->t >= t_end * (1 - 1e-14)) break;
      if (step > r->step0) {
        double est;
        /* an exact maximum over the ranks: a NaN on one is a NaN on all */
        const int rc = dg_disc_stable_dt(sd, su, r->t, &est);
        if (rc) {
          if (dg_check_finite(sd, su)) return blown_up(r, step, r->t);
          return rc;
        }
        if (!isfinite(est))
          return dg_error(DG_ERR_ARG,
                          "option --cfl: the wave speed is zero everywhere at t=%g, "
                          "give --dt",
                          r->t);
        r->dt = c->cfl * est;
      }
      if (r->steps < 0 && r->t + r->dt > t_end) r->dt = t_end - r->t;
      if (!(r->t + r->dt > r->t))
        return dg_error(DG_ERR_NUMERIC,
                        "option --cfl: the step %g no longer advances t=%.17g (below its "
                        "floating-point resolution)",
                        r->dt, r->t);
    } else if (step >= r->steps) {
      break;
    }
    DG_CALL(dg_ts_step(r->ts, su, r->t, r->dt));
    ++step;
    /* fixed steps: the time of step n is n dt (no drift of a running sum) */
    r->t = r->adaptive ? r->t + r->dt : (double)step * r->dt;
    DG_CALL(dg_disc_watch(sd, su, step));
    const int last = r->adaptive ? (r->steps >= 0 ? step >= r->steps : r->t >= t_end * (1 - 1e-14))
                                 : step >= r->steps;
    const int progress = c->progress_every > 0 && step % c->progress_every == 0;
    const int snap = c->output_every > 0 && step % c->output_every == 0 && !last;
    if (each_step || progress || snap || last || step % watch_every == 0) {
      long first;
      int finite = 1;
      DG_CALL(dg_disc_watch_first(sd, &first));
      /* every rank learns of a blow-up on any (under mpirun every step is
         read, so a rank that saw none reports this step) */
      DG_CALL(dg_app_ranks_all_finite(&r->rk, first >= 0 ? NAN : 0.0, &finite));
      if (!finite) {
        if (first < 0) first = step;
        /* fixed steps: step n is at n dt; adaptive ones read every step */
        return blown_up(r, first, r->adaptive ? r->t : (double)first * r->dt);
      }
    }
    if (progress || snap) {
      const double t = r->t;
      if (dg_check_finite(sd, su)) return blown_up(r, step, t);
      double mass[DG_MAX_NVAR], drift, drift_abs, l2 = NAN, linf, l2v[DG_MAX_NVAR],
                                                  linfv[DG_MAX_NVAR];
      DG_CALL(mass_drift(r, mass, &drift, &drift_abs));
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
        r->last_snap = step;
        DG_CALL(write_xdmf(r));
      }
    }
  }
  DG_CALL(c->be->ops->sync());
  const double wall_s = wall() - w0;
  const double t = r->t;
  if (r->halo_timing) DG_CALL(dg_app_ranks_halo_line(sd, wall_s));
  if (dg_check_finite(sd, su)) return blown_up(r, step, t);
  double mass[DG_MAX_NVAR], drift, drift_abs, l2, linf, l2v[DG_MAX_NVAR], linfv[DG_MAX_NVAR];
  DG_CALL(mass_drift(r, mass, &drift, &drift_abs));
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
      /* each variable's own drift: a model with sources (shallow water's
         momentum) changes some masses, and mass_drift is the largest */
      const double m0 = r->mass0[v], dm = mass[v] - m0;
      if (o < sizeof pervar) {
        if (fabs(m0) > DG_MASS_ZERO * r->mass_scale[v])
          o += (size_t)snprintf(pervar + o, sizeof pervar - o, " mass_drift_%s=%.3e", vn,
                                dm / fabs(m0));
        else
          o += (size_t)snprintf(pervar + o, sizeof pervar - o, " mass_drift_abs_%s=%.3e", vn, dm);
      }
    }
  }
  if (dg_disc_grid(d)->kind == DG_GRID_LATLON) { /* Williamson's normalised norms */
    double n1[DG_MAX_NVAR], n2[DG_MAX_NVAR], ni[DG_MAX_NVAR];
    DG_CALL(dg_error_norms_rel(sd, su, t, n1, n2, ni));
    const size_t o = strlen(pervar);
    snprintf(pervar + o, sizeof pervar - o, " l1_rel=%.6e l2_rel=%.6e linf_rel=%.6e", n1[0], n2[0],
             ni[0]);
  }
  /* the model's integral diagnostics (energy, enstrophy, ...) and their
     drift relative to the start */
  {
    double integ[16];
    DG_CALL(dg_integrals(sd, su, integ));
    for (int i = 0; i < dg_model_ninteg(r->set.model); ++i) {
      const size_t o = strlen(pervar);
      const char *in = dg_model_integ_name(r->set.model, i);
      snprintf(pervar + o, sizeof pervar - o, " %s=%.17g %s_drift=%.3e", in, integ[i], in,
               r->integ0[i] != 0 ? (integ[i] - r->integ0[i]) / fabs(r->integ0[i]) : integ[i]);
    }
  }
  /* mass_drift over the variables with a mass, mass_drift_abs over those
     without (DG_MASS_ZERO); only the fields that apply are printed */
  char drifts[96] = "";
  size_t od = 0;
  if (!isnan(drift)) od += (size_t)snprintf(drifts, sizeof drifts, " mass_drift=%.3e", drift);
  if (!isnan(drift_abs))
    snprintf(drifts + od, sizeof drifts - od, " mass_drift_abs=%.3e", drift_abs);
  printf("advect: backend=%s dofs=%ld steps=%ld t=%.17g dt=%.17g l2_error=%.17g linf_error=%.17g "
         "mass=%.17g%s wall_s=%.6f dof_stage_per_s=%.6e model=%s%s\n",
         dg_backend_name(c->be), dofs, nsteps, t, r->dt, l2, linf, mass[0], drifts, wall_s,
         wall_s > 0 ? (double)dofs * nst * (double)nsteps / wall_s : 0.0,
         dg_model_name(r->set.model), pervar);
  return 0;
}

static void cleanup(run_state *r) {
  dg_ts_destroy(&r->ts);
  dg_app_ranks_stop(&r->rk);
  dg_field_destroy(&r->u);
  dg_app_setup_destroy(&r->set);
  dg_app_config_free(&r->cfg);
  for (int i = 0; i < r->nsnap; ++i) free(r->snap_paths[i]);
  free(r->snap_paths);
  free(r->snap_times);
  free(r->hist);
  free(r->config_text);
  dg_restart_close(&r->rs);
}

int main(int argc, char **argv) {
  dg_io_set_fail(getenv("DGRID_IO_FAIL")); /* fault injection for tests (dg_io.h) */
  if (argc >= 2 && !strcmp(argv[1], "cache")) return dg_app_cache_command(argc - 1, argv + 1);
  run_state r;
  memset(&r, 0, sizeof r);
  dg_app_defaults(&r.cfg);
  /* under mpirun every rank reads and checks the same input; rank 0 prints */
  int rc = dg_app_ranks_start(&r.rk, &argc, &argv);
  if (rc == 0 && r.rk.size > 1) r.cfg.node_rank = r.rk.node_rank; /* one GPU per rank */
  /* --restart FILE: the file's configuration is the base of the options */
  char rpath[512];
  if (rc == 0) rc = dg_app_peek(argc, argv, "restart", rpath, sizeof rpath, &r.restarting);
  /* across ranks rank 0 verifies the file, then each rank reads what it
     needs: the configuration and the map now, its block's coefficients
     once the partition is known (dg_app_ranks_read) */
  if (rc == 0 && r.restarting) rc = dg_app_ranks_verify(&r.rk, rpath);
  if (rc == 0 && r.restarting) rc = dg_restart_open(&r.rs, rpath, r.rk.size > 1);
  if (rc == 0 && r.restarting) rc = dg_restart_check_model(&r.rs, argc, argv);
  if (rc == 0) {
    rc = dg_app_parse_base(&r.cfg, argc, argv, "advect", r.restarting ? &r.rs.stored : NULL);
    if (rc > 0 && r.restarting) rc = dg_restart_explain(&r.rs, argc, argv, rc);
  }
  if (rc == DG_APP_HELP) {
    dg_app_help(stdout, "advect");
    cleanup(&r);
    return dg_app_stdout_status("advect", 0);
  }
  if (rc == 0 && r.restarting) rc = dg_restart_compare(&r.rs, &r.cfg);
  if (rc == 0) rc = dg_app_ranks_halo_timing(&r.halo_timing);
  if (rc == 0 && r.cfg.print_config)
    rc = dg_app_print_config(stdout, &r.cfg);
  else if (rc == 0)
    rc = run_setup(&r);
  /* a failure of the input on any rank is every rank's, before any step */
  if (!r.cfg.print_config) rc = dg_app_ranks_agree(&r.rk, rc);
  if (rc == 0 && !r.cfg.print_config) rc = run_steps(&r);
  if (rc) {
    fflush(stdout);
    /* one line, whatever a value or file string held (dg_escape.h) */
    char line[4200], full[4300];
    snprintf(full, sizeof full, "advect: %s",
             dg_escape_message(line, sizeof line, dg_error_message()));
    dg_app_ranks_fail(&r.rk, full);
  }
  cleanup(&r);
  return dg_app_stdout_status("advect", rc ? 2 : 0);
}
