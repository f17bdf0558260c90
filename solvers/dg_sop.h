/* dg_sop.h - the matrix-free SIPG operator y = a M u + b K u of one level:
 * K the symmetric interior penalty Laplacian (-lap), M the (diagonal) mass
 * matrix, any degree map, periodic or Dirichlet (weak, Nitsche) boundaries per
 * direction, applied in float or double from the same element source
 * (dg_sipg_elem.h).  Vectors are plain arrays of dg_sop_len() reals in the
 * compact element order of dg_sipg_elem_t.h. */
#ifndef DG_SOP_H
#define DG_SOP_H

typedef struct dg_backend dg_backend; /* backends/dg_backends.h */
#include "dg_grid.h"
#include "dg_sipg_elem.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_sop dg_sop;

typedef struct {
  int bc[3];   /* DG_SBC_PERIODIC or DG_SBC_DIRICHLET per direction */
  double a;    /* mass coefficient (0: the Laplacian) */
  double b;    /* stiffness coefficient (> 0) */
  double cpen; /* penalty constant C: sigma = C (max(r-,r+)+1)^2 / h */
} dg_sop_params;

/* The defaults: periodic, a = 0, b = 1, C = 2. */
dg_sop_params dg_sop_default_params(void);

/* Create the operator on grid g with degrees deg[g->nelem] (copied), run by
 * backend be (its kernels and its memory: every vector the operator reads
 * or writes comes from dg_svec_alloc(be, ...)); be outlives the operator.
 * A periodic direction needs at least 2 elements (an element is never its
 * own neighbour).  Returns 0 or DG_ERR_ARG / DG_ERR_MEM / DG_ERR_LIB. */
int dg_sop_create(dg_sop **op, const dg_backend *be, const dg_grid *g, const uint8_t *deg,
                  const dg_sop_params *p);
/* The same with penalty degrees pdeg[g->nelem] (copied) in place of the
 * degrees in the penalty (multigrid levels keep the fine level's). */
int dg_sop_create_pen(dg_sop **op, const dg_backend *be, const dg_grid *g, const uint8_t *deg,
                      const uint8_t *pdeg, const dg_sop_params *p);
void dg_sop_destroy(dg_sop **op);

/* Number of reals of a vector (sum over elements of (r_e+1)^dim). */
long dg_sop_len(const dg_sop *op);
/* First coefficient of each element ([nelem + 1], the last is the length;
 * host memory, as the degrees below: the drivers read copies in solver
 * memory). */
const long *dg_sop_offsets(const dg_sop *op);
const dg_grid *dg_sop_grid(const dg_sop *op);
/* The backend that runs the operator. */
const dg_backend *dg_sop_backend(const dg_sop *op);
const uint8_t *dg_sop_degrees(const dg_sop *op);
const uint8_t *dg_sop_penalty_degrees(const dg_sop *op);
const dg_sop_params *dg_sop_get_params(const dg_sop *op);
/* The elements' mode 0 of the solver vector x (its coefficients at
 * dg_sop_offsets()[e], e < nelem) into host memory h[nelem]: gathered on
 * the backend, so only those values cross to the host. */
int dg_sop_mode0_get(const dg_sop *op, const double *x, double *h);
/* x[offsets[e]] += c for every element (on the backend). */
int dg_sop_mode0_add(const dg_sop *op, double c, double *x);
/* The reference tables (double and float) the element functions read. */
const dg_stab_d *dg_sop_tab_d(const dg_sop *op);
const dg_stab_f *dg_sop_tab_f(const dg_sop *op);

/* Make be's operator kernels for the degrees in `degrees` (bit r) of
 * operators of dimension dim ready, in the precisions `precisions` (bit 0
 * double, bit 1 float; the values of DG_MG_DOUBLE, DG_MG_FLOAT): on the
 * OpenMP backend the lane units, compiled (or loaded from the kernel cache)
 * in one batch.  Optional: the first apply loads what it lacks.  0 or
 * DG_ERR_* with a message. */
int dg_sop_prepare(const dg_backend *be, int dim, unsigned degrees, int precisions);

/* y = (a M + b K) x, double or float (the backend's loop over elements;
 * x and y are solver memory, dg_svec.h). */
int dg_sop_apply_d(const dg_sop *op, const double *x, double *y);
int dg_sop_apply_f(const dg_sop *op, const float *x, float *y);
/* y = (float)(scale (b - A x)), x and b double: the mixed cycle's fp64
 * residual, scaled into float's range (dg_svec_resid_to_f's arithmetic).
 * t is scratch of the level's length: the OpenMP driver forms A x there,
 * the CUDA driver's line kernels form the residual on chip in one pass and
 * leave t alone. */
int dg_sop_resid_to_f(const dg_sop *op, const double *x, const double *b, double scale, double *t,
                      float *y);
/* The operator's diagonal. */
int dg_sop_diag_d(const dg_sop *op, double *y);
int dg_sop_diag_f(const dg_sop *op, float *y);
/* The mass matrix's diagonal (double; y host memory: a caller with a
 * solver vector fills a host view of it, dg_svec_map). */
int dg_sop_mass_d(const dg_sop *op, double *y);

/* The transfers between a level F and the level C below it: C has F's grid
 * and lower degrees (by_degree set: restriction keeps the low modes,
 * prolongation pads with zeros), or F's grid agglomerated 2^dim to one
 * (the children's polynomials embed exactly; restriction is the transpose).
 * bc = R r; x += P xc.  Run by the backend (solver memory). */
int dg_sop_restrict_d(const dg_sop *F, const dg_sop *C, int by_degree, const double *r, double *bc);
int dg_sop_restrict_f(const dg_sop *F, const dg_sop *C, int by_degree, const float *r, float *bc);
int dg_sop_prolong_add_d(const dg_sop *F, const dg_sop *C, int by_degree, const double *xc,
                         double *x);
int dg_sop_prolong_add_f(const dg_sop *F, const dg_sop *C, int by_degree, const float *xc,
                         float *x);

/* A scalar function of the point x (x[2] = 0 in 2D). */
typedef double (*dg_sfn)(const double x[3], void *ctx);
/* b_m = int f phi_m over each element (Gauss-Legendre, r+3 points per
 * direction): the load vector of -lap u = f with homogeneous boundary data.
 * These three evaluate f on the host: b and u are solver memory, copied
 * once each way (dg_svec_map). */
int dg_sop_load(const dg_sop *op, dg_sfn f, void *ctx, double *b);
/* u = the L2 projection of f (M^-1 of the load). */
int dg_sop_project(const dg_sop *op, dg_sfn f, void *ctx, double *u);
/* err = || u - f ||_L2 over the domain (r+3 points per direction). */
int dg_sop_l2_error(const dg_sop *op, const double *u, dg_sfn f, void *ctx, double *err);

#ifdef __cplusplus
}
#endif
#endif
