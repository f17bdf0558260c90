/* advdiff - advection-diffusion u_t + div(beta u) = nu lap u (the
 * advection_diffusion model, 2D or 3D; any one-variable model with --model,
 * its parameter nu the diffusion, 0 where it has none: viscous Burgers with
 * --model burgers --nu X) stepped by the implicit, IMEX or explicit
 * reference schemes of implicit/ (dg_imex.h); a nonlinear model's implicit
 * stages are solved by Newton.  The grid, map, model, time and output
 * options are advect's (apps/dg_app.c); the scheme's options are its own:
 *   --scheme NAME     be | cn | sdirk2 | sdirk3 | ars222 | ars443 | rk4   [sdirk2]
 *   --rtol X          relative residual of each stage equation             [1e-10]
 *   --maxit N         Krylov iterations per linear solve                   [200]
 *   --precond KIND    fp64 | mixed: the multigrid cycle's precision        [fp64]
 *   --newton-maxit N  Newton iterations per stage (nonlinear models)       [10]
 *   --eta X           Newton's forcing term: 0 Eisenberg-Walker, else fixed [0]
 * A progress line every --progress-every steps: step, t, Newton iterations
 * (nonlinear models), Krylov iterations and the largest final relative
 * residual since the last line, mass; with --verbose one line per Newton
 * iterate; the final snapshot goes to --output (advect's format, so
 * tools/plot reads it).  Errors print one line "advdiff: ..." and exit 2.
 * Under mpirun (an MPI build; either backend) one run goes across the
 * ranks (docs/ARCHITECTURE.md, "The implicit steps across ranks"): each rank
 * steps its block of advect's partition, the solves run on the ranks'
 * shares of the solver grid, the diagnostics are the whole grid's and the
 * snapshot is written by every rank together. */
#include "dg_app.h"
#include "dg_app_check.h"
#include "dg_app_ranks.h"
#include "dg_app_config.h"
#include "dg_backend.h"
#include "dg_comm.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_imex.h"
#include "dg_io.h"
#include "dg_output.h"
#include "dg_restart.h"
#include "dg_spart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
  char scheme[16];
  double rtol, eta;
  int rtol_given; /* an unconverged solve is then an error, not a warning */
  long maxit, newton_maxit;
  int mixed;
  const char *given[5]; /* the solve options given (names), for check_ignored */
  int ngiven;
} im_args;

/* Take the scheme's options out of argv (into a, the rest into rest[]);
 * everything else is advect's and goes to dg_app_parse. */
static int split_args(int argc, char **argv, im_args *a, int *nrest, char **rest) {
  snprintf(a->scheme, sizeof a->scheme, "sdirk2");
  a->rtol = 1e-10;
  a->rtol_given = 0;
  a->maxit = 200;
  a->mixed = 0;
  a->newton_maxit = 10;
  a->eta = 0;
  a->ngiven = 0;
  *nrest = 0;
  rest[(*nrest)++] = argv[0];
  for (int i = 1; i < argc; ++i) {
    char name[64];
    const char *v = NULL;
    if (strncmp(argv[i], "--", 2) != 0 || dg_app_split_option(argv[i], name, sizeof name, &v)) {
      rest[(*nrest)++] = argv[i]; /* dg_app_parse reports it */
      continue;
    }
    const int mine = !strcmp(name, "scheme") || !strcmp(name, "rtol") || !strcmp(name, "maxit") ||
                     !strcmp(name, "precond") || !strcmp(name, "newton-maxit") ||
                     !strcmp(name, "eta");
    if (!mine) {
      if (!strcmp(name, "integrator"))
        return dg_error(DG_ERR_ARG, "option --integrator: advdiff takes --scheme (be, cn, sdirk2, "
                                    "sdirk3, ars222, ars443, rk4)");
      rest[(*nrest)++] = argv[i];
      continue;
    }
    if (!v) {
      if (i + 1 >= argc) return dg_error(DG_ERR_ARG, "option --%s needs a value", name);
      v = argv[++i];
    }
    char opt[80];
    snprintf(opt, sizeof opt, "--%s", name);
    static const char *const solve_opts[] = {"--rtol", "--maxit", "--precond", "--newton-maxit",
                                             "--eta"};
    for (int k = 0; k < 5 && a->ngiven < 5; ++k)
      if (!strcmp(opt, solve_opts[k])) a->given[a->ngiven++] = solve_opts[k];
    if (!strcmp(name, "scheme")) {
      dg_im_kind k;
      if (dg_im_parse(v, &k)) {
        char esc[80];
        return dg_error(DG_ERR_ARG,
                        "option --scheme: '%s' is not a scheme (be, cn, sdirk2, sdirk3, ars222, "
                        "ars443, rk4)",
                        dg_escape(esc, sizeof esc, v));
      }
      snprintf(a->scheme, sizeof a->scheme, "%s", v);
    } else if (!strcmp(name, "rtol")) {
      DG_CALL(dg_app_parse_real(opt, v, 1e-16, 0.5, &a->rtol));
      a->rtol_given = 1;
    } else if (!strcmp(name, "maxit")) {
      DG_CALL(dg_app_parse_long(opt, v, 1, 100000, &a->maxit));
    } else if (!strcmp(name, "newton-maxit")) {
      DG_CALL(dg_app_parse_long(opt, v, 1, 1000, &a->newton_maxit));
    } else if (!strcmp(name, "eta")) {
      DG_CALL(dg_app_parse_real(opt, v, 0, 0.99, &a->eta));
    } else {
      if (strcmp(v, "fp64") && strcmp(v, "mixed")) {
        char esc[80];
        return dg_error(DG_ERR_ARG, "option --precond: '%s' is not fp64 or mixed",
                        dg_escape(esc, sizeof esc, v));
      }
      a->mixed = !strcmp(v, "mixed");
    }
  }
  return 0;
}

/* --verbose: one line per Newton iterate of the step being taken. */
typedef struct {
  long step;
} newton_log;

static void print_newton(void *ctx, int stage, int it, double rel, int kits) {
  const newton_log *l = (const newton_log *)ctx;
  printf("newton: step %ld stage %d it %d residual=%.3e its=%d\n", l->step, stage + 1, it, rel,
         kits);
}

typedef struct {
  dg_app_config cfg;
  dg_app_setup set;
  dg_field *u;
  dg_im *im;
  char *config_text;
  dg_app_ranks rk; /* under mpirun: the partition, this rank's block and its field */
  newton_log nlog;
  int restarting; /* --restart FILE: the run goes on from the file's step */
  dg_restart rs;
  long step0;
  /* t = 0's mass and its scale (dg_restart.h): from the file on a restart */
  double mass0[DG_MAX_NVAR], mass_scale[DG_MAX_NVAR];
} run_state;

/* The disc and field the steps run on: the whole grid's, or this rank's
 * block's (every diagnostic of dg_eval.h then combines over the ranks). */
static dg_disc *run_disc(run_state *r) { return dg_app_ranks_disc(&r->rk, r->set.disc); }
static dg_field *run_field(run_state *r) { return dg_app_ranks_field(&r->rk, r->u); }

static int write_snapshot(run_state *r, const char *path, long step, double t, double dt) {
  dg_app_config *c = &r->cfg;
  dg_snapshot s;
  DG_CALL(dg_snapshot_from_field(&s, run_disc(r), run_field(r), t, step, c->view_samples, 1));
  s.nparams = c->nparams;
  s.param_keys = c->keys;
  s.param_values = c->values;
  s.config = r->config_text;
  s.dt = dt;
  s.mass0 = r->mass0; /* the drift of a restart is measured from t = 0 */
  s.mass_scale = r->mass_scale;
  /* across ranks every rank writes its block's part (the status agreed) */
  const int rc =
      r->rk.size > 1 ? dg_app_ranks_write(&r->rk, path, &s) : dg_snapshot_write(path, &s);
  s.nparams = 0; /* borrowed */
  s.param_keys = s.param_values = NULL;
  s.config = NULL;
  s.mass0 = s.mass_scale = NULL;
  dg_snapshot_free(&s);
  return rc;
}

/* advect's options that advdiff does not honour: refused, not ignored */
static const char *const unused[][2] = {
    {"output-every", "writes only the final snapshot (--output)"},
    {"text-output", "writes only the HDF5 snapshot of --output"},
    {"history", "keeps no history (its progress lines give the mass)"},
    {"integrator", "takes --scheme (be, cn, sdirk2, sdirk3, ars222, ars443, rk4)"},
    {NULL, NULL}};

/* A step so long that dt times the operator's largest rate times max|u| is
   near the square root of a double's range ends in "residual not finite"
   from deep inside a solve (the Krylov and Lanczos dot products square it,
   the multigrid's setup multiplies two of them): refused here, naming --dt.
   The bound leaves such products far inside the range. */
static int check_dt_range(run_state *r, dg_disc *d, double dt, double umax, double nu, long dofs) {
  double adv, lmax = 0;
  DG_CALL(dg_disc_stable_dt(d, run_field(r), 0, &adv));
  if (nu > 0) DG_CALL(dg_im_laplacian_lmax(r->im, &lmax));
  const double rate = (isfinite(adv) && adv > 0 ? 1 / adv : 0) + nu * lmax;
  const double x = dt * rate * fmax(umax, 1) * sqrt((double)dofs);
  if (!(x <= 1e75))
    return dg_error(DG_ERR_ARG,
                    "option --dt: %g is too long: dt x the operator's largest rate (%.3g) x "
                    "max|u| is more than the solves' products can hold in a double",
                    dt, rate);
  return 0;
}

/* The degrees of freedom of the whole grid. */
static long whole_dofs(run_state *r) {
  return dg_degree_map_dofs(r->set.map, r->set.grid.dim, dg_disc_nvar(run_disc(r)));
}

/* A solve option the run would not use is refused, not ignored: rk4 solves
 * nothing, and only a nonlinear model's implicit stages run Newton. */
static int check_ignored(const im_args *a, dg_im_kind kind, const dg_model *m) {
  const int explicit_ = dg_im_treatment(kind) == DG_IM_EXPLICIT;
  const int newton = !dg_model_linear(m) && dg_im_treatment(kind) == DG_IM_IMPLICIT;
  for (int i = 0; i < a->ngiven; ++i) {
    const char *o = a->given[i];
    if (explicit_)
      return dg_error(DG_ERR_ARG, "option %s: --scheme %s is explicit (it solves nothing)", o,
                      a->scheme);
    if (!newton && (!strcmp(o, "--newton-maxit") || !strcmp(o, "--eta")))
      return dg_error(DG_ERR_ARG, "option %s: no Newton iterations here (%s%s%s)", o,
                      dg_model_linear(m) ? "the model is linear" : "--scheme ",
                      dg_model_linear(m) ? "" : a->scheme,
                      dg_model_linear(m) ? "" : " takes the nonlinear part explicitly");
  }
  return 0;
}

/* The setup, every rank alike (its failures are agreed on by the caller):
 * the grid and map, this rank's block under mpirun, the initial condition,
 * the integrator, the step; then run_steps. */
static int run_setup(run_state *r, const im_args *a, dg_im_opts *po, double *pdt, long *psteps) {
  dg_app_config *c = &r->cfg;
  DG_CALL(dg_app_refuse_unused(c, "advdiff", unused));
  DG_CALL(dg_app_check_config(c));
  DG_CALL(dg_app_check_outputs(c));
  const int ranks = r->rk.size > 1;
  /* under mpirun no rank builds the whole grid's discretisation */
  DG_CALL(ranks ? dg_app_setup_create_map(&r->set, c) : dg_app_setup_create(&r->set, c));
  DG_CALL(dg_app_ranks_setup(&r->rk, c->be, &r->set.grid, r->set.map, c->q, r->set.model,
                             c->verbose && !c->quiet));
  if (!ranks) DG_CALL(dg_field_create(&r->u, r->set.disc));
  dg_disc *d = run_disc(r);
  dg_field *u = run_field(r);
  dg_im_kind kind;
  DG_CALL(dg_im_parse(a->scheme, &kind));
  DG_CALL(check_ignored(a, kind, r->set.model));
  dg_im_opts o = dg_im_default_opts();
  DG_CALL(dg_app_model_nu(r->set.model, &o.nu));
  o.rtol = a->rtol;
  o.maxit = (int)a->maxit;
  o.mixed = a->mixed;
  o.newton_maxit = (int)a->newton_maxit;
  o.eta = a->eta;
  o.part = r->rk.part; /* NULL on one rank */
  if (c->verbose && !c->quiet) {
    o.newton_monitor = print_newton;
    o.monitor_ctx = &r->nlog;
  }
  double dt = 0;
  if (r->restarting) { /* this rank's block of the file (its checksum verified) */
    if (ranks) DG_CALL(dg_app_ranks_read(&r->rk, c->restart, &r->rs.snap));
    DG_CALL(dg_field_from_snapshot(d, u, &r->rs.snap, c->restart));
    DG_CALL(dg_restart_check_time(&r->rs, c, 0, &dt)); /* the file's dt, kept */
    r->step0 = (long)r->rs.snap.step;
  } else {
    DG_CALL(dg_project_solution(d, u, 0));
  }
  DG_CALL(dg_im_create(&r->im, d, kind, &o));
  /* the snapshot's configuration names the scheme that made it, so that
     advect --restart refuses to continue it with another method */
  snprintf(c->integrator, sizeof c->integrator, "%s", a->scheme);
  DG_CALL(dg_app_config_text(c, dg_disc_q(d), 0, &r->config_text));
  if (r->restarting) {
    /* the file's dt (above) */
  } else if (c->dt_set) {
    dt = c->dt;
  } else {
    double est;
    DG_CALL(dg_disc_stable_dt(d, u, 0, &est));
    if (!isfinite(est))
      return dg_error(DG_ERR_ARG, "option --cfl: the wave speed is zero everywhere, give --dt");
    dt = c->cfl * est;
  }
  long steps = c->steps;
  if (!c->steps_set) {
    const double n = ceil(c->t_end / dt * (1 - 1e-12));
    if (!(n <= (double)(1L << 40)))
      return dg_error(DG_ERR_ARG, "option --dt: %g needs %.3g steps to --t-end %g", dt, n,
                      c->t_end);
    steps = (long)n;
    if (!r->restarting) dt = c->t_end / (double)steps; /* lands on --t-end */
  }
  if (r->restarting && r->step0 > steps)
    return dg_error(DG_ERR_ARG, "restart %s: file is at step %ld, beyond this run's %ld steps",
                    c->restart, r->step0, steps);
  *po = o;
  *pdt = dt;
  *psteps = steps;
  return 0;
}

static int run_steps(run_state *r, const im_args *a, const dg_im_opts *po, double dt, long steps) {
  dg_app_config *c = &r->cfg;
  dg_disc *d = run_disc(r);
  dg_field *u = run_field(r);
  dg_im_kind kind;
  DG_CALL(dg_im_parse(a->scheme, &kind));
  dg_im_opts o = *po;
  const int newton = !dg_model_linear(r->set.model) && dg_im_treatment(kind) == DG_IM_IMPLICIT;
  /* per variable (a system: one mass per variable, dg_mass) */
  const int nv = dg_disc_nvar(d);
  double *mass0 = r->mass0, umax = 0;
  DG_CALL(dg_mass(d, u, mass0));
  DG_CALL(dg_restart_mass_scales(d, u, r->mass_scale));
  const dg_snapshot *rsnap = &r->rs.snap;
  if (r->restarting && rsnap->mass0 && rsnap->mass_scale) /* the drift goes on from t = 0 */
    for (int v = 0; v < nv; ++v) {
      mass0[v] = rsnap->mass0[v];
      r->mass_scale[v] = rsnap->mass_scale[v];
    }
  DG_CALL(dg_field_to_host(u));
  /* a rank's storage holds its own elements and copies of its ghosts' */
  for (long i = 0; i < u->n; ++i) umax = fmax(umax, fabs((double)u->h[i]));
  if (r->rk.size > 1) {
    const double mine = umax;
    DG_CALL(dg_comm_allreduce_max(r->rk.comm, &mine, &umax, 1));
  }
  /* a relative drift of a mass near zero (a sine over whole periods) would
     divide round-off by round-off: then the absolute change (DG_MASS_ZERO) */
  int rel[DG_MAX_NVAR];
  for (int v = 0; v < nv; ++v) rel[v] = fabs(mass0[v]) > DG_MASS_ZERO * r->mass_scale[v];
  const long dofs = whole_dofs(r);
  DG_CALL(check_dt_range(r, d, dt, umax, o.nu, dofs));
  if (!c->quiet) {
    printf("advdiff: %s backend, model %s, %dD, %ld elements, degrees %d..%d, %ld dofs, scheme %s "
           "(%s%s), nu=%g, dt=%.6g, %ld steps, rtol=%g, %s multigrid\n",
           dg_backend_resource(c->be), dg_model_name(r->set.model), c->dim, r->set.grid.nelem,
           dg_disc_degrees(d)->rmin, dg_disc_degrees(d)->rmax, dofs, a->scheme,
           dg_im_treatment(kind) == DG_IM_IMPLICIT ? "implicit"
           : dg_im_treatment(kind) == DG_IM_IMEX   ? "imex"
                                                   : "explicit",
           newton ? ", Newton" : "", o.nu, dt, steps, o.rtol, o.mixed ? "mixed-precision" : "fp64");
    if (c->verbose && o.nu > 0) {
      double lmax, adv;
      DG_CALL(dg_im_laplacian_lmax(r->im, &lmax));
      DG_CALL(dg_disc_stable_dt(d, u, 0, &adv));
      const double dte = dg_im_real_stability(DG_IM_RK4) / (o.nu * lmax);
      printf("advdiff: explicit limits: diffusive (rk4) %.4e (lmax(M^-1 K) = %.4e), advective "
             "(cfl 1) %.4e; dt = %.3g x the diffusive one\n",
             dte, lmax, adv, dt / dte);
    }
    fflush(stdout);
  }
  const double w0 = wall();
  long its_tot = 0, its_since = 0, newton_tot = 0, newton_since = 0;
  double rel_since = 0;
  double t = r->restarting ? r->rs.snap.time : 0; /* the file's: step0 x dt */
  for (long step = r->step0 + 1; step <= steps; ++step) {
    dg_im_stats st;
    r->nlog.step = step;
    DG_CALL(dg_im_step(r->im, u, t, dt, &st));
    t = (double)step * dt;
    its_tot += st.its;
    its_since += st.its;
    newton_tot += st.newton;
    newton_since += st.newton;
    rel_since = fmax(rel_since, st.rel_max);
    /* a tolerance asked for and not met is no result: an error; the default
       one a warning (also with --quiet) */
    if (!st.converged && a->rtol_given)
      return dg_error(DG_ERR_NUMERIC,
                      "option --rtol: step %ld: a solve stopped at residual %.3e > --rtol %g "
                      "(no output written)",
                      step, st.rel_max, o.rtol);
    if (!st.converged)
      fprintf(stderr, "advdiff: warning: step %ld: a solve stopped at residual %.3e > --rtol %g\n",
              step, st.rel_max, o.rtol);
    if (c->progress_every > 0 && step % c->progress_every == 0 && !c->quiet) {
      double mass[DG_MAX_NVAR];
      DG_CALL(dg_mass(d, u, mass));
      char nbuf[40] = "", mbuf[DG_MAX_NVAR * 26] = "";
      if (newton) snprintf(nbuf, sizeof nbuf, " newton=%ld", newton_since);
      for (int v = 0; v < nv; ++v) /* a system's masses comma-separated */
        snprintf(mbuf + strlen(mbuf), sizeof mbuf - strlen(mbuf), "%s%.15g", v ? "," : "", mass[v]);
      printf("progress: step %ld t=%.6g%s its=%ld residual=%.3e mass=%s wall=%.3fs\n", step, t,
             nbuf, its_since, rel_since, mbuf, wall() - w0);
      fflush(stdout);
      its_since = 0;
      newton_since = 0;
      rel_since = 0;
    }
  }
  const double wall_s = wall() - w0;
  /* the errors over all variables (L2 of the vector, largest Linf) as
     advect's, and a system's per variable after the summary's keys */
  double l2v[DG_MAX_NVAR], linfv[DG_MAX_NVAR], mass[DG_MAX_NVAR], l2 = 0, linf = 0;
  DG_CALL(dg_error_norms(d, u, t, l2v, linfv));
  DG_CALL(dg_mass(d, u, mass));
  DG_CALL(write_snapshot(r, c->output, steps, t, dt));
  char pervar[DG_MAX_NVAR * 160] = "";
  for (int v = 0; v < nv; ++v) {
    l2 += l2v[v] * l2v[v];
    if (linfv[v] > linf || linfv[v] != linfv[v]) linf = linfv[v];
    if (nv > 1) {
      const char *vn = dg_model_var_name(r->set.model, v);
      const double dv = rel[v] ? (mass[v] - mass0[v]) / fabs(mass0[v]) : mass[v] - mass0[v];
      snprintf(pervar + strlen(pervar), sizeof pervar - strlen(pervar),
               " l2_error_%s=%.17g mass_%s=%.17g mass_drift%s_%s=%.3e", vn, l2v[v], vn, mass[v],
               rel[v] ? "" : "_abs", vn, dv);
    }
  }
  l2 = sqrt(l2);
  const double drift = rel[0] ? (mass[0] - mass0[0]) / fabs(mass0[0]) : mass[0] - mass0[0];
  printf("advdiff: scheme=%s dofs=%ld steps=%ld t=%.17g dt=%.17g l2_error=%.17g "
         "linf_error=%.17g mass=%.17g mass_drift%s=%.3e krylov_its=%ld newton_its=%ld wall_s=%.6f "
         "model=%s%s\n",
         a->scheme, dofs, steps, t, dt, l2, linf, mass[0], rel[0] ? "" : "_abs", drift, its_tot,
         newton_tot, wall_s, dg_model_name(r->set.model), pervar);
  return 0;
}

int main(int argc, char **argv) {
  run_state r;
  memset(&r, 0, sizeof r);
  dg_app_defaults(&r.cfg);
  /* under mpirun every rank reads and checks the same input; rank 0 prints */
  /* fault injection for tests (dg_spart.h) */
  if (dg_app_ranks_start(&r.rk, &argc, &argv) ||
      dg_spart_set_fault(getenv("DGRID_SPART_NO_EXCHANGE"))) {
    fprintf(stderr, "advdiff: %s\n", dg_error_message());
    dg_app_ranks_stop(&r.rk);
    return 2;
  }
  snprintf(r.cfg.output, sizeof r.cfg.output, "advdiff.h5");
  im_args a;
  char **rest = malloc(sizeof(char *) * (size_t)(argc + 2));
  if (!rest) {
    dg_app_ranks_stop(&r.rk);
    return 2;
  }
  int nrest = 0;
  int rc = split_args(argc, argv, &a, &nrest, rest);
  int found = 0;
  char mname[64], rpath[512];
  /* --restart FILE: the file's configuration is the base of the options;
     across ranks rank 0 verifies the file, then each rank reads what it
     needs (its block's coefficients once the partition is known) */
  if (!rc) rc = dg_app_peek(nrest, rest, "restart", rpath, sizeof rpath, &r.restarting);
  if (!rc && r.restarting) rc = dg_app_ranks_verify(&r.rk, rpath);
  if (!rc && r.restarting) rc = dg_restart_open_scheme(&r.rs, rpath, r.rk.size > 1, a.scheme);
  if (!rc && r.restarting) rc = dg_restart_check_model(&r.rs, nrest, rest);
  if (!rc) rc = dg_app_peek(nrest, rest, "model", mname, sizeof mname, &found);
  if (rc == 0 && !found && !r.restarting) { /* the default model of this app */
    rest[nrest++] = "--model=advection_diffusion";
  }
  if (rc == 0) {
    rc = dg_app_parse_base(&r.cfg, nrest, rest, "advdiff", r.restarting ? &r.rs.stored : NULL);
    if (rc > 0 && r.restarting) rc = dg_restart_explain(&r.rs, nrest, rest, rc);
  }
  if (rc == 0 && r.restarting) rc = dg_restart_compare(&r.rs, &r.cfg);
  if (rc == DG_APP_HELP) {
    printf("advdiff: implicit / IMEX advection-diffusion (implicit/dg_imex.h)\n"
           "  --scheme NAME        be | cn | sdirk2 | sdirk3 | ars222 | ars443 | rk4  [sdirk2]\n"
           "  --rtol X             relative residual of every stage solve     [1e-10]\n"
           "                       (a solve that stops above it: a warning; an error, exit 2,\n"
           "                       where --rtol was given: a tolerance asked for and not met)\n"
           "  --maxit N            Krylov iterations per solve                [200]\n"
           "  --precond KIND       fp64 | mixed multigrid preconditioner      [fp64]\n"
           "  --newton-maxit N     Newton iterations per stage (nonlinear)    [10]\n"
           "  --eta X              Newton forcing: 0 Eisenberg-Walker, else fixed [0]\n"
           "the model's parameter nu is the diffusion (--model burgers --nu X: viscous "
           "Burgers, by Newton);\nthe other options are advect's:\n");
    dg_app_help(stdout, "advdiff");
    dg_app_config_free(&r.cfg);
    free(rest);
    dg_app_ranks_stop(&r.rk);
    return dg_app_stdout_status("advdiff", 0);
  }
  if (rc == 0 && r.cfg.print_config) /* advect's format has no place for the implicit options */
    rc = dg_error(DG_ERR_ARG, "option --print-config: advdiff cannot print its configuration");
  dg_im_opts o = dg_im_default_opts();
  double dt = 0;
  long steps = 0;
  if (rc == 0) rc = run_setup(&r, &a, &o, &dt, &steps);
  /* a failure of the input on any rank is every rank's, before any step */
  rc = dg_app_ranks_agree(&r.rk, rc);
  if (rc == 0) {
    rc = run_steps(&r, &a, &o, dt, steps);
    /* memory, MPI or the backend failing on one rank leaves the others
       waiting in a collective: that rank ends the job (dg_app_ranks_fail);
       every other failure of the steps (a solve's reduced residual, a
       non-finite value found by every rank, the snapshot's agreed write) is
       every rank's alike */
    if (rc && rc != DG_ERR_MEM && rc != DG_ERR_LIB && rc != DG_ERR_BACKEND) r.rk.agreed = 1;
  }
  if (rc) {
    fflush(stdout);
    char line[4200], full[4300];
    snprintf(full, sizeof full, "advdiff: %s",
             dg_escape_message(line, sizeof line, dg_error_message()));
    dg_app_ranks_fail(&r.rk, full);
  }
  dg_im_destroy(&r.im);
  dg_field_destroy(&r.u);
  dg_app_ranks_stop(&r.rk); /* the block's field and disc before the backend they use */
  dg_app_setup_destroy(&r.set);
  dg_app_config_free(&r.cfg);
  free(r.config_text);
  free(rest);
  dg_restart_close(&r.rs);
  return dg_app_stdout_status("advdiff", rc ? 2 : 0);
}
