/* dg_disc.h - the discretisation: grid + degree map + quadrature + model,
 * the bucketed storage layout, and the stage driver.
 *
 * Layout (docs/ARCHITECTURE.md): elements are sorted into buckets by degree;
 * each bucket is padded to whole microblocks of W = backend lane width
 * elements.  Element slot s of degree r owns, for variable v and mode m,
 *   base[r] + ((s_in_bucket / W) * nvar * M + v * M + m) * W + s_in_bucket % W,
 * M = (r+1)^dim.  The same formula serves CPU (W = SIMD width) and GPU
 * (W = warp); only W differs. */
#ifndef DG_DISC_H
#define DG_DISC_H

#include "dg_degree_map.h"
#include "dg_grid.h"
#include "dg_model.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_disc dg_disc;
typedef struct dg_field dg_field;

/* Work of one RK stage, counted from the sum-factorisation formulas. */
typedef struct {
  long dofs;          /* sum over elements of nvar*(r+1)^dim */
  long padded_elems;  /* elements incl. microblock padding */
  double flops;       /* floating-point operations per RK stage */
  double bytes_min;   /* each coefficient read once + written once */
  double bytes_moved; /* what the implementation moves (traces, tables) */
} dg_work;

/* Build the discretisation on backend be (dg_backend_create; it must
 * outlive d).  q = 0 selects rmax+1; otherwise rmax+1 <= q <= DG_MAX_Q.
 * The model is copied; its parameters are finished for the grid
 * (dg_model_finish) unless they already are for this dimension.  The
 * backend chooses how stages run (its plan: dg_disc_describe); its kernels
 * are compiled or taken from the cache at the first stage. */
int dg_disc_create(dg_disc **d, const dg_backend *be, const dg_grid *g, const dg_degree_map *m,
                   int q, const dg_model *model);
void dg_disc_destroy(dg_disc **d);

const dg_grid *dg_disc_grid(const dg_disc *d);
/* The backend d runs on. */
const dg_backend *dg_disc_backend(const dg_disc *d);
const dg_degree_map *dg_disc_degrees(const dg_disc *d);
const dg_model *dg_disc_model(const dg_disc *d);
int dg_disc_q(const dg_disc *d);
int dg_disc_nvar(const dg_disc *d);
long dg_disc_ndofs(const dg_disc *d);
/* Storage length of a field, in reals (with padding). */
long dg_disc_len(const dg_disc *d);
/* 1 when the updates read the neighbours' coefficients instead of face
 * traces (uniform maps, or any map with the team update; the backend's
 * choice or DGRID_NEIGHBOURS). */
int dg_disc_nbr_coeffs(const dg_disc *d);
/* 1 when the updates read their own old face values back from the traces
 * (the backend's reuse_traces; never with nbr_coeffs). */
int dg_disc_reuse_traces(const dg_disc *d);
/* 1 when the updates run a team of threads per element (stencils/dg_team.h;
 * 2D, with nbr_coeffs; the backend's team_qmin, team_aux_q for models with auxiliary
 * data, or DGRID_UPDATE). */
int dg_disc_team(const dg_disc *d);
/* 1 when the updates read the neighbours' coefficients and, across the
 * degree changes of a variable map, their traces (team update only). */
int dg_disc_nbr_traces(const dg_disc *d);
/* 1 when the elements whose neighbours all share their degree r run their
 * updates at q = r + 1 points, the others at the common q (variable 2D maps,
 * velocity independent of x, team update; DGRID_OWN_Q).  The results are the
 * same to round-off: the quadrature is exact either way. */
int dg_disc_own_q(const dg_disc *d);
/* Storage index of (element, variable, mode). */
long dg_disc_index(const dg_disc *d, long elem, int v, int mode);

/* The per-step blow-up check of the apps, queued on the backend without
 * waiting for it: every slot's mode-0 coefficient of every variable of f
 * (padding included; 1/(r+1)^dim of the storage) is checked, and the first
 * `step` at which one was not finite is kept on the device.  A non-finite
 * coefficient of any mode reaches its element's mode 0 in the next stage
 * (through its face values). */
int dg_disc_watch(dg_disc *d, const dg_field *f, long step);
/* The first step dg_disc_watch saw not finite, or -1 (waits for the queued
 * checks: call it when the run syncs anyway, or every few steps). */
int dg_disc_watch_first(dg_disc *d, long *step);

/* The step for CFL number 1 on the current solution u at time t: 1 / the
 * largest element rate (2r + 1) sum_d max |speed_d| / h_d, the model's wave
 * speed taken at the element's q^dim Gauss points (a backend stage and a
 * reduction).  INFINITY where every speed is zero; a non-finite speed is
 * DG_ERR_NUMERIC. */
int dg_disc_stable_dt(dg_disc *d, dg_field *u, double t, double *dt);

/* Auxiliary data of a model with naux > 0 (models/dg_model_desc.h): sample
 * fn(x, out[naux], ctx) at every volume and face point of every element and
 * hand the values to the stages (replacing the model's own sample, which
 * dg_disc_create takes where the model has one).  Where the model sets
 * aux_deriv, fn is sampled at each element's Gauss-Lobatto nodes instead
 * and the stages get its interpolant of degree 2 q - 1 - rmax and the
 * interpolant's derivatives (docs/ARCHITECTURE.md, "Auxiliary data").  fn
 * returns 0, or nonzero to fail (then DG_ERR_ARG naming the point).
 * DG_ERR_ARG for a model without auxiliary data. */
typedef int (*dg_aux_fn)(const double x[3], double *out, void *ctx);
int dg_disc_set_aux(dg_disc *d, dg_aux_fn fn, void *ctx);

/* Each element's CFL rate on u at time t (as dg_disc_stable_dt: the step
 * is 1 / the largest), into rate[nelem] in element order. */
int dg_disc_element_rates(dg_disc *d, dg_field *u, double t, double *rate);

/* The backend's plan for this discretisation, as one line. */
void dg_disc_describe(const dg_disc *d, char *buf, size_t cap);

/* Work of one RK stage that reads/writes `reg_streams` extra register arrays
 * (an average over the stages may be fractional: dg_ts_register_streams). */
dg_work dg_disc_work(const dg_disc *d, double reg_streams);

/* Per-phase timing of dg_disc_stage (seconds, summed since the last reset),
 * measured only when enabled (it synchronises the backend after each phase). */
void dg_disc_set_timing(dg_disc *d, int on);
void dg_disc_timing(const dg_disc *d, double *trace_s, double *update_s);
/* ... and across ranks the time in the ghosts' exchange: packing and
 * posting it, and waiting for it and unpacking (what the overlap does not
 * hide).  Zero for a discretisation of one process. */
void dg_disc_timing_halo(const dg_disc *d, double *post_s, double *wait_s);
/* Whether dg_disc_stage overlaps the ghosts' exchange with the update of
 * the elements that read no ghost (across ranks, the plan's choice). */
int dg_disc_overlap(const dg_disc *d);

#ifdef __cplusplus
}
#endif
#endif
