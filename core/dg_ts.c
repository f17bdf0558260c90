/* dg_ts.c - RK schemes as fused stage coefficients. */
#include "dg_ts.h"

#include "dg_arg.h"
#include "dg_disc_internal.h"
#include "dg_error.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *name;
  int order, nstages;
  dg_rk_coeffs st[5];
} scheme;

/* Fields: ka, kc, ua, u0a, uk, ul, use_k, use_u0, save_u0.  Convex weights
 * are written so that ua + u0a == 1 exactly in floating point (1/3 as
 * 1 - 2/3): otherwise every step scales the mass by 1 - 2^-53. */
#define ST(ka, kc, ua, u0a, uk, ul, use_k, use_u0, save)                                           \
  {                                                                                                \
    (dg_real)(ka), (dg_real)(kc), (dg_real)(ua), (dg_real)(u0a), (dg_real)(uk), (dg_real)(ul),     \
        use_k, use_u0, save                                                                        \
  }

/* Carpenter & Kennedy (1994), NASA TM-109112, solution 3: 2N-storage
 * k <- A_i k + dt L(u); u <- u + B_i k. */
#define CK_A2 (-567301805773.0 / 1357537059087.0)
#define CK_A3 (-2404267990393.0 / 2016746695238.0)
#define CK_A4 (-3550918686646.0 / 2091501179385.0)
#define CK_A5 (-1275806237668.0 / 842570457699.0)
#define CK_B1 (1432997174477.0 / 9575080441755.0)
#define CK_B2 (5161836677717.0 / 13612068292357.0)
#define CK_B3 (1720146321549.0 / 2090206949498.0)
#define CK_B4 (3134564353537.0 / 4481467310338.0)
#define CK_B5 (2277821191437.0 / 14882151754819.0)

static const scheme schemes[DG_TS_COUNT] = {
    {"euler", 1, 1, {ST(0, 0, 1, 0, 0, 1, 0, 0, 0)}},
    {"ssprk2", 2, 2, {ST(0, 0, 1, 0, 0, 1, 0, 0, 1), ST(0, 0, 0.5, 0.5, 0, 0.5, 0, 1, 0)}},
    {"ssprk3",
     3,
     3,
     {ST(0, 0, 1, 0, 0, 1, 0, 0, 1), ST(0, 0, 0.25, 0.75, 0, 0.25, 0, 1, 0),
      ST(0, 0, 2.0 / 3.0, 1.0 - 2.0 / 3.0, 0, 2.0 / 3.0, 0, 1, 0)}},
    /* k accumulates dt/6 (L1 + 2 L2 + 2 L3 + L4); u holds the stage value */
    {"rk4",
     4,
     4,
     {ST(0, 1.0 / 6.0, 1, 0, 0, 0.5, 1, 0, 1), ST(1, 1.0 / 3.0, 0, 1, 0, 0.5, 1, 1, 0),
      ST(1, 1.0 / 3.0, 0, 1, 0, 1, 1, 1, 0), ST(1, 1.0 / 6.0, 0, 1, 1, 0, 1, 1, 0)}},
    {"lsrk4",
     4,
     5,
     {ST(0, 1, 1, 0, CK_B1, 0, 1, 0, 0), ST(CK_A2, 1, 1, 0, CK_B2, 0, 1, 0, 0),
      ST(CK_A3, 1, 1, 0, CK_B3, 0, 1, 0, 0), ST(CK_A4, 1, 1, 0, CK_B4, 0, 1, 0, 0),
      ST(CK_A5, 1, 1, 0, CK_B5, 0, 1, 0, 0)}},
};

struct dg_ts {
  dg_ts_kind kind;
  dg_disc *disc;
  dg_field *u0, *k;
  double c[5]; /* each stage's time as a fraction of the step */
};

/* The stage times of a scheme, from its own fused coefficients: on u' = 1,
 * u(0) = 0 with dt = 1 every consistent RK stage evaluates L at u = its
 * time c_i, so running the fused updates on scalars gives the c_i in the
 * scheme's own arithmetic (no second table to keep in step). */
static void stage_times(const scheme *s, double *c) {
  double u = 0, u0 = 0, k = 0;
  for (int i = 0; i < s->nstages; ++i) {
    const dg_rk_coeffs *st = &s->st[i];
    c[i] = u;
    double un = (double)st->ua * u + (double)st->ul;
    if (st->use_k) {
      k = (double)st->ka * k + (double)st->kc;
      un += k * (double)st->uk;
    }
    if (st->use_u0) un += u0 * (double)st->u0a;
    if (st->save_u0) u0 = u;
    u = un;
  }
}

int dg_ts_parse(const char *name, dg_ts_kind *kind) {
  DG_ARG_NONNULL("dg_ts_parse", name);
  DG_ARG_NONNULL("dg_ts_parse", kind);
  for (int i = 0; i < DG_TS_COUNT; ++i)
    if (strcmp(name, schemes[i].name) == 0) {
      *kind = (dg_ts_kind)i;
      return 0;
    }
  return dg_error(DG_ERR_ARG, "unknown integrator '%s' (euler, ssprk2, ssprk3, rk4, lsrk4)", name);
}

const char *dg_ts_name(dg_ts_kind kind) { return schemes[kind].name; }
int dg_ts_stages(dg_ts_kind kind) { return schemes[kind].nstages; }
int dg_ts_order(dg_ts_kind kind) { return schemes[kind].order; }

double dg_ts_register_streams(dg_ts_kind kind) {
  const scheme *s = &schemes[kind];
  double n = 0;
  for (int i = 0; i < s->nstages; ++i) n += 2 * s->st[i].use_k + s->st[i].use_u0 + s->st[i].save_u0;
  return n / s->nstages;
}

int dg_ts_fields(dg_ts_kind kind) {
  if ((int)kind < 0 || kind >= DG_TS_COUNT) return 0;
  const scheme *s = &schemes[kind];
  int need_u0 = 0, need_k = 0;
  for (int i = 0; i < s->nstages; ++i) {
    need_u0 |= s->st[i].use_u0 | s->st[i].save_u0;
    need_k |= s->st[i].use_k;
  }
  return need_u0 + need_k;
}

int dg_ts_create(dg_ts **ts, dg_disc *d, dg_ts_kind kind) {
  DG_ARG_NONNULL("dg_ts_create", ts);
  *ts = NULL;
  DG_ARG_NONNULL("dg_ts_create", d);
  if ((int)kind < 0 || kind >= DG_TS_COUNT) return dg_error(DG_ERR_ARG, "bad integrator %d", kind);
  dg_ts *t = calloc(1, sizeof *t);
  if (!t) return dg_error(DG_ERR_MEM, "out of memory");
  t->kind = kind;
  t->disc = d;
  const scheme *s = &schemes[kind];
  stage_times(s, t->c);
  int need_u0 = 0, need_k = 0, rc = 0;
  for (int i = 0; i < s->nstages; ++i) {
    need_u0 |= s->st[i].use_u0 | s->st[i].save_u0;
    need_k |= s->st[i].use_k;
  }
  if (need_u0) rc = dg_field_create(&t->u0, d);
  if (!rc && need_k) rc = dg_field_create(&t->k, d);
  if (rc) {
    dg_ts_destroy(&t);
    return rc;
  }
  *ts = t;
  return 0;
}

void dg_ts_destroy(dg_ts **ts) {
  if (!ts || !*ts) return;
  dg_field_destroy(&(*ts)->u0);
  dg_field_destroy(&(*ts)->k);
  free(*ts);
  *ts = NULL;
}

int dg_ts_step(dg_ts *ts, dg_field *u, double t, double dt) {
  DG_ARG_NONNULL("dg_ts_step", ts);
  DG_ARG_CHECK(dg_arg_field("dg_ts_step", ts->disc, u, "u"));
  DG_ARG_CHECK(dg_arg_finite("dg_ts_step", "t", t));
  DG_ARG_CHECK(dg_arg_finite("dg_ts_step", "dt", dt));
  const scheme *s = &schemes[ts->kind];
  for (int i = 0; i < s->nstages; ++i)
    DG_CALL(dg_disc_stage(ts->disc, u, ts->u0, ts->k, t + ts->c[i] * dt, dt, &s->st[i]));
  return 0;
}

double dg_ts_stage_time(const dg_ts *ts, int i) { return ts->c[i]; }
