# dgrid_models.cmake - the models this build compiles (DESIGN.md, decision 5).
#
#   DGRID_MODELS     the models, by name, in registry order (their index is
#                    the backends' kernel index); each is NAME.h in one of
#                    DGRID_MODEL_DIRS (searched first) or in models/
#   DGRID_MODEL_DIRS more folders holding model headers (a user's own models)
#
# A model header says which kernels to build on one line of its own:
#   dgrid: dims=2,3 qmax=12
# (the dimensions, and the most Gauss points per direction: degrees up to
# qmax - 1, on any degree map whose highest degree is below qmax).  This sets,
# for each model M: DGRID_MODEL_M_HEADER, DGRID_MODEL_M_DIMS, DGRID_MODEL_M_QMAX.
set(DGRID_MODELS "advection;deformation;burgers;acoustics;advection_reaction;advection_field;sphere_advection;advection_diffusion" CACHE STRING
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
  file(STRINGS ${hdr} line REGEX "dgrid: dims=[0-9,]+ qmax=[0-9]+" LIMIT_COUNT 1)
  if(NOT line MATCHES "dgrid: dims=([23](,[23])?) qmax=([0-9]+)")
    message(FATAL_ERROR "${hdr}: needs a line 'dgrid: dims=2[,3] qmax=Q' (1 <= Q <= 12)")
  endif()
  string(REPLACE "," ";" dims "${CMAKE_MATCH_1}")
  set(qmax ${CMAKE_MATCH_3})
  if(qmax LESS 1 OR qmax GREATER 12)
    message(FATAL_ERROR "${hdr}: qmax=${qmax} is outside 1..12")
  endif()
  set(DGRID_MODEL_${m}_HEADER ${hdr})
  set(DGRID_MODEL_${m}_DIMS ${dims})
  set(DGRID_MODEL_${m}_QMAX ${qmax})
endforeach()
