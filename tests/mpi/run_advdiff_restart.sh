#!/bin/sh
# mpi.advdiff_restart_NtoM: advdiff's snapshot written on N ranks restarts on
# M (each rank reads its block of /coeff) and the run ends where one process
# running the whole way ends (`compare --tol 1e-10`: the solves' sums run in
# another order on other rank counts, so not bitwise), and M ranks' own
# restart ends bitwise where their uninterrupted run ends; a restart with
# another scheme is refused with one line on every rank.
#   run_advdiff_restart.sh MPIEXEC N M ADVDIFF COMPARE DIR -- [MPIEXEC FLAGS...] -- OPTIONS...
# (OPTIONS with a fixed --dt; the runs take 4 steps, the first 2 of them on N)
set -u
mpiexec=$1 n=$2 m=$3 advdiff=$4 compare=$5 dir=$6
shift 6
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
"$advdiff" "$@" --steps 4 --output one.h5 >one.out 2>&1 || { echo "FAIL: one process"; cat one.out; exit 1; }
# shellcheck disable=SC2086 # the flags are words
"$mpiexec" $flags -np "$n" "$advdiff" "$@" --steps 2 --output half.h5 >half.out 2>&1 ||
  { echo "FAIL: $n ranks"; cat half.out; exit 1; }
# shellcheck disable=SC2086
"$mpiexec" $flags -np "$m" "$advdiff" --restart half.h5 "$@" --steps 4 --output end.h5 >end.out 2>&1 ||
  { echo "FAIL: the restart on $m ranks"; cat end.out; exit 1; }
"$compare" --tol 1e-10 one.h5 end.h5 >cmp.out 2>&1 || { echo "FAIL: compare:"; cat cmp.out; exit 1; }
grep -q 'steps=4 ' end.out || { echo "FAIL: the restart's summary:"; cat end.out; exit 1; }
# on one rank count the restart loses nothing: M ranks stopping at step 2
# and going on from their file end bitwise where M ranks running the whole
# way end
# shellcheck disable=SC2086
"$mpiexec" $flags -np "$m" "$advdiff" "$@" --steps 4 --output m4.h5 >m4.out 2>&1 &&
  "$mpiexec" $flags -np "$m" "$advdiff" "$@" --steps 2 --output m2.h5 >m2.out 2>&1 &&
  "$mpiexec" $flags -np "$m" "$advdiff" --restart m2.h5 "$@" --steps 4 --output m2to4.h5 >m2to4.out 2>&1 ||
  { echo "FAIL: $m ranks whole, or stopped and restarted"; cat m4.out m2.out m2to4.out; exit 1; }
"$compare" --tol 0 m4.h5 m2to4.h5 >cmpm.out 2>&1 && grep -q 'max_abs_diff=0 ' cmpm.out ||
  { echo "FAIL: the restart on $m ranks is not bitwise their uninterrupted run:"; head -1 cmpm.out; exit 1; }
# shellcheck disable=SC2086
"$mpiexec" $flags -np "$m" "$advdiff" --restart half.h5 "$@" --scheme be --steps 4 --output bad.h5 >bad.out 2>bad.err
status=$?
want="advdiff: rank 0: restart half.h5: option --scheme: '" # the file's scheme, then be
[ "$status" = 2 ] && [ "$(grep -c '^advdiff: ' bad.err)" = 1 ] && grep -q "^$want" bad.err && [ ! -e bad.h5 ] ||
  { echo "FAIL: another scheme: status $status:"; cat bad.err; exit 1; }
echo "mpi.advdiff_restart: $n then $m ranks against one process: $(grep -o 'rel_l2_diff=[^ ]*' cmp.out | head -1); $m ranks restarted against $m ranks whole: $(grep -o 'max_abs_diff=[^ ]*' cmpm.out | head -1)"
