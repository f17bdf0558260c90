#!/bin/sh
# mpi.advdiff_CASE_npN: advdiff on N ranks against one process: every step's
# Krylov (and Newton) iterations within one, the L2 error and the mass within
# 1e-10, the final snapshots within 1e-10 (compare's relative L2 difference).
# With DGRID_SPART_NO_EXCHANGE=1 in the environment of the N-rank run
# (mpi.advdiff_noexchange) the solvers' ghosts are never received: then the
# check must fail, and the script says so.
#   run_advdiff.sh MPIEXEC NP ADVDIFF COMPARE DIR -- [MPIEXEC FLAGS...] -- ADVDIFF OPTIONS...
set -u
mpiexec=$1 np=$2 advdiff=$3 compare=$4 dir=$5
shift 5
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
env -u DGRID_SPART_NO_EXCHANGE "$advdiff" "$@" --progress-every 1 --output one.h5 >one.out 2>one.err ||
  { echo "FAIL: one process:"; cat one.err; exit 1; }
# shellcheck disable=SC2086 # the flags are words
"$mpiexec" $flags -np "$np" "$advdiff" "$@" --progress-every 1 --output ranks.h5 >ranks.out 2>ranks.err ||
  { echo "FAIL: $np ranks:"; cat ranks.err; exit 1; }
fail=0
# "progress: step S t=T [newton=N] its=I residual=R mass=M wall=W": per step
# the iterations, side by side
iters() { grep '^progress: ' "$1" | sed 's/.* step \([0-9]*\) .*its=\([0-9]*\) .*/\1 \2/'; }
newts() { grep '^progress: ' "$1" | sed -n 's/.* step \([0-9]*\) .*newton=\([0-9]*\) .*/\1 \2/p'; }
[ "$(iters one.out | wc -l)" -gt 0 ] || { echo "FAIL: no progress lines:"; cat one.out; exit 1; }
[ "$(iters one.out | wc -l)" = "$(iters ranks.out | wc -l)" ] ||
  { echo "FAIL: the runs take other steps"; fail=1; }
within1() {
  iters_a=$1 iters_b=$2 what=$3
  paste -d ' ' "$iters_a" "$iters_b" | awk -v w="$what" '{ d = $2 - $4; if (d > 1 || d < -1) {
    printf "FAIL: step %s: %s %s (one process) and %s\n", $1, w, $2, $4; bad = 1 } }
    END { exit bad }'
}
iters one.out >one.its && iters ranks.out >ranks.its && newts one.out >one.nwt && newts ranks.out >ranks.nwt
within1 one.its ranks.its "Krylov iterations" || fail=1
within1 one.nwt ranks.nwt "Newton iterations" || fail=1
key() { grep '^advdiff: scheme=' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
for k in l2_error mass; do
  a=$(key one.out "$k") b=$(key ranks.out "$k")
  awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; s = a < 0 ? -a : a; exit !(a != "" && d <= 1e-10 * (1 + s) && d >= -1e-10 * (1 + s)) }' ||
    { echo "FAIL: $k $a (one process) and $b ($np ranks)"; fail=1; }
done
"$compare" --tol 1e-10 one.h5 ranks.h5 >cmp.out 2>&1 || { echo "FAIL: compare:"; cat cmp.out; fail=1; }
said="Krylov iterations $(key one.out krylov_its) and $(key ranks.out krylov_its), L2 errors $(key one.out l2_error) and $(key ranks.out l2_error); $(grep -o 'rel_l2_diff=[^ ]*' cmp.out | head -1)"
if [ "${DGRID_SPART_NO_EXCHANGE:-}" = 1 ]; then
  [ "$fail" = 1 ] && { echo "mpi.advdiff: without the exchange the check fails, as it must: $said"; exit 0; }
  echo "FAIL: without the exchange the check still passes: $said"
  exit 1
fi
[ "$fail" = 0 ] && echo "mpi.advdiff: $np ranks: $said"
exit "$fail"
