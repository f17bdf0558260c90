/* dg_ts.h - explicit Runge-Kutta time integrators.  Every scheme is a list
 * of fused stage updates (stencils/dg_stage_args.h), so a step is
 * (stages) x (trace pass + update pass) and nothing else touches memory. */
#ifndef DG_TS_H
#define DG_TS_H

#include "dg_disc.h"
#include "dg_field.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DG_TS_EULER = 0, /* forward Euler, order 1 */
  DG_TS_SSPRK2,    /* SSP-RK2 (Heun), order 2 */
  DG_TS_SSPRK3,    /* SSP-RK3 (Shu-Osher), order 3 */
  DG_TS_RK4,       /* classical RK4 */
  DG_TS_LSRK4,     /* Carpenter-Kennedy (1994) 5-stage 4th order, 2 registers */
  DG_TS_COUNT
} dg_ts_kind;

typedef struct dg_ts dg_ts;

/* Name <-> kind ("euler", "ssprk2", "ssprk3", "rk4", "lsrk4"). */
int dg_ts_parse(const char *name, dg_ts_kind *kind);
const char *dg_ts_name(dg_ts_kind kind);
int dg_ts_stages(dg_ts_kind kind);
int dg_ts_order(dg_ts_kind kind);
/* Extra register streams per stage, averaged over the stages (bytes count). */
double dg_ts_register_streams(dg_ts_kind kind);
/* Fields the integrator allocates besides the solution (u0 and/or k): 0..2;
 * what dg_ts_create will allocate, for memory estimates before it runs. */
int dg_ts_fields(dg_ts_kind kind);

/* An integrator for fields of `d` (allocates its registers, zeroed). */
int dg_ts_create(dg_ts **ts, dg_disc *d, dg_ts_kind kind);
void dg_ts_destroy(dg_ts **ts);
/* Advance u from time t by one step dt (on the device); stage i evaluates
 * the operator at t + c_i dt. */
int dg_ts_step(dg_ts *ts, dg_field *u, double t, double dt);
/* c_i of stage i of the integrator (computed from its coefficients). */
double dg_ts_stage_time(const dg_ts *ts, int i);

#ifdef __cplusplus
}
#endif
#endif
