#!/bin/sh
# Bounded libFuzzer run of each dgrid fuzz target (docs/FUZZING.md), for CI.
# Usage: scripts/fuzz.sh [TOTAL_SECONDS] [BUILD_DIR]
#   TOTAL_SECONDS  split evenly over the targets (default 60)
#   BUILD_DIR      where tests/fuzz is built with clang (default build-fuzz)
# Exit status 0 when no target found a crash, leak, timeout or sanitizer
# report; otherwise non-zero, with the reproducer in BUILD_DIR/crash-*.
# New corpus entries go to a scratch folder that is removed afterwards: the
# checked-in seeds in tests/fuzz/corpus/<target>/ are only read.
set -eu
cd "$(dirname "$0")/.."
total=${1:-60}
build=${2:-build-fuzz}
targets="map text snapshot config"
command -v clang >/dev/null 2>&1 || { echo "fuzz.sh: clang not found (Debian: apt-get install clang)" >&2; exit 2; }

cmake -S tests/fuzz -B "$build" -DCMAKE_C_COMPILER=clang -DDGRID_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null

per=$((total / $(echo $targets | wc -w)))
[ "$per" -ge 1 ] || per=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# one target per core at a time (each is one process): the same fuzzing time
# per target in less wall time
jobs=$(nproc)
fuzz_one() {
  t=$1
  mkdir -p "$scratch/$t"
  log="$build/fuzz_$t.log"
  if "$build/fuzz_$t" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/crash-$t-" "$scratch/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz_$t: ${runs:-?} executions in ${per} s, no findings" >"$scratch/$t.result"
  else
    { echo "fuzz_$t: FINDING (see $log and $build/crash-$t-*)"; tail -n 30 "$log"; } >"$scratch/$t.finding"
  fi
}
running=0
for t in $targets; do
  fuzz_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait
    running=0
  fi
done
wait
status=0
for t in $targets; do
  if [ -f "$scratch/$t.result" ]; then
    cat "$scratch/$t.result"
  else
    [ -f "$scratch/$t.finding" ] && cat "$scratch/$t.finding" >&2 || echo "fuzz_$t: no result" >&2
    status=1
  fi
done
exit $status
