#!/bin/sh
# Debian packages dgrid needs to build, test and plot; installs only what is missing.
#   sh scripts/deps.sh       the one-process build (the README's quickstart)
#   sh scripts/deps.sh mpi   also MPI and the parallel HDF5 of a -DDGRID_MPI build
# The parallel HDF5 installs beside the serial one (headers and libraries in
# hdf5/openmpi and hdf5/serial); Debian's hdf5.pc alternative moves to the
# MPI flavour when it is installed; CMake's FindHDF5 asks the compiler
# wrapper first (h5cc or h5pcc, which cmake/dgrid_mpi.cmake chooses).
set -eu
pkgs="cmake make gcc g++ gfortran pkgconf libgsl-dev libhdf5-dev hdf5-tools python3 python3-numpy python3-matplotlib python3-h5py"
case "${1:-}" in
  "") ;;
  mpi) pkgs="$pkgs libopenmpi-dev openmpi-bin libhdf5-openmpi-dev" ;;
  *) echo "usage: sh scripts/deps.sh [mpi]" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $missing
fi
