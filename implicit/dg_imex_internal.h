/* dg_imex_internal.h - the schemes as additive Runge-Kutta tableaux
 * (dg_imex_schemes.c), read by the stage loop (dg_imex.c) and the tests;
 * the integrator's state and the stage operators the Newton iteration
 * (dg_imex_newton.c) shares with the stage loop. */
#ifndef DG_IMEX_INTERNAL_H
#define DG_IMEX_INTERNAL_H

#include "dg_backend.h"
#include "dg_imex.h"
#include "dg_sop.h"
#include "dg_spart.h"

#define DG_IM_MAXS 5
#define DG_IM_MAXV 8 /* variables of a model the steps take */

/* Stage i: M U_i = M u_n + dt sum_{j<i} (ae[i][j] R_E(U_j) + ai[i][j] R_I(U_j))
 *                  + dt ai[i][i] R_I(U_i),
 * R_E / R_I the explicit / implicit terms of the scheme's treatment; the
 * step u_{n+1} = U_{s-1} where stiff (stiffly accurate: b = the last row),
 * else u_n + dt M^-1 sum_j (be[j] R_E(U_j) + bi[j] R_I(U_j)). */
typedef struct {
  const char *name;
  int order, s, treat, stiff;
  double ae[DG_IM_MAXS][DG_IM_MAXS], ai[DG_IM_MAXS][DG_IM_MAXS];
  double be[DG_IM_MAXS], bi[DG_IM_MAXS], c[DG_IM_MAXS];
  double stab; /* real stability interval of the explicit scheme (0: none) */
} dg_im_scheme;

const dg_im_scheme *dg_im_scheme_of(dg_im_kind kind);

struct dg_im {
  dg_disc *disc;
  const dg_backend *be; /* the disc's (across ranks rbe): runs the solves (dg_svec.h) */
  /* Across ranks (the disc a rank's block, dg_disc_part.h; else NULL, 0):
     the disc's backend with the block's communicator, so that the vector
     kernels' dot products and maxima are the whole grid's; the rank's share
     of the solver grid (solvers/dg_spart.h: every solver vector is its
     box's, zero outside the owned elements); the owned elements as the
     field holds them (the whole grid's) and where a box vector holds them */
  dg_backend rbe;
  dg_spart *sp;
  dg_comm *comm;
  long nown;
  const unsigned char *own; /* [ne]: 1 owned (NULL: every element) */
  long *gown, *aown;
  long ne; /* the solver grid's elements (the rank's box across ranks) */
  const dg_im_scheme *sc;
  dg_im_opts o;
  int nonlinear;   /* the model is nonlinear: Newton in implicit stages */
  long n;          /* unknowns of one variable (a solvers/ vector) */
  int nv;          /* variables: a compact vector is nv blocks of n */
  long N;          /* nv n */
  const long *off; /* each element's first coefficient (mode 0) in a block */
  dg_sop *K;       /* the SIPG stiffness (a = 0, b = 1) */
  dg_sop *H;       /* M + bh K for the current bh (NULL while none) */
  dg_mg *mg;       /* its hierarchy */
  double bh;       /* H's stiffness coefficient g dt nu */
  double *m, *minv;
  double *m0;    /* m's elements' mode 0 (host, [nelem]: mass_fix) */
  double *h0[2]; /* host buffers of [nelem]: mode-0 sums */
  double *un, *rhs, *U, *tmp, *tmp2, *ev, *ra[DG_IM_MAXS], *rd[DG_IM_MAXS];
  dg_field *fu, *fo; /* L(u) goes through fields: u into fu, L(u) out of fo */
  /* Newton only (NULL for a linear model): the iterate and L of it as
     fields (the Jacobian's base point), a scratch field, and compact
     vectors: M L(U), the residual G(U), the Newton step */
  dg_field *fu0, *flu0, *fw;
  double *ra0, *res, *du;
};

/* out = the sum over the whole grid's elements of a[e] (b NULL), a[e] b[e]
 * (mul) or a[e] - b[e] (arrays over the solver grid's elements): in element
 * order in one process, across ranks each rank's own elements summed
 * exactly and combined exactly (the same value on every rank). */
int dg_im_esum(dg_im *im, const double *a, const double *b, int mul, double *out);
/* x += c in every element's mode 0 (x one variable's solver vector; its
 * entries outside the owned elements stay zero). */
int dg_im_mode0_add(dg_im *im, double c, double *x);

/* y = M x + bh K x (the Helmholtz part; M x while bh = 0), per variable. */
int dg_im_apply_h(dg_im *im, const double *x, double *y);
/* f = the compact solver vector x; y = f's compact vector (solver memory:
 * through a host view, a copy on the CUDA backend). */
int dg_im_set_compact(dg_im *im, dg_field *f, const double *x);
int dg_im_get_compact(dg_im *im, dg_field *f, double *y);
/* y = R_A(x) = M L(x) at time t. */
int dg_im_apply_ra(dg_im *im, const double *x, double t, double *y);
/* z = P r: the multigrid cycle of the Helmholtz part per variable (M^-1
 * while bh = 0). */
int dg_im_precond(void *ctx, const double *r, double *z);

/* Solve the stage equation G(U) = H U - gdt M L(U) - rhs = 0 at time t by
 * Newton from the initial U, every iterate corrected along each variable's
 * constants (its mass is e_v^T rhs); on return ra0 = M L(U) of the final U.  Adds its
 * iterations to st; DG_ERR_NUMERIC naming stage, t and dt where it does not
 * reach rtol within newton_maxit. */
int dg_im_newton_stage(dg_im *im, int stage, double gdt, double t, double t0, double dt,
                       const double *rhs, double *U, dg_im_stats *st);

#endif
