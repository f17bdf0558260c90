/* model_advection.h - linear advection u_t + div(beta(x) u) = 0.
 *
 * A model supplies DG_NVAR, the flux component along one direction and the
 * largest wave speed along it (for Rusanov); the stages are generic over it.
 * Velocity fields: constant beta, or solid-body rotation
 * beta = omega e_z x (x - c) = (-omega (y-cy), omega (x-cx), 0). */
#ifndef DG_MODEL_ADVECTION_H
#define DG_MODEL_ADVECTION_H

#include "dg_lane.h"

#define DG_NVAR 1

enum { DG_VELOCITY_CONSTANT = 0, DG_VELOCITY_ROTATION = 1 };

typedef struct {
  int velocity;      /* DG_VELOCITY_* */
  dg_real beta[3];   /* constant velocity */
  dg_real omega;     /* rotation rate */
  dg_real centre[3]; /* rotation centre */
} dg_model_params;

/* Whether the flux depends on position (the stages then load coordinates). */
DG_HD static inline int dg_model_needs_x(const dg_model_params *p) {
  return p->velocity != DG_VELOCITY_CONSTANT;
}

/* Velocity component d at x.  The stages pass x = NULL where
 * dg_model_needs_x is false; as a constant there, it folds this branch. */
DG_HD static inline dg_lane dg_model_velocity(const dg_model_params *p, const dg_lane *x, int d) {
  if (x && p->velocity == DG_VELOCITY_ROTATION) {
    if (d == 0) return (x[1] - p->centre[1]) * (-p->omega);
    if (d == 1) return (x[0] - p->centre[0]) * p->omega;
    return dg_lane_set(0);
  }
  return dg_lane_set(p->beta[d]);
}

/* f[v] = component d of the flux f(u, x). */
DG_HD static inline void dg_model_flux(const dg_model_params *p, const dg_lane *u, const dg_lane *x,
                                       int d, dg_lane *f) {
  f[0] = dg_model_velocity(p, x, d) * u[0];
}

/* Largest |wave speed| along direction d at state u, position x. */
DG_HD static inline dg_lane dg_model_max_speed(const dg_model_params *p, const dg_lane *u,
                                               const dg_lane *x, int d) {
  (void)u;
  return dg_lane_abs(dg_model_velocity(p, x, d));
}

#endif
