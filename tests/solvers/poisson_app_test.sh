#!/bin/sh
# solvers.poisson_smoother: apps/poisson's --smoother option.  A bad value is
# one exact line on stderr and exit status 2; --smoother patch solves with the
# vertex patches on every level above the coarsest (the hierarchy says so) in
# at most 12 CG iterations with V(2,2).
# Usage: poisson_app_test.sh POISSON
set -u
P=$1
fail=0
bad() { echo "FAIL [solvers.poisson_smoother]: $*" >&2; fail=1; }
err=$("$P" --smoother jacobi 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || bad "--smoother jacobi: exit status $rc, expected 2"
[ "$err" = "poisson: --smoother jacobi: expected block or patch" ] ||
  bad "--smoother jacobi: stderr '$err'"
out=$("$P" --dim 2 --n 8 --r 3 --smooth 2 --smoother patch --quiet 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "--smoother patch: exit status $rc: $out"
[ "$(echo "$out" | grep -c 'patch smoother')" -eq 3 ] ||
  bad "--smoother patch: expected 3 levels with the patch smoother: $out"
its=$(echo "$out" | sed -n 's/^fp64: .* unknowns, \([0-9]*\) iterations.*/\1/p')
[ -n "$its" ] && [ "$its" -le 12 ] || bad "--smoother patch: $its iterations (> 12?): $out"
[ $fail -eq 0 ] && echo "solvers.poisson_smoother: ok ($its iterations)"
exit $fail
