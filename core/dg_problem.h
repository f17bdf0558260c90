/* dg_problem.h - initial data and exact solutions of the advection tests. */
#ifndef DG_PROBLEM_H
#define DG_PROBLEM_H

#include "dg_grid.h"
#include "model_advection.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DG_INIT_PARABOLA = 0, DG_INIT_BELL, DG_INIT_SINE, DG_INIT_CONSTANT } dg_init_kind;

typedef struct {
  dg_init_kind kind;
  double centre[3]; /* bell centre */
  double radius;    /* bell radius R */
  double height;    /* bell height h0 */
  double value;     /* constant */
  dg_grid grid;     /* box for parabola/sine and periodic wrapping */
  dg_model_params model;
} dg_problem;

/* Defaults for kind on grid g: bell centre ((a+b)/2-0.2(b-a), ...), R =
 * 0.1(b-a), h0 = 2, value 1. */
int dg_problem_init(dg_problem *p, dg_init_kind kind, const dg_grid *g,
                    const dg_model_params *model);
int dg_init_parse(const char *name, dg_init_kind *kind);
const char *dg_init_name(dg_init_kind kind);

/* u0(x). */
double dg_problem_initial(const dg_problem *p, const double x[3]);
/* Exact solution at time t: u0 at the foot of the characteristic, wrapped
 * periodically into the box. */
double dg_problem_exact(const dg_problem *p, const double x[3], double t);

#ifdef __cplusplus
}
#endif
#endif
