#!/bin/bash
# gpu-quick-check.sh - the shortest GPU check of a change to the backends: the CUDA
# build of what the consistency tests need, then gpu.backends (every model's
# stages, CUDA against OpenMP in one process) and gpu.solver_consistency (the
# solvers and the implicit steps); then, while time is left (LIMIT seconds in
# all [190]), the CUDA backend across ranks (gpu-mpi.sh).  Logs under $OUT.
set -u
cd "$(dirname "$0")/.." || exit 1
O=${OUT:-$PWD/gpu-quick-out}
L=${LIMIT:-190}
mkdir -p "$O"
t0=$(date +%s)
left() { echo $((L - ($(date +%s) - t0))); }
# shellcheck source-path=SCRIPTDIR source=gpu-deps.sh
. scripts/gpu-deps.sh >"$O/deps.log" 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B build-cuda "${cmake_args[@]}" -DDGRID_BACKEND=cuda -DDGRID_FORTRAN_REFERENCE=OFF \
  >"$O/configure.log" 2>&1 || { tail -n 20 "$O/configure.log"; exit 1; }
timeout "$(left)" cmake --build build-cuda -j "$(nproc)" --target advect poisson advdiff compare \
  backends_check >"$O/build.log" 2>&1 || { grep -E "error" "$O/build.log" | head; tail -n 5 "$O/build.log"; exit 1; }
echo "== build $(($(date +%s) - t0)) s"
timeout "$(left)" ctest --test-dir build-cuda -R '^gpu\.(backends|solver_consistency)$' -j 2 \
  --output-on-failure -V >"$O/ctest.log" 2>&1
echo "== consistency rc=$? at $(($(date +%s) - t0)) s"
grep -E "backends_check:|largest|rel_l2|Passed|Failed|FAIL|tests passed" "$O/ctest.log" | tail -n 25
[ "$(left)" -gt 60 ] && OUT=$O/mpi timeout "$(left)" bash scripts/gpu-mpi.sh
echo "== end $(($(date +%s) - t0)) s"
