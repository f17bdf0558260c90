/* bench - throughput of the DG stages: sweeps dimension, degree, grid size,
 * degree map and integrator, and reports per case the DOFs, DOF updates per
 * second per RK stage, the time per step split into the trace and update
 * passes, the flops and bytes of a stage as counted by dg_disc_work, the
 * achieved GFLOP/s and GB/s and the fraction of the memory bandwidth that a
 * STREAM triad of the same backend measures in the same run.
 *
 * Every timing is the median of several repeats after a warm-up; the spread
 * is reported with it.  Output: a table on stdout, progress on stderr, CSV
 * (--csv) and JSON (--json) for tools/plot.  See `bench --help` and
 * BENCHMARKS.md.  Exit status: 0 done, 1 a run failed, 2 bad options. */
#include "bench.h"
#include "dg_app.h"
#include "dg_app_check.h"
#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_lane.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* The recorded message as one line, whatever a value held (dg_escape.h). */
static const char *message(void) {
  static char line[4200];
  return dg_escape_message(line, sizeof line, dg_error_message());
}

/* ------------------------------------------------------------------------ */
/* cases                                                                     */

static long ipow(long b, int e) {
  long p = 1;
  for (int i = 0; i < e; ++i) p *= b;
  return p;
}

/* Upper bound of the bytes a case allocates (uniform maximum degree). */
static double case_bytes(const plan_item *p, int rmax, int q, int W, int nvar, int needs_x,
                         double *traces) {
  const double rb = sizeof(dg_real);
  const double nelem = (double)p->cells[0] * p->cells[1] * (p->dim == 3 ? p->cells[2] : 1);
  const double nslots = nelem + (double)(DG_MAX_DEGREE + 1) * W;
  const double len = nslots * nvar * (double)ipow(rmax + 1, p->dim);
  const double tr = nslots * 2 * p->dim * nvar * (double)ipow(q, p->dim - 1);
  *traces = tr;
  return 4 * len * rb /* u, initial u, two registers */
         /* two trace buffers, or with nbr_coeffs a second coefficient buffer */
         + (2 * tr > len ? 2 * tr : len) * rb +
         2 * nslots * 2 * p->dim * sizeof(int) /* neighbours: host build + device */
         /* coordinates: always built on the host, kept on the device if needed */
         + (needs_x ? 2 : 1) * nslots * 3 * p->dim * rb + 24 * nslots + 2 * nelem;
}

static int fill_config(const bench_opts *o, const plan_item *p, dg_app_config *c) {
  *c = o->base; /* shallow: the recorded keys and the model stay owned by o->base */
  c->nparams = 0;
  c->dim = p->dim;
  for (int d = 0; d < 3; ++d) c->cells[d] = d < p->dim ? p->cells[d] : 1;
  c->cells_n = p->dim;
  c->degree = p->degree < 0 ? 0 : p->degree;
  c->degree_min = p->degree_min;
  snprintf(c->map, sizeof c->map, "%s", p->map == MAP_FILE ? "uniform" : bench_map_names[p->map]);
  snprintf(c->integrator, sizeof c->integrator, "%s", dg_ts_name(p->ts));
  return 0;
}

/* One timed repeat of `steps` steps from the initial state.  The reset
 * (a copy, an outside change of u) and the first step after it, which also
 * recomputes the face traces the previous update would have left, are not
 * timed: the repeat measures the steady state of a long run. */
static int timed_repeat(dg_disc *d, dg_ts *ts, dg_field *u, dg_field *u_init, long steps, double dt,
                        double *t_step, double *tr_step, double *up_step) {
  const dg_backend_ops *be = dg_disc_backend(d)->ops;
  DG_CALL(dg_field_copy(u, u_init));
  DG_CALL(dg_field_to_device(u));
  DG_CALL(dg_ts_step(ts, u, 0, dt));
  DG_CALL(be->sync());
  dg_disc_set_timing(d, 1);
  const double t0 = bench_wall();
  for (long s = 0; s < steps; ++s) DG_CALL(dg_ts_step(ts, u, (double)(s + 1) * dt, dt));
  DG_CALL(be->sync());
  const double t1 = bench_wall();
  double tr, up;
  dg_disc_timing(d, &tr, &up);
  dg_disc_set_timing(d, 0);
  if (!isfinite(t0) || !isfinite(t1)) return dg_error(DG_ERR_BACKEND, "clock_gettime failed");
  *t_step = (t1 - t0) / (double)steps;
  *tr_step = tr / (double)steps;
  *up_step = up / (double)steps;
  return 0;
}

/* The uniform case on the same grid, degree and integrator (for band/random). */
static const result *find_uniform(const bench_run *b, const result *r) {
  for (long i = b->nres - 1; i >= 0; --i) {
    const result *u = &b->res[i];
    if (u->p.map == MAP_UNIFORM && u->p.dim == r->p.dim && u->p.cells[0] == r->p.cells[0] &&
        u->p.cells[1] == r->p.cells[1] && u->p.cells[2] == r->p.cells[2] && u->p.ts == r->p.ts &&
        u->rmax == r->rmax && u->q == r->q)
      return u;
  }
  return NULL;
}

typedef struct {
  dg_app_config cfg;
  dg_app_setup set;
  int have_set;
  dg_field *u, *u_init;
  double dt, setup_s;
} case_state;

static void case_free(case_state *cs) {
  dg_field_destroy(&cs->u);
  dg_field_destroy(&cs->u_init);
  if (cs->have_set) dg_app_setup_destroy(&cs->set);
  cs->have_set = 0;
}

static int case_setup(bench_run *b, const plan_item *p, case_state *cs) {
  const double t0 = bench_wall();
  memset(cs, 0, sizeof *cs);
  DG_CALL(fill_config(b->o, p, &cs->cfg));
  cs->have_set = 1; /* dg_app_setup_destroy copes with a partial setup */
  DG_CALL(dg_app_setup_create(&cs->set, &cs->cfg));
  dg_disc *d = cs->set.disc;
  DG_CALL(dg_field_create(&cs->u, d));
  DG_CALL(dg_field_create(&cs->u_init, d));
  DG_CALL(dg_project_solution(d, cs->u_init, 0.0));
  DG_CALL(dg_field_to_device(cs->u_init));
  double est;
  DG_CALL(dg_disc_stable_dt(d, cs->u_init, 0.0, &est));
  if (cs->cfg.dt_set) {
    cs->dt = cs->cfg.dt;
  } else {
    if (!isfinite(est) || !(est > 0))
      return dg_error(DG_ERR_ARG, "option --cfl: the wave speed is zero everywhere, give --dt");
    cs->dt = cs->cfg.cfl * est;
  }
  cs->setup_s = bench_wall() - t0;
  return 0;
}

static int run_case(bench_run *b, const plan_item *p, case_state *cs, result *r) {
  const bench_opts *o = b->o;
  dg_disc *d = cs->set.disc;
  const dg_degree_map *m = dg_disc_degrees(d);
  memset(r, 0, sizeof *r);
  r->p = *p;
  r->degree_req = p->degree;
  r->rmin = m->rmin;
  r->rmax = m->rmax;
  r->p.degree = m->rmax;
  r->p.degree_min = m->rmin;
  r->q = dg_disc_q(d);
  r->nbr_coeffs = dg_disc_nbr_coeffs(d);
  r->team = dg_disc_team(d);
  r->own_q = dg_disc_own_q(d);
  r->reuse_traces = dg_disc_reuse_traces(d);
  r->stages = dg_ts_stages(p->ts);
  r->lane_width = b->be->lane_width;
  r->nelem = dg_disc_grid(d)->nelem;
  r->dofs = dg_disc_ndofs(d);
  r->dt = cs->dt;
  r->setup_s = cs->setup_s;
  r->repeats = o->repeats;

  /* counted work: linear in the register streams, so the per-stage average
   * of the scheme (possibly fractional) is interpolated exactly */
  const dg_work w0 = dg_disc_work(d, 0), w1 = dg_disc_work(d, 1);
  if (w0.dofs != r->dofs)
    return dg_error(DG_ERR_NUMERIC, "dg_disc_work counts %ld dofs, the disc has %ld", w0.dofs,
                    r->dofs);
  r->reg_streams = dg_ts_register_streams(p->ts);
  r->flops_stage = w0.flops;
  r->bytes_min_stage = w0.bytes_min + r->reg_streams * (w1.bytes_min - w0.bytes_min);
  r->bytes_moved_stage = w0.bytes_moved + r->reg_streams * (w1.bytes_moved - w0.bytes_moved);
  if (!(r->flops_stage > 0) || !(r->bytes_min_stage > 0) || !(r->bytes_moved_stage > 0))
    return dg_error(DG_ERR_NUMERIC, "dg_disc_work: non-positive flops or bytes");

  dg_ts *ts = NULL;
  double *t = malloc(3 * (size_t)o->repeats * sizeof *t);
  if (!t) return dg_error(DG_ERR_MEM, "out of memory");
  double *ttr = t + o->repeats, *tup = ttr + o->repeats;
  int rc = dg_ts_create(&ts, d, p->ts);
  if (rc) goto done;

  /* warm-up: single timed steps until --warmup seconds have passed (at least
   * two); the fastest of them sets the steps per repeat for --min-time */
  {
    double spent = 0, best = INFINITY;
    if ((rc = dg_field_copy(cs->u, cs->u_init))) goto done;
    for (long k = 0; k < 2 || (spent < o->warmup && k < 1000000); ++k) {
      const double t0 = bench_wall();
      if ((rc = dg_ts_step(ts, cs->u, 0, cs->dt)) || (rc = b->be->sync())) goto done;
      const double dt1 = bench_wall() - t0;
      spent += dt1;
      if (dt1 < best) best = dt1;
    }
    r->warmup_steps_s = spent;
    r->steps = o->steps ? o->steps : (long)ceil(o->min_time / (best > 0 ? best : 1e-9));
    if (r->steps < 1) r->steps = 1;
  }
  for (int k = 0; k < o->repeats; ++k)
    if ((rc = timed_repeat(d, ts, cs->u, cs->u_init, r->steps, cs->dt, &t[k], &ttr[k], &tup[k])))
      goto done;
  r->finite = dg_check_finite(d, cs->u) == 0;
  dg_error_clear();

  qsort(t, (size_t)o->repeats, sizeof *t, bench_cmp_double);
  r->median = bench_quantile(t, o->repeats, 0.5);
  r->tmin = t[0];
  r->tmax = t[o->repeats - 1];
  r->iqr = bench_quantile(t, o->repeats, 0.75) - bench_quantile(t, o->repeats, 0.25);
  r->spread = (r->tmax - r->tmin) / r->median;
  r->trace_s = bench_median_of(ttr, o->repeats);
  r->update_s = bench_median_of(tup, o->repeats);
  const double per_s = (double)r->stages / r->median;
  r->dof_stage_per_s = (double)r->dofs * per_s;
  r->gflops = r->flops_stage * per_s / 1e9;
  r->gbs_min = r->bytes_min_stage * per_s / 1e9;
  r->gbs_moved = r->bytes_moved_stage * per_s / 1e9;
  r->bw_fraction = r->gbs_min / b->st0.gbs_median;
  r->bw_fraction_moved = r->gbs_moved / b->st0.gbs_median;
  r->flop_fraction = b->peak_gflops > 0 ? r->gflops / b->peak_gflops : NAN;
  r->cost_vs_dof_share = r->flops_vs_dof_share = NAN;
  if (p->map != MAP_UNIFORM) {
    const result *u = find_uniform(b, r);
    if (u) {
      const double share = (double)r->dofs / (double)u->dofs;
      r->cost_vs_dof_share = (r->median / u->median) / share;
      r->flops_vs_dof_share = (r->flops_stage / u->flops_stage) / share;
    }
  }
done:
  dg_ts_destroy(&ts);
  free(t);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* sweep                                                                     */

static int add_plan(plan_item *plan, long *n, const plan_item *p) {
  if (*n >= MAX_PLAN) return dg_error(DG_ERR_ARG, "the sweep has more than %d cases", MAX_PLAN);
  plan[(*n)++] = *p;
  return 0;
}

static int build_plan(const bench_opts *o, plan_item *plan, long *n) {
  *n = 0;
  for (int di = 0; di < o->ndims; ++di) {
    const int dim = o->dims[di];
    const int nsz = o->set_cells ? 1 : o->nsizes;
    for (int si = 0; si < nsz; ++si)
      for (int ri = 0; ri < o->ndeg; ++ri) {
        const int r = o->degrees[ri];
        plan_item p;
        memset(&p, 0, sizeof p);
        p.dim = dim;
        p.degree = r;
        p.degree_min = o->degree_min;
        if (o->set_cells) {
          for (int d = 0; d < 3; ++d) p.cells[d] = d < dim ? o->cells[d] : 1;
        } else {
          p.target = o->sizes[si];
          const double per = (double)dg_model_nvar(o->base.model) * (double)ipow(r + 1, dim);
          const int latlon = !strcmp(o->base.grid, "latlon"); /* N1 = 2 N2 */
          long c = lround(pow((double)p.target / per / (latlon ? 2 : 1), 1.0 / dim));
          if (c < 1) c = 1;
          if (c > (1 << 23)) c = 1 << 23; /* N1 = 2 c stays within the grid limit */
          for (int d = 0; d < 3; ++d) p.cells[d] = d < dim ? (int)c : 1;
          if (latlon) p.cells[0] = 2 * (int)c;
        }
        for (int mi = 0; mi < o->nmaps; ++mi) {
          p.map = o->maps[mi];
          if (p.map != MAP_UNIFORM && p.map != MAP_FILE && o->degree_min >= r)
            continue; /* the same as uniform (or impossible) */
          for (int ii = 0; ii < o->ninteg; ++ii) {
            p.ts = (dg_ts_kind)o->integ[ii];
            DG_CALL(add_plan(plan, n, &p));
          }
        }
      }
  }
  return 0;
}

static int same_setup(const plan_item *a, const plan_item *b) {
  return a->dim == b->dim && a->cells[0] == b->cells[0] && a->cells[1] == b->cells[1] &&
         a->cells[2] == b->cells[2] && a->degree == b->degree && a->degree_min == b->degree_min &&
         a->map == b->map;
}

static void fmt_dur(double s, char *buf, size_t cap) {
  if (!isfinite(s) || s < 0)
    snprintf(buf, cap, "?");
  else if (s < 90)
    snprintf(buf, cap, "%.0fs", s);
  else if (s < 5400)
    snprintf(buf, cap, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
  else
    snprintf(buf, cap, "%.0fh%02.0fm", floor(s / 3600), fmod(s / 60, 60));
}

static int add_skip(bench_run *b, const char *what) {
  char(*s)[256] = realloc(b->skipped, (size_t)(b->nskip + 1) * sizeof *s);
  if (!s) return dg_error(DG_ERR_MEM, "out of memory");
  b->skipped = s;
  snprintf(b->skipped[b->nskip++], 256, "%s", what);
  return 0;
}

static int sweep(bench_run *b, const plan_item *plan, long n) {
  const bench_opts *o = b->o;
  case_state cs;
  memset(&cs, 0, sizeof cs);
  int have = 0, rc = 0;
  const plan_item *cur = NULL;
  const double t_start = bench_wall();
  for (long i = 0; i < n; ++i) {
    const plan_item *p = &plan[i];
    char cells[64], what[768];
    bench_cells_label(p->cells, p->dim, cells, sizeof cells);
    if (p->map == MAP_FILE)
      snprintf(what, sizeof what, "dim=%d map=file(%s) %s cells=%s", p->dim, o->base.map_file,
               dg_ts_name(p->ts), cells);
    else if (p->map == MAP_UNIFORM)
      snprintf(what, sizeof what, "dim=%d degree=%d map=uniform %s cells=%s", p->dim, p->degree,
               dg_ts_name(p->ts), cells);
    else
      snprintf(what, sizeof what, "dim=%d degree=%d..%d map=%s %s cells=%s", p->dim, p->degree_min,
               p->degree, bench_map_names[p->map], dg_ts_name(p->ts), cells);
    if (!cur || !same_setup(cur, p)) {
      if (have) case_free(&cs);
      have = 0;
      cur = NULL;
      /* memory and layout limits before allocating */
      const int rmax = p->degree < 0 ? DG_MAX_DEGREE : p->degree;
      const int q = o->base.q ? o->base.q : rmax + 1;
      double traces;
      double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
      for (int k = 0; k < 3; ++k)
        if (o->base.box_n > 2 * k) lo[k] = o->base.box[2 * k], hi[k] = o->base.box[2 * k + 1];
      dg_grid g0;
      if (!strcmp(o->base.grid, "latlon"))
        DG_CALL(dg_grid_init_latlon(&g0, p->cells[0], p->cells[1], o->base.radius));
      else
        DG_CALL(dg_grid_init(&g0, p->dim, p->cells, lo, hi));
      DG_CALL(dg_model_finish_grid(o->base.model, &g0));
      const double need = case_bytes(p, rmax, q, b->be->lane_width, dg_model_nvar(o->base.model),
                                     dg_model_uses_x(o->base.model), &traces);
      char why[160] = "";
      if (need > b->mem_limit)
        snprintf(why, sizeof why, "needs %.2f GiB, limit %.2f GiB", need / 1073741824.0,
                 b->mem_limit / 1073741824.0);
      else if (traces >= 2147483647.0)
        snprintf(why, sizeof why, "%.3g face-trace values exceed the library's int offsets",
                 traces);
      if (why[0]) {
        /* skip every case of this setup */
        long j = i;
        while (j < n && same_setup(&plan[j], p)) {
          char w2[256];
          snprintf(w2, sizeof w2, "dim=%d degree=%d map=%s %s cells=%s: %s", plan[j].dim,
                   plan[j].degree, bench_map_names[plan[j].map], dg_ts_name(plan[j].ts), cells,
                   why);
          if (!o->quiet) fprintf(stderr, "bench: skipped %s\n", w2);
          DG_CALL(add_skip(b, w2));
          ++j;
        }
        i = j - 1;
        continue;
      }
      if (!o->quiet && need > 256.0 * 1048576.0) {
        fprintf(stderr, "bench: setting up %s (%.2f GiB)\n", what, need / 1073741824.0);
        fflush(stderr);
      }
      rc = case_setup(b, p, &cs);
      have = 1;
      if (rc) {
        rc = dg_error_prefix(rc, "case %s", what);
        break;
      }
      cur = p;
    }
    if (!o->quiet) {
      const double el = bench_wall() - t_start;
      char e1[32], e2[32];
      fmt_dur(el, e1, sizeof e1);
      fmt_dur(i ? el / (double)i * (double)(n - i) : NAN, e2, sizeof e2);
      fprintf(stderr, "bench: [%ld/%ld] %s dofs=%ld  (elapsed %s, eta ~%s)\n", i + 1, n, what,
              dg_disc_ndofs(cs.set.disc), e1, e2);
      fflush(stderr);
    }
    if (b->nres == b->cap) {
      const long cap = b->cap ? 2 * b->cap : 64;
      result *r = realloc(b->res, (size_t)cap * sizeof *r);
      if (!r) {
        rc = dg_error(DG_ERR_MEM, "out of memory for results");
        break;
      }
      b->res = r;
      b->cap = cap;
    }
    result *r = &b->res[b->nres];
    rc = run_case(b, p, &cs, r);
    if (rc) {
      rc = dg_error_prefix(rc, "case %s", what);
      break;
    }
    b->nres++;
    if (b->csv) bench_csv_row(b, r);
    bench_table_row(r);
    if (p->degree >= 0 && r->rmax != p->degree && !o->quiet)
      fprintf(stderr,
              "bench: note: the %s map on %s cells reaches degrees %d..%d only (asked "
              "%d..%d); the row reports what ran\n",
              bench_map_names[p->map], cells, r->rmin, r->rmax, p->degree_min, p->degree);
    if (!r->finite && !o->quiet)
      fprintf(stderr,
              "bench: warning: %s: the solution is not finite after the timed steps "
              "(the timing stands; use a smaller --cfl)\n",
              what);
  }
  if (have) case_free(&cs);
  return rc;
}

static void summary(bench_run *b) {
  const bench_opts *o = b->o;
  printf("\nstream triad (%s backend, %d threads, %.0f MiB arrays): %.2f GB/s median, %.2f best "
         "at start; %.2f GB/s median at end; load average %.2f at start, %.2f at end\n",
         b->be->name, b->threads, b->st0.mib, b->st0.gbs_median, b->st0.gbs_best, b->st1.gbs_median,
         b->load0, b->load1);
  if (b->load1 > b->threads || b->load0 > b->threads)
    printf("warning: the load average exceeds the %d threads: other processes share the cores "
           "and the timings are noisy (see spread)\n",
           b->threads);
  if (b->peak_gflops > 0)
    printf("FMA loop peak: %.1f GFLOP/s (%s, %d lanes of %s)\n", b->peak_gflops, bench_simd_name(),
           DG_VL, DG_REAL_NAME);
  /* issue 6 targets: 2D uniform ~1M DOFs */
  for (long i = 0; i < b->nres; ++i) {
    const result *r = &b->res[i];
    if (r->p.dim == 2 && r->p.map == MAP_UNIFORM && (r->rmax == 3 || r->rmax == 5) &&
        r->dofs >= 500000 && r->dofs <= 2000000) {
      const double want = r->rmax == 3 ? 3e8 : 4e8;
      printf("target 2D degree %d, %ld dofs, %s, %d thread%s: %.3g dof_stage_per_s (target >= "
             "%.0e: %s)\n",
             r->rmax, r->dofs, dg_ts_name(r->p.ts), b->threads, b->threads == 1 ? "" : "s",
             r->dof_stage_per_s, want, r->dof_stage_per_s >= want ? "met" : "not met");
    }
  }
  for (long i = 0; i < b->nres; ++i) {
    const result *r = &b->res[i];
    if ((r->p.map == MAP_BAND || r->p.map == MAP_LATITUDE) && isfinite(r->cost_vs_dof_share) &&
        !o->gridtools) {
      char cells[64];
      bench_cells_label(r->p.cells, r->p.dim, cells, sizeof cells);
      const double share = r->dofs / (double)find_uniform(b, r)->dofs;
      printf("%s %d..%d vs uniform %d (%dD %s %s): time x%.3f for DOFs x%.3f -> cost %.3f x "
             "its DOF share (target <= %.2f: %s; counted flops: %.3f x)\n",
             bench_map_names[r->p.map], r->rmin, r->rmax, r->rmax, r->p.dim, cells,
             dg_ts_name(r->p.ts), r->cost_vs_dof_share * share, share, r->cost_vs_dof_share,
             VAR_TARGET(b), r->cost_vs_dof_share <= VAR_TARGET(b) ? "met" : "not met",
             r->flops_vs_dof_share);
    }
  }
  if (o->gridtools && b->nres == 2) {
    const result *u = b->res[0].p.map == MAP_UNIFORM ? &b->res[0] : &b->res[1];
    const result *v = u == &b->res[0] ? &b->res[1] : &b->res[0];
    printf("\nGridTools CPU case (200x200, forward Euler, %ld steps, %s, %d thread%s):\n",
           (long)GT_STEPS, DG_REAL_NAME, b->threads, b->threads == 1 ? "" : "s");
    printf(
        "  variable 1..4 (band): %8ld dofs  %9.4f s for %d steps  (2016 GridTools CPU: %.0f s)\n",
        v->dofs, v->median * GT_STEPS, GT_STEPS, GT_2016_VAR_S);
    printf(
        "  uniform 4:            %8ld dofs  %9.4f s for %d steps  (2016 GridTools CPU: %.0f s)\n",
        u->dofs, u->median * GT_STEPS, GT_STEPS, GT_2016_UNI_S);
    printf("  variable/uniform: time x%.3f, DOFs x%.3f -> cost %.3f x its DOF share (target <= "
           "%.2f: %s; counted flops: %.3f x; 2016: time x%.3f)\n",
           v->median / u->median, (double)v->dofs / u->dofs, v->cost_vs_dof_share, VAR_TARGET(b),
           v->cost_vs_dof_share <= VAR_TARGET(b) ? "met" : "not met", v->flops_vs_dof_share,
           GT_2016_VAR_S / GT_2016_UNI_S);
  }
  for (long i = 0; i < b->nskip; ++i) printf("skipped: %s\n", b->skipped[i]);
}

int main(int argc, char **argv) {
  bench_opts o;
  int rc = bench_parse_args(&o, argc, argv);
  if (rc == BENCH_HELP) {
    bench_help(stdout);
    bench_opts_free(&o);
    return dg_app_stdout_status("bench", 0);
  }
  if (rc) {
    fprintf(stderr, "bench: %s\n", message());
    bench_opts_free(&o);
    return EXIT_ARG;
  }
  bench_run b;
  memset(&b, 0, sizeof b);
  b.o = &o;
  b.be = o.base.be ? o.base.be->ops : NULL;
  b.peak_gflops = NAN;
  b.st1.gbs_median = NAN;
  plan_item *plan = malloc(MAX_PLAN * sizeof *plan);
  long n = 0;
  int status = 0;
  const char *phase = "";
  if (!plan) {
    fprintf(stderr, "bench: out of memory\n");
    bench_opts_free(&o);
    return EXIT_RUN;
  }
  if ((rc = build_plan(&o, plan, &n))) {
    fprintf(stderr, "bench: %s\n", message());
    free(plan);
    bench_opts_free(&o);
    return EXIT_ARG;
  }
  if (n == 0) {
    fprintf(stderr, "bench: the options select no case (band/random maps run only for degrees "
                    "above --degree-min)\n");
    free(plan);
    bench_opts_free(&o);
    return EXIT_ARG;
  }
  /* outputs first: a bad path fails before the sweep */
  if (o.csv[0] && !(b.csv = fopen(o.csv, "w"))) {
    fprintf(stderr, "bench: option --csv: cannot write '%s': %s\n", o.csv, strerror(errno));
    free(plan);
    bench_opts_free(&o);
    return EXIT_ARG;
  }
  if (o.json[0] && !(b.json = fopen(o.json, "w"))) {
    fprintf(stderr, "bench: option --json: cannot write '%s': %s\n", o.json, strerror(errno));
    if (b.csv) fclose(b.csv);
    free(plan);
    bench_opts_free(&o);
    return EXIT_ARG;
  }
  if (b.csv) {
    bench_csv_header(&b);
    fflush(b.csv);
  }

  {
    struct utsname u;
    if (uname(&u) == 0)
      snprintf(b.host, sizeof b.host, "%s %s %s", u.nodename, u.sysname, u.release);
    const time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv)) strftime(b.date, sizeof b.date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    bench_cpu_model(b.cpu, sizeof b.cpu);
  }
  phase = "backend";
  if (!b.be) {
    rc = dg_error(DG_ERR_ARG, "no backend");
    goto out;
  }
  b.threads = b.be->parallelism();
  b.load0 = b.load1 = NAN;
  {
    double l;
    if (getloadavg(&l, 1) == 1) b.load0 = l;
  }
  b.mem_limit = o.max_mem_gib > 0 ? o.max_mem_gib * 1073741824.0 : 0.8 * bench_mem_available();
  {
    double mib = o.stream_mib;
    if (!(mib > 0)) {
      mib = 4 * bench_llc_bytes() / 1048576.0;
      if (mib < 128) mib = 128;
    }
    if (!o.quiet)
      fprintf(stderr,
              "bench: %ld cases; %s backend, %d threads, %s; stream triad on 3 x %.0f MiB\n", n,
              b.be->name, b.threads, DG_REAL_NAME, mib);
    phase = "stream triad";
    if ((rc = bench_measure_stream(b.be, mib, 10, &b.st0))) goto out;
    if (o.peak && b.be->host_is_device) b.peak_gflops = bench_measure_peak();
    char peak[32] = "n/a";
    if (isfinite(b.peak_gflops)) snprintf(peak, sizeof peak, "%.1f GFLOP/s", b.peak_gflops);
    printf("bench: %s backend, %d threads, %s, %s; stream triad %.2f GB/s; FMA peak %s; "
           "load average %.2f\n",
           b.be->name, b.threads, DG_REAL_NAME, bench_simd_name(), b.st0.gbs_median, peak, b.load0);
    bench_table_header();
    phase = "sweep";
    rc = sweep(&b, plan, n);
    if (!rc) {
      phase = "stream triad (end)";
      rc = bench_measure_stream(b.be, mib, 10, &b.st1);
    }
    double l;
    if (getloadavg(&l, 1) == 1) b.load1 = l;
  }
out:
  if (rc) {
    fflush(stdout);
    fprintf(stderr, "bench: %s%s%s\n", phase[0] && strcmp(phase, "sweep") ? phase : "",
            phase[0] && strcmp(phase, "sweep") ? ": " : "", message());
    status = EXIT_RUN;
  } else {
    summary(&b);
  }
  if (b.json) {
    bench_write_json(&b, rc ? dg_error_message() : NULL);
    if (ferror(b.json) | fclose(b.json)) {
      fprintf(stderr, "bench: option --json: writing '%s' failed\n", o.json);
      status = EXIT_RUN;
    }
  }
  if (b.csv && (ferror(b.csv) | fclose(b.csv))) {
    fprintf(stderr, "bench: option --csv: writing '%s' failed\n", o.csv);
    status = EXIT_RUN;
  }
  free(b.res);
  free(b.skipped);
  free(plan);
  bench_opts_free(&o);
  return dg_app_stdout_status("bench", status);
}
