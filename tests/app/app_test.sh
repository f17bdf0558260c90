#!/bin/sh
# app.<CASE>: command-line, output and restart behaviour of apps/advect.
# Usage: app_test.sh CASE DIR ADVECT COMPARE H5LS H5DUMP PYTHON3 CHECK_XDMF_PY DG_APP_C
#
# Every error case asserts the exact one-line message on stderr, exit status
# 2, and that nothing was written (or the earlier output is byte-identical).
# A crash or a sanitizer report fails these checks: it changes the status and
# adds lines to stderr.
set -u
CASE=$1 DIR=$2 ADV=$3 CMP=$4 H5LS=$5 H5DUMP=$6 PY=$7 CHECK_XDMF=$8 DG_APP_C=$9
rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
cd "$DIR" || exit 2
fail=0
bad() { echo "FAIL [app.$CASE]: $*" >&2; fail=1; }
die() { echo "FAIL [app.$CASE]: $*" >&2; exit 1; }

# run ARGS...: advect in the current folder; RC, stdout in $DIR/out, stderr in $DIR/err
run() { "$ADV" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
# runenv VAR=VALUE ARGS...: the same with one extra environment variable
runenv() { _e=$1; shift; env "$_e" "$ADV" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
want_rc() { [ "$RC" -eq "$1" ] || bad "$2: exit status $RC, expected $1 (stderr: $(cat "$DIR/err"))"; }
# want_err LABEL MESSAGE: stderr is exactly the one line MESSAGE
want_err() {
  [ "$(wc -l < "$DIR/err")" -eq 1 ] && [ "$(cat "$DIR/err")" = "$2" ] ||
    bad "$1: stderr is '$(cat "$DIR/err")', expected exactly the line '$2'"
}
# want_err_glob LABEL PATTERN: stderr is one line matching the shell PATTERN
want_err_glob() {
  _m=$(cat "$DIR/err")
  # shellcheck disable=SC2254
  case $_m in $2) [ "$(wc -l < "$DIR/err")" -eq 1 ] || bad "$1: stderr has more than one line: $_m" ;;
  *) bad "$1: stderr is '$_m', expected one line matching '$2'" ;; esac
}
# key NAME: value of NAME= on advect's summary (last stdout line)
key() { tail -n 1 "$DIR/out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# attr FILE NAME: a scalar root attribute of an HDF5 file
attr() { "$H5DUMP" -a "/$2" "$1" | sed -n 's/^ *(0): //p' | tr -d '"'; }
# coeff_bin FILE OUT: the raw bytes of /coeff (and /degree) for a bitwise comparison
coeff_bin() {
  "$H5DUMP" -d /coeff -b LE -o "$2.coeff" "$1" > /dev/null 2>&1 &&
    "$H5DUMP" -d /degree -b LE -o "$2.degree" "$1" > /dev/null 2>&1
}
# same_coeffs LABEL A B: A and B hold bitwise identical coefficients
same_coeffs() {
  "$CMP" --tol 0 "$2" "$3" > "$DIR/cmp.out" 2> "$DIR/cmp.err"
  _rc=$?
  [ $_rc -eq 0 ] || { bad "$1: compare --tol 0 $2 $3 exited $_rc: $(cat "$DIR/cmp.out" "$DIR/cmp.err")"; return; }
  _line=$(head -n 1 "$DIR/cmp.out")
  case $_line in *" max_abs_diff=0 "*" degree_mismatch=0") ;;
  *) bad "$1: $2 and $3 differ: $_line" ;; esac
  coeff_bin "$2" "$DIR/bin_a" && coeff_bin "$3" "$DIR/bin_b" || { bad "$1: h5dump of /coeff failed"; return; }
  cmp -s "$DIR/bin_a.coeff" "$DIR/bin_b.coeff" || bad "$1: /coeff of $2 and $3 differ in their bytes"
  cmp -s "$DIR/bin_a.degree" "$DIR/bin_b.degree" || bad "$1: /degree of $2 and $3 differ"
}
# readable LABEL FILE: FILE reads back as a snapshot (compare FILE FILE)
readable() {
  "$CMP" --quiet --tol 0 "$2" "$2" > "$DIR/cmp.out" 2> "$DIR/cmp.err" ||
    bad "$1: $2 does not read back: $(cat "$DIR/cmp.err" "$DIR/cmp.out")"
}
# listing: the files of the current folder, recursively, with their checksums
listing() { find . -type f ! -name out ! -name err ! -name 'cmp.*' ! -name 'bin_*' | LC_ALL=C sort | xargs -r cksum; }

SMALL="--cells 6x4 --degree 2 --quiet"

case $CASE in

help)
  run --help
  want_rc 0 "--help"
  [ -s "$DIR/err" ] && bad "--help wrote to stderr: $(cat "$DIR/err")"
  cp "$DIR/out" help.txt
  # Every option apply() and is_flag() know must be documented, and every
  # documented option must be known.
  # (and every parameter of the models, models/*.h: {"name", DG_PARAM_...})
  opts=$( (sed -n 's/.*strcmp(name, "\([a-z-]*\)").*/\1/p' "$DG_APP_C"
    cat "$(dirname "$DG_APP_C")"/../models/*.h | sed -n 's/^ *{"\([a-z-]*\)", DG_PARAM_.*/\1/p') |
    LC_ALL=C sort -u)
  [ "$(echo "$opts" | wc -l)" -ge 30 ] || bad "found only $(echo "$opts" | wc -l) options in $DG_APP_C"
  for o in $opts; do
    grep -Eq "^  --$o( |$)" help.txt || bad "option --$o is not in --help"
  done
  for o in $(sed -n 's/^  --\([a-z-]*\).*/\1/p' help.txt); do
    echo "$opts" | grep -qx "$o" || bad "--help documents --$o, which the parser does not know"
  done
  # Each option with a value shows its default in [...] on its entry (the
  # entry is its line and the indented continuation lines).
  for o in $opts; do
    case $o in help|quiet|history|verbose) continue ;; esac
    entry=$(awk -v o="--$o" '$1 == o { on = 1; print; next } on && /^      / { print; next } { on = 0 }' help.txt)
    echo "$entry" | grep -q '\[[^]]*\] *$' || bad "--help entry of --$o has no [default]: $entry"
  done
  # Flags take no value; --help with a value is an error, not help.
  run --help=1
  want_rc 2 "--help=1"; want_err "--help=1" "advect: option --help takes no value"
  # The documented defaults are the ones used: 32x32 elements, degree 3,
  # q = degree+1, ssprk3, dt = 0.5 x estimate, output advect.h5.
  run --steps 2
  want_rc 0 "defaults"
  head -n 1 "$DIR/out" | grep -Eq '^advect: [a-z]+ backend, model advection, 2D, 1024 elements, degrees 3\.\.3, q=4, 16384 dofs, ssprk3, dt=[0-9.e-]+, 2 steps$' ||
    bad "default run header: $(head -n 1 "$DIR/out")"
  dt_half=$(key dt)
  [ -f advect.h5 ] || bad "default --output advect.h5 not written"
  [ "$(attr advect.h5 step)" = 2 ] || bad "advect.h5 step is $(attr advect.h5 step), expected 2"
  run --steps 1 --cfl 1 --quiet --output est.h5
  dt_one=$(key dt)
  awk -v a="$dt_half" -v b="$dt_one" 'BEGIN { d = a - 0.5 * b; if (d < 0) d = -d; exit !(d <= 1e-15 * b) }' ||
    bad "default --cfl: dt $dt_half is not 0.5 x the estimate $dt_one"
  # t_end 1 and progress every 100 steps
  run --cells 16x16 --degree 1 --output tend.h5
  want_rc 0 "default t-end"
  [ "$(key t)" = 1 ] || bad "default --t-end: t=$(key t), expected 1"
  n=$(key steps)
  np=$(grep -c '^progress: step ' "$DIR/out")
  [ "$np" -eq $((n / 100)) ] || bad "default --progress-every: $np progress lines for $n steps"
  grep -q '^progress: step 100 ' "$DIR/out" || bad "no progress line at step 100"
  ;;

bad_args)
  # A good earlier output that no failing run may touch.
  run --cells 4x4 --degree 1 --steps 2 --quiet
  want_rc 0 "setup run"
  [ -f advect.h5 ] || die "setup run wrote no advect.h5"
  before=$(listing)
  # case: ARGS | exact stderr line (ARGS split on blanks; "EMPTY" is an empty argument)
  while IFS='|' read -r args msg; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    set -- $args
    n=$#
    i=0
    for a in "$@"; do
      i=$((i + 1))
      [ "$a" = EMPTY ] && a=""
      set -- "$@" "$a"
    done
    shift $n
    run "$@"
    want_rc 2 "$args"
    want_err "$args" "$msg"
    [ -s "$DIR/out" ] && bad "$args: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$args: files changed: $(listing)"
  done << 'EOF'
--bogus 1|advect: unknown option '--bogus' (see --help)
--bogus|advect: unknown option '--bogus' (see --help)
--cells 4x4 --Cells 4x4|advect: unknown option '--Cells' (see --help)
foo|advect: unexpected argument 'foo' (options start with --; see --help)
-x|advect: unexpected argument '-x' (options start with --; see --help)
--|advect: unexpected argument '--' (options start with --; see --help)
--dt 1e-3x|advect: option --dt: '1e-3x' is not a finite number
--dt=1e-3x|advect: option --dt: '1e-3x' is not a finite number
--cfl abc|advect: option --cfl: 'abc' is not a finite number
--dt nan|advect: option --dt: 'nan' is not a finite number
--dt 0x10|advect: option --dt: '0x10' is not a finite number
--cfl inf|advect: option --cfl: 'inf' is not a finite number
--t-end 1e-3e|advect: option --t-end: '1e-3e' is not a finite number
--t-end 1e999|advect: option --t-end: '1e999' is not a finite number
--omega 1,5|advect: option --omega: '1,5' is not a finite number
--cells 10xa|advect: option --cells: 'a' is not an integer
--cells 10x5.5|advect: option --cells: '5.5' is not an integer
--cells 4xx4|advect: option --cells: '4xx4' is not N1xN2 or N1xN2xN3
--cells 4x|advect: option --cells: '4x' is not N1xN2 or N1xN2xN3
--cells 4|advect: option --cells: '4' is not N1xN2 or N1xN2xN3
--cells 2x2x2x2|advect: option --cells: '2x2x2x2' has more than 3 sizes
--cells 0x10|advect: option --cells: 0 is outside 1..16777216
--cells 10x-3|advect: option --cells: -3 is outside 1..16777216
--dim 3 --cells 4x4|advect: option --cells: 2 sizes given but --dim is 3
--cells 4x4x4|advect: option --cells: 3 sizes given but --dim is 2
--dim 4|advect: option --dim: 4 is outside 2..3
--dt -1|advect: option --dt: -1 must be positive
--dt 0|advect: option --dt: 0 must be positive
--cfl -0.5|advect: option --cfl: -0.5 must be positive
--t-end 0|advect: option --t-end: 0 must be positive
--bell-radius 0|advect: option --bell-radius: 0 must be positive
--steps -1|advect: option --steps: -1 is outside 0..1099511627776
--steps 1.5|advect: option --steps: '1.5' is not an integer
--output-every -2|advect: option --output-every: -2 is outside 0..1099511627776
--progress-every x|advect: option --progress-every: 'x' is not an integer
--degree 11|advect: option --degree: 11 is outside 0..10
--degree -1|advect: option --degree: -1 is outside 0..10
--degree-min 11|advect: option --degree-min: 11 is outside 0..10
--map random --degree 2 --degree-min 3|advect: option --degree-min: 3 is above --degree 2
--q 0|advect: option --q: 0 is outside 1..12
--view-samples 65|advect: option --view-samples: 65 is outside 1..64
--seed -1|advect: option --seed: -1 is outside 0..4611686018427387904
--dt|advect: option --dt needs a value
--cells 4x4 --output|advect: option --output needs a value
--steps 2 --map-file|advect: option --map-file needs a value
--dt 0.1 --cfl 0.5|advect: options --dt and --cfl exclude each other
--cfl 0.5 --dt 0.1|advect: options --dt and --cfl exclude each other
--steps 4 --t-end 1|advect: options --steps and --t-end exclude each other
--quiet=1|advect: option --quiet takes no value
--history=yes|advect: option --history takes no value
--cells 4x4 --cells 5x5|advect: option --cells given twice
--quiet --quiet|advect: option --quiet given twice
--integrator rk3|advect: option --integrator: 'rk3' is not one of euler, ssprk2, ssprk3, rk4, lsrk4
--map wavy|advect: option --map: 'wavy' is not one of uniform, band, random
--velocity spin|advect: option --velocity: 'spin' is not one of const, rotation
--init wavy|advect: option --init: 'wavy' is not one of parabola, bell, sine, constant, gauss
--model swe|advect: option --model: 'swe' is not a model of this build (advection, deformation, burgers, acoustics, advection_reaction)
--model burgers --velocity rotation|advect: unknown option '--velocity' (see --help)
--model burgers --dim 3|advect: model burgers does not run in 3D
--model burgers --degree 6|advect: model burgers: this build has no stages for 2D, degree 6 with q = 7 (the 'dgrid: dims=.. qmax=..' line of its header chooses what is compiled)
--box 0,1,0|advect: option --box: '0,1,0' needs 4 or more comma-separated numbers
--box 0,1,0,1,0|advect: option --box: '0,1,0,1,0' needs 4 or 6 numbers
--box 0,1,0,1,0,1,0|advect: option --box: '0,1,0,1,0,1,0' has more than 6 values
--box 0,1,1,0|advect: option --box: upper bound 0 not above lower bound 1
--box 0,1,0,1,0,1|advect: option --box: 6 numbers given but --dim 2 needs 4
--dim 3 --box 0,1,0,1|advect: option --box: 4 numbers given but --dim 3 needs 6
--beta 1,1,1|advect: option --beta: 3 components given but --dim is 2
--dim 3 --beta 1,1|advect: option --beta: 2 components given but --dim is 3
--bell-centre 0.5,0.5,0.5|advect: option --bell-centre: 3 components given but --dim is 2
--rot-centre 0.5,0.5,0.5|advect: option --rot-centre: '0.5,0.5,0.5' has more than 2 values
--box 0,,1,0,1|advect: option --box: '0,,1,0,1' has an empty value
--beta 1,1,|advect: option --beta: '1,1,' has an empty value
--beta 1,x|advect: option --beta: 'x' is not a finite number
--output EMPTY|advect: option --output: empty path
--map-file=|advect: option --map-file: empty path
EOF
  ;;

models)
  # Another model through the same app: a system's variables by name in the
  # snapshot, the XDMF and the summary line; the plan says what the model allows.
  run --model acoustics --cells 8x8 --degree 2 --steps 4 --output-every 2 --dt 0.01 --quiet \
    --output ac.h5
  want_rc 0 "acoustics"
  [ "$(key model)" = acoustics ] || bad "summary model=$(key model), expected acoustics"
  [ -n "$(key l2_error_p)" ] && [ -n "$(key mass_v)" ] || bad "no per-variable fields: $(tail -n 1 "$DIR/out")"
  [ "$(attr ac.h5 variables)" = "p,u,v" ] || bad "/variables is '$(attr ac.h5 variables)', expected p,u,v"
  [ "$(attr ac.h5 model)" = acoustics ] || bad "/model is '$(attr ac.h5 model)', expected acoustics"
  for v in p u v error_p error_u error_v; do
    grep -q "Attribute Name=\"$v\"" ac.xdmf || bad "ac.xdmf has no attribute $v"
  done
  run --model burgers --cells 8x8 --degree 2 --steps 1 --verbose --quiet --output b.h5
  want_rc 0 "burgers --verbose"
  grep -q "^plan: backend=[a-z]* model=burgers nvar=1 q=3 .*(own q exact for the model: no)$" "$DIR/out" ||
    bad "burgers plan line: $(grep plan: "$DIR/out")"
  run --steps 1 --verbose --quiet --output a.h5
  grep -q "(own q exact for the model: yes)$" "$DIR/out" || bad "advection plan line: $(grep plan: "$DIR/out")"
  ;;

map_file)
  # 3x3 grid: 3 rows of 3 degrees, the first line is row j=0.
  G="--cells 3x3 --steps 1 --dt 0.001 --quiet"
  printf '# a comment\n\n0 1 2\n3 4 5   # trailing comment\n6 7 8\n' > ok.map
  run $G --map-file ok.map --output ok.h5
  want_rc 0 "good map"
  "$H5DUMP" -d /degree -b LE -o deg.bin ok.h5 > /dev/null 2>&1 || bad "h5dump /degree"
  [ "$(od -An -tu1 deg.bin | tr -s ' \n' ' ')" = " 0 1 2 3 4 5 6 7 8 " ] ||
    bad "degree map not applied row by row: $(od -An -tu1 deg.bin)"
  before=$(listing)
  printf '1 2 3\n1 2 3\n' > few.map
  printf '1 2 3\n1 2 3\n# more to come\n\n' > few2.map
  printf '1 2 3\n1 2 3\n1 2 3\n1 2 3\n' > many.map
  printf '1 2 3\n1 2 3 4\n1 2 3\n' > long.map
  printf '1 2 3\n1 2\n1 2 3\n' > short.map
  printf '1 2 3\n1 x 3\n1 2 3\n' > nonint.map
  printf '1 2 3\n1 2.5 3\n1 2 3\n' > frac.map
  printf '1 2 3\n1 2 3\n1 2 3x\n' > glued.map
  printf '# c\n1 2 3\n\n1 11 3\n1 2 3\n' > eleven.map
  printf '1 2 3\n1 -1 3\n1 2 3\n' > neg.map
  printf '1 2 3\n1 2 99999999999999999999\n1 2 3\n' > huge.map
  : > empty.map
  printf '# 3D 2x2x2: 4 rows\n1 1\n1 1\n1 1\n1 1\n1 1\n' > many3d.map
  before=$(listing)
  while IFS='|' read -r args msg; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    run $args --steps 1 --dt 0.001 --quiet --output bad.h5
    want_rc 2 "$args"
    want_err "$args" "$msg"
    [ -s "$DIR/out" ] && bad "$args: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$args: files changed: $(listing)"
  done << 'EOF'
--cells 3x3 --map-file few.map|advect: degree map few.map, line 2: end of file after 2 rows, the grid needs 3
--cells 3x3 --map-file few2.map|advect: degree map few2.map, line 4: end of file after 2 rows, the grid needs 3
--cells 3x3 --map-file many.map|advect: degree map many.map, line 4: more than the 3 rows (N2) the grid has
--cells 3x3 --map-file long.map|advect: degree map long.map, line 2: 4 entries, the grid has 3 elements in x
--cells 3x3 --map-file short.map|advect: degree map short.map, line 2: 2 entries, the grid has 3 elements in x
--cells 3x3 --map-file nonint.map|advect: degree map nonint.map, line 2: 'x' is not an integer
--cells 3x3 --map-file frac.map|advect: degree map frac.map, line 2: '2.5' is not an integer
--cells 3x3 --map-file glued.map|advect: degree map glued.map, line 3: '3x' is not an integer
--cells 3x3 --map-file eleven.map|advect: degree map eleven.map, line 4: degree 11 outside 0..10
--cells 3x3 --map-file neg.map|advect: degree map neg.map, line 2: degree -1 outside 0..10
--cells 3x3 --map-file huge.map|advect: degree map huge.map, line 2: degree 99999999999999999999 outside 0..10
--cells 3x3 --map-file empty.map|advect: degree map empty.map: empty file, the grid needs 3 rows
--cells 3x3 --map-file nope.map|advect: degree map nope.map: cannot open: No such file or directory
--cells 4x3 --map-file ok.map|advect: degree map ok.map, line 3: 3 entries, the grid has 4 elements in x
--dim 3 --cells 2x2x2 --map-file many3d.map|advect: degree map many3d.map, line 6: more than the 4 rows (N2*N3) the grid has
EOF
  ;;

output_path)
  mkdir sub || exit 2
  run $SMALL --steps 1 --dt 0.001
  want_rc 0 "setup run"
  before=$(listing)
  while IFS='|' read -r args msg; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    run $SMALL --steps 1 --dt 0.001 $args
    want_rc 2 "$args"
    want_err "$args" "$msg"
    [ -s "$DIR/out" ] && bad "$args: wrote to stdout (it should fail before running): $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$args: files changed: $(listing)"
  done << 'EOF'
--output /nonexistent/dir/out.h5|advect: option --output: cannot write in folder /nonexistent/dir: No such file or directory
--output /nonexistent/dir/out.h5 --output-every 1|advect: option --output: cannot write in folder /nonexistent/dir: No such file or directory
--output nofolder/out.h5|advect: option --output: cannot write in folder nofolder: No such file or directory
--output advect.h5/x.h5|advect: option --output: cannot write in folder advect.h5: Not a directory
--output sub|advect: option --output: sub is a folder, not a file
--output sub/|advect: option --output: sub/ is a folder, not a file
--text-output /nonexistent/out.txt|advect: option --text-output: cannot write in folder /nonexistent: No such file or directory
EOF
  ;;

dt_warning)
  G="--cells 8x8 --degree 2 --quiet"
  run $G --cfl 1 --steps 1 --output est.h5
  want_rc 0 "estimate run"
  est=$(key dt)
  [ -s "$DIR/err" ] && bad "--cfl 1 warns: $(cat "$DIR/err")"
  # 0.1 is well above the estimate of this grid (h/(2r+1)/|beta|_1 = 0.0125)
  awk -v e="$est" 'BEGIN { exit !(e < 0.05) }' || die "estimate $est unexpectedly large"
  run $G --dt 0.1 --steps 2 --output big.h5
  want_rc 0 "--dt 0.1 (a warning, not an error)"
  want_err "--dt 0.1" "advect: warning: --dt 0.1 is above the stable estimate $(printf '%.6g' "$est") (CFL 1 for the element degrees and sizes); expect growth"
  [ -f big.h5 ] || bad "--dt 0.1 wrote no output"
  # at and below the estimate: no warning
  run $G --dt "$est" --steps 1 --output eq.h5
  want_rc 0 "--dt = estimate"
  [ -s "$DIR/err" ] && bad "--dt equal to the estimate warns: $(cat "$DIR/err")"
  run $G --dt 0.001 --steps 1 --output small.h5
  [ -s "$DIR/err" ] && bad "--dt 0.001 warns: $(cat "$DIR/err")"
  # --cfl within the integrator's measured range (app.safety.cfl): no warning either
  run $G --cfl 0.5 --steps 1 --output half.h5
  awk -v a="$(key dt)" -v e="$est" 'BEGIN { d = a - 0.5 * e; if (d < 0) d = -d; exit !(d <= 1e-15 * e) }' ||
    bad "--cfl 0.5 gives dt $(key dt), estimate $est"
  ;;

blowup)
  # A previous final output that the failed run must not replace.
  run --cells 4x4 --degree 2 --steps 1 --dt 0.001 --quiet --output blow.h5
  want_rc 0 "setup run"
  prevsum=$(cksum < blow.h5)
  PE=2 OE=4 DT=2
  run --cells 4x4 --degree 2 --integrator euler --dt $DT --steps 100000 --progress-every $PE \
      --output-every $OE --output blow.h5
  want_rc 2 "blow-up run"
  [ "$(wc -l < "$DIR/err")" -eq 2 ] || bad "blow-up stderr is not warning + error: $(cat "$DIR/err")"
  sed -n 1p "$DIR/err" | grep -q '^advect: warning: --dt 2 is above the stable estimate ' ||
    bad "no dt warning: $(cat "$DIR/err")"
  msg=$(sed -n 2p "$DIR/err")
  step=$(echo "$msg" | sed -n 's/^advect: solution not finite at step \([0-9]*\), t=\([0-9.e+]*\): non-finite \(coefficient in element ([0-9,]*)\|value in padding at index [0-9]*\); kept the snapshots up to blow_[0-9]*\.h5 (step [0-9]*) and blow\.xdmf; blow\.h5 not written$/\1/p')
  [ -n "$step" ] || die "blow-up message: '$msg'"
  tm=$(echo "$msg" | sed -n 's/.*, t=\([0-9.e+]*\): .*/\1/p')
  [ "$tm" = "$(printf '%.6g' $((step * DT)))" ] || bad "blow-up time t=$tm is not step $step x dt $DT"
  [ "$step" -lt 100000 ] || bad "no blow-up within the run"
  # The progress lines stop before it.
  last_p=$(grep '^progress: step ' "$DIR/out" | tail -n 1 | sed 's/^progress: step \([0-9]*\) .*/\1/')
  [ "$last_p" = $(( (step - 1) / PE * PE )) ] || bad "last progress line at step $last_p, blow-up at $step"
  # Found at the step it happens: the same run stopped one step earlier is
  # finite everywhere (its end-of-run check reads every coefficient).
  run --cells 4x4 --degree 2 --integrator euler --dt $DT --steps $((step - 1)) --progress-every 0 --quiet --output pre.h5
  want_rc 0 "the run to step $((step - 1))"
  [ "$(wc -l < "$DIR/err")" -eq 1 ] && grep -q '^advect: warning: --dt 2 is above the stable estimate ' "$DIR/err" ||
    bad "the run to step $((step - 1)) printed: $(cat "$DIR/err")"
  rm -f pre.h5
  # The progress lines stop before it.
  # The final output is the earlier file, byte for byte.
  [ "$(cksum < blow.h5)" = "$prevsum" ] || bad "blow.h5 was replaced by the failed run"
  readable "previous final output" blow.h5
  # The snapshots: every OE steps strictly before the failure, the last one
  # readable and the one the message names.
  last=$(( (step - 1) / OE * OE ))
  [ "$last" -ge "$OE" ] || die "blow-up at step $step before the first snapshot"
  lastf=$(printf 'blow_%06d.h5' "$last")
  echo "$msg" | grep -q "; kept the snapshots up to $lastf (step $last) and blow.xdmf; " ||
    bad "the message does not name $lastf (step $last): $msg"
  [ -f "$lastf" ] || bad "last good snapshot $lastf missing: $(ls)"
  readable "last good snapshot" "$lastf"
  [ "$(attr "$lastf" step)" = "$last" ] || bad "$lastf has step $(attr "$lastf" step)"
  nsnap=$(ls blow_*.h5 | wc -l)
  [ "$nsnap" -eq $((last / OE)) ] || bad "$nsnap snapshots, expected $((last / OE)): $(ls)"
  [ -f "$(printf 'blow_%06d.h5' $((last + OE)))" ] && bad "a snapshot after the failure"
  ls -a | grep -q '\.tmp\.' && bad "temporary left behind: $(ls -a)"
  # The XDMF names exactly the good snapshots.
  "$PY" "$CHECK_XDMF" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 4 4 --box 0 1 0 1 --s 3 \
    --nvar 1 --error 1 --ngrids "$nsnap" blow.xdmf > "$DIR/xdmf.out" 2>&1 ||
    bad "blow.xdmf: $(cat "$DIR/xdmf.out")"
  grep -q "$lastf:/view/values" blow.xdmf || bad "blow.xdmf does not end at $lastf"
  # Without progress lines or snapshots: the same step, and no output claimed.
  run --cells 4x4 --degree 2 --integrator euler --dt $DT --steps 100000 --progress-every 0 --quiet --output end.h5
  want_rc 2 "blow-up without progress lines"
  sed -n 2p "$DIR/err" | grep -q "^advect: solution not finite at step $step, t=$tm: .*; no output written (end\.h5 not written)\$" ||
    bad "blow-up without progress lines: $(cat "$DIR/err")"
  [ -e end.h5 ] && bad "a non-finite final output was written"
  ;;

restart_mismatch)
  B="--cells 6x4 --degree 2 --dt 0.01 --quiet"
  run $B --steps 4 --output r4.h5
  want_rc 0 "setup run"
  run --dim 3 --cells 6x4x2 --degree 2 --dt 0.01 --quiet --steps 4 --output r3d.h5
  want_rc 0 "3D setup run"
  run --cells 6x4 --map random --degree 3 --degree-min 0 --seed 4 --dt 0.01 --quiet --steps 4 --output rmap.h5
  want_rc 0 "random-map setup run"
  size=$(wc -c < r4.h5)
  head -c $((size / 2)) r4.h5 > trunc.h5
  cp r4.h5 badsig.h5 && printf 'XXXXXXXX' | dd of=badsig.h5 bs=1 seek=0 conv=notrunc 2> /dev/null
  cp r4.h5 zeroed.h5 && dd if=/dev/zero of=zeroed.h5 bs=1 seek=1500 count=3000 conv=notrunc 2> /dev/null
  echo "not a snapshot" > text.h5
  run $B --steps 4 --output r4.h5 --text-output r4.txt
  want_rc 0 "text setup run"
  before=$(listing)
  # ARGS (added to the base run) | exact stderr line
  while IFS='|' read -r args msg; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    run --degree 2 --quiet --steps 8 --output out.h5 $args
    want_rc 2 "$args"
    case $msg in
    *'*'*) want_err_glob "$args" "$msg" ;;
    *) want_err "$args" "$msg" ;;
    esac
    [ -s "$DIR/out" ] && bad "$args: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$args: files changed: $(listing)"
  done << 'EOF'
--cells 6x5 --dt 0.01 --restart r4.h5|advect: restart r4.h5: 4 cells in y, this run has 5
--cells 5x4 --dt 0.01 --restart r4.h5|advect: restart r4.h5: 6 cells in x, this run has 5
--cells 6x4 --dt 0.01 --box 0,2,0,1 --restart r4.h5|advect: restart r4.h5: box in x is [0, 1], this run has [0, 2]
--cells 6x4 --dt 0.01 --box 0,1,-1,1 --restart r4.h5|advect: restart r4.h5: box in y is [0, 1], this run has [-1, 1]
--dim 3 --cells 6x4x2 --dt 0.01 --restart r4.h5|advect: restart r4.h5: dimension 2, this run has 3
--cells 6x4 --dt 0.01 --restart r3d.h5|advect: restart r3d.h5: dimension 3, this run has 2
--cells 6x4 --dt 0.01 --velocity rotation --restart r4.h5|advect: restart r4.h5: model 'advection-constant', this run has 'advection-rotation'
--cells 6x4 --dt 0.01 --q 4 --restart r4.h5|advect: restart r4.h5: q = 3 Gauss points, this run has 4
--cells 6x4 --dt 0.01 --map band --degree-min 1 --restart r4.h5|advect: restart r4.h5: degree map differs at element (0,0): file has 2, this run has 1
--cells 6x4 --dt 0.01 --map random --degree-min 0 --seed 4 --restart rmap.h5|advect: restart rmap.h5: q = 4 Gauss points, this run has 3
--cells 6x4 --dt 0.01 --map random --degree-min 0 --seed 5 --q 4 --restart rmap.h5|advect: restart rmap.h5: degree map differs at element (1,0): file has 0, this run has 1
--cells 6x4 --dt 0.02 --restart r4.h5|advect: restart r4.h5: time 0.040000000000000001 is not step 4 x dt 0.02 of this run (different --dt/--cfl?)
--cells 6x4 --cfl 0.3 --restart r4.h5|advect: restart r4.h5: time 0.040000000000000001 is not step 4 x dt 0.0060000000000000001 of this run (different --dt/--cfl?)
--cells 6x4 --dt 0.01 --steps 3 --restart r4.h5|advect: option --steps given twice
--cells 6x4 --dt 0.01 --restart nope.h5|advect: restart: nope.h5: cannot open: No such file or directory
--cells 6x4 --dt 0.01 --restart trunc.h5|advect: restart: trunc.h5: size mismatch: the checksum block covers * bytes after the user block, the file has * (truncated or appended to)
--cells 6x4 --dt 0.01 --restart badsig.h5|advect: restart: badsig.h5: not a dgrid HDF5 snapshot (neither a dgrid checksum block nor an HDF5 signature at byte 0)
--cells 6x4 --dt 0.01 --restart zeroed.h5|advect: restart: zeroed.h5: *
--cells 6x4 --dt 0.01 --restart text.h5|advect: restart: text.h5: not a dgrid HDF5 snapshot (neither a dgrid checksum block nor an HDF5 signature at byte 0)
--cells 6x4 --dt 0.01 --restart r4.txt|advect: restart: r4.txt: not a dgrid HDF5 snapshot (neither a dgrid checksum block nor an HDF5 signature at byte 0)
EOF
  # a restart beyond the run's steps (the base loop fixes --steps 8)
  run $B --steps 2 --restart r4.h5 --output out.h5
  want_rc 2 "restart beyond --steps"
  want_err "restart beyond --steps" "advect: restart r4.h5: file is at step 4, beyond this run's 2 steps"
  [ -e out.h5 ] && bad "restart beyond --steps wrote out.h5"
  ;;

restart_*)
  # restart_<integrator>_<map>[_3d|_rot]: 2N steps straight == N, restart, N more.
  spec=${CASE#restart_}
  ts=${spec%%_*}
  rest=${spec#*_}
  G="--cells 7x5 --dt 0.004"
  case $rest in
  random) M="--map random --degree 4 --degree-min 0 --seed 11" ;;
  band) M="--map band --degree 4 --degree-min 1" ;;
  random_rot) M="--map random --degree 3 --degree-min 1 --seed 5 --velocity rotation --omega 6.283185307179586" ;;
  file)
    printf '0 1 2 3 4 5 6\n6 5 4 3 2 1 0\n3 3 3 3 3 3 3\n0 6 0 6 0 6 0\n2 2 2 2 2 2 2\n' > deg.map
    M="--map-file deg.map" ;;
  random_3d) G="--dim 3 --cells 4x3x3 --dt 0.004"; M="--map random --degree 3 --degree-min 0 --seed 2" ;;
  *) die "unknown restart case $CASE" ;;
  esac
  N=6
  A="$G $M --integrator $ts --progress-every 2 --quiet"
  # straight: 2N steps, with snapshots on the way (they must not perturb the state)
  run $A --steps $((2 * N)) --output-every $N --output full.h5
  want_rc 0 "straight run"
  [ "$(attr full.h5 step)" = $((2 * N)) ] || bad "full.h5 step $(attr full.h5 step)"
  # the degree map is variable, with jumps of 2 or more between neighbours
  "$H5DUMP" -d /degree -b LE -o deg.bin full.h5 > /dev/null 2>&1 || bad "h5dump /degree"
  degs=$(od -An -tu1 -v deg.bin | tr -s ' \n' '\n' | grep -v '^$')
  ndeg=$(echo "$degs" | sort -u | wc -l)
  [ "$ndeg" -ge 3 ] || bad "the degree map has only $ndeg distinct degrees"
  case $rest in band) ;; *)
    echo "$degs" | awk 'NR > 1 { d = $1 - p; if (d < 0) d = -d; if (d >= 2) j = 1 } { p = $1 } END { exit !j }' ||
      bad "the degree map has no jump of 2 or more along x" ;;
  esac
  # first leg: N steps
  run $A --steps $N --output half.h5
  want_rc 0 "first leg"
  [ "$(attr half.h5 step)" = $N ] || bad "half.h5 step $(attr half.h5 step)"
  # second leg (with two threads: the state is all in the file)
  runenv OMP_NUM_THREADS=2 $A --steps $((2 * N)) --restart half.h5 --output rest.h5
  want_rc 0 "restart leg"
  [ "$(key steps)" = $N ] || bad "restart ran $(key steps) steps, expected $N (--steps counts from t=0)"
  [ "$(attr rest.h5 step)" = $((2 * N)) ] || bad "rest.h5 step $(attr rest.h5 step)"
  [ "$(attr rest.h5 time)" = "$(attr full.h5 time)" ] || bad "time $(attr rest.h5 time) vs $(attr full.h5 time)"
  same_coeffs "N + restart + N vs 2N" rest.h5 full.h5
  # restarting from the straight run's own intermediate snapshot
  snap=$(printf 'full_%06d.h5' $N)
  [ -f "$snap" ] || bad "no snapshot $snap"
  same_coeffs "snapshot at N vs first leg" "$snap" half.h5
  run $A --steps $((2 * N)) --restart "$snap" --output rest2.h5
  want_rc 0 "restart from snapshot"
  same_coeffs "restart from $snap vs 2N" rest2.h5 full.h5
  # restart at the end: 0 steps, the same state again
  run $A --steps $((2 * N)) --restart full.h5 --output same.h5
  want_rc 0 "restart at the final step"
  [ "$(key steps)" = 0 ] || bad "restart at the end ran $(key steps) steps"
  same_coeffs "0-step restart" same.h5 full.h5
  ;;

xdmf)
  run --cells 5x3 --degree 2 --dt 0.01 --steps 10 --output-every 3 --quiet --output run/sol.h5
  want_rc 2 "missing folder"
  want_err "missing folder" "advect: option --output: cannot write in folder run: No such file or directory"
  mkdir run || exit 2
  run --cells 5x3 --degree 2 --dt 0.01 --steps 10 --output-every 3 --quiet --output run/sol.h5
  want_rc 0 "2D run"
  for s in 3 6 9; do
    f=$(printf 'run/sol_%06d.h5' $s)
    [ -f "$f" ] || bad "no snapshot $f"
    [ "$(attr "$f" step)" = $s ] || bad "$f has step $(attr "$f" step)"
  done
  [ -f run/sol_000010.h5 ] && bad "the final step is also written as a numbered snapshot"
  [ -f run/sol.xdmf ] || die "no run/sol.xdmf: $(ls run)"
  # 3 snapshots + the final file; view samples default degree+1 = 3; /view/error present
  "$PY" "$CHECK_XDMF" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 5 3 --box 0 1 0 1 --s 3 \
    --nvar 1 --error 1 --ngrids 4 run/sol.xdmf > "$DIR/xdmf.out" 2>&1 || bad "2D: $(cat "$DIR/xdmf.out")"
  grep -q '>sol\.h5:/view/values<' run/sol.xdmf || bad "the final file is not the last grid"
  # 3D, a box, an explicit sample count and a variable map; XDMF from another folder
  mkdir run3 || exit 2
  cd run3 || exit 2
  run --dim 3 --cells 3x2x4 --box 0,2,-1,1,0,3 --map band --degree 2 --degree-min 0 \
      --view-samples 2 --dt 0.01 --steps 4 --output-every 2 --quiet --output ../run/three.h5
  cd .. || exit 2
  want_rc 0 "3D run"
  "$PY" "$CHECK_XDMF" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 3 2 4 --box 0 2 -1 1 0 3 --s 2 \
    --nvar 1 --error 1 --ngrids 2 run/three.xdmf > "$DIR/xdmf.out" 2>&1 || bad "3D: $(cat "$DIR/xdmf.out")"
  # restarting continues the numbering; the XDMF of the restarted run lists its own files
  run --cells 5x3 --degree 2 --dt 0.01 --steps 14 --output-every 3 --quiet --restart run/sol_000006.h5 --output run/cont.h5
  want_rc 0 "restarted run"
  for s in 9 12; do [ -f "$(printf 'run/cont_%06d.h5' $s)" ] || bad "no run/cont_0000$s.h5"; done
  [ -f run/cont_000006.h5 ] && bad "restart rewrote its own starting step"
  "$PY" "$CHECK_XDMF" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 5 3 --box 0 1 0 1 --s 3 \
    --nvar 1 --error 1 --ngrids 3 run/cont.xdmf > "$DIR/xdmf.out" 2>&1 || bad "restart: $(cat "$DIR/xdmf.out")"
  ;;

atomic)
  # A good final output, then runs whose writes fail on purpose (DGRID_IO_FAIL).
  R="--cells 6x4 --degree 2 --dt 0.01 --quiet"
  run $R --steps 2 --output out.h5 --text-output out.txt
  want_rc 0 "setup run"
  run $R --steps 2 --output-every 1 --output ser.h5
  want_rc 0 "series setup run"
  before=$(listing)
  txtsum=$(cksum < out.txt)
  xdmfsum=$(cksum < ser.xdmf)
  sersum=$(cksum < ser.h5)
  # final HDF5 write fails: out.h5 untouched, no temporary left
  runenv DGRID_IO_FAIL=snapshot $R --steps 5 --output out.h5
  want_rc 2 "failed final write"
  sed 's/\.tmp\.[0-9][0-9]*$/.tmp.PID/' "$DIR/err" > "$DIR/err.pid" && mv "$DIR/err.pid" "$DIR/err"
  want_err "failed final write" "advect: out.h5: injected failure (DGRID_IO_FAIL=snapshot) after a partial write of .out.h5.tmp.PID"
  [ "$(listing)" = "$before" ] || bad "files changed after a failed write: $(listing)"
  [ "$(attr out.h5 step)" = 2 ] || bad "out.h5 step $(attr out.h5 step), expected the old 2"
  readable "out.h5 after the failed write" out.h5
  # with an absolute path the temporary is in the target's folder
  runenv DGRID_IO_FAIL=snapshot $R --steps 5 --output "$DIR/out.h5"
  want_rc 2 "failed final write (absolute)"
  sed 's/\.tmp\.[0-9][0-9]*$/.tmp.PID/' "$DIR/err" > "$DIR/err.pid" && mv "$DIR/err.pid" "$DIR/err"
  want_err "failed final write (absolute)" "advect: $DIR/out.h5: injected failure (DGRID_IO_FAIL=snapshot) after a partial write of $DIR/.out.h5.tmp.PID"
  [ "$(listing)" = "$before" ] || bad "files changed after a failed write: $(listing)"
  # the text output fails after the HDF5 output succeeded: out.txt untouched
  runenv DGRID_IO_FAIL=text $R --steps 3 --output out3.h5 --text-output out.txt
  want_rc 2 "failed text write"
  sed 's/\.tmp\.[0-9][0-9]*$/.tmp.PID/' "$DIR/err" > "$DIR/err.pid" && mv "$DIR/err.pid" "$DIR/err"
  want_err "failed text write" "advect: out.txt: injected failure (DGRID_IO_FAIL=text) after a partial write of .out.txt.tmp.PID"
  [ "$(cksum < out.txt)" = "$txtsum" ] || bad "out.txt changed after a failed write"
  rm -f out3.h5
  # the XDMF write fails: the previous series file untouched
  runenv DGRID_IO_FAIL=xdmf $R --steps 4 --output-every 1 --output ser.h5
  want_rc 2 "failed xdmf write"
  sed 's/\.tmp\.[0-9][0-9]*$/.tmp.PID/' "$DIR/err" > "$DIR/err.pid" && mv "$DIR/err.pid" "$DIR/err"
  want_err "failed xdmf write" "advect: ser.xdmf: injected failure (DGRID_IO_FAIL=xdmf) after a partial write of .ser.xdmf.tmp.PID"
  # (ser_000001.h5 was rewritten by this run before its XDMF failed: same content)
  ls -a | grep -q '\.tmp\.' && bad "temporary left behind: $(ls -a)"
  [ "$(cksum < ser.xdmf)" = "$xdmfsum" ] || bad "ser.xdmf changed after a failed write"
  [ "$(cksum < ser.h5)" = "$sersum" ] || bad "ser.h5 changed by the failed run"
  [ -f ser_000002.h5 ] && bad "the failed run went on after its XDMF write failed"
  # any other value changes nothing
  runenv DGRID_IO_FAIL=nothing $R --steps 5 --output out.h5
  want_rc 0 "DGRID_IO_FAIL=nothing"
  [ "$(attr out.h5 step)" = 5 ] || bad "out.h5 not replaced by a good run"
  ;;

*)
  die "unknown case $CASE"
  ;;
esac
exit $fail
