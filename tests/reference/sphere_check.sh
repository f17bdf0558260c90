#!/bin/sh
# sphere_check.sh - reference.sphere_selfcheck: checks of dgref's latitude-longitude
# sphere (grid=latlon, README.md "The sphere") that need no dgrid.
#
# usage: sphere_check.sh DGREF WORKDIR
#
# 1. Mass: on the random degree map maps/sphere_random_24x12.txt (degrees 0..4) with the
#    wind through the poles (alpha = pi/2 and pi/2 - 0.05), a Gaussian hill that crosses
#    the north pole and a cosine bell, for ssprk3, rk4 and lsrk4: the total mass
#    changes by at most 1e-13 relative over one day, and dgref's dofs equal
#    sum (r+1)^2 over the map (the map is the one used).
# 2. Poles: pole_balance <= 1e-12 on every run, including the projection of a hill
#    centred on each pole (nsteps=0).  pole_balance is the mass balance of the two
#    polar rows: d/dt of the row's mass (from the full right-hand side, mass inverse
#    included) minus the flux through its one inner face, relative to the size of
#    the terms; a flux through the pole face would be left over.
# 3. Convergence: the Gaussian hill (Williamson's normalised l1 and l2 errors) on
#    d1 x d2 = 24x12 and 48x24, r = 1, 2, 3, rk4, alpha = 0 (one day) and alpha = pi/2
#    (half a day; the step there is set by the polar rows): rate >= r + 0.5.
# Exit status: 0 all pass, 1 a check failed, 2 usage error or a run failed.
set -u
[ $# -eq 2 ] || { echo "usage: sphere_check.sh DGREF WORKDIR" >&2; exit 2; }
DGREF=$1 W=$2
[ -x "$DGREF" ] || { echo "sphere_check.sh: '$DGREF' is not an executable" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd) || exit 2
MAP=$HERE/maps/sphere_random_24x12.txt
[ -r "$MAP" ] || { echo "sphere_check.sh: cannot read $MAP" >&2; exit 2; }
{ rm -rf "$W" && mkdir -p "$W"; } || { echo "sphere_check.sh: cannot create $W" >&2; exit 2; }

PI2=1.5707963267948966
FAILED=0
fail() { echo "FAIL: $*" >&2; FAILED=1; }
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# awk_true EXPR -v a=.. ...: the condition on numbers
awk_true() {
  expr=$1; shift
  awk "$@" "BEGIN { exit !($expr) }" </dev/null
}
isnum() { printf '%s\n' "$1" | grep -Eq '^[+-]?[0-9]+\.?[0-9]*([eE][+-]?[0-9]+)?$'; }

# run NAME key=value ...: dgref into $W/NAME.*, its summary line in LINE
LINE=
run() {
  name=$1; shift
  echo "$DGREF grid=latlon $* out=$W/$name.txt" >> "$W/commands.txt"
  if ! "$DGREF" grid=latlon "$@" out="$W/$name.txt" > "$W/$name.out" 2> "$W/$name.err"; then
    echo "sphere_check.sh: dgref failed on $name: $(cat "$W/$name.err")" >&2
    exit 2
  fi
  LINE=$(grep '^dgref: ' "$W/$name.out" | tail -n 1)
  [ -n "$LINE" ] || { echo "sphere_check.sh: dgref printed no summary on $name" >&2; exit 2; }
  for k in l1_error l2_error linf_error mass mass_rel_change pole_balance; do
    isnum "$(field "$LINE" $k)" || fail "$name: $k='$(field "$LINE" $k)' is not a finite number"
  done
}
# the checks every run gets: mass and poles
check_conservation() {
  dm=$(field "$LINE" mass_rel_change) pb=$(field "$LINE" pole_balance)
  awk_true 'd <= 1e-13 && d >= -1e-13' -v d="$dm" || fail "$1: mass changed by $dm relative (> 1e-13)"
  awk_true 'p <= 1e-12' -v p="$pb" || fail "$1: polar-row balance $pb > 1e-12 (flux through a pole?)"
  echo "ok [$1] mass_rel_change=$dm pole_balance=$pb"
}

# ---- 1. and 2. mass and poles on the random map
MAPDOFS=$(awk '/^[ \t]*(#|$)/ { next } { for (i = 1; i <= NF; ++i) s += ($i + 1) * ($i + 1) } END { print s }' "$MAP")
for rk in ssprk3 rk4 lsrk4; do
  run "mass_hill_$rk" nx=24 ny=12 degfile="$MAP" init=hill lc=4.71238898038469 tc=1.3 alpha=$PI2 \
    rk=$rk tend=86400 cfl=1
  [ "$(field "$LINE" dofs)" = "$MAPDOFS" ] || fail "mass_hill_$rk: dofs=$(field "$LINE" dofs), the map has $MAPDOFS"
  awk_true 'e < 1' -v e="$(field "$LINE" l2_error)" || fail "mass_hill_$rk: l2 error $(field "$LINE" l2_error): not a stable run"
  check_conservation "mass_hill_$rk"
done
run mass_bell_rk4 nx=24 ny=12 degfile="$MAP" init=bell alpha=1.5207963267948966 rk=rk4 tend=86400 cfl=1
awk_true 'e < 1' -v e="$(field "$LINE" l2_error)" || fail "mass_bell_rk4: l2 error $(field "$LINE" l2_error): not a stable run"
check_conservation mass_bell_rk4
for pole in north south; do
  tc=$PI2
  [ $pole = south ] && tc=-$PI2
  run "pole_$pole" nx=24 ny=12 degfile="$MAP" init=hill lc=0 tc=$tc alpha=$PI2 dt=1 nsteps=0
  check_conservation "pole_$pole"
  run "pole_${pole}_deg3" nx=24 ny=12 deg=3 init=hill lc=0 tc=$tc alpha=$PI2 dt=1 nsteps=0
  check_conservation "pole_${pole}_deg3"
done

# ---- 3. convergence of the Gaussian hill
printf '%-10s %-2s %-12s %-12s %-12s %-12s %-12s %-12s %s\n' alpha r "l1(24x12)" "l1(48x24)" "l2(24x12)" "l2(48x24)" \
  "rate l1" "rate l2" "rate linf" > "$W/rates.txt"
for al in 0 $PI2; do
  if [ "$al" = 0 ]; then T=86400 C=1; else T=43200 C=2.5; fi
  for r in 1 2 3; do
    run "conv_a${al}_r${r}_n12" ny=12 deg=$r init=hill alpha="$al" rk=rk4 tend=$T cfl=$C
    check_conservation "conv_a${al}_r${r}_n12"
    L1A=$(field "$LINE" l1_error) L2A=$(field "$LINE" l2_error) LIA=$(field "$LINE" linf_error)
    run "conv_a${al}_r${r}_n24" ny=24 deg=$r init=hill alpha="$al" rk=rk4 tend=$T cfl=$C
    check_conservation "conv_a${al}_r${r}_n24"
    L1B=$(field "$LINE" l1_error) L2B=$(field "$LINE" l2_error) LIB=$(field "$LINE" linf_error)
    rates=$(awk -v a="$L1A" -v b="$L1B" -v c="$L2A" -v d="$L2B" -v e="$LIA" -v f="$LIB" \
      'BEGIN { if (a > 0 && b > 0 && c > 0 && d > 0 && e > 0 && f > 0) printf "%.3f %.3f %.3f", log(a / b) / log(2), log(c / d) / log(2), log(e / f) / log(2); else print "nan nan nan" }')
    # shellcheck disable=SC2086  # three numbers, split on purpose
    set -- $rates
    printf '%-10s %-2s %-12.4e %-12.4e %-12.4e %-12.4e %-12s %-12s %s\n' "$al" "$r" "$L1A" "$L1B" "$L2A" "$L2B" "$1" "$2" "$3" >> "$W/rates.txt"
    awk_true 'x >= r + 0.5 && y >= r + 0.5' -v x="$1" -v y="$2" -v r="$r" ||
      fail "hill alpha=$al r=$r: rates l1 $1, l2 $2 below r + 0.5 = $((r * 2 + 1))/2"
  done
done
cat "$W/rates.txt"
[ $FAILED -eq 0 ] || { echo "sphere_check.sh: FAILED; runs and commands in $W" >&2; exit 1; }
echo "sphere_check.sh: all checks pass"
exit 0
