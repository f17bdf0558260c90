#!/usr/bin/env bash
# sphere-table.sh - Williamson et al.'s test 1 on the latitude-longitude grid:
# the normalised l1, l2 and linf errors after DAYS days for every initial
# state, angle alpha, grid 2n x n and uniform degree r, and the l2 rates
# between successive n (docs/VALIDATION.md, "The sphere").
#
#   scripts/sphere-table.sh ADVECT [CSV]
#
# ADVECT is an advect executable of a build with the sphere_advection model
# (OpenMP or CUDA); each case is one run of
#   ADVECT --model sphere_advection --grid latlon --cells n --degree r
#          --initial I --alpha A --t-end DAYS*86400 --quiet [EXTRA]
# (SSPRK3 at the default --cfl 0.5, q = r + 1).  One CSV row per case goes to
# CSV (default: stdout), then the rates, as comment lines.
# Environment (all optional):
#   SPHERE_N        grids n                       [10 20 40 80]
#   SPHERE_R        degrees r                     [1 2 3 4]
#   SPHERE_ALPHA    angles alpha, radians         [0 1.5207963267948966 1.5707963267948966]
#                   (0, pi/2 - 0.05, pi/2)
#   SPHERE_INITIAL  initial states                [hill bell]
#   SPHERE_DAYS     days                          [12]
#   SPHERE_JOBS     runs at once                  [1]
#   SPHERE_EXTRA    more advect options           []
#   SPHERE_PARTIAL  a file each row is also appended to as soon as its run
#                   ends (what a run cut short leaves)     []
# Exit status: 0 every run finished, 1 a run failed (its line says which).
set -u
[ $# -ge 1 ] || {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
advect=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
csv=${2:-}
[ -z "$csv" ] || case $csv in /*) ;; *) csv=$PWD/$csv ;; esac
[ -x "$advect" ] || {
  echo "sphere-table.sh: $advect is not an executable" >&2
  exit 2
}
ns=${SPHERE_N:-10 20 40 80}
rs=${SPHERE_R:-1 2 3 4}
alphas=${SPHERE_ALPHA:-0 1.5207963267948966 1.5707963267948966}
inits=${SPHERE_INITIAL:-hill bell}
days=${SPHERE_DAYS:-12}
jobs=${SPHERE_JOBS:-1}
extra=${SPHERE_EXTRA:-}
tend=$(awk -v d="$days" 'BEGIN { printf "%.17g", d * 86400 }')
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# one case: its CSV row, or a FAILED row with advect's last line
one() {
  local init=$1 alpha=$2 n=$3 r=$4 out dir
  dir=$(mktemp -d -p "$tmp") || return 1 # advect writes its snapshot here
  # shellcheck disable=SC2086
  out=$(cd "$dir" && "$advect" --model sphere_advection --grid latlon --cells "$n" --degree "$r" \
    --initial "$init" --alpha "$alpha" --t-end "$tend" --quiet $extra 2>&1)
  local rc=$? line
  rm -rf "$dir"
  line=$(printf '%s\n' "$out" | grep '^advect: backend=' | tail -1)
  if [ $rc -ne 0 ] || [ -z "$line" ]; then
    echo "FAILED,$init,$alpha,$n,$r,$(printf '%s' "$out" | tail -1 | tr ',' ';')"
    return 1
  fi
  kv() { printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  echo "$init,$alpha,$n,$r,$(kv steps),$(kv dt),$(kv l1_rel),$(kv l2_rel),$(kv linf_rel),$(kv mass_drift),$(kv wall_s),$(kv backend)"
}
export -f one
export advect tend extra tmp

# the largest runs first, so that parallel runs finish together
for init in $inits; do for alpha in $alphas; do for n in $ns; do for r in $rs; do
  echo "$((n * n * (2 * r + 1) * (r + 1) * (r + 1))) $init $alpha $n $r"
done; done; done; done | sort -rn | cut -d' ' -f2- >"$tmp/cases"
export partial=${SPHERE_PARTIAL:-/dev/null}
xargs -P "$jobs" -L 1 bash -c 'f="'"$tmp"'/row.$$.$RANDOM"; one "$@" >"$f"; s=$?; cat "$f" >>"$partial"; exit $s' _ <"$tmp/cases"
status=$?

{
  echo "initial,alpha,n,r,steps,dt,l1_rel,l2_rel,linf_rel,mass_drift,wall_s,backend"
  cat "$tmp"/row.* | sort -t, -k1,1 -k2,2g -k4,4n -k3,3n
  # l2 rates between successive n of the same initial, alpha and r
  cat "$tmp"/row.* | grep -v '^FAILED' | sort -t, -k1,1 -k2,2g -k4,4n -k3,3n |
    awk -F, '{ key = $1 "," $2 "," $4
               if (key == last && $8 > 0 && prev > 0)
                 rates[key] = rates[key] sprintf(" %.2f", log(prev / $8) / log($3 / pn))
               last = key; prev = $8; pn = $3 }
             END { for (k in rates) print "# l2 rates " k ":" rates[k] }' | sort
} >"$tmp/table"
if [ -n "$csv" ]; then cp "$tmp/table" "$csv"; else cat "$tmp/table"; fi
grep -q '^FAILED' "$tmp"/row.* && status=1
exit $status
