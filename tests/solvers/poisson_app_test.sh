#!/bin/sh
# solvers.poisson_smoother: apps/poisson's --smoother option.  A bad value is
# one exact line on stderr and exit status 2; --smoother patch solves with the
# vertex patches on every level above the coarsest (the hierarchy says so) in
# at most 12 CG iterations with V(2,2).  The CUDA build has no patch driver:
# there --smoother patch is refused with one exact line.
# Usage: poisson_app_test.sh POISSON BACKEND
set -u
P=$1
B=${2:-omp}
fail=0
bad() { echo "FAIL [solvers.poisson_smoother]: $*" >&2; fail=1; }
err=$("$P" --smoother jacobi 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] || bad "--smoother jacobi: exit status $rc, expected 2"
[ "$err" = "poisson: --smoother jacobi: expected block or patch" ] ||
  bad "--smoother jacobi: stderr '$err'"
out=$("$P" --dim 2 --n 8 --r 3 --smooth 2 --smoother patch --quiet 2>&1)
rc=$?
if [ "$B" = cuda ]; then
  want="poisson: vertex-patch smoother: not available on this backend (CUDA); use the element-block smoother"
  [ $rc -ne 0 ] || bad "--smoother patch on CUDA: exit status 0"
  [ "$out" = "$want" ] || bad "--smoother patch on CUDA: output '$out'"
  [ $fail -eq 0 ] && echo "solvers.poisson_smoother: ok (CUDA refuses the patches)"
  exit $fail
fi
[ $rc -eq 0 ] || bad "--smoother patch: exit status $rc: $out"
[ "$(echo "$out" | grep -c 'patch smoother')" -eq 3 ] ||
  bad "--smoother patch: expected 3 levels with the patch smoother: $out"
its=$(echo "$out" | sed -n 's/^fp64: .* unknowns, \([0-9]*\) iterations.*/\1/p')
[ -n "$its" ] && [ "$its" -le 12 ] || bad "--smoother patch: $its iterations (> 12?): $out"
[ $fail -eq 0 ] && echo "solvers.poisson_smoother: ok ($its iterations)"
exit $fail
