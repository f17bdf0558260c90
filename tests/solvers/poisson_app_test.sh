#!/bin/sh
# solvers.poisson_smoother: apps/poisson's --smoother option.  A bad value is
# one exact line on stderr and exit status 2; --smoother patch solves with the
# vertex patches on every level above the coarsest (the hierarchy says so) in
# at most 12 CG iterations with V(2,2).  --coarse-dense: a bad count is one
# exact line and exit status 2; 0 solves the coarsest level by CG, the default
# by the dense pseudo-inverse (the hierarchy's last line says which; its
# h-coarsening stops at the first level the dense solve takes, so it has
# fewer levels), to the same L2 error (6 digits) in no more iterations.
# An integer option that is not an integer, or an --rtol outside [1e-16, 1), is
# one exact line and exit status 2; --k 2 on 16^2 elements resolves
# u = sin(2 pi x) sin(2 pi y) as --k 1 on 8^2 resolves sin(pi x) sin(pi y):
# the same cells per wave, so L2 errors
# within 5% (they differ a little: a Dirichlet face is not the odd mirror of
# an interior one), where a k missing from the right-hand side or the exact
# solution would be far off.
# --backend: a backend the build lacks is one line naming the option and exit
# status 2; --backend omp (in a CUDA build, the CPU beside the default GPU)
# takes the default backend's iterations, to the same L2 error (6 digits).
# Usage: poisson_app_test.sh POISSON
set -u
P=$1
fail=0
bad() { echo "FAIL [solvers.poisson_smoother]: $*" >&2; fail=1; }
err=$("$P" --smoother jacobi 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || bad "--smoother jacobi: exit status $rc, expected 2"
[ "$err" = "poisson: option --smoother: 'jacobi' is not one of block, patch" ] ||
  bad "--smoother jacobi: stderr '$err'"
out=$("$P" --dim 2 --n 32 --r 3 --smooth 2 --smoother patch --quiet 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "--smoother patch: exit status $rc: $out"
[ "$(echo "$out" | grep -c 'patch smoother')" -eq 3 ] ||
  bad "--smoother patch: expected 3 levels with the patch smoother: $out"
its=$(echo "$out" | sed -n 's/^fp64: .* unknowns, \([0-9]*\) iterations.*/\1/p')
[ -n "$its" ] && [ "$its" -le 12 ] || bad "--smoother patch: $its iterations (> 12?): $out"
err=$("$P" --backend nosuch 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || bad "--backend nosuch: exit status $rc, expected 2"
case "$err" in
"poisson: option --backend: backend 'nosuch': not a backend of this build (omp"*")") ;;
*) bad "--backend nosuch: stderr '$err'" ;;
esac
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || bad "--backend nosuch: more than one line: '$err'"
res() { sed -n 's/^fp64: \(.* iterations\), .*L2 error \([0-9.e+-]*\),.*/\1 \2/p'; }
a=$("$P" --dim 2 --n 16 --r 2 --quiet 2>&1 | res)
b=$("$P" --dim 2 --n 16 --r 2 --quiet --backend omp 2>&1 | res)
[ -n "$a" ] && [ "$a" = "$b" ] || bad "--backend omp: '$b', the default backend: '$a'"
for v in abc -3 12x 2049 99999999999999999999; do
  err=$("$P" --coarse-dense "$v" 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || bad "--coarse-dense $v: exit status $rc, expected 2"
  [ "$err" = "poisson: option --coarse-dense: '$v' is not a count 0..2048" ] ||
    bad "--coarse-dense $v: stderr '$err'"
done
cg=$("$P" --dim 2 --n 8 --r 2 --coarse-dense 0 --quiet 2>&1)
dn=$("$P" --dim 2 --n 8 --r 2 --quiet 2>&1)
echo "$cg" | grep -q 'unknowns, fp64 CG$' || bad "--coarse-dense 0: no coarse CG: $cg"
echo "$dn" | grep -q 'unknowns, fp64 dense pseudo-inverse$' || bad "default: no dense solve: $dn"
sum() { echo "$1" | sed -n 's/.* \([0-9]*\) iterations.*L2 error \([0-9.e+-]*\).*/\1 \2/p'; }
s1=$(sum "$cg") s2=$(sum "$dn")
[ -n "$s1" ] && [ -n "$s2" ] && [ "$(printf '%s' "$s1" | awk '{printf "%.5e", $2}')" = \
  "$(printf '%s' "$s2" | awk '{printf "%.5e", $2}')" ] &&
  [ "${s2%% *}" -le "${s1%% *}" ] ||
  bad "coarse CG ($s1) and dense coarse solve ($s2): other errors, or more iterations"
for o in "--n 12x" "--k two" "--r 3.5"; do
  err=$("$P" $o 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || bad "$o: exit status $rc, expected 2"
  [ "$err" = "poisson: option ${o% *}: '${o#* }' is not an integer" ] || bad "$o: stderr '$err'"
done
for v in abc 0 1.5 1e-10x 1e-300; do
  err=$("$P" --rtol "$v" 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || bad "--rtol $v: exit status $rc, expected 2"
  [ "$err" = "poisson: option --rtol: '$v' is not a number in [1e-16, 1)" ] ||
    bad "--rtol $v: stderr '$err'"
done
err=$("$P" --k 0 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q '^poisson: need .*--k >= 1$' || bad "--k 0: $rc '$err'"
e1=$("$P" --dim 2 --n 8 --r 2 --k 1 --quiet 2>&1 | sed -n 's/.*L2 error \([0-9.e+-]*\).*/\1/p')
e2=$("$P" --dim 2 --n 16 --r 2 --k 2 --quiet 2>&1 | sed -n 's/.*L2 error \([0-9.e+-]*\).*/\1/p')
[ -n "$e1" ] && [ -n "$e2" ] && awk -v a="$e1" -v b="$e2" 'BEGIN { exit !(b > 0.95 * a && b < 1.05 * a) }' ||
  bad "--k 2 on 16^2: L2 error $e2, against $e1 of --k 1 on 8^2"
[ $fail -eq 0 ] && echo "solvers.poisson_smoother: ok ($its iterations; coarse CG and dense: $s2)"
exit $fail
