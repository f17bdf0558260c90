#!/bin/sh
# Install what is missing (Debian 12, as root), build dgrid (OpenMP backend),
# run the cosine-bell example on a latitude-like degree map (2 near the
# y-boundaries, 4 in the middle) and draw it.  Output: build/example/.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
# the library and advect only; the stage kernels the run needs are compiled
# when it first needs them (README, "What compiles when")
cmake --build build -j"$(nproc)" --target advect
mkdir -p build/example
./build/apps/advect --init bell --cells 64x64 --map band --degree 4 --degree-min 2 --integrator ssprk3 --cfl 0.5 \
  --t-end 1 --progress-every 200 --history --output build/example/bell.h5
# Debian's python3 carries matplotlib/h5py; prefer it over another python3 on PATH
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" tools/plot --out-dir build/example build/example/bell.h5
echo "quickstart: the solution, degree map, error and history are in build/example/bell_*.png"
