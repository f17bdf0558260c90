/* dg_model_counts.h - the defaults of a model's counts that a model header
 * may leave out: no auxiliary data, and all of them at the faces.  Included
 * after the model header by the stages (dg_stage_model.h) and by a model's
 * host part (models/dg_model_layout.h), so that both read the same layout. */
#ifndef DG_MODEL_COUNTS_H
#define DG_MODEL_COUNTS_H

#ifndef DG_MODEL_NAUX
#define DG_MODEL_NAUX 0
#endif
/* The leading auxiliary values the faces need (the flux and the speed, not
 * the source): only these are held at face points (dg_model_desc.naux_face). */
#ifndef DG_MODEL_NAUX_FACE
#define DG_MODEL_NAUX_FACE DG_MODEL_NAUX
#endif

#endif
