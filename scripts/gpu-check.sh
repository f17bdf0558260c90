#!/bin/bash
# gpu-check.sh - everything the CUDA backend needs checked on a machine with an
# NVIDIA GPU, in one go (for a leased GPU machine: one call, logs under $OUT):
#   1. GSL and h5dump/h5ls from .debs/*.deb when the system lacks them (see below);
#   2. configure + build the CUDA build (build-cuda: both backends, --backend omp|cuda,
#      the solvers' too);
#   3. at once (a cold kernel cache makes them compile-bound): the backend consistency
#      tests (tests/gpu), ctest in the CUDA build, the largest kernels (3D degree 10, q 12);
#   4. compute-sanitizer memcheck and racecheck on small advect runs, and the no-GPU
#      message;
#   5. a benchmark: apps/bench when it is built (uniform 1..7 and a band map 1..7 at
#      16M DOFs in 2D, forward Euler; the GridTools case), else advect timings;
#   6. a short table, printed last.
# Exit status: 0 when every check passed, 1 otherwise (the table says which).
#
# GSL and the HDF5 tools on a machine without them: here, in the repository root,
#   mkdir -p .debs && (cd .debs && apt-get download libgsl-dev libgsl27 libgslcblas0 hdf5-tools)
# (.debs is ignored); the script unpacks them to /tmp/debs and uses what the system lacks.
#
# Environment (all optional):
#   OUT              where logs, CSVs and the table go            [./gpu-check-out]
#   JOBS             parallel build jobs                          [nproc]
#   GPU_CHECK_SANITIZER 0: skip compute-sanitizer                  [1]
#   GPU_CHECK_BIG    0: skip the largest kernels (their NVRTC compile takes minutes) [1]
#   GPU_CHECK_PHASE_END seconds from the start by which the tests must end, so
#                    that the sanitizers and the benchmark still fit a 600-second
#                    command                                       [500]
#   GPU_CHECK_CTEST_LIMIT seconds for the CUDA build's ctest (a cold kernel cache
#                    compiles what the tests run)                 [to the phase end]
#   GPU_CHECK_CTEST_REGEX only the CUDA build's tests matching it (ctest -R), to
#                    rerun what failed without the whole suite's compiles  [all]
#   GPU_CHECK_CONSISTENCY_LIMIT seconds for ctest -L gpu           [to the phase end]
#   GPU_CHECK_CONSISTENCY_REGEX only the consistency tests matching it (ctest -R)
#   GPU_CHECK_BENCH  full | quick | none                          [full]
#   GPU_CHECK_SWEEP  backend settings to time the 16M benchmark again with, each a
#                    VAR=VALUE ("DGRID_CUDA_STREAMS=1 DGRID_CUDA_BLOCK=64"; backends/cuda/
#                    README.md), while less than GPU_CHECK_SWEEP_BEFORE [420] s have passed
#   GPU_CHECK_SW     1: the shallow-water speed (scripts/gpu-sw.sh speed) -> bench-sw.txt
#   GPU_CHECK_NCU    1: profile the update kernel (ncu) at degrees 1, 3, 5, 7 -> ncu.txt
#   GPU_CHECK_PACK   1: pack the logs into $OUT/logs.tgz at the end (few files come back
#                    from a leased machine)                                [1]
# Each step runs under `timeout`, so one hung step cannot eat the lease.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
FINAL=${OUT:-$ROOT/gpu-check-out}
OUT=$FINAL/logs # every log; packed at the end
mkdir -p "$OUT"
JOBS=${JOBS:-$(nproc)}
BENCH=${GPU_CHECK_BENCH:-full}
TABLE=$FINAL/table.txt
: >"$TABLE"
overall=0
T0=$(date +%s)

row() { printf '%-34s %-6s %s\n' "$1" "$2" "$3" >>"$TABLE"; }
note() { echo "== [$(($(date +%s) - T0)) s] $*"; }
# check NAME LOG SECONDS CMD...: run under timeout, log, one table row
check() {
  local name=$1 log=$2 limit=$3
  shift 3
  local t=$(date +%s)
  timeout "$limit" "$@" >"$log" 2>&1
  local rc=$?
  local dt=$(($(date +%s) - t))
  if [ $rc -eq 0 ]; then
    row "$name" ok "${dt} s"
  else
    local why="rc=$rc"
    [ $rc -eq 124 ] && why="timed out after $limit s"
    row "$name" FAIL "$why, ${dt} s, see logs/$(basename "$log")"
    overall=1
  fi
  return $rc
}

note "machine"
{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -n 2
  cmake --version | head -n 1
  gcc --version | head -n 1
  command -v gfortran h5cc h5dump compute-sanitizer || true
  ls -d /usr/include/hdf5* /usr/lib/x86_64-linux-gnu/libhdf5*.so* 2>/dev/null | head -n 8
} 2>&1 | tee "$OUT/machine.txt"

# ---- dependencies: packages missing here, unpacked from .debs (never into /)
note "dependencies"
. scripts/gpu-deps.sh
command -v gfortran >/dev/null 2>&1 || cmake_args+=(-DDGRID_FORTRAN_REFERENCE=OFF)

# ---- the build (one CUDA build carries both backends)
note "configure"
variants=cuda
check "configure cuda" "$OUT/configure-cuda.log" 120 cmake -S . -B build-cuda "${cmake_args[@]}" \
  -DDGRID_BACKEND=cuda || { tail -n 30 "$OUT/configure-cuda.log"; }
note "build (jobs $JOBS)"
tb=$(date +%s)
cmake --build build-cuda -j "$JOBS" >"$OUT/build-cuda.log" 2>&1
rc_cuda=$?
for v in $variants; do
  eval "rc=\$rc_$v"
  if [ "$rc" -eq 0 ]; then row "build $v" ok "$(($(date +%s) - tb)) s"; else
    row "build $v" FAIL "see build-$v.log"
    overall=1
    grep -E "error|Error" "$OUT/build-$v.log" | head -n 20
  fi
done
A=build-cuda/apps/advect
if [ ! -x $A ]; then
  echo "no CUDA advect: stopping"
  cat "$TABLE"
  exit 1
fi

# ---- tests: the backends against each other first (every model), then the
# CUDA build's own suite; both fill the build's kernel cache (cold at first)
# A cold kernel cache makes these compile-bound (NVRTC and gcc on the CPU cores, the
# GPU idle most of the time), so they run at once: the consistency tests, the CUDA
# build's suite and the largest kernels' compile, in the background, each under its
# own limit; a unit two of them need is compiled once (the cache's lock).
# check_bg NAME LOG SECONDS CMD...: check in the background, its status in LOG.rc
check_bg() {
  local log=$2
  (
    check "$@"
    echo $? >"$log.rc"
  ) &
}
note "at once: consistency CUDA vs OpenMP (ctest -L gpu), ctest (CUDA build), largest kernels"
phase=$((${GPU_CHECK_PHASE_END:-500} - ($(date +%s) - T0)))
[ "$phase" -gt 60 ] || phase=60
check_bg "consistency (1e-12)" "$OUT/consistency.log" "${GPU_CHECK_CONSISTENCY_LIMIT:-$phase}" \
  ctest --test-dir build-cuda --output-on-failure -V -j 4 -L gpu ${GPU_CHECK_CONSISTENCY_REGEX:+-R "$GPU_CHECK_CONSISTENCY_REGEX"}
if [ -n "${GPU_CHECK_CTEST_REGEX:-}" ]; then
  check_bg "ctest cuda -R '$GPU_CHECK_CTEST_REGEX'" "$OUT/ctest-cuda.log" \
    "${GPU_CHECK_CTEST_LIMIT:-$phase}" ctest --test-dir build-cuda --output-on-failure -j "$JOBS" \
    -LE "gpu|slow|cuda" -R "$GPU_CHECK_CTEST_REGEX"
else
  # label cuda: the compile-only tests CI runs where there is no GPU
  check_bg "ctest cuda (all but gpu.*, slow)" "$OUT/ctest-cuda.log" "${GPU_CHECK_CTEST_LIMIT:-$phase}" \
    ctest --test-dir build-cuda --output-on-failure -j "$JOBS" -LE "gpu|slow|cuda"
fi
if [ "${GPU_CHECK_BIG:-1}" = 1 ]; then
  check_bg "3D r=10 q=12 (largest scratch)" "$OUT/big3d.log" 400 $A --dim 3 --cells 2x2x2 \
    --degree 10 --q 12 --steps 1 --integrator rk4 --quiet --output /tmp/big3.h5
  check_bg "2D r=10 q=12" "$OUT/big2d.log" 300 $A --cells 8x8 --degree 10 --q 12 --steps 2 \
    --quiet --output /tmp/big2.h5
fi
wait
for f in "$OUT"/*.log.rc; do
  [ "$(cat "$f")" = 0 ] || overall=1
done
grep -E "^[0-9]+: consistency:|backends_check:|tests passed|No tests|Passed|Failed" "$OUT/consistency.log"
cat build-cuda/tests/gpu/consistency_*d/summary.txt >"$OUT/consistency-cases.txt" 2>/dev/null
row "  largest rel_l2_diff" "" "$(sed -n 's/.*largest rel_l2_diff //p' "$OUT/consistency.log")"
grep -E "tests passed|Failed|\*\*\*" "$OUT/ctest-cuda.log" | tail -n 15
# where the cold cache's time went: the kernel units by backend and model
# (NVRTC or GCC seconds summed) and the slowest tests
{
  echo "units compiled (backend model: count, seconds summed, largest)"
  DGRID_CACHE_DIR=$ROOT/build-cuda/kernel-cache $A cache list 2>&1 | tee "$OUT/cache-list.txt" |
    awk '$5 == "s" { k = $6 " " $7; n[k]++; t[k] += $4; if ($4 > m[k]) m[k] = $4; all += $4 }
      END { for (k in n) printf "  %-28s %4d %8.1f s %6.1f s\n", k, n[k], t[k], m[k]
            printf "  %-28s %13.1f s\n", "all", all }' | sort -k4 -n -r
  echo "slowest tests"
  cat "$OUT/ctest-cuda.log" "$OUT/consistency.log" | grep -E "Test +#[0-9]+: .* sec" |
    sed 's/.*Test *#[0-9]*: \([^ ]*\) .* \([0-9.]*\) sec.*/\2 \1/' | sort -n -r | head -n 15
} >"$FINAL/cold-cache.txt" 2>&1

note "compute-sanitizer"
small=(--cells 8x6 --map random --degree-min 0 --degree 4 --velocity rotation --steps 2
  --integrator ssprk3 --quiet --output /tmp/san.h5)
small3=(--dim 3 --cells 3x3x2 --map band --degree-min 1 --degree 3 --steps 1 --quiet
  --output /tmp/san3.h5)
tools="memcheck racecheck"
[ "${GPU_CHECK_SANITIZER:-1}" = 1 ] || tools=""
for tool in $tools; do
  extra=()
  [ $tool = memcheck ] && extra=(--leak-check full)
  check "sanitizer $tool" "$OUT/sanitizer-$tool.log" 240 bash -c "
    compute-sanitizer --tool $tool ${extra[*]} --error-exitcode 3 $A ${small[*]} &&
    compute-sanitizer --tool $tool ${extra[*]} --error-exitcode 3 $A ${small3[*]}"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY" "$OUT/sanitizer-$tool.log"
done
note "the no-GPU message"
CUDA_VISIBLE_DEVICES= timeout 60 $A --steps 1 --quiet --output /tmp/nogpu.h5 >"$OUT/nogpu.log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "no CUDA device" "$OUT/nogpu.log"; then
  row "no GPU: clear message" ok "rc=$rc: $(head -c 90 "$OUT/nogpu.log")"
else
  row "no GPU: clear message" FAIL "rc=$rc, see nogpu.log"
  overall=1
fi

# ---- benchmark
B=build-cuda/apps/bench
if [ "$BENCH" != none ] && [ -x $B ]; then
  note "bench"
  bargs=(--quiet --min-time 0.1 --repeats 3 --warmup 0.1)
  cases=(--degrees 1-7 --maps uniform,band --integrators euler,lsrk4)
  if [ "$BENCH" = quick ]; then
    bargs=(--quiet --min-time 0.05 --repeats 2 --warmup 0.05)
    cases=(--degrees 1,3,5,7 --maps uniform --integrators lsrk4)
  fi
  check "bench 2D 16M" "$OUT/bench-16M.log" 420 $B --dims 2 --sizes 16M --degree-min 1 \
    "${cases[@]}" "${bargs[@]}" --csv "$OUT/bench-16M.csv"
  cp "$OUT/bench-16M.log" "$FINAL/bench-16M.txt"
  check "bench gridtools 200x200" "$OUT/bench-gridtools.log" 120 $B --gridtools \
    --csv "$OUT/bench-gridtools.csv" --quiet
  cp "$OUT/bench-gridtools.log" "$FINAL/bench-gridtools.txt"
  for v in ${GPU_CHECK_SWEEP:-}; do
    [ $(($(date +%s) - T0)) -lt "${GPU_CHECK_SWEEP_BEFORE:-420}" ] || break
    check "bench sweep $v" "$OUT/bench-sweep-$v.log" 120 env "$v" $B --dims 2 --degrees 1-7 \
      --sizes 16M --maps uniform,band --degree-min 1 --integrators euler --min-time 0.05 \
      --repeats 2 \
      --warmup 0.05 --quiet --csv "$OUT/bench-sweep-$v.csv"
    echo "--- $v" >>"$FINAL/bench-sweep.txt"
    cat "$OUT/bench-sweep-$v.log" >>"$FINAL/bench-sweep.txt"
  done
elif [ "$BENCH" != none ]; then
  note "advect timings (no apps/bench in this tree)"
  export CUDA_MODULE_LOADING=EAGER
  adv() { # LABEL ARGS...: wall_s of the stepping loop
    local label=$1
    shift
    $A "$@" --quiet --integrator euler --output /tmp/bench.h5 >/tmp/adv.log 2>&1 ||
      { row "$label" FAIL "$(tail -n 1 /tmp/adv.log)"; overall=1; return; }
    local line=$(tail -n 1 /tmp/adv.log)
    echo "$label $line" >>"$OUT/advect-timings.txt"
    local w=$(sed -n 's/.*wall_s=\([^ ]*\).*/\1/p' <<<"$line")
    local d=$(sed -n 's/.*dofs=\([^ ]*\).*/\1/p' <<<"$line")
    local s=$(sed -n 's/.* steps=\([^ ]*\).*/\1/p' <<<"$line")
    row "$label" "" "dofs=$d steps=$s wall=${w}s per_step=$(awk -v w=$w -v s=$s 'BEGIN{printf "%.3g ms", 1e3*w/s}')"
  }
  for r in 1 2 3 4 5 6 7; do
    n=$(awk -v r=$r 'BEGIN { printf "%d", sqrt(16777216 / ((r + 1) * (r + 1))) + 0.5 }')
    adv "advect uniform $r ${n}x${n}" --cells ${n}x${n} --degree $r --steps 20
  done
  n=$(awk 'BEGIN { printf "%d", sqrt(16777216 / 64) + 0.5 }')
  adv "advect band 1..7 ${n}x${n}" --cells ${n}x${n} --map band --degree-min 1 --degree 7 --steps 20
  adv "advect gridtools band 1..4" --cells 200x200 --map band --degree-min 1 --degree 4 --steps 40
  adv "advect gridtools uniform 4" --cells 200x200 --degree 4 --steps 40
fi

# ---- shallow water (optional): its speed on both backends (scripts/gpu-sw.sh)
if [ "${GPU_CHECK_SW:-0}" = 1 ]; then
  note "shallow-water speed"
  OUT=$FINAL/sw check "shallow-water speed" "$OUT/sw-speed.log" 300 scripts/gpu-sw.sh speed
  cp "$OUT/sw-speed.log" "$FINAL/bench-sw.txt"
fi

# ---- profile (optional): what limits the update kernel, per degree
if [ "${GPU_CHECK_NCU:-0}" = 1 ] && command -v ncu >/dev/null 2>&1; then
  note "ncu"
  for r in 1 3 5 7; do
    n=$(awk -v r=$r 'BEGIN { printf "%d", sqrt(4194304 / ((r + 1) * (r + 1))) + 0.5 }')
    timeout 120 ncu --clock-control none -k regex:dg_cuda_update -c 1 --section SpeedOfLight \
      --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      --metrics l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      $A --cells ${n}x${n} --degree $r --steps 2 --integrator euler --quiet \
      --output /tmp/ncu.h5 >"$OUT/ncu-r$r.log" 2>&1
    {
      echo "--- update kernel, 2D uniform degree $r, ${n}x${n} cells"
      grep -E "^  [a-z]|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Compute \(SM\) Throughput|local_op|dram__bytes|Mem Busy|Max Bandwidth" \
        "$OUT/ncu-r$r.log" | grep -v "^==" | head -n 24
    } >>"$FINAL/ncu.txt"
  done
fi

echo
echo "gpu-check: $(($(date +%s) - T0)) s; logs in $OUT"
if [ "${GPU_CHECK_PACK:-1}" = 1 ]; then
  tar czf "$FINAL/logs.tgz" -C "$FINAL" logs && rm -rf "$OUT" && echo "(packed into $FINAL/logs.tgz)"
  OUT=$FINAL/logs.tgz
fi
for f in "$FINAL"/cold-cache.txt "$FINAL"/bench*.txt "$FINAL"/ncu.txt; do
  [ -f "$f" ] && { echo "--- $(basename "$f")"; cat "$f"; }
done
echo "--- gpu-check table"
cat "$TABLE"
exit $overall
