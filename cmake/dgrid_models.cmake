# dgrid_models.cmake - the models this build compiles (DESIGN.md, decision 5).
#
#   DGRID_MODELS     the models, by name, in registry order (their index is
#                    the backends' kernel index); each is NAME.h in one of
#                    DGRID_MODEL_DIRS (searched first) or in models/
#   DGRID_MODEL_DIRS more folders holding model headers (a user's own models)
#
# Their kernels are compiled when a run needs them (docs/ARCHITECTURE.md,
# "Kernels on demand"); this sets, for each model M, DGRID_MODEL_M_HEADER.
set(DGRID_MODELS "advection;deformation;burgers;acoustics;advection_reaction;advection_field;sphere_advection;advection_diffusion;shallow_water" CACHE STRING
    "Models to build, in registry order (NAME.h in models/ or DGRID_MODEL_DIRS)")
set(DGRID_MODEL_DIRS "" CACHE STRING "More folders with model headers")

set(dgrid_model_dirs ${DGRID_MODEL_DIRS} ${PROJECT_SOURCE_DIR}/models) # a user's folders first
list(LENGTH DGRID_MODELS dgrid_nmodels)
if(dgrid_nmodels EQUAL 0)
  message(FATAL_ERROR "DGRID_MODELS is empty: list at least one model")
endif()
if(dgrid_nmodels GREATER 32)
  message(FATAL_ERROR "DGRID_MODELS lists ${dgrid_nmodels} models, at most 32")
endif()
set(seen "")
foreach(m ${DGRID_MODELS})
  if(NOT m MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "DGRID_MODELS: '${m}' is not a model name (lower case, digits, _)")
  endif()
  if(m IN_LIST seen)
    message(FATAL_ERROR "DGRID_MODELS lists '${m}' twice")
  endif()
  list(APPEND seen ${m})
  set(hdr "")
  foreach(dir ${dgrid_model_dirs})
    if(NOT hdr AND EXISTS ${dir}/${m}.h)
      set(hdr ${dir}/${m}.h)
    endif()
  endforeach()
  if(NOT hdr)
    message(FATAL_ERROR "DGRID_MODELS: no ${m}.h in ${dgrid_model_dirs}")
  endif()
  set(DGRID_MODEL_${m}_HEADER ${hdr})
endforeach()
