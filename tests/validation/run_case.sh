#!/bin/sh
# The case keys land in K_<key> / R_<key> through eval, which shellcheck cannot follow.
# shellcheck disable=SC2154
# run_case.sh - one validation case: dgrid's `advect` against the independent
# Fortran baseline `dgref` (tests/reference), on the same grid, degree map,
# quadrature, initial data, velocity, integrator, dt and step count.
#
# usage: run_case.sh --advect PATH --dgref PATH --compare PATH --workdir DIR
#                    [--name NAME] [--tol T] [--max-l2 E] [--threads N]
#                    [--expect-mismatch] [--] key=value ...
# --threads N runs advect with OMP_NUM_THREADS=N (otherwise the caller's setting).
#
# The case is given once, as dgref-style key=value pairs (see docs/VALIDATION.md
# and tests/reference/README.md); this script passes every value explicitly to
# both programs, so neither program's defaults matter:
#   grid       nx ny x0 x1 y0 y1                                   (required)
#   degrees    deg=R | degfile=PATH | map=band|random degmin=R deg=R [seed=S]
#              (map=: advect makes the map, dgref gets it back from advect's
#              output; a relative degfile is relative to this script's folder)
#   q          Gauss points per direction (default: max degree + 1)
#   velocity   vel=const bx by | vel=rot omega cx cy               (required)
#   initial    init=parabola|sine | init=bell bcx bcy radius height
#              | init=const value                                  (required)
#   time       rk=euler|ssprk3|rk4 dt nsteps                       (required)
#   ref.KEY=V  overrides KEY for dgref only (used by the self-test that
#              checks a real mismatch is caught, with --expect-mismatch)
#
# Checks (each one can fail; the first failing one is named):
#   1. both programs exit 0 and print their summary line; dofs and steps agree;
#   2. compare --tol T dgrid.h5 ref.txt exits 0: rel_l2_diff <= T (mass-matrix
#      L2 norm of the coefficient difference over the norm of dgref's solution);
#      also coeff_rel_l2 <= T, degree_mismatch = 0, every coefficient compared,
#      and the two snapshots carry the same time;
#   3. advect's HDF5 and text outputs hold identical coefficients;
#   4. the printed L2 errors agree: |E_a - E_r| <= l2_diff (triangle inequality)
#      plus 1e-10 |E| rounding slack; the max errors within
#      (rmax+1)^2 max_abs_diff + 1e-10 |E|; the masses within
#      sqrt(area) l2_diff + 1e-12 |M| + 1e-13 area;
#   5. with --max-l2 E: dgref's L2 error is finite and <= E (the run is a
#      meaningful, stable one and not two identical blow-ups).
# With --expect-mismatch the case passes only if both runs succeed and compare
# reports rel_l2_diff > T (exit status 1).
#
# Files in DIR: dgrid.h5, dgrid.txt (advect), ref.txt (dgref), map.txt (when
# the map came from advect), *.out/*.err logs, commands.txt (the exact command
# lines), result.txt (one line key=value, read by make_table.sh).
# Exit status: 0 pass, 1 validation failed, 2 usage error or a program failed.
set -u

prog=run_case.sh
die() { echo "$prog: $*" >&2; exit 2; }

ADVECT='' DGREF='' COMPARE='' WORK='' NAME=case TOL=1e-12 MAXL2='' THREADS='' EXPECT_MISMATCH=0
while [ $# -gt 0 ]; do
  case $1 in
  --advect | --dgref | --compare | --workdir | --name | --tol | --max-l2 | --threads)
    [ $# -ge 2 ] || die "option $1 needs a value"
    case $1 in
    --advect) ADVECT=$2 ;; --dgref) DGREF=$2 ;; --compare) COMPARE=$2 ;;
    --workdir) WORK=$2 ;; --name) NAME=$2 ;; --tol) TOL=$2 ;; --max-l2) MAXL2=$2 ;;
    --threads) THREADS=$2 ;;
    esac
    shift 2 ;;
  --expect-mismatch) EXPECT_MISMATCH=1; shift ;;
  --) shift; break ;;
  -*) die "unknown option '$1' (see the header of $0)" ;;
  *) break ;;
  esac
done
prog="run_case.sh [$NAME]"
[ -n "$ADVECT" ] || die "missing --advect PATH (the dgrid advect program)"
[ -n "$DGREF" ] || die "missing --dgref PATH (the Fortran baseline)"
[ -n "$COMPARE" ] || die "missing --compare PATH (apps/compare)"
[ -n "$WORK" ] || die "missing --workdir DIR"
for exe in "$ADVECT" "$DGREF" "$COMPARE"; do
  [ -f "$exe" ] || die "program '$exe' does not exist (build it first)"
  [ -x "$exe" ] || die "program '$exe' is not executable"
done

# isnum X: X is a plain decimal number (what both programs' parsers accept)
isnum() { printf '%s\n' "$1" | grep -Eq '^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$'; }
isint() { printf '%s\n' "$1" | grep -Eq '^[0-9]+$'; }
isnum "$TOL" || die "--tol '$TOL' is not a number"
[ -z "$MAXL2" ] || isnum "$MAXL2" || die "--max-l2 '$MAXL2' is not a number"
if [ -n "$THREADS" ]; then
  { isint "$THREADS" && [ "$THREADS" -ge 1 ]; } || die "--threads '$THREADS' is not a positive integer"
fi

# ---- the case: key=value pairs into K_<key> (and R_<key> for ref.<key>)
KEYS="nx ny x0 x1 y0 y1 q deg degfile map degmin seed vel bx by omega cx cy init bcx bcy radius height value rk dt nsteps"
for k in $KEYS; do eval "K_$k=; R_$k="; done
SEEN=" "
[ $# -gt 0 ] || die "no case keys given (key=value ...)"
for arg in "$@"; do
  case $arg in
  *=*) ;;
  *) die "argument '$arg' is not key=value" ;;
  esac
  key=${arg%%=*} val=${arg#*=}
  pre=K_
  case $key in ref.*) pre=R_ key=${key#ref.} ;; esac
  case " $KEYS " in *" $key "*) ;; *) die "unknown key '$key' in '$arg'" ;; esac
  [ -n "$val" ] || die "empty value in '$arg'"
  case "$SEEN" in *" $pre$key "*) die "key '$key' given twice" ;; esac
  SEEN="$SEEN$pre$key "
  eval "$pre$key=\$val"
done

need() { for k in "$@"; do eval "[ -n \"\$K_$k\" ]" || die "case needs key '$k'"; done; }
need nx ny x0 x1 y0 y1 vel init rk dt nsteps
for k in nx ny nsteps; do eval "isint \"\$K_$k\"" || die "key '$k' must be a non-negative integer"; done
for k in x0 x1 y0 y1 dt bx by omega cx cy bcx bcy radius height value; do
  eval "v=\$K_$k"
  [ -z "$v" ] || isnum "$v" || die "key '$k'='$v' is not a number"
done
case $K_vel in
const) need bx by ;;
rot) need omega cx cy ;;
*) die "vel must be const or rot, not '$K_vel'" ;;
esac
case $K_init in
parabola | sine) ;;
bell) need bcx bcy radius height ;;
const) need value ;;
*) die "init must be parabola, bell, sine or const, not '$K_init'" ;;
esac
case $K_rk in euler | ssprk3 | rk4) ;; *) die "rk must be euler, ssprk3 or rk4, not '$K_rk'" ;; esac

HERE=$(cd "$(dirname "$0")" && pwd) || die "cannot find the script's folder"
if [ -n "$K_map" ]; then
  case $K_map in band | random) ;; *) die "map must be band or random, not '$K_map'" ;; esac
  need deg degmin
  [ -z "$K_degfile" ] || die "keys 'map' and 'degfile' are mutually exclusive"
  [ "$K_map" = band ] || need seed
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
isint "$MAXDEG" || die "bad degree '$MAXDEG'"
[ -n "$K_q" ] || K_q=$((MAXDEG + 1))

{ rm -rf "$WORK" && mkdir -p "$WORK"; } || die "cannot create work folder '$WORK'"

# ---- helpers
# qcmd ARGS...: the command line, shell-quoted where needed
qcmd() {
  out=
  for a in "$@"; do
    case $a in
    *[!A-Za-z0-9_./=,:+-]*) a="'$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'" ;;
    esac
    out="$out${out:+ }$a"
  done
  printf '%s\n' "$out"
}
# field LINE KEY: the value of KEY= in LINE
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# awk_true EXPR: evaluate a condition on numbers passed as a=.. b=.. ...
awk_true() {
  expr=$1; shift
  awk "$@" "BEGIN { exit !($expr) }" </dev/null
}
FAILED=0
fail() { echo "$prog: FAIL: $*" >&2; FAILED=1; }
show() { # show FILE: its contents on stderr, indented
  [ -s "$1" ] && sed 's/^/    | /' "$1" >&2
  return 0
}
ref() { eval "v=\$R_$1"; [ -n "$v" ] || eval "v=\$K_$1"; printf '%s' "$v"; }

# ---- 1. dgrid (advect)
set -- --dim 2 --cells "${K_nx}x${K_ny}" --box "$K_x0,$K_x1,$K_y0,$K_y1"
if [ -n "$K_map" ]; then
  set -- "$@" --map "$K_map" --degree-min "$K_degmin" --degree "$K_deg"
  [ "$K_map" = random ] && set -- "$@" --seed "$K_seed"
elif [ -n "$K_degfile" ]; then
  set -- "$@" --map-file "$K_degfile"
else
  set -- "$@" --degree "$K_deg"
fi
set -- "$@" --q "$K_q"
if [ "$K_vel" = const ]; then
  set -- "$@" --velocity const --beta "$K_bx,$K_by"
else
  set -- "$@" --velocity rotation --omega "$K_omega" --rot-centre "$K_cx,$K_cy"
fi
case $K_init in
bell) set -- "$@" --init bell --bell-centre "$K_bcx,$K_bcy" --bell-radius "$K_radius" --bell-height "$K_height" ;;
const) set -- "$@" --init constant --value "$K_value" ;;
*) set -- "$@" --init "$K_init" ;;
esac
set -- "$@" --integrator "$K_rk" --dt "$K_dt" --steps "$K_nsteps" \
  --output "$WORK/dgrid.h5" --text-output "$WORK/dgrid.txt" --quiet
if [ -n "$THREADS" ]; then
  OMP_NUM_THREADS=$THREADS
  export OMP_NUM_THREADS
fi
{ echo "# $NAME: dgrid (OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset})"; qcmd "$ADVECT" "$@"; } > "$WORK/commands.txt"
"$ADVECT" "$@" > "$WORK/advect.out" 2> "$WORK/advect.err"
rc=$?
if [ $rc -ne 0 ]; then
  echo "$prog: advect failed with exit status $rc; command: $(qcmd "$ADVECT" "$@")" >&2
  show "$WORK/advect.err"; show "$WORK/advect.out"; exit 2
fi
ALINE=$(grep '^advect: ' "$WORK/advect.out" | tail -n 1)
[ -n "$ALINE" ] || { echo "$prog: advect printed no 'advect: ...' summary line" >&2; show "$WORK/advect.out"; exit 2; }
for f in dgrid.h5 dgrid.txt; do
  [ -s "$WORK/$f" ] || die "advect exited 0 but wrote no $WORK/$f"
done

# ---- the degree map for dgref when advect made it
REF_DEGFILE=$K_degfile
if [ -n "$K_map" ]; then
  REF_DEGFILE=$WORK/map.txt
  awk -v nx="$K_nx" -v ny="$K_ny" -v lo="$K_degmin" -v hi="$K_deg" -v map="$K_map" '
    $1 == "e" && NF == 4 { d[$2 + 0, $3 + 0] = $4 + 0; n++; next }
    END {
      if (n != nx * ny) { printf "advect text output has %d element records, expected %d\n", n, nx * ny > "/dev/stderr"; exit 1 }
      printf "# %s degree map made by advect (--map %s --degree-min %d --degree %d), read back from its text output\n", map, map, lo, hi
      for (j = 0; j < ny; ++j) {
        line = ""
        for (i = 0; i < nx; ++i) {
          if (!((i, j) in d)) { printf "no element (%d,%d) in advect text output\n", i, j > "/dev/stderr"; exit 1 }
          r = d[i, j]; line = line (i ? " " : "") r; cnt[r]++
          if (r < lo || r > hi) { printf "element (%d,%d) has degree %d, outside --degree-min %d .. --degree %d\n", i, j, r, lo, hi > "/dev/stderr"; exit 1 }
        }
        print line
      }
      for (r = lo; r <= hi; ++r)
        if (!(r in cnt)) { printf "the %s map has no element of degree %d (expected every degree %d..%d on %dx%d)\n", map, r, lo, hi, nx, ny > "/dev/stderr"; exit 1 }
      if (map == "band") {
        # core/dg_degree_map.h: constant along x, symmetric about the middle
        # rows, rmin next to both y-boundaries, never falling toward the middle
        for (j = 0; j < ny; ++j)
          for (i = 0; i < nx; ++i) {
            if (d[i, j] != d[0, j]) { printf "band map: row j=%d is not constant in x (element (%d,%d) has %d, (0,%d) has %d)\n", j, i, j, d[i, j], j, d[0, j] > "/dev/stderr"; exit 1 }
            if (d[i, j] != d[i, ny - 1 - j]) { printf "band map: rows %d and %d differ (not symmetric)\n", j, ny - 1 - j > "/dev/stderr"; exit 1 }
            if (2 * j < ny - 1 && d[i, j + 1] < d[i, j]) { printf "band map: degree falls from row %d to row %d below the middle\n", j, j + 1 > "/dev/stderr"; exit 1 }
          }
        if (d[0, 0] != lo) { printf "band map: row 0 has degree %d, expected --degree-min %d\n", d[0, 0], lo > "/dev/stderr"; exit 1 }
      }
    }' "$WORK/dgrid.txt" > "$REF_DEGFILE" 2> "$WORK/map.err" || {
    echo "$prog: FAIL: degree map from advect's output is not as asked:" >&2; show "$WORK/map.err"; exit 1; }
fi

# ---- 2. the baseline (dgref)
set -- nx="$K_nx" ny="$K_ny" x0="$(ref x0)" x1="$(ref x1)" y0="$(ref y0)" y1="$(ref y1)"
if [ -n "$REF_DEGFILE" ]; then set -- "$@" degfile="$REF_DEGFILE"; else set -- "$@" deg="$K_deg"; fi
set -- "$@" q="$K_q" vel="$K_vel"
if [ "$K_vel" = const ]; then
  set -- "$@" bx="$(ref bx)" by="$(ref by)"
else
  set -- "$@" omega="$(ref omega)" cx="$(ref cx)" cy="$(ref cy)"
fi
set -- "$@" init="$K_init"
case $K_init in
bell) set -- "$@" bcx="$(ref bcx)" bcy="$(ref bcy)" radius="$(ref radius)" height="$(ref height)" ;;
const) set -- "$@" value="$(ref value)" ;;
esac
set -- "$@" rk="$K_rk" dt="$(ref dt)" nsteps="$K_nsteps" out="$WORK/ref.txt"
{ echo "# $NAME: Fortran baseline"; qcmd "$DGREF" "$@"; } >> "$WORK/commands.txt"
"$DGREF" "$@" > "$WORK/dgref.out" 2> "$WORK/dgref.err"
rc=$?
if [ $rc -ne 0 ]; then
  echo "$prog: dgref failed with exit status $rc; command: $(qcmd "$DGREF" "$@")" >&2
  show "$WORK/dgref.err"; exit 2
fi
RLINE=$(grep '^dgref: ' "$WORK/dgref.out" | tail -n 1)
[ -n "$RLINE" ] || { echo "$prog: dgref printed no summary line" >&2; show "$WORK/dgref.out"; exit 2; }

# ---- 3. compare
{ echo "# $NAME: comparison"; qcmd "$COMPARE" --tol "$TOL" "$WORK/dgrid.h5" "$WORK/ref.txt"; } >> "$WORK/commands.txt"
"$COMPARE" --tol "$TOL" "$WORK/dgrid.h5" "$WORK/ref.txt" > "$WORK/compare.out" 2> "$WORK/compare.err"
crc=$?
CLINE=$(grep '^compare: dofs=' "$WORK/compare.out" | head -n 1)
if [ $crc -eq 2 ] || [ -z "$CLINE" ]; then
  echo "$prog: compare could not compare the two solutions (exit status $crc)" >&2
  show "$WORK/compare.err"; show "$WORK/compare.out"; exit 2
fi
REL=$(field "$CLINE" rel_l2_diff) CREL=$(field "$CLINE" coeff_rel_l2)
L2D=$(field "$CLINE" l2_diff) MAXD=$(field "$CLINE" max_abs_diff)
AT="element $(field "$CLINE" max_at_element) mode $(field "$CLINE" max_at_mode)"

if [ $EXPECT_MISMATCH -eq 1 ]; then
  if [ $crc -eq 1 ]; then
    echo "$prog: PASS: the harness caught the planted mismatch: rel_l2_diff=$REL > tol=$TOL"
    printf 'case=%s status=PASS expect=mismatch rel_l2_diff=%s coeff_rel_l2=%s max_abs_diff=%s\n' \
      "$NAME" "$REL" "$CREL" "$MAXD" > "$WORK/result.txt"
    exit 0
  fi
  echo "$prog: FAIL: a mismatch was planted (ref.* keys) but compare passed: rel_l2_diff=$REL <= tol=$TOL" >&2
  exit 1
fi

[ $crc -eq 0 ] || fail "dgrid and dgref differ: rel_l2_diff=$REL > tol=$TOL (largest |difference| $MAXD at $AT)"
awk_true 'c <= t' -v c="$CREL" -v t="$TOL" || fail "coefficient vectors differ: coeff_rel_l2=$CREL > tol=$TOL"
[ "$(field "$CLINE" degree_mismatch)" = 0 ] || fail "degree maps differ in $(field "$CLINE" degree_mismatch) elements"
grep -q '^  note: A is at time' "$WORK/compare.out" && fail "snapshot times differ: $(grep '^  note: A is at time' "$WORK/compare.out")"

A_DOFS=$(field "$ALINE" dofs) R_DOFS=$(field "$RLINE" dofs)
A_STEPS=$(field "$ALINE" steps) R_STEPS=$(field "$RLINE" steps)
[ "$A_DOFS" = "$R_DOFS" ] || fail "dofs differ: advect $A_DOFS, dgref $R_DOFS"
[ "$(field "$CLINE" dofs)" = "$R_DOFS" ] || fail "compare compared $(field "$CLINE" dofs) coefficients, dgref has $R_DOFS"
{ [ "$A_STEPS" = "$K_nsteps" ] && [ "$R_STEPS" = "$K_nsteps" ]; } || fail "step counts: advect $A_STEPS, dgref $R_STEPS, asked $K_nsteps"

# the same quadrature and model recorded in both files (text headers: docs/FILE_FORMAT.md)
hdr() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }
for k in q step model; do
  a=$(hdr "$WORK/dgrid.txt" $k) r=$(hdr "$WORK/ref.txt" $k)
  { [ -n "$a" ] && [ "$a" = "$r" ]; } || fail "header '$k' differs: advect's text output has '$a', dgref's '$r'"
done
[ "$(hdr "$WORK/ref.txt" q)" = "$K_q" ] || fail "dgref used q=$(hdr "$WORK/ref.txt" q), the case asked q=$K_q"

# advect's two outputs hold the same doubles
"$COMPARE" --quiet --tol 0 "$WORK/dgrid.txt" "$WORK/dgrid.h5" > "$WORK/compare_self.out" 2>&1 ||
  fail "advect's text and HDF5 outputs differ: $(head -n 2 "$WORK/compare_self.out")"
[ "$(field "$(head -n 1 "$WORK/compare_self.out")" max_abs_diff)" = 0 ] ||
  fail "advect's text and HDF5 outputs differ: $(head -n 1 "$WORK/compare_self.out")"

# ---- 4. the diagnostics both programs print
A_L2=$(field "$ALINE" l2_error) R_L2=$(field "$RLINE" l2_error)
A_LI=$(field "$ALINE" linf_error) R_LI=$(field "$RLINE" linf_error)
A_M=$(field "$ALINE" mass) R_M=$(field "$RLINE" mass)
for v in "$A_L2" "$R_L2" "$A_LI" "$R_LI" "$A_M" "$R_M"; do
  isnum "$v" || fail "a summary value is not a finite number ('$v'): advect: $ALINE; dgref: $RLINE"
done
if [ $FAILED -eq 0 ]; then
  AREA=$(awk -v a="$K_x0" -v b="$K_x1" -v c="$K_y0" -v d="$K_y1" 'BEGIN { printf "%.17g", (b - a) * (d - c) }')
  awk_true '(ea > er ? ea - er : er - ea) <= l2d * (1 + 1e-9) + 1e-10 * (ea > er ? ea : er)' \
    -v ea="$A_L2" -v er="$R_L2" -v l2d="$L2D" ||
    fail "L2 errors differ by more than the solutions do: advect $A_L2, dgref $R_L2, l2_diff $L2D"
  awk_true '(ea > er ? ea - er : er - ea) <= (r + 1) * (r + 1) * md * (1 + 1e-9) + 1e-10 * (ea > er ? ea : er)' \
    -v ea="$A_LI" -v er="$R_LI" -v md="$MAXD" -v r="$MAXDEG" ||
    fail "max errors differ by more than the solutions can: advect $A_LI, dgref $R_LI, max_abs_diff $MAXD"
  awk_true '(ma > mr ? ma - mr : mr - ma) <= sqrt(ar) * l2d * (1 + 1e-9) + 1e-12 * ((ma < 0 ? -ma : ma) + (mr < 0 ? -mr : mr)) + 1e-13 * ar' \
    -v ma="$A_M" -v mr="$R_M" -v l2d="$L2D" -v ar="$AREA" ||
    fail "masses differ: advect $A_M, dgref $R_M, l2_diff $L2D"
fi

# ---- 5. a meaningful run
if [ -n "$MAXL2" ]; then
  awk_true 'e <= m' -v e="$R_L2" -v m="$MAXL2" ||
    fail "dgref's L2 error $R_L2 is above the case's bound $MAXL2 (unstable or wrong setup?)"
fi

# largest |coefficient| of dgref's solution, for the max relative coefficient difference
CMAX=$(awk 'past && $1 != "e" && $1 !~ /^#/ { for (i = 1; i <= NF; ++i) { v = $i + 0; if (v < 0) v = -v; if (v > m) m = v } }
            $1 == "elements" { past = 1 } END { printf "%.17g", m }' "$WORK/ref.txt")
MAXREL=$(awk -v d="$MAXD" -v m="$CMAX" 'BEGIN { printf "%.17g", (m > 0 ? d / m : d) }')

STATUS=PASS
[ $FAILED -eq 0 ] || STATUS=FAIL
printf 'case=%s status=%s cells=%sx%s box=[%s,%s]x[%s,%s] degrees=%s q=%s vel=%s init=%s rk=%s dt=%s steps=%s dofs=%s advect_l2=%s dgref_l2=%s advect_linf=%s dgref_linf=%s advect_mass=%s dgref_mass=%s rel_l2_diff=%s coeff_rel_l2=%s max_abs_diff=%s max_rel_coeff_diff=%s\n' \
  "$NAME" "$STATUS" "$K_nx" "$K_ny" "$K_x0" "$K_x1" "$K_y0" "$K_y1" \
  "$(if [ -n "$K_map" ]; then echo "$K_map:$K_degmin..$K_deg"; elif [ -n "$K_degfile" ]; then echo "file:$(basename "$K_degfile")"; else echo "$K_deg"; fi)" \
  "$K_q" "$K_vel" "$K_init" "$K_rk" "$K_dt" "$K_nsteps" "$R_DOFS" "$A_L2" "$R_L2" "$A_LI" "$R_LI" "$A_M" "$R_M" \
  "$REL" "$CREL" "$MAXD" "$MAXREL" > "$WORK/result.txt"
echo "$prog: $STATUS: rel_l2_diff=$REL coeff_rel_l2=$CREL max_abs_diff=$MAXD (at $AT; max|c|=$CMAX)"
echo "  advect: $ALINE"
echo "  dgref:  $RLINE"
[ $FAILED -eq 0 ] || { echo "  files and the exact commands: $WORK (commands.txt)"; exit 1; }
exit 0
