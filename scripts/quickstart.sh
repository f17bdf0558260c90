#!/bin/sh
# Install what is missing (Debian 12, as root), build dgrid (OpenMP backend),
# run the cosine-bell example and draw it.  Output: build/example/.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
mkdir -p build/example
./build/apps/advect --init bell --cells 64x64 --degree 3 --integrator ssprk3 --cfl 0.5 \
  --t-end 1 --progress-every 200 --history --output build/example/bell.h5
if [ -x tools/plot ]; then
  python3 tools/plot build/example/bell.h5 --out-dir build/example
  echo "quickstart: pictures are in build/example/ (bell_*.png)"
fi
