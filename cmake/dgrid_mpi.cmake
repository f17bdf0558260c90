# dgrid_mpi.cmake - DGRID_MPI (ON, OFF, AUTO) and the HDF5 that goes with it.
#
# An MPI build needs an MPI for C and an HDF5 built for it (parallel HDF5:
# snapshots are written collectively, docs/ARCHITECTURE.md "Runs across
# ranks"); Debian: libopenmpi-dev openmpi-bin libhdf5-openmpi-dev
# (scripts/deps.sh mpi).  The serial and the parallel HDF5 install side by
# side; FindHDF5 takes the first compiler wrapper it finds, h5cc (serial)
# unless HDF5_PREFER_PARALLEL puts h5pcc first.  So:
#   OFF   MPI is not looked for, the serial HDF5 is preferred: nothing changes
#         and no MPI header is seen anywhere.
#   ON    MPI and a parallel HDF5 are required (an error says which is missing).
#   AUTO  ON where both are found, else OFF.
# The default is OFF until the apps run across ranks (CMakeLists.txt).
# Sets DG_MPI (0 or 1) and, with MPI, links MPI::MPI_C (DG_MPI_LINK).
string(TOUPPER "${DGRID_MPI}" dg_mpi_req)
if(dg_mpi_req MATCHES "^(1|TRUE|YES|Y)$")
  set(dg_mpi_req ON)
elseif(dg_mpi_req MATCHES "^(0|FALSE|NO|N)$")
  set(dg_mpi_req OFF)
endif()
if(NOT dg_mpi_req MATCHES "^(ON|OFF|AUTO)$")
  message(FATAL_ERROR "DGRID_MPI must be ON, OFF or AUTO, not '${DGRID_MPI}'")
endif()

set(dg_mpi_found FALSE)
if(NOT dg_mpi_req STREQUAL "OFF")
  if(dg_mpi_req STREQUAL "ON")
    find_package(MPI COMPONENTS C)
  else()
    find_package(MPI QUIET COMPONENTS C)
  endif()
  set(dg_mpi_found ${MPI_C_FOUND})
endif()

# FindHDF5 caches the wrapper it chose: when the preference changes (a build
# folder reconfigured with another DGRID_MPI), forget it and its libraries.
set(dg_h5_pref "serial")
if(dg_mpi_found)
  set(dg_h5_pref "parallel")
endif()
if(DEFINED DG_HDF5_PREFERENCE AND NOT DG_HDF5_PREFERENCE STREQUAL dg_h5_pref)
  get_cmake_property(dg_cache_vars CACHE_VARIABLES)
  foreach(v IN LISTS dg_cache_vars)
    if(v MATCHES "^HDF5_C_(COMPILER_EXECUTABLE|LIBRARY_.*)$")
      unset(${v} CACHE)
    endif()
  endforeach()
endif()
set(DG_HDF5_PREFERENCE "${dg_h5_pref}" CACHE INTERNAL "the HDF5 flavour the last configure preferred")
if(dg_mpi_found)
  set(HDF5_PREFER_PARALLEL TRUE)
else()
  set(HDF5_PREFER_PARALLEL FALSE)
endif()
find_package(HDF5 REQUIRED COMPONENTS C)

set(DG_MPI 0)
set(DG_MPI_LINK "")
if(dg_mpi_found AND HDF5_IS_PARALLEL)
  set(DG_MPI 1)
  set(DG_MPI_LINK MPI::MPI_C)
  message(STATUS "dgrid: MPI build (MPI ${MPI_C_VERSION}, parallel HDF5 ${HDF5_VERSION})")
elseif(dg_mpi_req STREQUAL "ON")
  if(NOT dg_mpi_found)
    message(FATAL_ERROR "DGRID_MPI=ON: no MPI for C found "
                        "(Debian: sh scripts/deps.sh mpi, or -DDGRID_MPI=OFF)")
  endif()
  message(FATAL_ERROR "DGRID_MPI=ON: the HDF5 found (${HDF5_C_COMPILER_EXECUTABLE}) is not parallel "
                      "(Debian: sh scripts/deps.sh mpi installs libhdf5-openmpi-dev)")
elseif(HDF5_IS_PARALLEL)
  # a parallel HDF5's headers include mpi.h: an MPI-free build cannot use it
  message(FATAL_ERROR "DGRID_MPI=${DGRID_MPI}: the only HDF5 found (${HDF5_C_COMPILER_EXECUTABLE}) "
                      "is parallel; install a serial one (Debian: libhdf5-dev) or build with MPI")
else()
  if(dg_mpi_req STREQUAL "AUTO")
    if(dg_mpi_found)
      message(STATUS "dgrid: MPI found but no parallel HDF5: a one-process build (DGRID_MPI=AUTO)")
    else()
      message(STATUS "dgrid: no MPI found: a one-process build (DGRID_MPI=AUTO)")
    endif()
  endif()
endif()
