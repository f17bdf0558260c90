#!/bin/sh
# mpi.write_npN: the snapshots N ranks write together (each its block's
# hyperslabs, HDF5's MPI-IO driver) hold what one process writes: the same
# data (`compare --tol 0`, largest |A-B| 0) and the same h5dump of every
# dataset and attribute, checksum verified on reading; the XDMF series and
# the --text-output file (gathered) alike, tools/plot's pictures the same;
# no temporary left.  Then two failures, each one line, exit status 2
# on every rank (ctest's timeout: no hang), nothing under the final name and
# no temporary: a folder where a snapshot of the series goes (rank 0 cannot
# create it), and the last rank failing after its part is written
# (DGRID_IO_FAIL=ranks) or alone inside the collective write (ranks_alone);
# and a read-only folder (as root an immutable one,
# chattr +i, where the file system allows it).
#   run_write.sh MPIEXEC NP ADVECT COMPARE H5DUMP DIR -- [MPIEXEC FLAGS...] -- ADVECT OPTIONS...
set -u
mpiexec=$1 np=$2 advect=$3 compare=$4 h5dump=$5 dir=$6
shift 6
# shellcheck source-path=SCRIPTDIR source=flags.sh
. "$(dirname "$0")/flags.sh"
# a read-only folder of an earlier run that stopped half-way
[ -d "$dir/ro" ] && { chattr -i "$dir/ro" 2>/dev/null; chmod u+w "$dir/ro"; }
rm -rf "$dir" && mkdir -p "$dir/one" "$dir/ranks" && cd "$dir" || exit 1
fail=0
opts="--output-every 2 --history --progress-every 1 --output snap.h5 --text-output snap.txt"
# shellcheck disable=SC2086 # the options are words
(cd one && "$advect" "$@" $opts >out 2>&1) || { echo "FAIL: one process:"; cat one/out; exit 1; }
# shellcheck disable=SC2086
(cd ranks && "$mpiexec" $flags -np "$np" "$advect" "$@" $opts >out 2>&1) ||
  { echo "FAIL: $np ranks:"; cat ranks/out; exit 1; }
n=0
for f in one/*.h5; do
  b=$(basename "$f")
  n=$((n + 1))
  "$compare" --tol 0 "$f" "ranks/$b" >cmp.out 2>&1 && grep -q 'max_abs_diff=0 ' cmp.out ||
    { echo "FAIL: $b: not the same data:"; head -2 cmp.out; fail=1; }
  # every dataset and attribute (the first line names the file)
  "$h5dump" "$f" | tail -n +2 >a.dump && "$h5dump" "ranks/$b" | tail -n +2 >b.dump ||
    { echo "FAIL: h5dump of $b"; fail=1; }
  cmp -s a.dump b.dump || { echo "FAIL: $b: h5dump differs:"; diff a.dump b.dump | head -8; fail=1; }
done
[ "$n" -ge 3 ] || { echo "FAIL: $n snapshots, not a series"; fail=1; }
cmp -s one/snap.xdmf ranks/snap.xdmf || { echo "FAIL: the XDMF series differ"; fail=1; }
# --text-output: gathered to rank 0, which writes it
cmp -s one/snap.txt ranks/snap.txt || { echo "FAIL: the text outputs differ"; fail=1; }
[ -z "$(find ranks -name '.*.tmp.*')" ] || { echo "FAIL: a temporary was left"; fail=1; }

# tools/plot draws the same pictures of both (where a Python with its modules is found)
plot="$(dirname "$0")/../../tools/plot"
for py in /usr/bin/python3 python3; do
  "$py" -c 'import numpy, matplotlib, h5py' 2>/dev/null || continue
  mkdir -p plot1 plotn
  "$py" "$plot" --out-dir plot1 --prefix p one/snap.h5 >/dev/null 2>&1 &&
    "$py" "$plot" --out-dir plotn --prefix p ranks/snap.h5 >/dev/null 2>&1 ||
    { echo "FAIL: tools/plot"; fail=1; }
  for f in plot1/*.png; do
    cmp -s "$f" "plotn/$(basename "$f")" || { echo "FAIL: tools/plot: $(basename "$f") differs"; fail=1; }
  done
  [ -n "$(ls plot1)" ] || { echo "FAIL: tools/plot drew nothing"; fail=1; }
  break
done

# refuse WANT-PATTERN DIR [VAR=VALUE]: one line, status 2, no DIR/x*.h5, no temporary
refuse() {
  want=$1 d=$2
  shift 2
  # shellcheck disable=SC2086
  env "$@" "$mpiexec" $flags -np "$np" "$advect" --cells 8x8 --steps 4 --output-every 2 \
    --output "$d/x.h5" >/dev/null 2>err
  status=$?
  lines=$(grep -c '^advect: ' err)
  line=$(grep '^advect: ' err)
  [ "$status" = 2 ] || { echo "FAIL: $d: exit status $status, not 2"; fail=1; }
  [ "$lines" = 1 ] || { echo "FAIL: $d: $lines lines, not one:"; cat err; fail=1; }
  # shellcheck disable=SC2254 # a pattern (a PID: *)
  case "$line" in $want) ;; *) echo "FAIL: $d: '$line', not '$want'"; fail=1 ;; esac
  [ ! -e "$d/x.h5" ] && [ ! -e "$d/x_000004.h5" ] || { echo "FAIL: $d: a file under a final name"; fail=1; }
  [ -z "$(find "$d" -name '.*.tmp.*')" ] || { echo "FAIL: $d: a temporary was left"; fail=1; }
}
mkdir -p folder/x_000002.h5 inject
refuse "advect: rank 0: folder/x_000002.h5: refusing to replace it: not a regular file (a folder)" folder
refuse "advect: rank $((np - 1)): inject/x_000000.h5: injected failure (DGRID_IO_FAIL=ranks) after rank $((np - 1)) wrote its part" \
  inject DGRID_IO_FAIL=ranks
# the last rank fails alone inside the collective write, the others wait in
# HDF5: it ends the job (MPI_Abort) after a few seconds, not a hang
[ "$np" -gt 1 ] && refuse "advect: rank $((np - 1)): inject/x_000000.h5: injected failure (DGRID_IO_FAIL=ranks_alone) inside the collective write" \
  inject DGRID_IO_FAIL=ranks_alone
# a read-only folder (root writes into one whose mode says so: an immutable
# one then, where the file system has them): every rank sees it
mkdir ro
undo=""
if [ "$(id -u)" -ne 0 ]; then
  chmod a-w ro && undo="chmod u+w ro"
elif chattr +i ro 2>/dev/null; then
  undo="chattr -i ro"
fi
if [ -n "$undo" ]; then
  refuse "advect: rank 0: option --output: cannot write in folder ro: *" ro
  $undo
else
  echo "note: no read-only folder here (root, and no chattr +i)"
fi
[ "$fail" = 0 ] && echo "mpi.write: $np ranks: $n snapshots with the data and h5dump of one process; the failures end every rank with one line"
exit "$fail"
