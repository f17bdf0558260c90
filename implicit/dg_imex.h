/* dg_imex.h - implicit and IMEX Runge-Kutta steps for
 *   u_t = L(u) + nu lap u,
 * L the explicit DG operator of a model (core/dg_disc_op.h:
 * the stages, Rusanov fluxes, inverse mass), linear or not, and nu lap the
 * SIPG Laplacian of solvers/ (dg_sop).  Written in the weak (mass-weighted) form
 *   M u_t = R_A(u) + R_D(u),  R_A = M L(u),  R_D = -nu K u,
 * M the diagonal modal mass (the same basis in dg_disc and dg_sop).
 *
 * Three kinds of scheme share one stage loop (an additive RK pair A_E, A_I):
 *  - implicit: every term in A_I (backward Euler, Crank-Nicolson, SDIRK2,
 *    SDIRK3); a stage solves (M - g dt M L + g dt nu K) U = rhs by FGMRES,
 *    right-preconditioned by hp-multigrid on the Helmholtz part M + g dt nu K;
 *    for a nonlinear model G(U) = (M + g dt nu K) U - g dt M L(U) - rhs = 0
 *    by Jacobian-free Newton-Krylov (dg_imex_newton.c): each Newton step one
 *    inexact FGMRES solve with the same preconditioner, the Jacobian applied
 *    by dg_disc_jacvec;
 *  - IMEX: R_A in A_E (explicit), R_D in A_I; a stage solves (M + g dt nu K)
 *    U = rhs by CG + hp-multigrid (ARS(2,2,2), ARS(4,4,3));
 *  - explicit: both in A_E (classical RK4), the diffusion applied through
 *    the SIPG operator and the inverse mass: the reference the implicit runs
 *    are compared with.
 * Every solve ends with a correction along the constants (the conserved
 * quantity), so mass is conserved to round-off whatever the tolerance.
 * The state is a field of the disc; the solves work on compact fp64
 * vectors (dg_field_get_compact).  A system (nvar up to 8) is
 * its variables' blocks one after the other; every variable is diffused
 * with the same nu (the SIPG operator and its multigrid apply per block) and
 * its mass conserved (one correction per variable).  Periodic box only. */
#ifndef DG_IMEX_H
#define DG_IMEX_H

#include "dg_disc.h"
#include "dg_field.h"
#include "dg_mg.h"
#include "dg_partition.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DG_IM_BE = 0, /* backward Euler: implicit, order 1, L-stable */
  DG_IM_CN,     /* Crank-Nicolson: implicit, order 2, A-stable */
  DG_IM_SDIRK2, /* Alexander's 2-stage SDIRK: implicit, order 2, L-stable */
  DG_IM_SDIRK3, /* Alexander's 3-stage SDIRK: implicit, order 3, L-stable */
  DG_IM_ARS222, /* ARS(2,2,2): IMEX, order 2 */
  DG_IM_ARS443, /* ARS(4,4,3): IMEX, order 3 */
  DG_IM_RK4,    /* classical RK4, everything explicit (the reference) */
  DG_IM_COUNT
} dg_im_kind;

/* How a scheme treats the terms. */
enum { DG_IM_IMPLICIT = 0, DG_IM_IMEX = 1, DG_IM_EXPLICIT = 2 };

/* Name <-> kind ("be", "cn", "sdirk2", "sdirk3", "ars222", "ars443", "rk4");
 * an unknown name is DG_ERR_ARG listing the names. */
int dg_im_parse(const char *name, dg_im_kind *kind);
const char *dg_im_name(dg_im_kind kind);
int dg_im_order(dg_im_kind kind);
int dg_im_stages(dg_im_kind kind);
/* DG_IM_IMPLICIT, DG_IM_IMEX or DG_IM_EXPLICIT. */
int dg_im_treatment(dg_im_kind kind);
/* The length of the stability interval on the negative real axis of the
 * explicit part's scheme (RK4: 2.7853), 0 where the scheme has none. */
double dg_im_real_stability(dg_im_kind kind);

/* out = J(u0) v, the linearisation of L about u0 (lu0 = L(u0) given), as
 * dg_disc_jacvec computes it (its argument list, plus ctx). */
typedef int (*dg_im_jacvec_fn)(void *ctx, dg_disc *d, dg_field *u0, dg_field *lu0, dg_field *v,
                               double t, dg_field *work, dg_field *out);

/* Called after every Newton iterate of a stage: the stage (0-based), the
 * iteration (0: the initial guess), its relative residual ||G(U)|| /
 * ||rhs|| and the Krylov iterations of the solve that produced it. */
typedef void (*dg_im_newton_monitor)(void *ctx, int stage, int it, double rel, int krylov_its);

typedef struct {
  double nu;     /* diffusion coefficient (>= 0) */
  double rtol;   /* relative residual of every stage equation: ||b - A U|| <=
                    rtol ||b|| (linear), ||G(U)|| <= rtol ||rhs|| (Newton);
                    default 1e-10 */
  int maxit;     /* Krylov iterations per linear solve (default 200) */
  int restart;   /* FGMRES restart (default 30) */
  int mixed;     /* 1: the mixed-precision multigrid cycle as preconditioner */
  double cpen;   /* SIPG penalty constant (default 2) */
  dg_mg_opts mg; /* the hierarchy (default dg_mg_default_opts) */
  /* Newton (nonlinear model, fully implicit scheme; not read otherwise) */
  int newton_maxit;       /* Newton iterations per stage (default 10); more is an error */
  double eta;             /* forcing term: the inner FGMRES's relative tolerance; 0
                             (default): Eisenberg-Walker (choice 2, gamma 0.9, alpha 2),
                             a number in (0, 1): that fixed tolerance */
  double eta_max;         /* Eisenberg-Walker's first and largest forcing term (0.1) */
  dg_im_jacvec_fn jacvec; /* NULL (default): dg_disc_jacvec */
  void *jacvec_ctx;
  dg_im_newton_monitor newton_monitor; /* NULL: none */
  void *monitor_ctx;
  /* Across ranks (the disc a rank's block, dg_disc_part.h): the partition
     it is a block of; NULL for one process.  Every call is then collective. */
  const dg_partition *part;
} dg_im_opts;

/* The defaults above: nu 0, rtol 1e-10, maxit 200, restart 30, fp64 cycle,
 * newton_maxit 10, eta 0 (Eisenberg-Walker), eta_max 0.1. */
dg_im_opts dg_im_default_opts(void);

/* What the last dg_im_step did. */
typedef struct {
  int solves;     /* linear solves (one per Newton iteration with Newton) */
  int its;        /* Krylov iterations, all solves */
  double rel_max; /* largest final relative residual of a solve (with Newton:
                     of a stage equation, ||G(U)|| / ||rhs||) */
  int converged;  /* every solve reached rtol (a Newton stage that does not
                     is an error, so with Newton always 1) */
  int newton;     /* Newton iterations, all stages (0 for a linear model) */
  int newton_max; /* most Newton iterations of one stage */
} dg_im_stats;

typedef struct dg_im dg_im;

/* An integrator for fields of d (borrowed; it must outlive the integrator).
 * A nonlinear model (dg_model_linear 0) takes Newton in the stages of the
 * fully implicit schemes; IMEX and explicit schemes treat L explicitly and
 * need none.  DG_ERR_ARG for more than 8 variables, the sphere, a side that
 * is not periodic, a negative nu or a bad tolerance. */
int dg_im_create(dg_im **im, dg_disc *d, dg_im_kind kind, const dg_im_opts *o);
void dg_im_destroy(dg_im **im);
/* Advance u from t by dt (the operators for a new dt are built on the first
 * step that needs them and kept while dt stays).  A linear solve that does
 * not reach rtol within maxit is not an error (see st); a Newton stage that
 * does not reach rtol within newton_maxit is DG_ERR_NUMERIC (its message
 * names the stage, t, dt and the residual), as is a NaN; u is then left as
 * it was. */
int dg_im_step(dg_im *im, dg_field *u, double t, double dt, dg_im_stats *st);
/* The largest eigenvalue of M^-1 K (the SIPG Laplacian with the inverse
 * mass) by power iteration: nu times it bounds the explicit diffusive step,
 * dt <= dg_im_real_stability(kind) / (nu lmax). */
int dg_im_laplacian_lmax(dg_im *im, double *lmax);

#ifdef __cplusplus
}
#endif
#endif
