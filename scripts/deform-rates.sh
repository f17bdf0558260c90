#!/bin/sh
# deform-rates.sh ADVECT [PERIOD] - L2 rates of LeVeque's reversing
# deformational flow over one full period (the solution returns to the
# initial hump), degrees 1..4, each on n x n and 2n x 2n cells with the step
# halved (LSRK4, dt = 0.2 / (n (2r + 1))).  Prints one line per degree:
#   r n e(n) e(2n) rate
# DEFORM_GRIDS="r:n ..." sets the coarse grid per degree [1:64 2:32 3:16 4:16].
# docs/VALIDATION.md holds its output for PERIOD = 5.
set -eu
advect=$1
T=${2:-5}
l2() { # cells degree -> the summary's l2_error
  n=$1 r=$2
  dt=$(awk -v n="$n" -v r="$r" 'BEGIN { printf "%.17g", 0.2 / (n * (2 * r + 1)) }')
  "$advect" --model deformation --period "$T" --t-end "$T" --init gauss --bell-centre 0.5,0.4 \
    --bell-radius 0.25 --degree "$r" --cells "${n}x$n" --dt "$dt" --integrator lsrk4 --quiet \
    >"$log" || { echo "deform-rates: advect failed for r=$r n=$n:" >&2; cat "$log" >&2; exit 1; }
  sed -n 's/.* l2_error=\([^ ]*\).*/\1/p' "$log"
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for rn in ${DEFORM_GRIDS:-1:64 2:32 3:16 4:16}; do
  r=${rn%:*} n=${rn#*:}
  e1=$(l2 "$n" "$r") || exit 1
  e2=$(l2 $((2 * n)) "$r") || exit 1
  awk -v r="$r" -v n="$n" -v a="$e1" -v b="$e2" \
    'BEGIN { printf "r=%d n=%d l2(n)=%.3e l2(2n)=%.3e rate=%.2f\n", r, n, a, b, log(a / b) / log(2) }'
done
