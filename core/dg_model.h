/* dg_model.h - a model of the build's registry (models/, chosen at run time
 * by name) with its parameter values: what core hands to a discretisation
 * and what the apps fill from options.  Core never names a particular
 * model; everything model-specific comes through the model's descriptor
 * (models/dg_model_desc.h). */
#ifndef DG_MODEL_H
#define DG_MODEL_H

#include "dg_grid.h"
#include "dg_model_desc.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_model dg_model;
typedef struct dg_backend dg_backend;

/* The model `name` of the registry, with its default parameters; an unknown
 * name is an error listing the models of the build. */
int dg_model_create(dg_model **m, const char *name);
void dg_model_destroy(dg_model **m);
/* Make the model's stages on backend be ready for dimension dim and the n
 * (degree, points) pairs rq[]: from the kernel cache, or compiled into it
 * (what `dgrid cache warm` does; a discretisation does it for the pairs it
 * needs).  A modeller's header: dg_model_load (dg_backends.h). */
int dg_model_warm(const dg_backend *be, const dg_model *m, int dim, int n, const int (*rq)[2]);
/* The dimensions the model runs in (bit d: dimension d; bit 4: the sphere). */
int dg_model_dims(const dg_model *m);
/* A copy of src (parameters included). */
int dg_model_clone(dg_model **m, const dg_model *src);

/* Whether the model has a parameter `key` (an option name without --). */
int dg_model_has_param(const dg_model *m, const char *key);
/* Set parameter key to the text value (parsed by dg_model_finish, which
 * knows the dimension); an unknown key is an error naming it. */
int dg_model_set(dg_model *m, const char *key, const char *value);
/* Parse every parameter for dimension dim and the box lo..hi, fill the
 * defaults the model derives from them, and check the combination (a model
 * that does not run in dim is an error).  Errors name the option. */
int dg_model_finish(dg_model *m, int dim, const double lo[3], const double hi[3]);
/* The same for a whole domain (the sphere: latlon, radius; dg_model_domain). */
int dg_model_finish_domain(dg_model *m, const dg_model_domain *dom);
/* The same for the domain of grid g (box or sphere). */
int dg_model_finish_grid(dg_model *m, const dg_grid *g);
/* 1 when the model's parameters are finished for the domain of grid g. */
int dg_model_finished_for(const dg_model *m, const dg_grid *g);

const char *dg_model_name(const dg_model *m);
/* The name snapshots record (e.g. "advection-rotation"). */
const char *dg_model_file_name(const dg_model *m);
int dg_model_nvar(const dg_model *m);
const char *dg_model_var_name(const dg_model *m, int v);
/* Model traits (after dg_model_finish). */
int dg_model_linear(const dg_model *m);
int dg_model_uses_x(const dg_model *m);
int dg_model_speed_varies(const dg_model *m);
/* The model's parameters (its options): how many, the name of parameter i,
 * and its effective value after dg_model_finish as text the parser reads
 * back (the value given or the default, canonical: words by name, reals in
 * the fewest digits that read back the same, comma-separated; a default the
 * model derives from the box, as the model set it). */
int dg_model_nparam(const dg_model *m);
const char *dg_model_param_name(const dg_model *m, int i);
int dg_model_param_text(const dg_model *m, int i, char *buf, size_t cap);
/* Auxiliary data (models/dg_model_desc.h): how many values per point, the
 * name of value i, and the model's own sample of them at x (DG_ERR_ARG
 * where the model has none: a program gives them, dg_disc_set_aux). */
int dg_model_naux(const dg_model *m);
/* The auxiliary values held at face points: the first dg_model_naux_face. */
int dg_model_naux_face(const dg_model *m);
const char *dg_model_aux_name(const dg_model *m, int i);
int dg_model_aux(const dg_model *m, const double x[3], double *out);
/* Integral diagnostics (models/dg_model_desc.h: energy, enstrophy, ...):
 * how many, the name of integral i, and the density at x from the state u,
 * its gradient du[d * nvar + v] and the auxiliary values aux (NULL where the
 * model has none); dg_integrals (dg_eval.h) integrates them. */
int dg_model_ninteg(const dg_model *m);
const char *dg_model_integ_name(const dg_model *m, int i);
void dg_model_integrand(const dg_model *m, const double x[3], const double *u, const double *du,
                        const double *aux, double *out);
/* The solution at (x, t) into u[nvar]: 1 where known (always at t = 0), 0
 * where not. */
int dg_model_solution(const dg_model *m, const double x[3], double t, double *u);

/* The stages' parameters, for a C program that includes the model's
 * header and reads dg_model_params fields (size: desc->device_size). */
void *dg_model_device_params(dg_model *m);
/* Set the stages' parameters from the model header's dg_model_params
 * (size bytes, which must be desc->device_size); dg_model_finish then keeps
 * them and parses only the host parameters (initial data). */
int dg_model_set_params(dg_model *m, const void *params, size_t size);

/* The models of the build and their parameters, as help text. */
void dg_model_help(FILE *f);
/* Comma-separated names of the build's models, into buf. */
void dg_model_list(char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
