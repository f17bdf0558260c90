/* dg_model_layout.h - a model's device-part layout as data for its host
 * part.  Included after the model header where its host part is compiled
 * (models/CMakeLists.txt for the build's models, backends/dg_jit.c for a
 * --model-file), so that core can check the descriptor's nvar, naux and
 * naux_face against the macros the stages are compiled with: a header that
 * includes another model's device part and writes its own descriptor
 * (tests/reference/sw_lake_hump.h) could otherwise hold the auxiliary data
 * in one layout and read it in another (docs/MODELS.md, "Auxiliary data").
 * Not a model: models/CMakeLists.txt lists the models by name. */
#ifndef DG_MODEL_LAYOUT_H
#define DG_MODEL_LAYOUT_H

#include "dg_model_counts.h"

#define DG_MODEL_LAYOUT_NAME_(name) dg_model_##name##_layout
/* DG_MODEL_LAYOUT(name): const int dg_model_NAME_layout[3] = {DG_NVAR,
 * DG_MODEL_NAUX, DG_MODEL_NAUX_FACE}, what core checks the descriptor
 * against; {0, 0, 0} (not checked) where the header shows no DG_NVAR to its
 * host part (not a model: dg_model_load then says what it lacks). */
#ifdef DG_NVAR
#define DG_MODEL_LAYOUT_COUNTS                                                                     \
  { DG_NVAR, DG_MODEL_NAUX, DG_MODEL_NAUX_FACE }
#else
#define DG_MODEL_LAYOUT_COUNTS                                                                     \
  { 0, 0, 0 }
#endif
#define DG_MODEL_LAYOUT(name)                                                                      \
  extern const int DG_MODEL_LAYOUT_NAME_(name)[3];                                                 \
  const int DG_MODEL_LAYOUT_NAME_(name)[3] = DG_MODEL_LAYOUT_COUNTS;

#endif
