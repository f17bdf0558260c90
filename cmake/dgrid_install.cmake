# dgrid_install.cmake - what `cmake --install` puts under the prefix
# (docs/ARCHITECTURE.md, "Installed package"):
#   include/dgrid/        the public headers (dgrid.h includes them all)
#   lib/libdgrid.a        the one library (core, quadrature, models, backend)
#   lib/cmake/dgrid/      find_package(dgrid): the imported target dgrid::dgrid
#   lib/pkgconfig/dgrid.pc
#   bin/                  advect, dgrid (a link to advect), compare, bench
# Both package files are relocatable: they locate the prefix from where they
# lie, so `cmake --install build --prefix DIR` works for any DIR.
include(CMakePackageConfigHelpers)

# The installed API: no header here includes a stencils/ internal, a model
# header, HDF5, GSL, OpenMP or CUDA (tests/install checks each compiles alone).
set(DGRID_PUBLIC_HEADERS
    core/dgrid.h core/dg_error.h core/dg_grid.h core/dg_degree_map.h core/dg_model.h
    core/dg_disc.h core/dg_disc_op.h core/dg_field.h core/dg_ts.h core/dg_eval.h core/dg_io.h core/dg_output.h
    backends/dg_backends.h models/dg_model_desc.h stencils/dg_real.h)
list(TRANSFORM DGRID_PUBLIC_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/)
install(FILES ${DGRID_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dgrid)

# The model headers and the stencils/ helpers they use, to read and to copy
# as the start of a modeller's own (advect --model-file; docs/MODELS.md).
# The kernel compiler does not read these: the library carries its sources.
file(GLOB dgrid_share_models ${PROJECT_SOURCE_DIR}/models/*.h)
install(FILES ${dgrid_share_models} DESTINATION ${CMAKE_INSTALL_DATADIR}/dgrid/models)
file(GLOB dgrid_share_stencils ${PROJECT_SOURCE_DIR}/stencils/*.h)
install(FILES ${dgrid_share_stencils} DESTINATION ${CMAKE_INSTALL_DATADIR}/dgrid/stencils)

set(dgrid_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/dgrid)
install(TARGETS dgrid EXPORT dgridTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT dgridTargets NAMESPACE dgrid:: DESTINATION ${dgrid_cmakedir})

# dgridConfig.cmake finds what the archive links (find_dependency)
if(DGRID_BACKEND STREQUAL "cuda")
  set(DGRID_CONFIG_BACKEND_DEP "find_dependency(CUDAToolkit)\nfind_dependency(OpenMP COMPONENTS C)")
else()
  set(DGRID_CONFIG_BACKEND_DEP "find_dependency(OpenMP COMPONENTS C)")
endif()
set(DGRID_CONFIG_MPI_DEP "")
if(DG_MPI)
  set(DGRID_CONFIG_MPI_DEP "set(HDF5_PREFER_PARALLEL TRUE)\nfind_dependency(MPI COMPONENTS C)")
endif()
configure_package_config_file(cmake/dgridConfig.cmake.in ${PROJECT_BINARY_DIR}/dgridConfig.cmake
                              INSTALL_DESTINATION ${dgrid_cmakedir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dgridConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dgridConfig.cmake ${PROJECT_BINARY_DIR}/dgridConfigVersion.cmake
        DESTINATION ${dgrid_cmakedir})

# dgrid.pc: libdgrid.a is static, so everything it links goes into Libs (and
# GSL into Requires), not Libs.private: a plain `pkg-config --libs dgrid`
# must link.  HDF5 is named by the libraries this build found (its .pc name
# differs between installations: hdf5, hdf5-serial).
set(pc_libs "")
foreach(lib ${HDF5_C_LIBRARIES})
  if(IS_ABSOLUTE "${lib}" OR lib MATCHES "^-")
    string(APPEND pc_libs " ${lib}")
  else()
    string(APPEND pc_libs " -l${lib}")
  endif()
endforeach()
if(DGRID_BACKEND STREQUAL "cuda")
  string(APPEND pc_libs " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lnvrtc -ldl -lrt -lpthread -lstdc++")
endif()
string(APPEND pc_libs " ${OpenMP_C_FLAGS}")
if(DG_MPI)
  foreach(lib ${MPI_C_LIBRARIES})
    string(APPEND pc_libs " ${lib}")
  endforeach()
endif()
if(DGRID_SANITIZE)
  string(APPEND pc_libs " -fsanitize=address,undefined")
endif()
string(APPEND pc_libs " -lm")
set(pc_cflags "")
if(DGRID_REAL STREQUAL "float")
  set(pc_cflags " -DDG_REAL_FLOAT")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH pc_up /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
  string(REGEX REPLACE "/$" "" pc_up "${pc_up}")
  set(pc_prefix "\${pcfiledir}/${pc_up}")
endif()
configure_file(cmake/dgrid.pc.in ${PROJECT_BINARY_DIR}/dgrid.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/dgrid.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
