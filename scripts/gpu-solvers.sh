#!/bin/bash
# gpu-solvers.sh - the solvers on a machine with an NVIDIA GPU, in one go:
#   build   a CUDA build (build-cuda-s, models advection and
#           advection_diffusion; both backends, --backend omp|cuda);
#   check   ctest of the solvers, the implicit layer and the backend
#           consistency of the solvers in the CUDA build;
#   bench   poisson --throughput and the fp64/mixed table on the GPU (2D,
#           degree 3, up to 16.8M unknowns) and on the CPU (--backend omp,
#           all cores, 1M);
#   table   the h- and p-independence table on the GPU: 2D, degrees 1..6,
#           16^2 .. 1024^2 elements (table-cuda-hp.txt).
# Logs go to $OUT (default ./gpu-solvers-out).  usage: gpu-solvers.sh STEP...
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/gpu-solvers-out}
mkdir -p "$OUT"
JOBS=${JOBS:-$(nproc)}
# shellcheck source=gpu-deps.sh
. scripts/gpu-deps.sh
command -v gfortran >/dev/null 2>&1 || cmake_args+=(-DDGRID_FORTRAN_REFERENCE=OFF)
rc=0
for step in "$@"; do
  case $step in
  build)
    cmake -S . -B build-cuda-s "${cmake_args[@]}" -DDGRID_BACKEND=cuda \
      '-DDGRID_MODELS=advection;advection_diffusion' >"$OUT/cfg-cuda.log" 2>&1 &&
      cmake --build build-cuda-s -j "$JOBS" >"$OUT/build-cuda.log" 2>&1 ||
      { echo "CUDA build failed"; grep -B2 -A8 -m3 "error" "$OUT/build-cuda.log" | head -60; rc=1; }
    ;;
  check)
    (cd build-cuda-s && timeout 500 ctest -R 'solvers|implicit|gpu.solver' --output-on-failure) \
      >"$OUT/ctest.log" 2>&1 || rc=1
    grep -E "tests passed|Failed|\*\*\*|FAIL" "$OUT/ctest.log" | head -30
    grep -E "^ok|FAIL|solves compared" build-cuda-s/Testing/Temporary/LastTest.log | head -20
    ;;
  bench)
    for r in 1 3 5; do
      build-cuda-s/apps/poisson --throughput --dim 2 --n 1024 --r $r --repeat 10
    done 2>&1 | tee "$OUT/throughput-cuda.txt"
    build-cuda-s/apps/poisson --table --dim 2 --rmin 3 --rmax 3 --nmin 256 --nmax 1024 --repeat 3 \
      2>&1 | tee "$OUT/table-cuda.txt"
    OMP_NUM_THREADS=$(nproc) build-cuda-s/apps/poisson --backend omp --throughput --dim 2 --n 256 --r 3 --repeat 10 \
      2>&1 | tee "$OUT/throughput-omp.txt"
    OMP_NUM_THREADS=$(nproc) build-cuda-s/apps/poisson --backend omp --table --dim 2 --rmin 3 --rmax 3 --nmin 256 \
      --nmax 256 --repeat 3 2>&1 | tee "$OUT/table-omp.txt"
    ;;
  table)
    build-cuda-s/apps/poisson --table --dim 2 --rmin 1 --rmax 6 --nmin 16 --nmax 1024 --repeat 1 \
      2>&1 | tee "$OUT/table-cuda-hp.txt"
    ;;
  *) echo "gpu-solvers.sh: unknown step '$step'" >&2; exit 2 ;;
  esac
done
exit $rc
