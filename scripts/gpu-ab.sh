#!/bin/bash
# gpu-ab.sh - this tree's CUDA build against a baseline's, interleaved
# (scripts/bench-ab.sh), on a leased GPU machine.
#   scripts/gpu-ab.sh build  BASE_SRC   build BASE_SRC (a source tree, e.g.
#                                       `git archive c41ff6f`) into BASE_SRC/build-cuda;
#                                       BASE_CMAKE adds options (a baseline that compiles
#                                       every kernel ahead of time, such as d832c4a, fits
#                                       a lease with BASE_CMAKE="-DDGRID_MODELS=advection
#                                       -DDGRID_CUDA_DIMS=2")
#   scripts/gpu-ab.sh bench  BASE_SRC [ROUNDS [bench options]]
#                                       bench-ab BASE_SRC/build-cuda against
#                                       build-cuda (built by scripts/gpu-check.sh)
# Logs and the summary CSV go to $OUT.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
mode=$1
base=$2
OUT=${OUT:-$ROOT/gpu-ab-out}
mkdir -p "$OUT"
# shellcheck source-path=SCRIPTDIR source=gpu-deps.sh
. scripts/gpu-deps.sh
case $mode in
build)
  # shellcheck disable=SC2086
  (cd "$base" && cmake -S . -B build-cuda "${cmake_args[@]}" -DDGRID_BACKEND=cuda \
    -DDGRID_FORTRAN_REFERENCE=OFF ${BASE_CMAKE:-} \
    >"$OUT/base-configure.log" 2>&1 &&
    cmake --build build-cuda -j "$(nproc)" --target bench >"$OUT/base-build.log" 2>&1)
  echo "baseline build: rc=$?"
  ;;
bench)
  rounds=${3:-5}
  shift 3 2>/dev/null || shift $#
  export CUDA_MODULE_LOADING=EAGER
  bash scripts/bench-ab.sh -n "$rounds" -o "$OUT/ab.csv" "$base/build-cuda" build-cuda "$@" \
    2>&1 | tee "$OUT/ab.txt"
  ;;
esac
