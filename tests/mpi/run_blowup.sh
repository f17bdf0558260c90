#!/bin/sh
# mpi.advect_blowup_npN: a run that blows up ends on N ranks as in one
# process: exit status 2, the same message (the step, the time, the first
# element in grid order whose coefficients are not finite, the snapshots
# kept: every rank's check combined over the ranks), once, and the same
# snapshots on disk.
#   run_blowup.sh MPIEXEC NP ADVECT DIR -- [MPIEXEC FLAGS...] -- ADVECT OPTIONS...
set -u
mpiexec=$1 np=$2 advect=$3 dir=$4
shift 4
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
rm -rf "$dir" && mkdir -p "$dir/one" "$dir/ranks" && cd "$dir" || exit 1
(cd one && "$advect" "$@" --output blow.h5 >out 2>err)
s1=$?
# shellcheck disable=SC2086 # the flags are words
(cd ranks && "$mpiexec" $flags -np "$np" "$advect" "$@" --output blow.h5 >out 2>err)
s2=$?
fail=0
[ "$s1" = 2 ] && [ "$s2" = 2 ] || { echo "FAIL: exit status $s1 (one process), $s2 ($np ranks), not 2"; fail=1; }
m1=$(grep '^advect: solution not finite' one/err)
m2=$(grep '^advect: solution not finite' ranks/err)
[ -n "$m1" ] || { echo "FAIL: one process did not blow up:"; cat one/err; fail=1; }
[ "$(grep -c '^advect: solution' ranks/err)" = 1 ] || { echo "FAIL: not one message:"; cat ranks/err; fail=1; }
[ "$m1" = "$m2" ] || { echo "FAIL: the messages differ:"; echo "$m1"; echo "$m2"; fail=1; }
[ "$(cd one && ls)" = "$(cd ranks && ls)" ] || { echo "FAIL: other files kept"; ls one ranks; fail=1; }
[ "$fail" = 0 ] && echo "mpi.advect_blowup: $np ranks: $m2"
exit "$fail"
