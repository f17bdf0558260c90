#!/bin/bash
# gpu-variants.sh - compare compile-time variants of the CUDA backend on a GPU
# machine in one call: build each variant (2D kernels only, in parallel),
# then run apps/bench on each, alternating the variants over rounds so that
# a drift of the machine hits all alike.  Logs and CSVs go to $OUT.
#
#   GPU_VARIANTS='base=;mb4=-DDGRID_CUDA_MIN_BLOCKS=4' scripts/gpu-variants.sh [bench options]
#
# GPU_VARIANTS: NAME=CMAKE_ARGS entries separated by ';' (CMAKE_ARGS split on
# spaces).  Bench options default to: --dims 2 --degrees 1-7 --sizes 16M
# --maps uniform --integrators euler,lsrk4 --min-time 0.05 --repeats 3.
# GPU_ROUNDS: rounds [2].  Dependencies as in gpu-check.sh (scripts/gpu-deps.sh).
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/gpu-variants-out}
LOG=$(mktemp -d) # build logs, packed into $OUT/logs.tgz at the end (few files come back)
mkdir -p "$OUT"
IFS=';' read -r -a variants <<<"${GPU_VARIANTS:?set GPU_VARIANTS (see the header)}"
rounds=${GPU_ROUNDS:-2}
. scripts/gpu-deps.sh
if [ $# -eq 0 ]; then
  set -- --dims 2 --degrees 1-7 --sizes 16M --maps uniform --integrators euler,lsrk4 \
    --min-time 0.05 --repeats 3
fi
jobs=$(($(nproc) / ${#variants[@]}))
[ "$jobs" -lt 1 ] && jobs=1
pids=()
for v in "${variants[@]}"; do
  name=${v%%=*}
  args=${v#*=}
  # shellcheck disable=SC2086
  (cmake -S . -B "build-var-$name" "${cmake_args[@]}" -DDGRID_BACKEND=cuda \
    -DDGRID_FORTRAN_REFERENCE=OFF -DDGRID_CUDA_RESOURCE_USAGE=ON \
    $args >"$LOG/configure-$name.log" 2>&1 &&
    cmake --build "build-var-$name" -j "$jobs" --target bench >"$LOG/build-$name.log" 2>&1) &
  pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
if [ $fail -ne 0 ]; then
  echo "gpu-variants: a build failed:" >&2
  grep -h -E "error|Error" "$LOG"/build-*.log "$LOG"/configure-*.log | head -n 20 >&2
  tar -C "$LOG" -czf "$OUT/logs.tgz" .
  exit 1
fi
for ((round = 1; round <= rounds; round++)); do
  for v in "${variants[@]}"; do
    name=${v%%=*}
    echo "== round $round: $name (${v#*=})"
    "build-var-$name/apps/bench" "$@" --quiet --csv "$LOG/bench-$name-$round.csv" |
      tee "$OUT/bench-$name-$round.txt" | grep -E "^ +[23] "
  done
done
tar -C "$LOG" -czf "$OUT/logs.tgz" .
