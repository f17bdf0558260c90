#!/bin/sh
# The case keys land in K_<key> through eval, which shellcheck cannot follow.
# shellcheck disable=SC2154
# sphere_case.sh - one sphere validation case: dgrid's `advect --grid latlon
# --model sphere_advection` against the Fortran baseline `dgref grid=latlon`
# (tests/reference/README.md, "The sphere"), on the same grid, degree map,
# quadrature, flow, initial data, integrator, dt and step count.
#
# usage: sphere_case.sh --advect PATH --dgref PATH --compare PATH --workdir DIR
#                       [--name NAME] [--tol T] [--expect-mismatch] [--] key=value ...
# keys:
#   grid      n2 (rows; n1 = 2 n2) [n1]                               (required)
#   degrees   deg=R | degfile=PATH (relative paths: to this script's folder)
#             | map=KIND degmin=R deg=R (advect makes the map, e.g. latitude;
#               dgref gets it back from advect's text output)
#   q         Gauss points per direction (default: max degree + 1)
#   flow      flow=williamson alpha=A | flow=nair_lauritzen period=T   (required)
#   initial   init=hill|bell                                          (required)
#   time      rk=euler|ssprk2|ssprk3|rk4|lsrk4 dt nsteps              (required)
#   ref_alpha=A  dgref's alpha instead of alpha (a planted mismatch, with
#             --expect-mismatch: the case then passes only if the difference is caught)
# The radius (6.37122e6) and the height h0 (1000) are passed to both explicitly.
#
# Checks (each can fail; every failing one is named):
#   1. both programs exit 0 and print their summary lines; dofs agree; both ran nsteps;
#   2. the largest |coefficient difference| over the largest |coefficient| of dgref's
#      solution is <= T (default 1e-12); compare --tol T passes as well (its
#      rel_l2_diff, the unweighted L2 norm of the difference in (lambda, theta)
#      over that of dgref's solution); every coefficient compared, same degrees;
#   3. the same q and model name in both text headers;
#   4. the masses agree to 1e-12 relative; for flow=williamson, Williamson's
#      normalised l1, l2, linf agree to 1e-5 relative (advect prints 7 digits)
#      where the error is above 1e-10 (below, both must be).
# Files in DIR: dgrid.h5, dgrid.txt, ref.txt, logs, commands.txt, result.txt.
# Exit status: 0 pass, 1 validation failed, 2 usage error or a program failed.
set -u

prog=sphere_case.sh
die() { echo "$prog: $*" >&2; exit 2; }

ADVECT='' DGREF='' COMPARE='' WORK='' NAME=case TOL=1e-12 EXPECT_MISMATCH=0
while [ $# -gt 0 ]; do
  case $1 in
  --advect | --dgref | --compare | --workdir | --name | --tol)
    [ $# -ge 2 ] || die "option $1 needs a value"
    case $1 in
    --advect) ADVECT=$2 ;; --dgref) DGREF=$2 ;; --compare) COMPARE=$2 ;;
    --workdir) WORK=$2 ;; --name) NAME=$2 ;; --tol) TOL=$2 ;;
    esac
    shift 2 ;;
  --expect-mismatch) EXPECT_MISMATCH=1; shift ;;
  --) shift; break ;;
  -*) die "unknown option '$1' (see the header of $0)" ;;
  *) break ;;
  esac
done
prog="sphere_case.sh [$NAME]"
[ -n "$ADVECT" ] || die "missing --advect PATH (the dgrid advect program)"
[ -n "$DGREF" ] || die "missing --dgref PATH (the Fortran baseline)"
[ -n "$COMPARE" ] || die "missing --compare PATH (apps/compare)"
[ -n "$WORK" ] || die "missing --workdir DIR"
for exe in "$ADVECT" "$DGREF" "$COMPARE"; do
  [ -x "$exe" ] || die "program '$exe' does not exist or is not executable (build it first)"
done

isnum() { printf '%s\n' "$1" | grep -Eq '^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$'; }
# shellcheck disable=SC2317  # called through eval below
isint() { printf '%s\n' "$1" | grep -Eq '^[0-9]+$'; }
isnum "$TOL" || die "--tol '$TOL' is not a number"

KEYS="n1 n2 deg degfile map degmin q flow alpha ref_alpha period init rk dt nsteps"
for k in $KEYS; do eval "K_$k="; done
SEEN=" "
[ $# -gt 0 ] || die "no case keys given (key=value ...)"
for arg in "$@"; do
  case $arg in *=*) ;; *) die "argument '$arg' is not key=value" ;; esac
  key=${arg%%=*} val=${arg#*=}
  case " $KEYS " in *" $key "*) ;; *) die "unknown key '$key' in '$arg'" ;; esac
  [ -n "$val" ] || die "empty value in '$arg'"
  case "$SEEN" in *" $key "*) die "key '$key' given twice" ;; esac
  SEEN="$SEEN$key "
  eval "K_$key=\$val"
done
need() { for k in "$@"; do eval "[ -n \"\$K_$k\" ]" || die "case needs key '$k'"; done; }
need n2 flow init rk dt nsteps
[ -n "$K_n1" ] || K_n1=$((2 * K_n2))
for k in n1 n2 nsteps deg degmin q; do
  eval "v=\$K_$k"
  [ -z "$v" ] || isint "$v" || die "key '$k'='$v' must be a non-negative integer"
done
for k in n1 n2 nsteps; do eval "isint \"\$K_$k\"" || die "key '$k' must be a non-negative integer"; done
for k in alpha ref_alpha period dt; do
  eval "v=\$K_$k"
  [ -z "$v" ] || isnum "$v" || die "key '$k'='$v' is not a number"
done
case $K_flow in
williamson) need alpha; WIND=williamson ;;
nair_lauritzen) need period; WIND=deform ;;
*) die "flow must be williamson or nair_lauritzen, not '$K_flow'" ;;
esac
case $K_init in hill | bell) ;; *) die "init must be hill or bell, not '$K_init'" ;; esac
case $K_rk in euler | ssprk2 | ssprk3 | rk4 | lsrk4) ;; *) die "rk '$K_rk' is not euler, ssprk2, ssprk3, rk4 or lsrk4" ;; esac

HERE=$(cd "$(dirname "$0")" && pwd) || die "cannot find the script's folder"
if [ -n "$K_map" ]; then
  need deg degmin
  [ -z "$K_degfile" ] || die "keys 'map' and 'degfile' are mutually exclusive"
  MAXDEG=$K_deg
elif [ -n "$K_degfile" ]; then
  [ -z "$K_deg" ] || die "keys 'deg' and 'degfile' are mutually exclusive"
  case $K_degfile in /*) ;; *) K_degfile=$HERE/$K_degfile ;; esac
  [ -r "$K_degfile" ] || die "degree map '$K_degfile' does not exist or is not readable"
  MAXDEG=$(awk '/^[ \t]*(#|$)/ { next } { for (i = 1; i <= NF; ++i) if ($i + 0 > m) m = $i + 0 } END { print m + 0 }' "$K_degfile")
else
  need deg
  MAXDEG=$K_deg
fi
[ -n "$K_q" ] || K_q=$((MAXDEG + 1))
RADIUS=6.37122e6 HEIGHT=1000

{ rm -rf "$WORK" && mkdir -p "$WORK"; } || die "cannot create work folder '$WORK'"
FAILED=0
fail() { echo "$prog: FAIL: $*" >&2; FAILED=1; }
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
awk_true() { expr=$1; shift; awk "$@" "BEGIN { exit !($expr) }" </dev/null; }
show() { [ -s "$1" ] && sed 's/^/    | /' "$1" >&2; return 0; }

# ---- 1. dgrid
set -- --grid latlon --cells "${K_n1}x${K_n2}" --radius "$RADIUS" --model sphere_advection \
  --flow "$K_flow" --initial "$K_init" --height "$HEIGHT"
if [ "$K_flow" = williamson ]; then set -- "$@" --alpha "$K_alpha"; else set -- "$@" --period "$K_period"; fi
if [ -n "$K_map" ]; then
  set -- "$@" --map "$K_map" --degree-min "$K_degmin" --degree "$K_deg"
elif [ -n "$K_degfile" ]; then
  set -- "$@" --map-file "$K_degfile"
else
  set -- "$@" --degree "$K_deg"
fi
set -- "$@" --q "$K_q" --integrator "$K_rk" --dt "$K_dt" --steps "$K_nsteps" \
  --output "$WORK/dgrid.h5" --text-output "$WORK/dgrid.txt" --quiet
{ echo "# $NAME: dgrid"; echo "$ADVECT $*"; } > "$WORK/commands.txt"
"$ADVECT" "$@" > "$WORK/advect.out" 2> "$WORK/advect.err"
rc=$?
[ $rc -eq 0 ] || { echo "$prog: advect failed with exit status $rc: $ADVECT $*" >&2; show "$WORK/advect.err"; exit 2; }
ALINE=$(grep '^advect: ' "$WORK/advect.out" | tail -n 1)
[ -n "$ALINE" ] || { echo "$prog: advect printed no summary line" >&2; show "$WORK/advect.out"; exit 2; }

# the map advect made, for dgref: n2 lines of n1 degrees, row j = 0 first
if [ -n "$K_map" ]; then
  K_degfile=$WORK/map.txt
  awk -v n1="$K_n1" -v n2="$K_n2" -v lo="$K_degmin" -v hi="$K_deg" '
    $1 == "e" && NF == 4 { d[$2 + 0, $3 + 0] = $4 + 0; n++ }
    END {
      if (n != n1 * n2) { printf "advect text output has %d element records, expected %d\n", n, n1 * n2 > "/dev/stderr"; exit 1 }
      for (j = 0; j < n2; ++j) {
        line = ""
        for (i = 0; i < n1; ++i) {
          r = d[i, j]
          if (r < lo || r > hi) { printf "element (%d,%d) has degree %d, outside %d..%d\n", i, j, r, lo, hi > "/dev/stderr"; exit 1 }
          line = line (i ? " " : "") r
        }
        print line
      }
    }' "$WORK/dgrid.txt" > "$K_degfile" 2> "$WORK/map.err" || {
    echo "$prog: FAIL: the degree map in advect's output is not as asked:" >&2; show "$WORK/map.err"; exit 1; }
fi

# ---- 2. the baseline
set -- grid=latlon nx="$K_n1" ny="$K_n2" a="$RADIUS" wind="$WIND" init="$K_init" height="$HEIGHT"
if [ "$K_flow" = williamson ]; then set -- "$@" alpha="${K_ref_alpha:-$K_alpha}"; else set -- "$@" tdef="$K_period"; fi
if [ -n "$K_degfile" ]; then set -- "$@" degfile="$K_degfile"; else set -- "$@" deg="$K_deg"; fi
set -- "$@" q="$K_q" rk="$K_rk" dt="$K_dt" nsteps="$K_nsteps" out="$WORK/ref.txt"
{ echo "# $NAME: Fortran baseline"; echo "$DGREF $*"; } >> "$WORK/commands.txt"
"$DGREF" "$@" > "$WORK/dgref.out" 2> "$WORK/dgref.err"
rc=$?
[ $rc -eq 0 ] || { echo "$prog: dgref failed with exit status $rc: $DGREF $*" >&2; show "$WORK/dgref.err"; exit 2; }
RLINE=$(grep '^dgref: ' "$WORK/dgref.out" | tail -n 1)
[ -n "$RLINE" ] || { echo "$prog: dgref printed no summary line" >&2; exit 2; }

# ---- 3. compare
echo "$COMPARE --tol $TOL $WORK/dgrid.h5 $WORK/ref.txt" >> "$WORK/commands.txt"
"$COMPARE" --tol "$TOL" "$WORK/dgrid.h5" "$WORK/ref.txt" > "$WORK/compare.out" 2> "$WORK/compare.err"
crc=$?
CLINE=$(grep '^compare: dofs=' "$WORK/compare.out" | head -n 1)
if [ $crc -eq 2 ] || [ -z "$CLINE" ]; then
  echo "$prog: compare could not compare the two solutions (exit status $crc)" >&2
  show "$WORK/compare.err"; show "$WORK/compare.out"; exit 2
fi
REL=$(field "$CLINE" rel_l2_diff) MAXD=$(field "$CLINE" max_abs_diff)
CMAX=$(awk 'past && $1 != "e" && $1 !~ /^#/ { for (i = 1; i <= NF; ++i) { v = $i + 0; if (v < 0) v = -v; if (v > m) m = v } }
            $1 == "elements" { past = 1 } END { printf "%.17g", m }' "$WORK/ref.txt")
MAXREL=$(awk -v d="$MAXD" -v m="$CMAX" 'BEGIN { printf "%.3e", (m > 0 ? d / m : d) }')
if [ $EXPECT_MISMATCH -eq 1 ]; then
  if awk_true 'd > t' -v d="$MAXREL" -v t="$TOL" && [ $crc -eq 1 ]; then
    echo "$prog: PASS: the planted mismatch was caught: max_rel_coeff_diff=$MAXREL rel_l2_diff=$REL > $TOL"
    exit 0
  fi
  echo "$prog: FAIL: a mismatch was planted (ref_alpha) but not caught: max_rel_coeff_diff=$MAXREL rel_l2_diff=$REL" >&2
  exit 1
fi
[ -z "$K_ref_alpha" ] || die "key 'ref_alpha' only with --expect-mismatch"
awk_true 'd <= t' -v d="$MAXREL" -v t="$TOL" ||
  fail "max |difference| / max |c| = $MAXREL > $TOL (at element $(field "$CLINE" max_at_element) mode $(field "$CLINE" max_at_mode))"
[ $crc -eq 0 ] || fail "compare: rel_l2_diff=$REL > tol=$TOL"
[ "$(field "$CLINE" degree_mismatch)" = 0 ] || fail "degree maps differ in $(field "$CLINE" degree_mismatch) elements"
A_DOFS=$(field "$ALINE" dofs) R_DOFS=$(field "$RLINE" dofs)
[ "$A_DOFS" = "$R_DOFS" ] || fail "dofs differ: advect $A_DOFS, dgref $R_DOFS"
[ "$(field "$CLINE" dofs)" = "$R_DOFS" ] || fail "compare compared $(field "$CLINE" dofs) coefficients, dgref has $R_DOFS"
{ [ "$(field "$ALINE" steps)" = "$K_nsteps" ] && [ "$(field "$RLINE" steps)" = "$K_nsteps" ]; } ||
  fail "step counts: advect $(field "$ALINE" steps), dgref $(field "$RLINE" steps), asked $K_nsteps"
hdr() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }
for k in q model; do
  a=$(hdr "$WORK/dgrid.txt" $k) r=$(hdr "$WORK/ref.txt" $k)
  { [ -n "$a" ] && [ "$a" = "$r" ]; } || fail "header '$k' differs: advect's text output has '$a', dgref's '$r'"
done

# ---- 4. mass and Williamson's norms
A_M=$(field "$ALINE" mass) R_M=$(field "$RLINE" mass)
awk_true '(a - b < 0 ? b - a : a - b) <= 1e-12 * (b < 0 ? -b : b)' -v a="$A_M" -v b="$R_M" ||
  fail "masses differ: advect $A_M, dgref $R_M"
# (Nair-Lauritzen: no exact solution between whole periods, so no norms)
[ "$K_flow" = williamson ] || set --
[ "$K_flow" = williamson ] && set -- 1 2 inf
for n in "$@"; do
  a=$(field "$ALINE" "l${n}_rel") r=$(field "$RLINE" "l${n}_error")
  if [ -z "$a" ]; then fail "advect printed no l${n}_rel"; continue; fi
  awk_true '(r < 1e-10 && a < 1e-10) || (a - r < 0 ? r - a : a - r) <= 1e-5 * r' -v a="$a" -v r="$r" ||
    fail "Williamson l$n differs: advect $a, dgref $r"
done

STATUS=PASS
[ $FAILED -eq 0 ] || STATUS=FAIL
printf 'case=%s status=%s cells=%sx%s degrees=%s q=%s flow=%s alpha=%s init=%s rk=%s dt=%s steps=%s dofs=%s max_rel_coeff_diff=%s rel_l2_diff=%s advect_l2=%s dgref_l2=%s advect_mass=%s dgref_mass=%s\n' \
  "$NAME" "$STATUS" "$K_n1" "$K_n2" "$(if [ -n "$K_map" ]; then echo "$K_map:$K_degmin..$K_deg"; elif [ -n "$K_degfile" ]; then basename "$K_degfile"; else echo "$K_deg"; fi)" \
  "$K_q" "$K_flow" "${K_alpha:--}" "$K_init" "$K_rk" "$K_dt" "$K_nsteps" "$R_DOFS" "$MAXREL" "$REL" \
  "$(field "$ALINE" l2_rel)" "$(field "$RLINE" l2_error)" "$A_M" "$R_M" > "$WORK/result.txt"
echo "$prog: $STATUS: max_rel_coeff_diff=$MAXREL rel_l2_diff=$REL (max|c|=$CMAX)"
echo "  advect: $ALINE"
echo "  dgref:  $RLINE"
[ $FAILED -eq 0 ] || { echo "  files and the exact commands: $WORK (commands.txt)"; exit 1; }
exit 0
