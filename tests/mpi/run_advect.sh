#!/bin/sh
# mpi.advect_CASE_npN: advect on N ranks gives bitwise the solution of one
# process: the final snapshots agree to `compare --tol 0` (largest |A-B|
# 0), and the progress lines (every 2 steps) and the summary line agree but
# for the wall time and the rate: the mass, norms and integrals each rank
# computes on its block, combined exactly, are the one process's bits.
#   run_advect.sh MPIEXEC NP ADVECT COMPARE DIR -- [MPIEXEC FLAGS...] -- ADVECT OPTIONS...
set -u
mpiexec=$1 np=$2 advect=$3 compare=$4 dir=$5
shift 5
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
# the numbers of a run: its summary line without the wall time and the rate
summary() { grep '^advect: backend=' "$1" | sed 's/ wall_s=[^ ]*//; s/ dof_stage_per_s=[^ ]*//'; }
progress() { grep '^progress: ' "$1" | sed 's/ wall=[^ ]*//; s/ dof_stage_per_s=[^ ]*//'; }
"$advect" "$@" --progress-every 2 --output one.h5 >one.out 2>one.err || { echo "FAIL: one process:"; cat one.err; exit 1; }
# shellcheck disable=SC2086 # the flags are words
"$mpiexec" $flags -np "$np" "$advect" "$@" --progress-every 2 --output ranks.h5 --verbose >ranks.out 2>ranks.err ||
  { echo "FAIL: $np ranks:"; cat ranks.err; exit 1; }
fail=0
if [ "$np" -gt 1 ]; then
  grep -q "^partition: $np ranks by recursive bisection" ranks.out ||
    { echo "FAIL: no partition line for $np ranks"; fail=1; }
  # DG_EXPECT_HALO=host|device|staged: the exchange's path (--verbose's halo line)
  if [ -n "${DG_EXPECT_HALO:-}" ]; then
    grep -q "^halo: $DG_EXPECT_HALO " ranks.out ||
      { echo "FAIL: not the $DG_EXPECT_HALO exchange: $(grep '^halo:' ranks.out)"; fail=1; }
  fi
fi
n=$(grep -c '^advect: backend=' ranks.out)
[ "$n" = 1 ] || { echo "FAIL: $n summary lines, not one"; fail=1; }
[ -n "$(progress one.out)" ] || { echo "FAIL: no progress lines"; fail=1; }
[ "$(progress one.out)" = "$(progress ranks.out)" ] ||
  { echo "FAIL: the progress lines differ:"; progress one.out; progress ranks.out; fail=1; }
[ "$(summary one.out)" = "$(summary ranks.out)" ] ||
  { echo "FAIL: the summaries differ:"; summary one.out; summary ranks.out; fail=1; }
"$compare" --tol 0 one.h5 ranks.h5 >cmp.out 2>&1 || { echo "FAIL: compare:"; cat cmp.out; fail=1; }
grep -q 'max_abs_diff=0 ' cmp.out || { echo "FAIL: not bitwise:"; head -1 cmp.out; fail=1; }
[ "$fail" = 0 ] && echo "mpi.advect: $np ranks: bitwise the one-process solution; $(summary ranks.out); $(grep '^halo:' ranks.out)"
exit "$fail"
