#!/bin/sh
# mpi.overlap_CASE_npN: the ghosts' exchange overlapped with the update of
# the elements that read no ghost (the plan's default) and completed before
# the stage (DGRID_OVERLAP=off) give the same bits, those of one process
# (compare --tol 0, and the summary lines but for the wall time and the
# rate); DGRID_HALO_TIMING=1 prints one halo line that names the path taken;
# a bad DGRID_OVERLAP is one line and status 2.
#   run_overlap.sh MPIEXEC NP ADVECT COMPARE DIR -- [MPIEXEC FLAGS...] -- ADVECT OPTIONS...
set -u
mpiexec=$1 np=$2 advect=$3 compare=$4 dir=$5
shift 5
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
summary() { grep '^advect: backend=' "$1" | sed 's/ wall_s=[^ ]*//; s/ dof_stage_per_s=[^ ]*//'; }
"$advect" "$@" --progress-every 0 --output one.h5 >one.out 2>one.err ||
  { echo "FAIL: one process:"; cat one.err; exit 1; }
fail=0
for ov in on off; do
  # shellcheck disable=SC2086 # the flags are words
  DGRID_OVERLAP=$ov DGRID_HALO_TIMING=1 "$mpiexec" $flags -np "$np" "$advect" "$@" \
    --progress-every 0 --output $ov.h5 >$ov.out 2>$ov.err ||
    { echo "FAIL: $np ranks, overlap $ov:"; cat $ov.err; exit 1; }
  n=$(grep -c "^halo: ranks=$np overlap=$ov post_s=[0-9.]* wait_s=[0-9.]* .* halo_share=[0-9.]*$" $ov.out)
  [ "$n" = 1 ] || { echo "FAIL: overlap $ov: $n halo lines, not one:"; grep '^halo' $ov.out; fail=1; }
  [ "$(summary one.out)" = "$(summary $ov.out)" ] ||
    { echo "FAIL: overlap $ov: the summaries differ:"; summary one.out; summary $ov.out; fail=1; }
  "$compare" --tol 0 one.h5 $ov.h5 >cmp-$ov.out 2>&1 ||
    { echo "FAIL: compare ($ov):"; cat cmp-$ov.out; fail=1; }
  grep -q 'max_abs_diff=0 ' cmp-$ov.out ||
    { echo "FAIL: overlap $ov: not bitwise:"; head -1 cmp-$ov.out; fail=1; }
done
"$compare" --tol 0 on.h5 off.h5 >cmp.out 2>&1 && grep -q 'max_abs_diff=0 ' cmp.out ||
  { echo "FAIL: overlap on against off: not bitwise:"; head -1 cmp.out; fail=1; }
# shellcheck disable=SC2086
DGRID_OVERLAP=sometimes "$mpiexec" $flags -np "$np" "$advect" "$@" --output bad.h5 >bad.out 2>bad.err
rc=$?
[ "$rc" = 2 ] || { echo "FAIL: DGRID_OVERLAP=sometimes: status $rc, not 2"; fail=1; }
# mpirun adds its own text; advect's lines start with its name
want="advect: rank 0: DGRID_OVERLAP='sometimes': expected off, on or auto"
[ "$(grep '^advect: ' bad.err)" = "$want" ] ||
  { echo "FAIL: DGRID_OVERLAP=sometimes: not the one line '$want':"; cat bad.err; fail=1; }
[ "$fail" = 0 ] && echo "mpi.overlap: $np ranks, overlap on and off: bitwise the one-process solution"
exit "$fail"
