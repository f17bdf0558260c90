/* dg_plan.c - the performance plan of a discretisation: which update
 * schedule runs (one element per lane, or a team of threads per element),
 * how an update sees its neighbours (face traces, their coefficients, or
 * coefficients with traces across degree changes), whether elements away
 * from degree changes run at their own q = r + 1, and the launch order.
 * Shared by both backends, each with its own constants (dg_backend_ops:
 * coeffs_rmax, team_qmin, own_q_min, reuse_traces); part of the backend
 * layer, so core only asks for a plan (dg_backend_ops.plan).
 *
 * Every choice gives the same results to round-off (unit.neighbours,
 * unit.team, unit.own_q); own q only where the model declares it exact
 * (dg_plan_in.own_q_exact).  The environment may override a choice, for
 * experiments and tests:
 *   DGRID_UPDATE=element|team|auto, DGRID_NEIGHBOURS=traces|coeffs|auto,
 *   DGRID_OWN_Q=off|on|auto, DGRID_OVERLAP=off|on|auto
 * (an impossible or unknown value is an error naming the variable). */
#include "dg_backend.h"
#include "dg_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A choice the environment may override: variable `name` unset or "auto"
 * leaves *flag alone; the value `off` sets it to 0, `on` to 1, where `on`
 * needs `possible` (else the error `why`); anything else is an error naming
 * the variable and the values it takes. */
static int env_override(const char *name, const char *off, const char *on, int possible,
                        const char *why, int *flag) {
  const char *env = getenv(name);
  if (!env || strcmp(env, "auto") == 0) return 0;
  if (strcmp(env, off) == 0) {
    *flag = 0;
  } else if (strcmp(env, on) == 0) {
    if (!possible) return dg_error(DG_ERR_ARG, "%s=%s needs %s", name, on, why);
    *flag = 1;
  } else {
    return dg_error(DG_ERR_ARG, "%s='%s': expected %s, %s or auto", name, env, off, on);
  }
  return 0;
}

/* Whether environment variable `name` is set to `value`. */
static int env_is(const char *name, const char *value) {
  const char *env = getenv(name);
  return env && strcmp(env, value) == 0;
}

/* The update the elements of degree r away from degree changes run at
 * q = r + 1 with own q: the one a uniform map of degree r runs (both
 * backends compile the one-element update on coefficients at q = r + 1). */
static int own_team(const dg_backend_ops *be, int r) {
  return env_is("DGRID_UPDATE", "team") || r + 1 >= be->team_qmin[0];
}

/* Whether bucket r splits under own q: it has elements away from degree
 * changes, at least the backend's own_q_min unless DGRID_OWN_Q=on, and their
 * own q or their update differs from the common one's (the team update at
 * the common q = r + 1 gains nothing from a second launch). */
static int own_split(const dg_backend_ops *be, const dg_plan_in *in, int r) {
  const long own = in->n[r] - in->nedge[r];
  const long min = env_is("DGRID_OWN_Q", "on") ? 1 : be->own_q_min;
  return min > 0 && own >= min && (r + 1 < in->q || !own_team(be, r));
}

/* Where own q could run: 2D, degree changes, and a model that declares the
 * r + 1 point rule exact (linear flux independent of x on an affine grid). */
static int own_ok(const dg_plan_in *in) {
  return in->dim == 2 && in->rmin < in->rmax && in->own_q_exact && !in->mapped && !in->bnd;
}

/* DGRID_OWN_Q: off, on, or auto: where the buckets that would split
 * (own_split) hold at least half of the elements away from degree changes:
 * own q takes the team update for the elements at degree changes, and on a
 * random map, where nearly all are, that costs more than own q saves
 * (docs/ARCHITECTURE.md, "Decisions and why": own q).  A bad value is
 * reported by choose_own_q. */
static int own_q_wanted(const dg_backend_ops *be, const dg_plan_in *in) {
  if (!own_ok(in) || env_is("DGRID_OWN_Q", "off")) return 0;
  if (env_is("DGRID_OWN_Q", "on")) return 1;
  long own = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    if (own_split(be, in, r)) own += in->n[r] - in->nedge[r];
  return own > 0 && 2 * own >= in->nelem;
}

/* Which update runs and how it sees its neighbours.  The team update
 * (dg_team.h, 2D) runs from the backend's team_qmin points on, and where
 * the backend's own q can run, unless DGRID_UPDATE says element, team or
 * auto; it reads the neighbours' coefficients where they have the element's
 * degree and traces across degree changes (nbr_traces).  The one-element
 * update reads traces, or for a uniform map with q = r + 1 up to the
 * backend's coeffs_rmax the neighbours' coefficients, unless
 * DGRID_NEIGHBOURS says traces, coeffs or auto (traces also turns off a
 * team update that was not asked for). */
static int choose_neighbours(const dg_backend_ops *be, const dg_plan_in *in, dg_plan *p) {
  const int dim = in->dim;
  int nonempty = 0, r0 = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r)
    if (in->n[r] > 0) {
      nonempty++;
      r0 = r;
    }
  /* own q needs the team update: a backend takes the team where its own q
     would run; models with auxiliary data and several variables over their
     own range of q (own q is never exact for them); one variable with
     auxiliary data: the one-element update, whose registers hold it (the team
     has not been timed against it there) */
  const int team_q = in->aux
                         ? in->nvar > 1 && in->q >= be->team_aux_q[0] && in->q <= be->team_aux_q[1]
                         : in->q >= be->team_qmin[dim - 2] || own_q_wanted(be, in);
  p->team = dim == 2 && !in->bnd && team_q;
  /* the team update forms no exterior states: a box with boundaries runs
     the one-element update, the plain reference schedule */
  DG_CALL(env_override("DGRID_UPDATE", "element", "team", dim == 2 && !in->bnd,
                       dim != 2 ? "a 2D grid"
                                : "a grid periodic on every side (the team update forms no "
                                  "boundary states)",
                       &p->team));
  const int team_asked = env_is("DGRID_UPDATE", "team");
  /* the one-element update's kernels on coefficients exist for q = r + 1; a
     box with boundaries reads traces (its boundary faces read their own) */
  const int fits = nonempty == 1 && in->q == r0 + 1 && !in->bnd;
  p->nbr_coeffs = p->team || (fits && r0 <= be->coeffs_rmax[dim - 2]);
  char why[160];
  if (in->bnd)
    snprintf(why, sizeof why, "a grid periodic on every side (a box with boundaries reads traces)");
  else
    snprintf(why, sizeof why,
             "a uniform degree map and q = degree + 1, or the team update (this one has degrees "
             "%d..%d, q = %d)",
             in->rmin, in->rmax, in->q);
  DG_CALL(
      env_override("DGRID_NEIGHBOURS", "traces", "coeffs", fits || p->team, why, &p->nbr_coeffs));
  if (p->team && !p->nbr_coeffs) {
    if (team_asked)
      return dg_error(DG_ERR_ARG, "DGRID_UPDATE=team reads the neighbours' coefficients: it "
                                  "cannot run with DGRID_NEIGHBOURS=traces");
    p->team = 0;
  }
  p->nbr_traces = p->nbr_coeffs && nonempty > 1; /* a connected grid: some face changes degree */
  p->reuse_traces = be->reuse_traces && !p->nbr_coeffs; /* no own traces to reuse */
  return 0;
}

/* Whether the elements whose neighbours all share their degree r run their
 * update at q = r + 1 points instead of the common q (the others, at degree
 * changes, keep the common q so that both sides meet on the same face
 * points).  Exact only where the model says so (own_q_exact: every
 * integrand of such an element is then a polynomial of degree at most 2r
 * per direction, which r + 1 Gauss points integrate exactly, as the common q
 * does; with a nonlinear flux the two sides of a face between an own-q
 * element and one at the common q would see different fluxes, and mass
 * would drift).  Needs the team update with traces at degree changes for
 * the other elements (2D). */
static int choose_own_q(const dg_backend_ops *be, const dg_plan_in *in, dg_plan *p) {
  const int possible = own_ok(in) && p->nbr_traces;
  p->own_q = possible && own_q_wanted(be, in);
  DG_CALL(env_override("DGRID_OWN_Q", "off", "on", possible,
                       "a model that declares the r + 1 point rule exact (linear, independent of "
                       "x) and the team update with traces at degree changes (DGRID_UPDATE=team "
                       "on a 2D map with degree changes)",
                       &p->own_q));
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    p->own_team[r] = (unsigned char)own_team(be, r);
    p->split[r] = (unsigned char)(p->own_q && own_split(be, in, r));
  }
  return 0;
}

int dg_plan_choose(const dg_backend_ops *be, const dg_plan_in *in, dg_plan *p) {
  memset(p, 0, sizeof *p);
  DG_CALL(choose_neighbours(be, in, p));
  DG_CALL(choose_own_q(be, in, p));
  /* With own q, the launch with the most DOFs first, so that on a GPU it
     fills the device at once while the small, latency-bound launches of the
     elements at degree changes queue behind it on the other streams.
     Without own q, plain degree order, which measured faster there
     (docs/ARCHITECTURE.md, "One time step"). */
  p->largest_first = p->own_q;
  /* Across ranks the ghosts travel while the elements that read none are
     updated; off, the exchange completes first (the same bits either way:
     each element's update is the same arithmetic; to time both) */
  p->overlap = 1;
  return env_override("DGRID_OVERLAP", "off", "on", 1, "", &p->overlap);
}

void dg_plan_describe(const dg_plan *p, const dg_plan_in *in, char *buf, size_t cap) {
  char own[128] = "";
  size_t n = 0;
  for (int r = 0; r <= DG_MAX_DEGREE && n + 8 < sizeof own; ++r)
    if (p->split[r]) n += (size_t)snprintf(own + n, sizeof own - n, "%s%d", n ? "," : "", r);
  snprintf(buf, cap,
           "update=%s neighbours=%s reuse_traces=%s own_q=%s%s%s launch=%s "
           "(own q exact for the model: %s%s)%s",
           p->team ? "team" : "element",
           !p->nbr_coeffs  ? "traces"
           : p->nbr_traces ? "coeffs+traces-at-degree-changes"
                           : "coeffs",
           p->reuse_traces ? "yes" : "no", p->own_q ? "on" : "off", p->own_q ? " degrees " : "",
           own, p->largest_first ? "largest-first" : "degree-order", in->own_q_exact ? "yes" : "no",
           in->aux ? "; auxiliary data" : "",
           in->mapped ? " geometry=latlon: no own q (its rule is exact on affine grids only)"
           : in->bnd  ? " boundaries: the one-element update on traces only (the other "
                        "schedules form no exterior states)"
                      : "");
}
