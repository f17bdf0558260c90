#!/bin/bash
# gpu-ncu.sh - what limits the solvers' team kernels and the sphere's update
# kernel: Nsight Compute on one launch of each, in one device call (~8 min).
#   1. a CUDA build (2D kernels) of the models advection, sphere_advection
#      and advection_diffusion: apps poisson and advect;
#   2. ncu (SpeedOfLight, Occupancy, LaunchStats, WarpStateStats,
#      SchedulerStats, MemoryWorkloadAnalysis, InstructionStats,
#      SourceCounters) on: the SIPG team apply (double, float) and the
#      smoother's fused step at 2D degree NCU_R [3], 1024^2 elements; the
#      update kernel of the sphere (Williamson) and of planar constant
#      velocity at the same degree and about 8M DOFs;
#   3. a digest of the main figures of each profile in $OUT/digest.txt.
# Environment: OUT [./gpu-ncu-out], NCU_R [3], NCU_BUDGET seconds [500].
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-ncu-out}
mkdir -p "$OUT"
R=${NCU_R:-3}
BUDGET=${NCU_BUDGET:-500}
T0=$(date +%s)
left() { echo $((BUDGET - $(date +%s) + T0)); }
# shellcheck source=gpu-deps.sh
. scripts/gpu-deps.sh
B=build-ncu
timeout 90 cmake -S . -B $B "${cmake_args[@]}" -DDGRID_BACKEND=cuda -DDGRID_FORTRAN_REFERENCE=OFF \
  -DDGRID_MODELS='advection;sphere_advection;advection_diffusion' \
  >"$OUT/configure.log" 2>&1 || {
  tail -20 "$OUT/configure.log"
  exit 1
}
timeout "${NCU_BUILD_S:-330}" cmake --build $B -j "$(nproc)" --target poisson advect >"$OUT/build.log" 2>&1 || {
  grep -m5 -A5 error "$OUT/build.log"
  exit 1
}
echo "build: $(($(date +%s) - T0)) s"
SECT=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
  --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats
  --section SourceCounters)
# prof NAME KERNEL-REGEX SKIP CMD...: one launch after SKIP matching ones
prof() {
  local name=$1 kern=$2 skip=$3
  shift 3
  local l
  l=$(left)
  if [ "$l" -lt 30 ]; then
    echo "$name: skipped (time spent)"
    return
  fi
  [ "$l" -gt 120 ] && l=120
  timeout "$l" ncu --clock-control none -k "regex:$kern" --launch-skip "$skip" -c 1 "${SECT[@]}" \
    --page details "$@" >"$OUT/ncu-$name.txt" 2>&1
  echo "$name: rc=$? ($(($(date +%s) - T0)) s)"
  {
    echo "=== $name ($kern, degree $R)"
    grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Block Limit|Shared Memory Configuration Size|Dynamic Shared|Static Shared|Threads  |Grid Size|Executed Instructions  |Bank" \
      "$OUT/ncu-$name.txt" | grep -v "^==" | head -n 40
    # the stall reasons of WarpStateStats' guidance and the hottest source lines
    grep -E -A2 "OPT.*(stall|cycles)" "$OUT/ncu-$name.txt" | head -n 24
  } >>"$OUT/digest.txt"
}
P=$B/apps/poisson
A=$B/apps/advect
prof team_apply_d 'dg_sop_k_team_apply_d' 0 "$P" --throughput --dim 2 --n 1024 --r "$R" --repeat 1
prof team_apply_f 'dg_sop_k_team_apply_f' 0 "$P" --throughput --dim 2 --n 1024 --r "$R" --repeat 1
prof team_resid_d 'dg_sop_k_team_resid_block_d' 0 "$P" --throughput --dim 2 --n 1024 --r "$R" --repeat 1
n=$(awk -v r="$R" 'BEGIN { printf "%d", sqrt(8388608 / ((r + 1) * (r + 1)) / 2) + 0.5 }')
prof sphere 'dg_cuda_update' 3 "$A" --model sphere_advection --grid latlon --cells "$n" --degree "$R" \
  --initial hill --steps 2 --integrator ssprk3 --quiet
m=$(awk -v r="$R" 'BEGIN { printf "%d", sqrt(8388608 / ((r + 1) * (r + 1))) + 0.5 }')
prof planar 'dg_cuda_update' 3 "$A" --model advection --cells "${m}x$m" --degree "$R" --steps 2 \
  --integrator ssprk3 --quiet
echo "done: $(($(date +%s) - T0)) s"
cat "$OUT/digest.txt"
