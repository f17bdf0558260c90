#!/bin/bash
# gpu-sphere.sh - the sphere's measurements on a leased GPU machine, in steps
# that each fit one call (logs and CSVs under $OUT):
#   scripts/gpu-sphere.sh build [BASE_SRC]
#       OpenMP (build-omp) and CUDA (build-cuda, with gpu.consistency) builds of
#       this tree, every model; with BASE_SRC (a source tree, e.g. `git archive`
#       of the commit to compare with) also its bench in both backends
#       (BASE_SRC/build-omp, BASE_SRC/build-cuda; the advection model only), all
#       at once
#   scripts/gpu-sphere.sh check
#       CUDA ctest of the sphere and the models, gpu.consistency, then the
#       sphere/planar speed ratio (scripts/sphere-speed.sh) and the latitude
#       map's cost against its DOF share (bench --map latitude) on both backends
#   scripts/gpu-sphere.sh ab BASE_SRC [ROUNDS]
#       constant-velocity advection, BASE_SRC against this tree, interleaved
#       (scripts/bench-ab.sh), CUDA at 16M DOFs and OpenMP at 4M DOFs
#   scripts/gpu-sphere.sh tables
#       Williamson's test 1 tables (scripts/sphere-table.sh): n >= 40 on the GPU,
#       n <= 20 on the CPU at the same time
# Environment: OUT [./gpu-sphere-out]; tables: SPHERE_N_GPU [40 80], SPHERE_N_CPU
# [10 20] (empty: no CPU part), SPHERE_ALPHA_GPU and SPHERE_ALPHA_CPU [the three
# angles], SPHERE_TAG (file names) [t]; SPHERE_R and SPHERE_INITIAL as in
# scripts/sphere-table.sh.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-sphere-out}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
mode=${1:-}
ncpu=$(nproc)
note() { echo "== [$SECONDS s] $*"; }

case $mode in
build)
  base=${2:-}
  cmake -S . -B build-omp "${cmake_args[@]}" -DDGRID_FORTRAN_REFERENCE=OFF \
    >"$OUT/configure-omp.log" 2>&1 || tail -20 "$OUT/configure-omp.log"
  cmake -S . -B build-cuda "${cmake_args[@]}" -DDGRID_BACKEND=cuda -DDGRID_FORTRAN_REFERENCE=OFF \
    -DDGRID_OMP_ADVECT="$ROOT/build-omp/apps/advect" \
    >"$OUT/configure-cuda.log" 2>&1 || tail -20 "$OUT/configure-cuda.log"
  pids=()
  cmake --build build-omp -j 5 >"$OUT/build-omp.log" 2>&1 &
  pids+=($!)
  cmake --build build-cuda -j 8 >"$OUT/build-cuda.log" 2>&1 &
  pids+=($!)
  if [ -n "$base" ]; then
    (cd "$base" && cmake -S . -B build-omp "${cmake_args[@]}" -DDGRID_FORTRAN_REFERENCE=OFF \
      -DDGRID_MODELS=advection >"$OUT/base-configure-omp.log" 2>&1 &&
      cmake --build build-omp -j 2 --target bench >"$OUT/base-build-omp.log" 2>&1) &
    pids+=($!)
    (cd "$base" && cmake -S . -B build-cuda "${cmake_args[@]}" -DDGRID_BACKEND=cuda \
      -DDGRID_FORTRAN_REFERENCE=OFF -DDGRID_MODELS=advection \
      >"$OUT/base-configure-cuda.log" 2>&1 &&
      cmake --build build-cuda -j 3 --target bench >"$OUT/base-build-cuda.log" 2>&1) &
    pids+=($!)
  fi
  names=(omp cuda base-omp base-cuda)
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    note "build ${names[$i]}: rc=$?"
  done
  for f in "$OUT"/build-*.log "$OUT"/base-build-*.log; do
    [ -e "$f" ] && grep -m3 -E "error|Error" "$f"
  done
  ;;
check)
  note "CUDA ctest (sphere, models)"
  (cd build-cuda && OMP_NUM_THREADS=2 ctest -j 8 -R "sphere|model|unit.team|unit.own_q" \
    --output-on-failure >"$OUT/ctest-cuda.log" 2>&1)
  tail -4 "$OUT/ctest-cuda.log"
  grep -E "Failed|\*\*\*" "$OUT/ctest-cuda.log" | head
  note "gpu.consistency"
  (cd build-cuda && ctest -R gpu.consistency --output-on-failure >"$OUT/consistency.log" 2>&1)
  tail -3 "$OUT/consistency.log"
  cp build-cuda/tests/gpu/consistency/summary.txt "$OUT/consistency-cases.txt" 2>/dev/null
  grep sphere "$OUT/consistency-cases.txt" | head -12
  note "sphere / planar speed, CUDA"
  bash scripts/sphere-speed.sh build-cuda 3 1,3,5 16M 2>&1 | tee "$OUT/speed-cuda.txt"
  note "sphere / planar speed, OpenMP ($ncpu threads)"
  OMP_NUM_THREADS=$ncpu OMP_PROC_BIND=close OMP_PLACES=cores \
    bash scripts/sphere-speed.sh build-omp 3 1,3,5 4M 2>&1 | tee "$OUT/speed-omp.txt"
  for b in cuda omp; do
    note "latitude map against uniform, $b"
    size=16M
    [ $b = omp ] && size=4M
    OMP_NUM_THREADS=$ncpu OMP_PROC_BIND=close OMP_PLACES=cores build-$b/apps/bench --grid latlon \
      --model sphere_advection --initial hill --degrees 3,5 --degree-min 1 --sizes $size \
      --maps uniform,latitude --no-peak --repeats 5 --csv "$OUT/latitude-$b.csv" \
      >"$OUT/latitude-$b.txt" 2>&1
    grep -E "latitude .* vs uniform" "$OUT/latitude-$b.txt"
  done
  ;;
ab)
  base=$2
  rounds=${3:-3}
  export CUDA_MODULE_LOADING=EAGER
  note "A/B CUDA, constant velocity, 16M"
  bash scripts/bench-ab.sh -n "$rounds" -o "$OUT/ab-cuda.csv" "$base/build-cuda" build-cuda \
    --dims 2,3 --degrees 1,3,5,7 --sizes 16M --maps uniform --integrators ssprk3 \
    >"$OUT/ab-cuda.txt" 2>&1
  cat "$OUT/ab-cuda.txt" | tail -12
  note "A/B OpenMP ($ncpu threads), constant velocity, 4M"
  OMP_NUM_THREADS=$ncpu OMP_PROC_BIND=close OMP_PLACES=cores \
    bash scripts/bench-ab.sh -n "$rounds" -o "$OUT/ab-omp.csv" "$base/build-omp" build-omp \
    --dims 2,3 --degrees 1,3,5,7 --sizes 4M --maps uniform --integrators ssprk3 \
    >"$OUT/ab-omp.txt" 2>&1
  cat "$OUT/ab-omp.txt" | tail -12
  ;;
tables)
  # the CPU and GPU parts run at once, each its own grids and angles
  ag=${SPHERE_ALPHA_GPU:-0 1.5207963267948966 1.5707963267948966}
  ac=${SPHERE_ALPHA_CPU:-0 1.5207963267948966 1.5707963267948966}
  tag=${SPHERE_TAG:-t}
  note "tables: n = ${SPHERE_N_CPU:-10 20} on the CPU, n = ${SPHERE_N_GPU:-40 80} on the GPU"
  if [ -n "${SPHERE_N_CPU-x}" ]; then
    (SPHERE_N="${SPHERE_N_CPU:-10 20}" SPHERE_ALPHA="$ac" SPHERE_JOBS=$((ncpu / 2)) \
      OMP_NUM_THREADS=2 bash scripts/sphere-table.sh build-omp/apps/advect \
      "$OUT/table-$tag-cpu.csv" >"$OUT/table-$tag-cpu.log" 2>&1) &
  fi
  pc=$!
  SPHERE_N="${SPHERE_N_GPU:-40 80}" SPHERE_ALPHA="$ag" SPHERE_JOBS=2 \
    bash scripts/sphere-table.sh build-cuda/apps/advect "$OUT/table-$tag-gpu.csv" \
    >"$OUT/table-$tag-gpu.log" 2>&1
  note "GPU part: rc=$?"
  wait $pc
  note "CPU part: rc=$?"
  cat "$OUT"/table-$tag-*.csv | grep -E "^#|FAILED"
  ;;
*)
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
