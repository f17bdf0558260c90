/* sw_lake_hump.h - dgrid's shallow_water model (models/shallow_water.h,
 * included unchanged: the same flux, source, speed, auxiliary data and
 * parameters) with one change to the initial state of --case lake_at_rest:
 * a Gaussian hump of height --amplitude (default 0.01) on the free surface,
 * eta = depth + A exp(-((x - xh)^2 + (y - yh)^2) / (0.1 L_x)^2), centred at
 * (xh, yh) = (lo_0 + 0.3 L_x, lo_1 + 0.6 L_y), so the lake over the bump is
 * not at rest; on the sphere (--grid latlon, x = (lambda, theta)) the same
 * with xh = lo_0 + 0.7 L_x, so that it overlaps Williamson 5's mountain at
 * (3 pi / 2, pi / 6).  Known at t = 0 only.  For the Fortran baseline's comparison
 * (tests/reference/sw_check.sh). */
#include "shallow_water.h"

#ifdef DG_MODEL_HOST
static int swh_solution(const void *dev, const void *host, const dg_model_domain *dom,
                        const double x[3], double t, double *u) {
  const sw_host *h = (const sw_host *)host;
  const int rc = sw_solution(dev, host, dom, x, t, u);
  if (h->kase != SW_LAKE) return rc;
  if (t > 0) return 0;
  /* the sphere: on the west flank of Williamson 5's mountain */
  const double xh = h->sphere ? 0.7 : 0.3;
  const double w = 0.1 * h->len[0], dx = x[0] - h->lo[0] - xh * h->len[0],
               dy = x[1] - h->lo[1] - 0.6 * h->len[1];
  u[0] += h->amp * exp(-(dx * dx + dy * dy) / (w * w));
  return 1;
}

const dg_model_desc dg_model_sw_lake_hump = {
    "sw_lake_hump",
    "shallow_water with a hump on the lake at rest (tests/reference)",
    3,
    sw_vars,
    (1 << 2) | DG_MODEL_SPHERE,
    sizeof(dg_model_params),
    sizeof(sw_host),
    (int)(sizeof sw_params / sizeof sw_params[0]),
    sw_params,
    sw_finish,
    sw_linear,
    sw_needs_x,
    sw_speed_varies,
    swh_solution,
    sw_file_name,
    NULL,
    DG_MODEL_NAUX,
    sw_aux_names,
    sw_aux,
    DG_MODEL_BC_WALL,
    0,
    NULL,
    sw_aux_deriv,
    2,
    sw_integ_names,
    sw_integrand,
    DG_MODEL_NAUX_FACE,
};
#endif
