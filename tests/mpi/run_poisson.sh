#!/bin/sh
# mpi.poisson_CASE_npN: poisson on N ranks against one process: the same
# multigrid levels (the --verbose-free description lines), iterations within
# one, the L2 error within 1e-10 and the solutions within 1e-10 (compare's
# relative L2 difference).  With DGRID_SPART_NO_EXCHANGE=1 in the
# environment of the N-rank run (mpi.poisson_noexchange) the ghosts are
# never received: then the check must fail, and the script says so (with
# DGRID_SPART_NO_EXCHANGE=transfer only the transfers' ghosts, corners
# included, are never received: mpi.poisson_notransfer).  With
# DG_MPI_GATHER_LEVEL=K the N-rank run (N > 1) must keep at least the levels
# 0..K-1 on the ranks' blocks (the coarse line), gathering from level K onto
# one rank; with DG_MPI_COARSE_LINE=TEXT it must print that line.
#   run_poisson.sh MPIEXEC NP POISSON COMPARE DIR -- [MPIEXEC FLAGS...] -- POISSON OPTIONS...
set -u
mpiexec=$1 np=$2 poisson=$3 compare=$4 dir=$5
shift 5
[ "$1" = -- ] && shift
flags=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do flags="$flags $1"; shift; done
[ $# -gt 0 ] && shift
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
env -u DGRID_SPART_NO_EXCHANGE "$poisson" "$@" --quiet --out one.h5 >one.out 2>one.err ||
  { echo "FAIL: one process:"; cat one.err; exit 1; }
# shellcheck disable=SC2086 # the flags are words
"$mpiexec" $flags -np "$np" "$poisson" "$@" --quiet --out ranks.h5 >ranks.out 2>ranks.err ||
  { echo "FAIL: $np ranks:"; cat ranks.err; exit 1; }
fail=0
# the result line: "fp64: U unknowns, I iterations, relative residual R, L2 error E, T s"
result() { grep -E '^(fp64|mixed|fp32): ' "$1"; }
gather=$(sed -n 's/^coarse: levels* \([0-9]*\).* on 1 of [0-9]* ranks.*/\1/p' ranks.out)
if [ -n "${DG_MPI_COARSE_LINE:-}" ] && ! grep -qxF "$DG_MPI_COARSE_LINE" ranks.out; then
  echo "FAIL: no line '$DG_MPI_COARSE_LINE' in:"; cat ranks.out; exit 1
fi
if [ "$np" -gt 1 ] && [ -n "${DG_MPI_GATHER_LEVEL:-}" ]; then
  [ -n "$gather" ] && [ "$gather" -ge "$DG_MPI_GATHER_LEVEL" ] ||
    { echo "FAIL: gathered from level '$gather', expected >= $DG_MPI_GATHER_LEVEL"; fail=1; }
fi
[ "$(grep '^level ' one.out)" = "$(grep '^level ' ranks.out)" ] ||
  { echo "FAIL: the levels differ:"; grep '^level ' one.out ranks.out; fail=1; }
set -- $(result one.out | sed 's/,//g') $(result ranks.out | sed 's/,//g')
# $2 unknowns, $4 iterations, $11 L2 error; the ranks' from ${14}
if [ $# -ne 26 ]; then
  echo "FAIL: no result lines:"; cat one.out ranks.out; exit 1
fi
[ "$2" = "${15}" ] || { echo "FAIL: unknowns $2 and ${15}"; fail=1; }
awk -v a="$4" -v b="${17}" 'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }' ||
  { echo "FAIL: iterations $4 (one process) and ${17} ($np ranks)"; fail=1; }
awk -v a="${11}" -v b="${24}" 'BEGIN { d = a - b; exit !(d <= 1e-10 && d >= -1e-10) }' ||
  { echo "FAIL: L2 errors ${11} and ${24}"; fail=1; }
"$compare" --tol 1e-10 one.h5 ranks.h5 >cmp.out 2>&1 || { echo "FAIL: compare:"; cat cmp.out; fail=1; }
said="$4 and ${17} iterations, L2 errors ${11} and ${24}; $(grep -o 'rel_l2_diff=[^ ]*' cmp.out | head -1)"
[ -n "$gather" ] && said="$said; gathered from level $gather"
if [ -n "${DGRID_SPART_NO_EXCHANGE:-}" ]; then
  [ "$fail" = 1 ] && { echo "mpi.poisson: without the exchange the check fails, as it must: $said"; exit 0; }
  echo "FAIL: without the exchange the check still passes: $said"
  exit 1
fi
[ "$fail" = 0 ] && echo "mpi.poisson: $np ranks: $said"
exit "$fail"
