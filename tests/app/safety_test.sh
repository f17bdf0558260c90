#!/bin/sh
# app.safety.<CASE>: apps/advect refuses, warns or notes what it would
# otherwise do silently: step counts that overflow, boxes the floating-point
# numbers cannot hold, a --cfl above the integrator's range, output paths
# that clash or cannot be named, options that do nothing, runs that do not
# fit in memory, echoed values with control characters, and the mass drift
# of variables without mass.
# Usage: safety_test.sh CASE DIR ADVECT PYTHON3
#
# Every refusal asserts the exact one-line message on stderr, exit status 2,
# nothing on stdout and no file written.
set -u
CASE=$1 DIR=$2 ADV=$3 PY=$4
rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
cd "$DIR" || exit 2
fail=0
bad() { echo "FAIL [app.safety.$CASE]: $*" >&2; fail=1; }
die() { echo "FAIL [app.safety.$CASE]: $*" >&2; exit 1; }

run() { "$ADV" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
. "$(dirname "$0")/checks.sh"
no_err() { [ -s "$DIR/err" ] && bad "$1: stderr is not empty: $(cat "$DIR/err")"; return 0; }
# refuse LABEL MESSAGE ARGS... (checks.sh) runs advect with ARGS
REFUSE_RUN=run
# close A B REL: |A - B| <= REL |B|
close() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= r * m) }'; }

S="--cells 4x4 --degree 1 --quiet"

case $CASE in

steps)
  # The step count is computed before any integer cast: 1e300 steps are refused, not run as one.
  refuse "--dt 1e-300" "advect: option --dt: 1e-300 needs 1e+300 steps to --t-end 1, more than 1099511627776" \
    $S --dt 1e-300 --t-end 1
  # --cfl: the estimate of this grid at degree 1 is h/(3 |beta|_1) = 0.25/6
  run $S --cfl 1 --steps 1
  est=$(key dt)
  close "$est" 0.041666666666666664 1e-12 || bad "estimate $est, expected 0.25/6"
  msg=$(printf 'advect: option --cfl: 1e-300 gives dt=%.3g, %.3g steps to --t-end 1, more than 1099511627776' \
    "$(awk -v e="$est" 'BEGIN { printf "%.17g", 1e-300 * e }')" "$(awk -v e="$est" 'BEGIN { printf "%.17g", 1 / (1e-300 * e) }')")
  refuse "--cfl 1e-300" "$msg" $S --cfl 1e-300 --t-end 1
  # just within the limit is not refused by the count (2^40 steps of 1): refused only by overflow
  refuse "--steps x --dt overflow" "advect: options --steps and --dt: 1099511627776 steps of 1e+300 overflow the time" \
    $S --dt 1e300 --steps 1099511627776
  # --dt that divides --t-end: no note; one that does not: the header says so
  # (1/0.04 is 25 up to round-off: it divides)
  run --cells 4x4 --degree 1 --dt 0.04 --t-end 1
  want_rc 0 "--dt 0.04"
  grep -q 'note' "$DIR/out" && bad "--dt 0.04 divides 1 but: $(grep note "$DIR/out")"
  [ "$(key steps)" = 25 ] || bad "--dt 0.04: $(key steps) steps"
  run --cells 4x4 --degree 1 --dt 0.03 --t-end 0.1
  want_rc 0 "--dt 0.03"
  [ "$(sed -n 2p "$DIR/out")" = "advect: note: --dt 0.03 does not divide --t-end 0.1: dt=0.025 (4 steps)" ] ||
    bad "--dt 0.03 header: $(head -n 2 "$DIR/out")"
  [ "$(key steps)" = 4 ] && [ "$(key t)" = 0.10000000000000001 ] || bad "--dt 0.03: steps=$(key steps) t=$(key t)"
  close "$(key dt)" 0.025 1e-15 || bad "--dt 0.03 ran with dt=$(key dt)"
  run --cells 4x4 --degree 1 --dt 0.03 --t-end 1
  [ "$(sed -n 2p "$DIR/out")" = "advect: note: --dt 0.03 does not divide --t-end 1: dt=0.0294118 (34 steps)" ] ||
    bad "--dt 0.03 header: $(head -n 2 "$DIR/out")"
  [ "$(key steps)" = 34 ] || bad "--dt 0.03: $(key steps) steps, expected ceil(1/0.03) = 34"
  ;;

box)
  refuse "huge box" "advect: option --box: x range [-1e+308, 1e+308] is too wide (its width overflows)" \
    $S --box -1e308,1e308,0,1
  refuse "huge box y" "advect: option --box: y range [-1e+308, 1e+308] is too wide (its width overflows)" \
    $S --box 0,1,-1e308,1e308
  refuse "box volume" "advect: option --box: the volume of the box overflows" \
    $S --box -1e200,1e200,-1e200,1e200
  refuse "box volume 3D" "advect: option --box: the volume of an element underflows" \
    --dim 3 --cells 2x2x2 --degree 1 --quiet --box 0,1e-150,0,1e-150,0,1e-150
  refuse "unresolved box" "advect: option --box: y range [10000000000, 10000000000.000002] over 4 cells is below the floating-point resolution" \
    $S --box 0,1,1e10,10000000000.000002
  refuse "3D" "advect: option --box: z range [-1e+308, 1e+308] is too wide (its width overflows)" \
    --dim 3 --cells 2x2x2 --degree 1 --quiet --box 0,1,0,1,-1e308,1e308
  # wide but representable: runs, finite
  run $S --box -1e300,1e300,0,1 --steps 2
  want_rc 0 "box of width 2e300"
  ;;

cfl)
  # Above the integrator's range at the run's degree: one warning line, the
  # run goes on; at the limit, none.  The limits as --help lists them, a line
  # per integrator with degrees 0..5.
  "$ADV" --help > help.txt
  for ts in euler ssprk2 ssprk3 rk4 lsrk4; do
    for deg in 0 1 3; do
      lim=$(awk -v t="$ts" -v r="$deg" '$1 == t && NF == 7 { print $(r + 2) }' help.txt)
      [ -n "$lim" ] || die "no limit for $ts at degree $deg in --help"
      G="--cells 4x4 --degree $deg --quiet --integrator $ts --steps 2"
      run $G --cfl 50
      want_rc 0 "--cfl 50 $ts degree $deg"
      if [ "$lim" = 0 ]; then
        want_err "--cfl 50 $ts degree $deg" "advect: warning: --integrator $ts has no stable --cfl at degree $deg (only at degree 0); expect growth"
        continue
      fi
      want_err "--cfl 50 $ts degree $deg" "advect: warning: --cfl 50 is above the stable range of $ts at degree $deg (CFL <= $lim); expect growth"
      run $G --cfl "$lim"
      want_rc 0 "--cfl $lim $ts degree $deg"
      no_err "--cfl $lim $ts degree $deg"
      # and the limit is stable: 400 steps of a sine stay bounded
      run --cells 8x8 --degree $deg --quiet --integrator $ts --cfl "$lim" --steps 400 --init sine --progress-every 0
      want_rc 0 "400 steps at --cfl $lim $ts degree $deg"
      awk -v e="$(key l2_error)" 'BEGIN { exit !(e < 1) }' || bad "$ts degree $deg at --cfl $lim: l2_error $(key l2_error)"
    done
  done
  # the table is the measured one: ssprk3 at degree 3 is unstable 25% above it
  lim=$(awk '$1 == "ssprk3" && NF == 7 { print $5 }' help.txt)
  run --cells 8x8 --degree 3 --quiet --integrator ssprk3 --cfl "$(awk -v l="$lim" 'BEGIN { print 1.25 * l }')" --steps 2000 --init sine --progress-every 0
  [ "$RC" -ne 0 ] || awk -v e="$(key l2_error)" 'BEGIN { exit !(e >= 1) }' ||
    bad "ssprk3 degree 3 at 1.25 x its limit $lim is bounded (l2_error $(key l2_error)): the limit is too low"
  rm -f help.txt
  ;;

outputs)
  mkdir sub || exit 2
  run $S --steps 1 --output keep.h5
  want_rc 0 "setup run"
  refuse "same file" "advect: options --output and --text-output name the same file x.h5" \
    $S --steps 1 --output x.h5 --text-output x.h5
  refuse "same file, other spelling" "advect: options --output and --text-output name the same file ./sub/../x.h5" \
    $S --steps 1 --output x.h5 --text-output ./sub/../x.h5
  refuse "':' in a series" "advect: option --output: a:b.h5 cannot be named in the XDMF series of --output-every (':' or a control character in the path)" \
    $S --steps 4 --output-every 2 --output a:b.h5
  refuse "output is its series" "advect: option --output: s.xdmf is also the XDMF series of --output-every (give a name that does not end in .xdmf)" \
    $S --steps 4 --output-every 2 --output s.xdmf
  refuse "text output is the series" "advect: option --text-output: s.xdmf is the XDMF series of --output-every" \
    $S --steps 4 --output-every 2 --output s.h5 --text-output s.xdmf
  refuse "text output folder" "advect: option --text-output: cannot write in folder nope: No such file or directory" \
    $S --steps 1 --output y.h5 --text-output nope/y.txt
  # ':' without a series is a plain file name
  run $S --steps 1 --output c:d.h5
  want_rc 0 "':' without --output-every"
  [ -f c:d.h5 ] || bad "c:d.h5 not written"
  # an unwritable folder (root writes anywhere: only as another user)
  if [ "$(id -u)" -ne 0 ]; then
    mkdir ro && chmod a-w ro
    refuse "read-only folder" "advect: option --output: cannot write in folder ro: Permission denied" \
      $S --steps 1 --output ro/z.h5
    chmod u+w ro
  fi
  ;;

maps)
  printf '1 1 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1\n' > m.map
  refuse "--map with --map-file" "advect: options --map and --map-file exclude each other" \
    $S --map-file m.map --map band
  refuse "--map uniform with --map-file" "advect: options --map and --map-file exclude each other" \
    --cells 4x4 --quiet --map uniform --map-file m.map
  refuse "--degree-min with --map-file" "advect: option --degree-min: has no effect with --map-file (the file gives every degree)" \
    --cells 4x4 --quiet --map-file m.map --degree-min 1
  refuse "--degree with --map-file" "advect: option --degree: has no effect with --map-file (the file gives every degree)" \
    $S --map-file m.map
  refuse "--degree-min uniform" "advect: option --degree-min: has no effect with --map uniform (give --map band or random)" \
    $S --degree-min 0
  refuse "--degree-min, --map uniform" "advect: option --degree-min: has no effect with --map uniform (give --map band or random)" \
    $S --map uniform --degree-min 1
  # band: degree 4 from 1 needs 2 x 4 - 1 = 7 rows
  run --cells 4x6 --map band --degree-min 1 --degree 4 --steps 1 --quiet --output b6.h5
  want_rc 0 "band on 6 rows"
  want_err "band on 6 rows" "advect: note: --map band reaches degree 3, not --degree 4, on 6 rows in y (it needs 7)"
  run --cells 4x7 --map band --degree-min 1 --degree 4 --steps 1 --output b7.h5
  want_rc 0 "band on 7 rows"
  no_err "band on 7 rows"
  head -n 1 "$DIR/out" | grep -q ', degrees 1\.\.4, ' || bad "band on 7 rows: $(head -n 1 "$DIR/out")"
  run --cells 4x6 --map band --degree-min 1 --degree 4 --steps 1 --output b6.h5
  head -n 1 "$DIR/out" | grep -q ', degrees 1\.\.3, ' || bad "the note's degree 3 is not the map's: $(head -n 1 "$DIR/out")"
  run --cells 4x2 --map band --degree-min 0 --degree 2 --steps 1 --output b2.h5
  want_err "band on 2 rows" "advect: note: --map band reaches degree 0, not --degree 2, on 2 rows in y (it needs 5)"
  # --map step on the sphere: along the equator (alpha 0) every row keeps its
  # degree and nothing is said; through the poles degree reduction falls short,
  # which one line says, and another what local time stepping would save
  L="--model sphere_advection --grid latlon --cells 20 --degree 3 --map step --degree-min 1 --steps 1 --quiet"
  # shellcheck disable=SC2086
  run $L --output st0.h5
  want_rc 0 "step map, alpha 0"
  ! grep -q '^map step' "$DIR/out" || bad "step map, alpha 0: $(grep '^map step' "$DIR/out")"
  head -n 1 "$DIR/err" | grep -q . && bad "step map, alpha 0: $(cat "$DIR/err")"
  # shellcheck disable=SC2086
  run $L --alpha 1.5707963267948966 --output st1.h5
  want_rc 0 "step map through the poles"
  grep -q '^map step: degree reduction alone cannot reach the equatorial step [0-9.e+]* at degree 3: degrees 1\.\.3 reach [0-9.e+]* (0\.[0-9]* of it)$' "$DIR/out" ||
    bad "step map through the poles: $(cat "$DIR/out")"
  w=$(sed -n 's|^map step: local time stepping (not built: each row at the equatorial step / 2^l, l <= [1-9][0-9]* on [1-9][0-9]* of 20 rows) would do \([0-9.]*\) of the work of the global step$|\1|p' "$DIR/out")
  awk -v w="$w" 'BEGIN { exit !(w > 0 && w < 1) }' || bad "local time stepping line: $(cat "$DIR/out")"
  ;;

memory)
  # Sizes the machine cannot hold are refused before anything is allocated:
  # the runs take well under a second and a few MB.
  rss() { "$PY" -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=open("out", "w"), stderr=open("err", "w"))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$ADV" "$@"; }
  # The baseline is a run refused while its options are read: the binary's
  # own pages (large under ASan, which grows with every model built in).
  set -- $(rss --cells 0x4 --quiet)
  base=$2
  set -- $(rss --cells 100000x100000 --degree 10 --quiet --steps 1)
  RC=$1
  want_rc 2 "100000x100000 degree 10"
  [ "$2" -lt $((base + 50000)) ] || bad "the refused run used $2 kB, $base kB when refused at its options"
  msg=$(cat "$DIR/err")
  need=$(echo "$msg" | sed -n 's/^advect: not enough memory: --cells 100000x100000, degree 10, ssprk3 needs \([0-9.]*\) GiB, [0-9.]* GiB available$/\1/p')
  [ -n "$need" ] || bad "message: $msg"
  # at least the solution and the two ssprk3/neighbour fields, 3 x 1e10 x
  # 121 x 8 bytes; at most 6 times that (a snapshot in three copies and the
  # tables: the measured case below checks the estimate closely)
  awk -v n="$need" 'BEGIN { lo = 3 * 1e10 * 121 * 8 / 2^30; exit !(n >= lo && n <= 6 * lo) }' ||
    bad "needs $need GiB, not within 1..6 x the three fields"
  # 1e6^3 elements: more than 2^64 bytes, no wrap-around
  set -- $(rss --dim 3 --cells 1000000x1000000x1000000 --degree 3 --quiet --steps 1)
  RC=$1
  want_rc 2 "1e6^3"
  want_err "1e6^3" "advect: not enough memory: --cells 1000000x1000000x1000000, degree 3, ssprk3 needs more than 17179869184 GiB, $(sed -n 's/.* GiB, \([0-9.]*\) GiB available$/\1/p' "$DIR/err") GiB available"
  # a random map is first checked at its lowest degree, then at its own
  run --cells 100000x100000 --map random --degree-min 0 --degree 4 --quiet --steps 1
  want_rc 2 "random map"
  grep -q '^advect: not enough memory: --cells 100000x100000, degrees 0\.\.4 (--map random), ssprk3 needs [0-9.]* GiB, [0-9.]* GiB available$' "$DIR/err" ||
    bad "random map: $(cat "$DIR/err")"
  # The estimate of a run that fits bounds its measured peak from above,
  # within a factor 2 (what --verbose prints; the peak less that of a 4x4
  # run, the program's own).  Not under AddressSanitizer, whose quarantine
  # keeps freed memory.
  set -- $(rss --cells 4x4 --degree 3 --steps 2 --quiet --output m0.h5)
  base=$2
  set -- $(rss --cells 400x400 --degree 3 --steps 2 --verbose --quiet --output m.h5)
  RC=$1
  want_rc 0 "400x400 run"
  est=$(sed -n 's/^memory: needs \([0-9.]*\) MiB (estimate), [0-9.]* MiB available$/\1/p' "$DIR/out")
  [ -n "$est" ] || bad "no memory line: $(cat "$DIR/out")"
  if ! ldd "$ADV" 2>/dev/null | grep -q libasan; then
    awk -v e="$est" -v k="$2" -v b="$base" 'BEGIN { m = (k - b) / 1024; exit !(e >= m && e <= 2 * m) }' ||
      bad "estimate $est MiB vs measured peak $((($2 - base) / 1024)) MiB above the program's own"
  fi
  ;;

escape)
  # option values, names and paths with a newline and a terminal escape: one line, escaped
  NL='
'
  ESC=$(printf '\033')
  refuse "--map" "advect: option --map: 'a\\nb\\x1b[2J' is not one of uniform, band, random, latitude, step" \
    $S --map "a${NL}b${ESC}[2J"
  refuse "--dt" "advect: option --dt: '1\\n' is not a finite number" $S --dt "1$NL"
  S1="--degree 1 --quiet" # without --cells: an option given twice is refused first
  refuse "--cells" "advect: option --cells: '4\\x1b' is not an integer" $S1 --cells "4${ESC}x4"
  refuse "--cells 2" "advect: option --cells: '\\n' is not an integer" $S1 --cells "4x$NL"
  refuse "--cells one" "advect: option --cells: '4\\n4' is not an integer" $S1 --cells "4${NL}4"
  refuse "--box" "advect: option --box: '1\\n' is not a finite number" $S --box "0,1$NL,0,1"
  refuse "--box empty" "advect: option --box: '0,,1\\n' has an empty value" $S --box "0,,1$NL"
  refuse "--beta" "advect: option --beta: '1\\x1b' is not a finite number" $S --beta "1$ESC,1"
  refuse "option name" "advect: unknown option '--bo\\x1bgus' (see --help)" $S "--bo${ESC}gus" 1
  refuse "option name with =" "advect: unknown option '--a\\nb' (see --help)" $S "--a${NL}b=1"
  # a bare argument is a configuration file
  refuse "argument" "advect: x\\ny: cannot open: No such file or directory" $S "x${NL}y"
  models=$("$ADV" --model nope 2>&1 | sed -n 's/.*build (\(.*\))$/\1/p')
  refuse "--model" "advect: option --model: 'x\\x1b]0;t\\x07' is not a model of this build ($models)" \
    $S --model "x${ESC}]0;t$(printf '\007')"
  refuse "--integrator" "advect: option --integrator: 'rk\\t4' is not one of euler, ssprk2, ssprk3, rk4, lsrk4" \
    $S --integrator "rk$(printf '\t')4"
  refuse "--output folder" "advect: option --output: cannot write in folder no\\x1b[1m: No such file or directory" \
    $S --output "no${ESC}[1m/x.h5"
  refuse "--output series" "advect: option --output: a\\nb.h5 cannot be named in the XDMF series of --output-every (':' or a control character in the path)" \
    $S --steps 2 --output-every 1 --output "a${NL}b.h5"
  refuse "--map-file" "advect: degree map m\\x1bap: cannot open: No such file or directory" \
    --cells 4x4 --quiet --map-file "m${ESC}ap"
  refuse "--restart" "advect: restart: r\\nx.h5: cannot open: No such file or directory" \
    $S --dt 0.01 --restart "r${NL}x.h5"
  ;;

mass)
  # a variable with a mass: the relative drift; the masses of a 0-step and
  # an N-step run give it independently
  A="--cells 8x8 --degree 2 --quiet --dt 0.01"
  run $A --init bell --steps 0 --output m0.h5
  m0=$(key mass)
  run $A --init bell --steps 20 --output m1.h5
  m1=$(key mass)
  [ -z "$(key mass_drift_abs)" ] || bad "bell: mass_drift_abs=$(key mass_drift_abs)"
  d=$(key mass_drift)
  [ -n "$d" ] || die "bell: no mass_drift: $(tail -n 1 "$DIR/out")"
  awk -v d="$d" -v a="$m0" -v b="$m1" 'BEGIN { e = (b - a) / (a < 0 ? -a : a); x = d - e; if (x < 0) x = -x; exit !(x <= 1e-3 * (e < 0 ? -e : e) + 1e-300) }' ||
    bad "bell: mass_drift $d, (m1 - m0)/|m0| = ($m1 - $m0)/|$m0|"
  # zero mass (a sine over whole periods): the absolute drift, named so
  run $A --init sine --steps 0 --output s0.h5
  s0=$(key mass)
  run $A --init sine --steps 20 --output s1.h5
  s1=$(key mass)
  [ -z "$(key mass_drift)" ] || bad "sine: mass_drift=$(key mass_drift) relative to a zero mass"
  d=$(key mass_drift_abs)
  [ -n "$d" ] || die "sine: no mass_drift_abs: $(tail -n 1 "$DIR/out")"
  awk -v d="$d" -v a="$s0" -v b="$s1" 'BEGIN { e = b - a; x = d - e; if (x < 0) x = -x; exit !(x <= 1e-3 * (e < 0 ? -e : e) + 1e-300) }' ||
    bad "sine: mass_drift_abs $d, m1 - m0 = $s1 - $s0"
  awk -v d="$d" 'BEGIN { exit !(d < 1e-13 && d > -1e-13) }' || bad "sine: mass_drift_abs $d is not round-off"
  # acoustics: every variable is a plane wave (no mass)
  B="--model acoustics --cells 8x8 --degree 2 --quiet --dt 0.01"
  run $B --steps 0 --output a0.h5
  p0=$(key mass_p) u0=$(key mass_u) v0=$(key mass_v)
  run $B --steps 10 --output a1.h5
  [ -z "$(key mass_drift)" ] || bad "acoustics: mass_drift=$(key mass_drift)"
  d=$(key mass_drift_abs)
  exp=$(awk -v a="$p0" -v b="$(key mass_p)" -v c="$u0" -v e="$(key mass_u)" -v f="$v0" -v g="$(key mass_v)" \
    'function abs(x) { return x < 0 ? -x : x } BEGIN { m = b - a; if (abs(e - c) > abs(m)) m = e - c; if (abs(g - f) > abs(m)) m = g - f; printf "%.17g", m }')
  awk -v d="$d" -v e="$exp" 'BEGIN { x = d - e; if (x < 0) x = -x; exit !(x <= 1e-3 * (e < 0 ? -e : e) + 1e-300) }' ||
    bad "acoustics: mass_drift_abs $d, largest per-variable change $exp"
  # each variable's own drift: p's equals its masses' change
  awk -v d="$(key mass_drift_abs_p)" -v a="$p0" -v b="$(key mass_p)" 'BEGIN { e = b - a; x = d - e; if (x < 0) x = -x; exit !(d != "" && x <= 1e-3 * (e < 0 ? -e : e) + 1e-300) }' ||
    bad "acoustics: mass_drift_abs_p $(key mass_drift_abs_p), m1 - m0 = $(key mass_p) - $p0"
  # shallow water over Williamson 5's mountain: eta's mass to round-off
  # while the momentum, which has sources, changes (mass_drift is the largest)
  run --model shallow_water --grid latlon --case williamson5 --cells 8x4 --degree 1 --steps 40 \
    --integrator lsrk4 --quiet --output w5.h5
  de=$(key mass_drift_eta) dh=$(key mass_drift_hu)
  awk -v d="$de" 'BEGIN { exit !(d != "" && d < 1e-13 && d > -1e-13) }' || bad "shallow water: mass_drift_eta=$de is not round-off"
  awk -v d="$dh" -v m="$(key mass_drift)" 'BEGIN { exit !(d != "" && (d > 1e-10 || d < -1e-10) && d == m) }' ||
    bad "shallow water: mass_drift_hu=$dh, mass_drift=$(key mass_drift) (the momentum's change, the largest)"
  ;;

*)
  die "unknown case $CASE"
  ;;
esac
exit $fail
