#!/bin/bash
# gpu-quick-check.sh - a reduced check for a short lease (one or two calls): 2D CUDA
# and OpenMP builds of the models advection, sphere_advection and
# advection_diffusion (built at the same time), then
#   1. the solvers' applies of the CUDA plans against the element functions
#      (test_solvers_lane, DGRID_CUDA_SOP=line, team and element) and the element
#      plan's V(2,2) patch table on 512^2 (against the default plan's figures),
#      and the default (line) plan's V(2,2) table from 16^2 to 1024^2 elements, degrees 1..6;
#   2. the sphere and planar advection across backends
#      (tests/gpu/consistency.sh --quick --dims 2);
#   3. sphere / planar throughput (scripts/sphere-speed.sh) on the GPU (16M
#      DOFs) and on the machine's CPU (16 threads, 4M DOFs).
# Every step runs under timeout; summary.txt under $OUT says what ran.
# Environment: OUT [./gpu-quick-out], QUICK_BUDGET seconds [590], QUICK_BUILD_S the CUDA
# build's limit [480: the advection model's two 2D units alone took over 5 minutes on the
# lent machine's 16 cores, 2026-11-25, and a first call that stopped at 330 s ran nothing],
# JOBS [nproc].  On a cold machine expect the build to take most of one call: a second call
# on the still-warm machine rebuilds nothing.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-quick-out}
mkdir -p "$OUT"
JOBS=${JOBS:-$(nproc)}
BUDGET=${QUICK_BUDGET:-590}
T0=$(date +%s)
SUM=$OUT/summary.txt
: >"$SUM"
note() { echo "== [$(($(date +%s) - T0)) s] $*" | tee -a "$SUM"; }
# step NAME LIMIT CMD...: under timeout (at most the time left), log in $OUT/NAME.log
step() {
  local name=$1 limit=$2 l
  shift 2
  l=$((BUDGET - $(date +%s) + T0))
  [ "$l" -lt "$limit" ] && limit=$l
  if [ "$limit" -lt 15 ]; then
    note "$name: SKIPPED (time spent)"
    return 1
  fi
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  note "$name: rc=$rc"
  return $rc
}
# shellcheck source=gpu-deps.sh
. scripts/gpu-deps.sh
cmake_args+=(-DDGRID_FORTRAN_REFERENCE=OFF "-DDGRID_MODELS=advection;sphere_advection;advection_diffusion")
(cmake -S . -B build-omp-q "${cmake_args[@]}" &&
  cmake --build build-omp-q -j "$JOBS" --target advect bench compare) >"$OUT/build-omp.log" 2>&1 &
omp=$!
step configure-cuda 60 cmake -S . -B build-cuda-q "${cmake_args[@]}" -DDGRID_BACKEND=cuda
step build-cuda "${QUICK_BUILD_S:-480}" cmake --build build-cuda-q -j "$JOBS" --target advect bench poisson \
  test_solvers_lane || tail -20 "$OUT/build-cuda.log"
wait $omp || note "build-omp: FAIL"
C=build-cuda-q
for plan in line team element; do
  step "lane-$plan" 60 env DGRID_CUDA_SOP=$plan $C/tests/solvers/test_solvers_lane
  grep -E "FAIL|agree|failed" "$OUT/lane-$plan.log" | head -5 | tee -a "$SUM"
done
step patch-table 150 $C/apps/poisson --table --dim 2 --rmin 1 --rmax 6 --nmin 16 --nmax 1024 \
  --repeat 1 --smooth 2 --smoother patch
tee -a "$SUM" <"$OUT/patch-table.log"
step consistency 150 sh tests/gpu/consistency.sh --cuda $C/apps/advect --omp build-omp-q/apps/advect \
  --compare build-omp-q/apps/compare --workdir /tmp/consistency-q --quick --dims 2
tail -4 "$OUT/consistency.log" | tee -a "$SUM"
step sphere-gpu 120 bash scripts/sphere-speed.sh $C 3 1,3,5 16M
tail -6 "$OUT/sphere-gpu.log" | tee -a "$SUM"
step sphere-cpu 120 env OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores \
  bash scripts/sphere-speed.sh build-omp-q 3 1,3,5 4M
tail -6 "$OUT/sphere-cpu.log" | tee -a "$SUM"
step patch-element 90 env DGRID_CUDA_SOP=element $C/apps/poisson --table --dim 2 --rmin 1 \
  --rmax 6 --nmin 512 --nmax 512 --repeat 1 --smooth 2 --smoother patch
tee -a "$SUM" <"$OUT/patch-element.log"
note "done"
