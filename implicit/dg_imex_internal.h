/* dg_imex_internal.h - the schemes as additive Runge-Kutta tableaux
 * (dg_imex_schemes.c), read by the stage loop (dg_imex.c) and the tests. */
#ifndef DG_IMEX_INTERNAL_H
#define DG_IMEX_INTERNAL_H

#include "dg_imex.h"

#define DG_IM_MAXS 5

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

#endif
