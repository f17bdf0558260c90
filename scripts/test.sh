#!/bin/sh
# Install what is missing, build dgrid with warnings as errors and run the
# whole test suite through ctest.  Extra arguments go to ctest.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDGRID_WERROR=ON
cmake --build build -j"$(nproc)"
cd build && ctest --output-on-failure -j"$(nproc)" "$@"
