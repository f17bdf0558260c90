# gpu-deps.sh - sourced by the GPU scripts (bash): sets the array cmake_args
# for a Release build and, on a machine that lacks GSL or the HDF5 tools (the
# lent GPU machines), unpacks the Debian packages in .debs/ to /tmp/debs and
# points CMake, LD_LIBRARY_PATH and PATH there (never into /).  Fetch them
# here, in the repository root (.debs is ignored):
#   mkdir -p .debs && (cd .debs && apt-get download libgsl-dev libgsl27 libgslcblas0 hdf5-tools)
# and, for an MPI build (Open MPI is there, its HDF5 is serial):
#   (cd .debs && apt-get download libhdf5-openmpi-dev libhdf5-openmpi-103-1 libhdf5-openmpi-hl-100)
# shellcheck shell=bash
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DDGRID_WERROR=OFF)
mpi_cmake_args=() # added to cmake_args for a -DDGRID_MPI=ON build
if ls .debs/*.deb >/dev/null 2>&1; then
  rm -rf /tmp/debs && mkdir -p /tmp/debs
  for f in .debs/*.deb; do dpkg -x "$f" /tmp/debs; done
  gl=/tmp/debs/usr/lib/x86_64-linux-gnu
  if [ ! -e /usr/include/gsl/gsl_sf.h ] && [ -e /tmp/debs/usr/include/gsl/gsl_sf.h ]; then
    # a prefix, not GSL's cache variables: the install tests hand the build's
    # CMAKE_PREFIX_PATH to the examples' configure; pkg-config finds gsl.pc (its
    # prefix says /usr, so the compiler's own search paths point at the copy)
    cmake_args+=(-DCMAKE_PREFIX_PATH=/tmp/debs/usr)
    export LD_LIBRARY_PATH=$gl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LIBRARY_PATH=$gl${LIBRARY_PATH:+:$LIBRARY_PATH}
    export CPATH=/tmp/debs/usr/include${CPATH:+:$CPATH}
    export PKG_CONFIG_PATH=$gl/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  fi
  # h5dump/h5ls for tests/io and tests/app
  command -v h5dump >/dev/null 2>&1 || export PATH=$PATH:/tmp/debs/usr/bin
  # A parallel HDF5 for an MPI build (scripts/mpi-speed.sh) where the system has
  # only the serial one: Debian's libhdf5-openmpi packages, whose compiler wrapper
  # is told where the copy lies (its prefix line is meant to be edited when moved)
  w=/tmp/debs/usr/bin/h5pcc.openmpi
  if ! command -v h5pcc >/dev/null 2>&1 && [ -e $w ]; then
    sed -i 's|^prefix="/usr"$|prefix="/tmp/debs/usr"|' $w
    command -v mpicc.openmpi >/dev/null 2>&1 || sed -i 's|"mpicc.openmpi"|"mpicc"|' $w
    mpi_cmake_args+=(-DHDF5_C_COMPILER_EXECUTABLE=$w)
  fi
fi
