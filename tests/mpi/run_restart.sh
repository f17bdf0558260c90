#!/bin/sh
# mpi.advect_restart_NtoM: a snapshot written on N ranks restarts on M (each
# rank reads its block's hyperslabs of /coeff) and the run goes on bitwise as
# one process running the whole way (`compare --tol 0`, largest |A-B| 0).
#   run_restart.sh MPIEXEC N M ADVECT COMPARE DIR -- [MPIEXEC FLAGS...] -- ADVECT OPTIONS...
# (OPTIONS with a fixed --dt; the runs take 6 steps, the first 3 of them on N)
set -u
mpiexec=$1 n=$2 m=$3 advect=$4 compare=$5 dir=$6
shift 6
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
"$advect" "$@" --steps 6 --output one.h5 >one.out 2>&1 || { echo "FAIL: one process"; cat one.out; exit 1; }
# shellcheck disable=SC2086 # the flags are words
"$mpiexec" $flags -np "$n" "$advect" "$@" --steps 3 --output half.h5 >half.out 2>&1 ||
  { echo "FAIL: $n ranks"; cat half.out; exit 1; }
# shellcheck disable=SC2086
"$mpiexec" $flags -np "$m" "$advect" --restart half.h5 --steps 6 --output end.h5 >end.out 2>&1 ||
  { echo "FAIL: the restart on $m ranks"; cat end.out; exit 1; }
"$compare" --tol 0 one.h5 end.h5 >cmp.out 2>&1 && grep -q 'max_abs_diff=0 ' cmp.out ||
  { echo "FAIL: not bitwise:"; head -1 cmp.out; exit 1; }
# a series restarted from one of its snapshots on M ranks keeps its earlier
# entries (read without their coefficients): the XDMF of one process's
# whole series
mkdir s1 sm
(cd s1 && "$advect" "$@" --steps 4 --output-every 1 --output s.h5 >out 2>&1) ||
  { echo "FAIL: one process's series"; cat s1/out; exit 1; }
# shellcheck disable=SC2086
(cd sm && "$mpiexec" $flags -np "$n" "$advect" "$@" --steps 3 --output-every 1 --output s.h5 >out 2>&1 &&
  "$mpiexec" $flags -np "$m" "$advect" --restart s_000002.h5 --steps 4 --output-every 1 --output s.h5 >>out 2>&1) ||
  { echo "FAIL: the series on $n, then $m ranks"; cat sm/out; exit 1; }
cmp -s s1/s.xdmf sm/s.xdmf || { echo "FAIL: the restarted series' XDMF differs:"; diff s1/s.xdmf sm/s.xdmf | head; exit 1; }
"$compare" --tol 0 s1/s.h5 sm/s.h5 >cmp.out 2>&1 && grep -q 'max_abs_diff=0 ' cmp.out ||
  { echo "FAIL: the restarted series ends elsewhere:"; head -1 cmp.out; exit 1; }
# a corrupt file: rank 0's check of the checksum (a read in pieces) ends
# every rank with one line before any rank parses it
if [ "$m" -gt 1 ]; then
  cp half.h5 bad.h5 && printf 'X' | dd of=bad.h5 bs=1 seek=4000 conv=notrunc 2>/dev/null
  # shellcheck disable=SC2086
  "$mpiexec" $flags -np "$m" "$advect" --restart bad.h5 --steps 6 --output bad_end.h5 >bad.out 2>bad.err
  status=$?
  line=$(grep '^advect: ' bad.err)
  [ "$status" = 2 ] && [ "$(grep -c '^advect: ' bad.err)" = 1 ] &&
    case "$line" in "advect: rank 0: restart: bad.h5: checksum mismatch, the file is corrupt"*) true ;; *) false ;; esac ||
    { echo "FAIL: the corrupt file on $m ranks: status $status:"; cat bad.err; exit 1; }
  [ ! -e bad_end.h5 ] || { echo "FAIL: the corrupt file's run wrote bad_end.h5"; exit 1; }
fi
echo "mpi.advect_restart: $n ranks, then $m: bitwise one process's 6 steps; a series keeps its entries; a corrupt file refused"
