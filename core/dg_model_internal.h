/* dg_model_internal.h - the inside of a dg_model (dg_model.h): the stages'
 * parameter block (stencils/dg_stage_args.h) and what the discretisation
 * reads from it.  Used by core only; not installed (the installed
 * dg_model.h keeps the object opaque). */
#ifndef DG_MODEL_INTERNAL_H
#define DG_MODEL_INTERNAL_H

#include "dg_model.h"
#include "dg_stage_args.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DG_MODEL_MAX_PARAMS 32

struct dg_model {
  const dg_model_desc *desc;
  int id;                                 /* registry index; -1: loaded from a file */
  char *header;                           /* the device part: NAME.h under models/, or
                                             the absolute path of a loaded header */
  dg_model_block dev;                     /* the stages' parameters (dg_model_params) */
  void *host;                             /* host parameters (desc->host_size bytes) */
  char *given[DG_MODEL_MAX_PARAMS];       /* values set with dg_model_set (NULL: default) */
  dg_model_domain dom;                    /* set by dg_model_finish */
  int finished;                           /* parameters parsed for dom */
  int fixed_dev;                          /* dev set with dg_model_set_params: kept */
  unsigned char set[DG_MODEL_MAX_PARAMS]; /* 1 where a value was given */
};

/* A model object for desc whose device part is the header at `header` (an
 * absolute path): how dg_model_load (backends/dg_backends.c) makes one.
 * layout: the header's {DG_NVAR, DG_MODEL_NAUX, DG_MODEL_NAUX_FACE}
 * (models/dg_model_layout.h), checked against desc; NULL: not checked. */
int dg_model_from_desc(dg_model **m, const dg_model_desc *desc, const char *header,
                       const int *layout);

/* The boundary kinds the model supports besides periodic and outflow
 * (DG_MODEL_BC_* bits of dg_model_desc.bc). */
int dg_model_bc(const dg_model *m);
/* Every side of g's box has a boundary kind the model supports (inflow:
 * boundary data, wall: a reflection); else DG_ERR_ARG, "boundary SIDE: model
 * NAME has no ...".  The one check of dg_disc_create and of the apps'
 * configuration. */
int dg_model_check_bc(const dg_model *m, const dg_grid *g);
/* Bytes of the model's inflow boundary data (0 without), and the data
 * themselves for the finished parameters (dg_model_desc.bdata). */
size_t dg_model_bdata_size(const dg_model *m);
void dg_model_bdata(const dg_model *m, void *out);

/* The stages' parameters at time t (the model's at_time applied to a copy). */
void dg_model_stage_params(const dg_model *m, double t, dg_model_block *out);

#ifdef __cplusplus
}
#endif
#endif
