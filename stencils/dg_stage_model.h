/* dg_stage_model.h - what the stages take from the physics model: its
 * checks and defaults, what its flux reads of the position (flux variants),
 * its auxiliary data, its boundary states and its parameters in the launch
 * arguments.  Included by the stage headers (dg_stage_ops.h, dg_stages.h), after the
 * model header (models/). */
#ifndef DG_STAGE_MODEL_H
#define DG_STAGE_MODEL_H

#include <string.h>

#include "dg_basis.h"
#include "dg_lane.h"
#include "dg_stage_args.h"

/* The stages are generic over the model: a model header (models/) must be
 * included first; it defines DG_NVAR, DG_MODEL_SOURCE, dg_model_params,
 * dg_model_needs_x, dg_model_flux, dg_model_max_speed, with a source
 * dg_model_source, and with auxiliary data DG_MODEL_NAUX (docs/MODELS.md). */
#if !defined(DG_NVAR) || !defined(DG_MODEL_SOURCE)
#error "include a model header (models/) before dg_stages.h"
#endif
#include "dg_model_counts.h"

/* What a model's flux reads of the position (docs/MODELS.md): a model may
 * declare DG_MODEL_X_FLOWS variants, dg_model_x_flow(p) the running one,
 * dg_model_x_flow_set(p, v) to make v the running one (a copy for variant v
 * sets it in its local parameters, so that the model's branch on it folds), and
 * for each the lanes of x that component d of its flux and wave speed read,
 * DG_MODEL_X_READS(v, d) (bit i: x[i]).  A backend may then run a copy of
 * the update per variant, XF = v a constant, that forms and copies only
 * those lanes (the CPU, where x lives in memory: 16 lanes copied per point
 * and direction were most of the sphere's extra work); XF = -1 forms all of
 * them.  DG_X_READ(XF, d, i): whether lane i is formed for direction d
 * (d = -1: for any); a literal 1 where the model declares nothing, so that
 * its code is the same as without the test. */
#ifdef DG_MODEL_X_FLOWS
#define DG_X_READS_ANY(v) (DG_MODEL_X_READS(v, 0) | DG_MODEL_X_READS(v, 1) | DG_MODEL_X_READS(v, 2))
#define DG_X_READ(XF, d, i)                                                                        \
  ((XF) < 0 || ((((d) < 0 ? DG_X_READS_ANY(XF) : DG_MODEL_X_READS(XF, d)) >> (i)) & 1u))
#else
#define DG_MODEL_X_FLOWS    0
#define DG_X_READ(XF, d, i) 1
#endif

/* Values a model derives from the state at a point (docs/MODELS.md,
 * "Derived values"): a model may declare DG_MODEL_NDERIV of them and
 * dg_model_derive(p, u, a), which sets u[DG_NVAR + i] from u[0 .. DG_NVAR)
 * and the auxiliary values a (NULL where a stage has none; never the
 * position); its flux, speed and source may then read them.  The stages
 * derive them once per point and state, shared by every direction's flux,
 * the wave speed and the source.  A model without them has no code for it
 * (DG_NU is DG_NVAR). */
#ifndef DG_MODEL_NDERIV
#define DG_MODEL_NDERIV 0
#endif
#if DG_MODEL_NDERIV
#define DG_NU (DG_NVAR + DG_MODEL_NDERIV)
#else
#define DG_NU DG_NVAR
#endif

/* Per-point auxiliary data of a model with DG_MODEL_NAUX > 0 (a velocity
 * given as data, a topography): per element, the values at the Q^DIM volume
 * points ([naux][point], x fastest) and then the first DG_MODEL_NAUX_FACE
 * at the Q^(DIM-1) points of each face ([face][naux_face][point]; both
 * elements of a face hold the same bits), in
 * lanes: dg_stage_args.aux + (microblock * DG_AUX_SIZE + i) * DG_W.  Without
 * auxiliary data the pointer is a constant NULL and every load folds away. */
#define DG_AUX_SIZE(dim, q)                                                                        \
  (DG_MODEL_NAUX * DG_POW(q, dim) + DG_MODEL_NAUX_FACE * 2 * (dim) * ((dim) == 3 ? (q) * (q) : (q)))
/* The auxiliary values (lanes) at volume point vi or face fc's point p. */
DG_HD static inline void dg_aux_vol(const dg_real *ax, const int vi, const int QV, dg_lane *a) {
  DG_UNROLL_ALL
  for (int i = 0; i < DG_MODEL_NAUX; ++i) a[i] = dg_lane_load(ax + (long)(i * QV + vi) * DG_W);
}
DG_HD static inline void dg_aux_face(const dg_real *ax, const int fc, const int p, const int QV,
                                     const int QF, dg_lane *a) {
  DG_UNROLL_ALL
  for (int i = 0; i < DG_MODEL_NAUX_FACE; ++i)
    a[i] = dg_lane_load(ax +
                        (long)(DG_MODEL_NAUX * QV + (fc * DG_MODEL_NAUX_FACE + i) * QF + p) * DG_W);
}

/* Boundaries (dg_stage_args.bc; docs/MODELS.md): a model may define
 * DG_MODEL_BOUNDARY (inflow data dg_model_boundary, which reads its
 * dg_model_bdata besides the parameters) and DG_MODEL_WALL (the reflection
 * dg_model_wall); core refuses a side whose kind the model lacks. */
#ifndef DG_MODEL_BOUNDARY
#define DG_MODEL_BOUNDARY 0
#endif
#ifndef DG_MODEL_WALL
#define DG_MODEL_WALL 0
#endif
#if DG_MODEL_BOUNDARY
/* Reals before the first slot's geometry that hold the model's inflow data
 * (whole microblock rows; core/dg_disc.c computes the same from the
 * descriptor's bdata_size). */
#define DG_BDATA_REALS                                                                             \
  ((long)((sizeof(dg_model_bdata) + DG_W * sizeof(dg_real) - 1) / (DG_W * sizeof(dg_real))) * DG_W)
#endif

/* Any lane of m nonzero. */
DG_HD static inline int dg_lane_any(const dg_lane m) {
  int any = 0;
  DG_UNROLL_ALL
  for (int l = 0; l < DG_VL; ++l) any |= dg_lane_get(m, l) != 0;
  return any;
}

/* The exterior states on face fc = 2 d + side of a microblock whose side of
 * the box has kind `kind` (DG_STAGE_BC_*): in the lanes where bm is 1 the
 * neighbour's values un[v*QF + p] (the face's own trace, read in their place)
 * become the model's inflow data g(x, t), the interior values
 * uo[v*sv + p] (outflow) or their reflection (wall); where bm is 0 they stay
 * (bitwise: weights 1 and 0).  The points' positions as the update forms
 * them (xf the face's coordinate, xc the centre), the auxiliary values from
 * ax; bdat: the model's inflow data (DG_BDATA_REALS).  Out of line
 * (DG_HD_COLD): only microblocks with a boundary face call it. */
DG_HD_COLD static void dg_exterior(const dg_model_params *mp, const dg_real *bdat, const int kind,
                                   const dg_lane bm, const dg_lane *uo, const int sv, dg_lane *un,
                                   const dg_real *ax, const dg_lane xf, const dg_lane *xc,
                                   const dg_real *h, const dg_stage_basis *B, const dg_real t,
                                   const int DIM, const int Q, const int fc) {
  const int d = fc / 2, QF = DIM == 3 ? Q * Q : Q, QV = QF * Q;
  const int t1d = d == 0 ? 1 : 0, t2d = d == 2 ? 1 : 2; /* tangential directions */
  const dg_lane bi = (dg_real)1 - bm;
#if DG_MODEL_BOUNDARY
  dg_model_bdata b;
  memcpy(&b, bdat, sizeof b);
#endif
  (void)mp, (void)bdat, (void)kind, (void)ax, (void)QV, (void)xf, (void)xc, (void)h, (void)B,
      (void)t, (void)t1d, (void)t2d;
  for (int p = 0; p < QF; ++p) {
    dg_lane ue[DG_NVAR];
    for (int v = 0; v < DG_NVAR; ++v) ue[v] = uo[v * sv + p]; /* outflow */
#if DG_MODEL_BOUNDARY || DG_MODEL_WALL
    dg_lane x[3], ui[DG_NVAR], av[DG_MODEL_NAUX + 1];
    x[0] = x[1] = x[2] = dg_lane_set(0);
    x[d] = xf;
    x[t1d] = xc[t1d] + (dg_real)0.5 * h[t1d] * B->x[p % Q];
    if (DIM == 3) x[t2d] = xc[t2d] + (dg_real)0.5 * h[t2d] * B->x[p / Q];
    if (DG_MODEL_NAUX) dg_aux_face(ax, fc, p, QV, QF, av);
    const dg_lane *a = DG_MODEL_NAUX ? av : 0;
    for (int v = 0; v < DG_NVAR; ++v) ui[v] = ue[v];
#if DG_MODEL_BOUNDARY
    if (kind == DG_STAGE_BC_INFLOW) dg_model_boundary(mp, &b, ui, a, x, t, d, ue);
#endif
#if DG_MODEL_WALL
    if (kind == DG_STAGE_BC_WALL) dg_model_wall(mp, ui, a, x, t, d, ue);
#endif
#endif
    for (int v = 0; v < DG_NVAR; ++v) un[v * QF + p] = ue[v] * bm + un[v * QF + p] * bi;
  }
}

/* The model's parameters must fit the block the launch arguments carry. */
typedef char dg_model_params_fit[sizeof(dg_model_params) <= DG_MODEL_BYTES ? 1 : -1];

/* The model's parameters out of the launch arguments (a copy: the stages
 * keep them in registers). */
DG_HD static inline dg_model_params dg_model_unpack(const dg_model_block *b) {
  dg_model_params p;
  memcpy(&p, b, sizeof p);
  return p;
}

#endif
