# gpu-deps.sh - sourced by the GPU scripts (bash): sets the array cmake_args
# for a Release build and, on a machine that lacks GSL or the HDF5 tools (the
# lent GPU machines), unpacks the Debian packages in .debs/ to /tmp/debs and
# points CMake, LD_LIBRARY_PATH and PATH there (never into /).  Fetch them
# here, in the repository root (.debs is ignored):
#   mkdir -p .debs && (cd .debs && apt-get download libgsl-dev libgsl27 libgslcblas0 hdf5-tools)
# shellcheck shell=bash
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DDGRID_WERROR=OFF)
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
fi
