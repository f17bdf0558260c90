/* dg_model_desc.h - what a model tells the host side of dgrid about itself:
 * its name and variables, its parameters (with defaults and help), the
 * traits the backends' plans may rely on, and its initial and exact data.
 *
 * A model header (models/<name>.h, docs/MODELS.md) holds two parts: the
 * device part (DG_NVAR, dg_model_params, flux, wave speed, source), which the
 * backends compile into the stages, and, when DG_MODEL_HOST is defined, the
 * host part, which defines `const dg_model_desc dg_model_<name>`.  The build
 * lists the models (CMake DGRID_MODELS) and generates the registry
 * dg_models[] in that order; the order is also the backends' kernel index.
 * Plain C, host only; includes nothing of core (core includes this). */
#ifndef DG_MODEL_DESC_H
#define DG_MODEL_DESC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DG_PARAM_REAL = 0, /* n reals (device params: dg_real; host params: double) */
  DG_PARAM_WORD      /* one of `words` ("a|b|c"), stored as an int: its index */
} dg_param_kind;

/* One parameter, set on the command line as --name VALUE (reals as a comma
 * list) or in a configuration. */
typedef struct {
  const char *name;
  dg_param_kind kind;
  int n;             /* REAL: components; 0: one per dimension */
  const char *words; /* WORD: the choices, '|'-separated, in the order of their index */
  int device;        /* 1: in dg_model_params (the stages see it), 0: host parameters */
  size_t offset;     /* of the value in its struct */
  const char *def;   /* default as text; NULL: `finish` derives it from the domain */
  const char *help;
} dg_model_param;

/* The domain a model's data live on: a box, periodic in the directions
 * marked so, or (latlon 1) the latitude-longitude sphere of the given
 * radius, x = (lambda, theta) in [0, 2 pi) x [-pi/2, pi/2] (core/dg_grid.h). */
typedef struct {
  int dim;
  double lo[3], hi[3];
  int latlon;      /* 1: the sphere */
  double radius;   /* latlon: the sphere's radius a */
  int periodic[3]; /* 1: direction d wraps (a solution is periodic there); 0: the
                      box has boundaries there (inflow, outflow, wall) */
} dg_model_domain;

/* dg_model_desc.bc bits: the boundary kinds a model supports besides
 * periodic and outflow (docs/MODELS.md, "Boundaries"). */
#define DG_MODEL_BC_INFLOW (1 << 0) /* the device part defines dg_model_boundary */
#define DG_MODEL_BC_WALL   (1 << 1) /* the device part defines dg_model_wall */

/* dg_model_desc.dims bit: the model runs on the latlon sphere. */
#define DG_MODEL_SPHERE (1 << 4)

typedef struct dg_model_desc {
  const char *name;    /* what --model takes */
  const char *summary; /* one line for --help */
  int nvar;
  const char *const *var_names; /* nvar names, for files and reports */
  int dims;                     /* bit d set: the model runs in dimension d; bit
                                   DG_MODEL_SPHERE: on the latitude-longitude sphere
                                   (its flux is then the contravariant one, the
                                   metric's a^2 cos(theta) is in the mass) */
  size_t device_size;           /* sizeof(dg_model_params) <= DG_MODEL_BYTES */
  size_t host_size;             /* its host parameters (initial data ...) */
  int nparam;
  const dg_model_param *params;
  /* After parsing: fill the defaults that depend on the domain where set[i]
   * is 0 (parameter i not given) and check combinations; on error write one
   * line into msg and return nonzero.  May be NULL. */
  int (*finish)(void *dev, void *host, const dg_model_domain *dom, const unsigned char *set,
                char *msg, size_t cap);
  /* 1: the flux and the source are linear in u; the backends' plans may use
   * shortcuts exact only for linear fluxes (with needs_x 0: own q). */
  int (*linear)(const void *dev);
  /* 1: the flux or the source depends on x (the stages then load coordinates). */
  int (*needs_x)(const void *dev);
  /* 1: the largest wave speed changes with u or t, so a CFL step is
   * re-estimated every step. */
  int (*speed_varies)(const void *dev);
  /* The solution at (x, t) into u[nvar]: returns 1 where it is known (always
   * at t = 0: the initial data), 0 where not (u then unspecified). */
  int (*solution)(const void *dev, const void *host, const dg_model_domain *dom, const double x[3],
                  double t, double *u);
  /* The name snapshots record (e.g. the velocity kind with it); NULL: name. */
  const char *(*file_name)(const void *dev);
  /* Before each stage (and CFL estimate) at time t: set the stage
   * parameters that depend on t only (e.g. a factor cos(pi t / T)), so the
   * stages compute them once per launch, not per point.  May be NULL. */
  void (*at_time)(void *dev, const void *host, double t);
  /* Auxiliary data (DG_MODEL_NAUX of the header; 0: none): the values'
   * names, and how to sample them at x into out[naux] (a program may sample
   * its own data instead: dg_disc_set_aux). */
  int naux;
  const char *const *aux_names;
  void (*aux)(const void *dev, const void *host, const double x[3], double *out);
  /* Boundaries (optional; 0, 0, NULL without): DG_MODEL_BC_* bits of the
   * kinds the device part supports; for inflow the size of its boundary data
   * (sizeof(dg_model_bdata), what dg_model_boundary reads besides
   * dg_model_params) and how to fill them once the parameters are finished. */
  int bc;
  size_t bdata_size;
  void (*bdata)(const void *dev, const void *host, const dg_model_domain *dom, void *out);
  /* Auxiliary data through the element interpolant (NULL: each value sampled
   * at the points as it is).  Otherwise naux entries: DG_AUX_VALUE, a value
   * the sampler gives, or DG_AUX_DERIV(j, d), the derivative along x_d of
   * value j (the sampler's out[i] is then ignored).  Every value is then the
   * element's tensor interpolant of degree K = 2 q - 1 - rmax on Gauss-Lobatto
   * nodes (continuous across faces, the face values formed from the face's
   * own nodes, so both sides hold the same bits), the derivatives its exact
   * derivatives at the volume points and, at a face, the face interpolant's
   * derivative along the face (0 along the normal).  With K so chosen the
   * Gauss rule integrates an interpolated value times a test function's
   * gradient exactly on every element, so integration by parts holds
   * discretely: what a well-balanced flux/source pair needs
   * (docs/ARCHITECTURE.md, "Auxiliary data"). */
  const int *aux_deriv;
  /* Integral diagnostics (0, NULL, NULL without): ninteg named densities,
   * integrated over the domain (area element included) with the solution,
   * its gradient in the grid's coordinates du[d * nvar + v] and the model's
   * sample of its auxiliary data (NULL without), e.g. energy and enstrophy;
   * reported by dg_integrals (core/dg_eval.h) and advect's summary. */
  int ninteg;
  const char *const *integ_names;
  void (*integrand)(const void *dev, const void *host, const double x[3], const double *u,
                    const double *du, const double *aux, double *out);
  /* The leading auxiliary values that the faces need: only these are held
   * at face points.  DG_MODEL_NAUX_FACE where the device part defines it
   * (the stages' layout, stencils/dg_stage_model.h), else 0: all naux. */
  int naux_face;
} dg_model_desc;

/* dg_model_desc.aux_deriv entries. */
#define DG_AUX_VALUE       (-1)
#define DG_AUX_DERIV(j, d) (3 * (j) + (d))

/* Traits that do not depend on the parameters (linear, needs_x,
 * speed_varies of dg_model_desc). */
static inline int dg_model_yes(const void *dev) {
  (void)dev;
  return 1;
}
static inline int dg_model_no(const void *dev) {
  (void)dev;
  return 0;
}

/* The registry the build generates (CMake DGRID_MODELS order). */
extern const dg_model_desc *const dg_models[];
extern const int dg_nmodels;
/* Their headers, NAME.h under models/ of the sources the library carries
 * for its kernel compiler (backends/dg_jit.h). */
extern const char *const dg_model_headers[];
/* Their device parts' {DG_NVAR, DG_MODEL_NAUX, DG_MODEL_NAUX_FACE}
 * (dg_model_layout.h), checked against the descriptors. */
extern const int *const dg_model_layouts[];

#ifdef __cplusplus
}
#endif
#endif
