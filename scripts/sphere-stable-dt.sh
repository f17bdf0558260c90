#!/usr/bin/env bash
# sphere-stable-dt.sh - the largest stable time step of pole-aware degree maps
# against uniform degree on the latitude-longitude grid, measured by bisection
# on blow-up (not estimated), and each map's error and cost over the whole
# run at 0.9 of that step (docs/VALIDATION.md, "Pole-aware degree maps").
#
#   scripts/sphere-stable-dt.sh ADVECT
#
# For each map (SPHERE_MAPS, one "name:advect options" per line) the step
# dt = c * dt_est is bisected on c, dt_est being advect's own estimate at
# --cfl 1 (the rate stage on the initial state).  A run is unstable when
# advect fails (the blow-up check) or its linf_rel after SPHERE_DAYS days
# exceeds 1 (the solution grew past its own size).  The bisection stops
# when the bracket is narrower than 1% of c.  It starts from c = 0.25 (which
# must be stable) and doubles c from 2 until a run is unstable.
# Environment (all optional):
#   SPHERE_CELLS  n of the 2n x n grid                           [20]
#   SPHERE_ALPHA  Williamson's alpha                             [1.5707963267948966]
#   SPHERE_DAYS   days per bisection run                         [12]
#   SPHERE_MAPS   the maps (newline-separated "name:options")    [uniform 3,
#                 latitude 1..3, step 1..3]
#   SPHERE_EXTRA  more advect options (e.g. --initial hill)      [--initial hill]
# Output: one line per map: name, DOFs, dt_est, the largest stable dt and
# c, then the 12-day run at 0.9 of it: steps, l2_rel, linf_rel, wall_s.
set -u
[ $# -eq 1 ] || {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
advect=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
n=${SPHERE_CELLS:-20}
alpha=${SPHERE_ALPHA:-1.5707963267948966}
days=${SPHERE_DAYS:-12}
extra=${SPHERE_EXTRA:---initial hill}
maps=${SPHERE_MAPS:-"uniform:--degree 3
latitude:--map latitude --degree 3 --degree-min 1
step:--map step --degree 3 --degree-min 1"}

work=$(mktemp -d) || exit 1 # advect writes its snapshots here
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
base=(--model sphere_advection --grid latlon --cells "$n" --alpha "$alpha" --quiet)
kv() { printf '%s\n' "$1" | grep '^advect: backend=' | tail -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# run OPTS... : prints advect's output; status 0 when it finished
run() { "$advect" "${base[@]}" "$@" 2>&1; }

# stable C DT_EST MAPOPTS: 0 when the run at dt = C dt_est is stable
stable() {
  local c=$1 est=$2 dt out linf
  shift 2
  dt=$(awk -v c="$c" -v e="$est" 'BEGIN { printf "%.17g", c * e }')
  # shellcheck disable=SC2086
  out=$(run "$@" --dt "$dt" --t-end "$(awk -v d="$days" 'BEGIN { print d * 86400 }')" $extra) ||
    return 1
  linf=$(kv "$out" linf_rel)
  [ -n "$linf" ] && awk -v l="$linf" 'BEGIN { exit !(l == l + 0 && l < 1) }'
}

printf '%-9s %9s %12s %12s %7s %8s %12s %12s %9s\n' map dofs dt_est dt_stable c steps \
  l2_rel linf_rel wall_s
status=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  name=${line%%:*}
  read -r -a opts <<<"${line#*:}"
  # shellcheck disable=SC2086
  out=$(run "${opts[@]}" --cfl 1 --steps 1 $extra) || {
    echo "$name: advect failed: $(printf '%s' "$out" | tail -1)"
    status=1
    continue
  }
  est=$(kv "$out" dt)
  dofs=$(kv "$out" dofs)
  lo=0.25 hi=2
  if ! stable "$lo" "$est" "${opts[@]}"; then
    echo "$name: unstable at $lo x dt_est"
    status=1
    continue
  fi
  while stable "$hi" "$est" "${opts[@]}"; do
    lo=$hi
    hi=$((hi * 2))
    if [ "$hi" -gt 1024 ]; then
      echo "$name: stable up to 1024 x dt_est"
      status=1
      continue 2
    fi
  done
  while awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(h - l > 0.01 * l) }'; do
    mid=$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%.6f", (l + h) / 2 }')
    if stable "$mid" "$est" "${opts[@]}"; then lo=$mid; else hi=$mid; fi
  done
  dts=$(awk -v c="$lo" -v e="$est" 'BEGIN { printf "%.6g", c * e }')
  dtr=$(awk -v c="$lo" -v e="$est" 'BEGIN { printf "%.17g", 0.9 * c * e }')
  # shellcheck disable=SC2086
  out=$(run "${opts[@]}" --dt "$dtr" --t-end 1036800 $extra) || status=1
  printf '%-9s %9s %12.6g %12s %7.3f %8s %12s %12s %9s\n' "$name" "$dofs" "$est" "$dts" "$lo" \
    "$(kv "$out" steps)" "$(kv "$out" l2_rel)" "$(kv "$out" linf_rel)" "$(kv "$out" wall_s)"
done <<<"$maps"
exit $status
