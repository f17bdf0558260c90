#!/bin/sh
# mpi.{advect,advdiff}_fail_npN, gpu.mpi_poisson_patch_refuse_np2: a job that must end
# with exactly one line of its own (the expected one), exit status 2, and no
# hang (ctest's timeout).  The expected line is a shell pattern.
#   run_refuse.sh MPIEXEC NP 'EXPECTED LINE' -- [MPIEXEC FLAGS...] -- PROGRAM ARGS...
set -u
mpiexec=$1 np=$2 want=$3
shift 3
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
prog=$(basename "$1")
err=$(mktemp)
# shellcheck disable=SC2086 # the flags are words
"$mpiexec" $flags -np "$np" "$@" 2>"$err" >/dev/null
status=$?
n=$(grep -c "^$prog: " "$err")
line=$(grep "^$prog: " "$err")
rm -f "$err"
fail=0
[ "$status" = 2 ] || { echo "FAIL: exit status $status, not 2"; fail=1; }
[ "$n" = 1 ] || { echo "FAIL: $n lines from $prog, not one"; fail=1; }
# shellcheck disable=SC2254 # the expected line is a pattern (a PID: *)
case "$line" in $want) ;; *) echo "FAIL: '$line', not '$want'"; fail=1 ;; esac
[ "$fail" = 0 ] && echo "$prog on $np ranks: exit status 2, one line: $line"
exit "$fail"
