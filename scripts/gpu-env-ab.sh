#!/bin/bash
# gpu-env-ab.sh - compare run-time choices (environment settings) of one CUDA
# build on a GPU machine in one call: build once (2D kernels only), run the
# CUDA ctest cases named by GPU_TESTS and compute-sanitizer on them, then
# apps/bench under each setting, alternating the settings over rounds so that
# a drift of the machine hits all alike.  Logs and CSVs go to $OUT.
#
#   GPU_ENVS='element=DGRID_UPDATE=element;team=DGRID_UPDATE=team' scripts/gpu-env-ab.sh [bench options]
#
# GPU_ENVS: NAME=VAR=VALUE[,VAR=VALUE..] entries separated by ';'.  Bench
# options default to those of gpu-variants.sh.  GPU_ROUNDS: rounds [2].
# GPU_TESTS: a ctest -R regex run before the benchmark [unit.team; a 2D-only build];
# GPU_SANITIZE=1 also runs compute-sanitizer memcheck, racecheck and synccheck
# on the first test of GPU_SANITIZE_CMD [build/tests/unit/test_team].
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/gpu-env-ab-out}
LOG=$(mktemp -d) # logs and CSVs, packed into $OUT/logs.tgz at the end (few files come back)
mkdir -p "$OUT"
IFS=';' read -r -a envs <<<"${GPU_ENVS:?set GPU_ENVS (see the header)}"
rounds=${GPU_ROUNDS:-2}
. scripts/gpu-deps.sh
if [ $# -eq 0 ]; then
  set -- --dims 2 --degrees 1-7 --sizes 16M --maps uniform --integrators euler,lsrk4 \
    --min-time 0.05 --repeats 3
fi
B=build-cuda-envab
if ! { cmake -S . -B $B "${cmake_args[@]}" -DDGRID_BACKEND=cuda \
  -DDGRID_FORTRAN_REFERENCE=OFF -DDGRID_CUDA_RESOURCE_USAGE=ON \
  >"$LOG/configure.log" 2>&1 && cmake --build $B -j "$(nproc)" >"$LOG/build.log" 2>&1; }; then
  echo "gpu-env-ab: the build failed:" >&2
  grep -h -E "error|Error" "$LOG/build.log" "$LOG/configure.log" | head -n 20 >&2
  tar -C "$LOG" -czf "$OUT/logs.tgz" .
  exit 1
fi
# registers, stack and spills of the team kernels (ptxas, from the build log)
grep -A3 "Compiling entry.*update_team" "$LOG/build.log" | grep -E "Compiling|registers|stack" |
  sed -E 's/.*update_teamILi([0-9]+)ELi([0-9]+)ELb([01]).*/team r=\1 q=\2 traces=\3:/; s/ptxas info *: //' |
  paste -d' ' - - - >"$LOG/ptxas-team.txt"
head -n 12 "$LOG/ptxas-team.txt"
(cd $B && ctest -R "${GPU_TESTS:-unit.team}" --output-on-failure) 2>&1 |
  tail -n 20
if [ "${GPU_SANITIZE:-0}" = 1 ]; then
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool"
    compute-sanitizer --tool $tool --error-exitcode 9 \
      ${GPU_SANITIZE_CMD:-$B/tests/unit/test_team} 2>&1 | tail -n 4
  done
fi
for ((round = 1; round <= rounds; round++)); do
  for e in "${envs[@]}"; do
    name=${e%%=*}
    IFS=',' read -r -a sets <<<"${e#*=}"
    echo "== round $round: $name (${e#*=})"
    env "${sets[@]}" "$B/apps/bench" "$@" --quiet --csv "$LOG/bench-$name-$round.csv" |
      tee "$LOG/bench-$name-$round.txt" | grep -E "^ +[23] |cost"
  done
done
tar -C "$LOG" -czf "$OUT/logs.tgz" .
