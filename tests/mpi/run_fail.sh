#!/bin/sh
# mpi.fail_npN: one rank fails while reading its input; the job must end
# with one message (printed once, by rank 0), exit status 2, and no hang
# (ctest's timeout).   run_fail.sh MPIEXEC NP PROGRAM [MPIEXEC FLAGS...]
set -u
mpiexec=$1 np=$2 prog=$3
shift 3
err=$(mktemp)
"$mpiexec" "$@" -np "$np" "$prog" "$np" fail 2>"$err" >/dev/null
status=$?
n=$(grep -c '^test_comm: ' "$err")
line=$(grep '^test_comm: ' "$err")
rm -f "$err"
want="test_comm: snapshot.h5: no such file"
[ "$np" -gt 1 ] && want="test_comm: rank $((np - 1)): snapshot.h5: no such file"
fail=0
[ "$status" = 2 ] || { echo "FAIL: exit status $status, not 2"; fail=1; }
[ "$n" = 1 ] || { echo "FAIL: the message was printed $n times, not once"; fail=1; }
[ "$line" = "$want" ] || { echo "FAIL: '$line', not '$want'"; fail=1; }
[ "$fail" = 0 ] && echo "mpi.fail: $np ranks: exit status 2, one message: $line"
exit "$fail"
