#!/bin/sh
# imex-walltime.sh ADVDIFF: wall time to a given error of the implicit and
# IMEX schemes against explicit RK4 on the diffusion-dominated
# advection-diffusion problem of docs/VALIDATION.md ("Implicit time
# stepping"). RK4 runs at 0.9 x its diffusive limit (advdiff --verbose
# prints it); its error (the spatial one) times 1.1 is the target (or
# the environment's TARGET); every
# other scheme doubles its step count from 5 until it meets the target
# (or reaches 640 steps: then its error says how far it is).
set -eu
ADV=$1
G="--cells 32x32 --degree 3 --nu 0.01 --beta 0.04,0.02 --output /tmp/imex_walltime.h5"
P="$G --t-end 0.5 --quiet"
key() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
dte=$($ADV $G --scheme rk4 --steps 1 --dt 1e-6 --verbose | sed -n 's/.*diffusive (rk4) \([0-9.e+-]*\) .*/\1/p')
[ -n "$dte" ] || { echo "no diffusive limit from advdiff --verbose" >&2; exit 1; }
n=$(awk -v d="$dte" 'BEGIN { printf "%d", 0.5 / (0.9 * d) + 1 }')
line=$($ADV $P --scheme rk4 --dt "$(awk -v n="$n" 'BEGIN { printf "%.17g", 0.5 / n }')")
e0=$(echo "$line" | key l2_error)
target=${TARGET:-$(awk -v e="$e0" 'BEGIN { printf "%.3e", 1.1 * e }')}
echo "diffusive limit of rk4: dt_e=$dte; target l2 error $target"
echo "| scheme | steps | dt / dt_e | l2 error | Krylov its | wall s | speed-up vs rk4 |"
echo "|---|---|---|---|---|---|---|"
w0=$(echo "$line" | key wall_s)
echo "| rk4 | $n | 0.9 | $e0 | 0 | $w0 | 1 |"
for s in be cn sdirk2 sdirk3 ars222 ars443; do
  steps=5
  while :; do
    dt=$(awk -v n="$steps" 'BEGIN { printf "%.17g", 0.5 / n }')
    line=$($ADV $P --scheme $s --dt "$dt")
    e=$(echo "$line" | key l2_error)
    if awk -v e="$e" -v t="$target" 'BEGIN { exit !(e <= t) }' || [ $steps -ge 640 ]; then break; fi
    steps=$((steps * 2))
  done
  w=$(echo "$line" | key wall_s)
  echo "| $s | $steps | $(awk -v d="$dt" -v e="$dte" 'BEGIN { printf "%.0f", d / e }') | $e | $(echo "$line" | key krylov_its) | $w | $(awk -v a="$w0" -v b="$w" 'BEGIN { printf "%.1f", a / b }') |"
done
