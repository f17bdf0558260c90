#!/bin/sh
# Debian packages dgrid needs to build, test and plot; installs only what is missing.
set -eu
pkgs="cmake make gcc g++ gfortran pkgconf libgsl-dev libhdf5-dev hdf5-tools python3 python3-numpy python3-matplotlib python3-h5py"
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
