/* test_plan.c - unit.plan: the plan's choice of update (backends/dg_plan.c)
 * for a backend table like CUDA's (team from 5 points, the team over 3..6
 * points for models with auxiliary data and several variables), so that the
 * GPU's choices are checked where no GPU is: which update each kind of
 * model, grid and q takes, and the one-line refusals of DGRID_UPDATE. */
#include "dg_test.h"

#include "dg_backend.h"

#include <stdlib.h>
#include <string.h>

static dg_backend_ops cuda_like(void) {
  dg_backend_ops be;
  memset(&be, 0, sizeof be);
  be.name = "cuda-like";
  be.coeffs_rmax[0] = 3;
  be.coeffs_rmax[1] = 3;
  be.team_qmin[0] = 5;
  be.team_qmin[1] = DG_MAX_Q + 1;
  be.team_aux_q[0] = 3;
  be.team_aux_q[1] = 6;
  return be;
}

/* A uniform map of degree q - 1 on 4096 elements. */
static dg_plan_in uniform(int dim, int q, int aux, int nvar, int bnd) {
  dg_plan_in in;
  memset(&in, 0, sizeof in);
  in.dim = dim;
  in.q = q;
  in.rmin = in.rmax = q - 1;
  in.nelem = in.n[q - 1] = 4096;
  in.aux = aux;
  in.nvar = nvar;
  in.bnd = bnd;
  return in;
}

static int team_of(const dg_backend_ops *be, dg_plan_in in) {
  dg_plan p;
  OK(dg_plan_choose(be, &in, &p));
  return p.team;
}

int main(void) {
  unsetenv("DGRID_UPDATE");
  unsetenv("DGRID_NEIGHBOURS");
  unsetenv("DGRID_OWN_Q");
  const dg_backend_ops be = cuda_like();
  for (int q = 2; q <= 8; ++q) {
    /* shallow water: auxiliary data, three variables: the team over 3..6 */
    CHECK(team_of(&be, uniform(2, q, 1, 3, 0)) == (q >= 3 && q <= 6),
          "aux, 3 variables, q=%d: team %d", q, team_of(&be, uniform(2, q, 1, 3, 0)));
    /* one variable with auxiliary data: the one-element update at every q */
    CHECK(team_of(&be, uniform(2, q, 1, 1, 0)) == 0, "aux, 1 variable, q=%d: team", q);
    /* no auxiliary data: the team from team_qmin on */
    CHECK(team_of(&be, uniform(2, q, 0, 1, 0)) == (q >= 5), "no aux, q=%d: team %d", q,
          team_of(&be, uniform(2, q, 0, 1, 0)));
    /* walls and 3D: the one-element update */
    CHECK(team_of(&be, uniform(2, q, 1, 3, 1)) == 0, "walls, q=%d: team", q);
    CHECK(team_of(&be, uniform(3, q, 0, 1, 0)) == 0, "3D, q=%d: team", q);
  }
  /* the environment's choice, and its one-line refusals */
  setenv("DGRID_UPDATE", "element", 1);
  CHECK(team_of(&be, uniform(2, 4, 1, 3, 0)) == 0, "DGRID_UPDATE=element: team");
  setenv("DGRID_UPDATE", "team", 1);
  CHECK(team_of(&be, uniform(2, 8, 1, 1, 0)) == 1, "DGRID_UPDATE=team: element");
  dg_plan_in walls = uniform(2, 4, 1, 3, 1);
  dg_plan p;
  CHECK(dg_plan_choose(&be, &walls, &p) != 0 &&
            !strcmp(dg_error_message(), "DGRID_UPDATE=team needs a grid periodic on every side "
                                        "(the team update forms no boundary states)"),
        "walls with DGRID_UPDATE=team: '%s'", dg_error_message());
  setenv("DGRID_UPDATE", "teams", 1);
  dg_plan_in in = uniform(2, 4, 1, 3, 0);
  CHECK(dg_plan_choose(&be, &in, &p) != 0 &&
            !strcmp(dg_error_message(), "DGRID_UPDATE='teams': expected element, team or auto"),
        "DGRID_UPDATE=teams: '%s'", dg_error_message());
  unsetenv("DGRID_UPDATE");
  return dg_test_done("unit.plan");
}
