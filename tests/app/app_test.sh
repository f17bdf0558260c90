#!/bin/sh
# app.<CASE>: command-line and output behaviour of apps/advect: help, option
# errors, models, map files, output paths, the dt warning, blow-up, boundary
# sides, XDMF of a real run, atomic final writes.  Configuration files are
# config_test.sh's, restarts restart_test.sh's.
# Usage: app_test.sh CASE DIR ADVECT COMPARE H5LS H5DUMP PYTHON3 CHECK_XDMF_PY DG_APP_C IO_GEN
# (the arguments, the working folder and the helpers: app_common.sh)
. "$(dirname "$0")/app_common.sh"

SMALL="--cells 6x4 --degree 2 --quiet"

case $CASE in

help)
  run --help
  want_rc 0 "--help"
  [ -s "$DIR/err" ] && bad "--help wrote to stderr: $(cat "$DIR/err")"
  cp "$DIR/out" help.txt
  # Every option apply(), is_flag() and the configuration layer know must be
  # documented, and every documented option must be known.
  # (and every parameter of the models, models/*.h: {"name", DG_PARAM_...})
  opts=$( (sed -n 's/.*strcmp(name, "\([a-z-]*\)").*/\1/p' "$DG_APP_C" "$(dirname "$DG_APP_C")"/dg_app_config.c
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
    case $o in help|quiet|history|verbose|print-config) continue ;; esac
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
  head -n 1 "$DIR/out" | grep -Eq '^advect: [a-z]+(:[0-9]+)? backend, model advection, 2D, 1024 elements, degrees 3\.\.3, q=4, 16384 dofs, ssprk3, dt=[0-9.e-]+, 2 steps$' ||
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
foo|advect: foo: cannot open: No such file or directory
-x|advect: unexpected argument '-x' (options start with --; see --help)
--|advect: unexpected argument '--' (options start with --; see --help)
--dt 1e-3x|advect: option --dt: '1e-3x' is not a finite number
--dt=1e-3x|advect: option --dt: '1e-3x' is not a finite number
--cfl abc|advect: option --cfl: 'abc' is not a finite number
--dt nan|advect: option --dt: 'nan' is not a finite number
--dt 0x10|advect: option --dt: '0x10' is not a finite number
--cfl inf|advect: option --cfl: 'inf' is not a finite number
--t-end 1e-3e|advect: option --t-end: '1e-3e' is not a finite number
--t-end 1e999|advect: option --t-end: '1e999' is beyond the largest double (1.8e+308)
--omega 1,5|advect: option --omega: '1,5' is not a finite number
--cells 10xa|advect: option --cells: 'a' is not an integer
--cells 10x5.5|advect: option --cells: '5.5' is not an integer
--cells 4xx4|advect: option --cells: '4xx4' is not N1xN2 or N1xN2xN3
--cells 4x|advect: option --cells: '4x' is not N1xN2 or N1xN2xN3
--cells 4|advect: option --cells: one size is for --grid latlon (N1 = 2 N2)
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
--quiet=1|advect: option --quiet: '1' is not one of false, true
--history=yes|advect: option --history: 'yes' is not one of false, true
--cells 4x4 --cells 5x5|advect: option --cells given twice
--quiet --quiet|advect: option --quiet given twice
--integrator rk3|advect: option --integrator: 'rk3' is not one of euler, ssprk2, ssprk3, rk4, lsrk4
--map wavy|advect: option --map: 'wavy' is not one of uniform, band, random, latitude, step
--velocity spin|advect: option --velocity: 'spin' is not one of const, rotation
--init wavy|advect: option --init: 'wavy' is not one of parabola, bell, sine, constant, gauss
--model swe|advect: option --model: 'swe' is not a model of this build (advection, deformation, burgers, acoustics, advection_reaction, advection_field, sphere_advection, advection_diffusion, shallow_water)
--model burgers --velocity rotation|advect: unknown option '--velocity' (see --help)
--model burgers --dim 3|advect: model burgers does not run in 3D
--model burgers --nu 0.1|advect: option --nu: model burgers: the explicit stages of advect do not diffuse (nu = 0.1); run advdiff, or give --nu 0
--model advection_diffusion|advect: option --nu: model advection_diffusion: the explicit stages of advect do not diffuse (nu = 0.01); run advdiff, or give --nu 0
--model-file /nonexistent/my_model.h|advect: option --model-file: cannot open '/nonexistent/my_model.h' (No such file or directory)
--model burgers --model-file my_model.h|advect: options --model and --model-file exclude each other
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
--output --help|advect: option --output: '--help' looks like an option, not a path (write ./--help)
--map-file=-m|advect: option --map-file: '-m' looks like an option, not a path (write ./-m)
--grid ball|advect: option --grid: 'ball' is not one of box, latlon
--grid latlon --dim 3|advect: option --grid latlon: the sphere is 2D, --dim is 3
--grid latlon --box 0,1,0,1|advect: option --box: not with --grid latlon (the sphere is implied)
--grid latlon --radius -1|advect: option --radius: -1 must be positive and finite
--grid latlon --steps 1|advect: option --grid latlon: model advection does not run on the sphere
--model sphere_advection --steps 1|advect: model sphere_advection needs --grid latlon
--model sphere_advection --grid latlon --flow spin|advect: option --flow: 'spin' is not one of williamson, nair_lauritzen
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
  grep -q "^plan: backend=[a-z0-9:]* model=burgers nvar=1 q=3 .*(own q exact for the model: no)$" "$DIR/out" ||
    bad "burgers plan line: $(grep plan: "$DIR/out")"
  run --steps 1 --verbose --quiet --output a.h5
  grep -q "(own q exact for the model: yes)$" "$DIR/out" || bad "advection plan line: $(grep plan: "$DIR/out")"
  ;;

map_file)
  # 3x3 grid: 3 rows of 3 degrees, the first line is row j=0 (a map that
  # differs from its transpose and from its rows reversed; degrees 1 to 3,
  # whose kernels the other tests compile too)
  G="--cells 3x3 --steps 1 --dt 0.001 --quiet"
  printf '# a comment\n\n1 2 2\n3 1 1   # trailing comment\n1 1 3\n' > ok.map
  run $G --map-file ok.map --output ok.h5
  want_rc 0 "good map"
  "$H5DUMP" -d /degree -b LE -o deg.bin ok.h5 > /dev/null 2>&1 || bad "h5dump /degree"
  [ "$(od -An -tu1 deg.bin | tr -s ' \n' ' ')" = " 1 2 2 3 1 1 1 1 3 " ] ||
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
  # The snapshots: t = 0 and every OE steps strictly before the failure, the last one
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
  [ "$nsnap" -eq $((last / OE + 1)) ] || bad "$nsnap snapshots, expected $((last / OE + 1)): $(ls)"
  [ "$(attr blow_000000.h5 step)" = 0 ] || bad "the series does not start with step 0: $(ls)"
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

bc)
  # Boundary sides (--bc, key bc): bad values, the same run through a
  # configuration, --print-config, the restart refusal of a changed side,
  # all-periodic bitwise the default, and an inflow/outflow run.
  run --cells 4x4 --degree 1 --steps 2 --quiet
  want_rc 0 "setup run"
  before=$(listing)
  while IFS='|' read -r args msg; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    run $args --steps 1 --quiet --output bad.h5
    want_rc 2 "$args"
    want_err "$args" "$msg"
    [ -s "$DIR/out" ] && bad "$args: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$args: files changed: $(listing)"
  done << 'EOF'
--bc open|advect: option --bc: 'open' is not one of periodic, inflow, outflow, wall
--bc inflow,outflow,inflow|advect: option --bc: 3 kinds given but --dim 2 needs 1 or 4 (sides x-,x+,y-,y+)
--dim 3 --cells 4x4x4 --bc inflow,outflow,inflow,outflow|advect: option --bc: 4 kinds given but --dim 3 needs 1 or 6 (sides x-,x+,y-,y+,z-,z+)
--bc inflow,,outflow,wall|advect: option --bc: 'inflow,,outflow,wall' is not a comma-separated list of kinds
--bc periodic,outflow,periodic,periodic|advect: option --bc: boundary x: periodic on one side only (x- periodic, x+ outflow); a periodic direction is periodic on both sides
--bc wall|advect: boundary x-: model advection has no wall reflection
--model acoustics --bc wall,wall,inflow,wall|advect: boundary y-: model acoustics has no inflow data
--model sphere_advection --grid latlon --bc outflow|advect: option --bc: not with --grid latlon (the sphere's sides are fixed: lambda periodic, poles)
EOF
  runenv DGRID_UPDATE=team --bc inflow,outflow,inflow,outflow --steps 1 --quiet --output bad.h5
  want_rc 2 "DGRID_UPDATE=team"
  want_err "DGRID_UPDATE=team" "advect: DGRID_UPDATE=team needs a grid periodic on every side (the team update forms no boundary states)"
  printf '[grid]\nbc = inflow,outflow,wall,outflow\n' > bad.cfg
  run bad.cfg --steps 1 --quiet --output bad.h5
  want_rc 2 "bad.cfg"
  want_err "bad.cfg" "advect: bad.cfg:2: boundary y-: model advection has no wall reflection"
  printf '[grid]\nbc = inflow,sideways\n' > bad2.cfg
  run bad2.cfg --steps 1 --quiet --output bad.h5
  want_rc 2 "bad2.cfg"
  want_err "bad2.cfg" "advect: bad2.cfg:2: option --bc: 'sideways' is not one of periodic, inflow, outflow, wall"
  # all periodic, said or not: bitwise the same run
  run --cells 6x4 --degree 2 --steps 3 --quiet --output def.h5
  want_rc 0 "default"
  run --cells 6x4 --degree 2 --steps 3 --quiet --output per.h5 --bc periodic
  want_rc 0 "--bc periodic"
  same_coeffs "--bc periodic" def.h5 per.h5
  [ "$(cfgdump def.h5 | grep '^bc = ')" = "bc = periodic" ] || bad "default snapshot: $(cfgdump def.h5 | grep '^bc')"
  # inflow/outflow through a configuration file = the command line, bitwise;
  # printed and stored with every side
  A="--cells 8x8 --degree 3 --init gauss --bell-centre 0.3,0.4 --bell-radius 0.2 --beta 1,0.5 --t-end 0.1 --quiet"
  # shellcheck disable=SC2086
  run $A --bc inflow,outflow,inflow,outflow --output cli.h5 --output-every 2
  want_rc 0 "inflow/outflow"
  e=$(key l2_error)
  awk -v e="$e" 'BEGIN { exit !(e > 0 && e < 1e-3) }' || bad "inflow/outflow l2_error=$e, expected below 1e-3"
  printf '[grid]\nbc = inflow,outflow,inflow,outflow\n' > io.cfg
  # shellcheck disable=SC2086
  run io.cfg $A --output cfg.h5
  want_rc 0 "io.cfg"
  same_coeffs "io.cfg" cli.h5 cfg.h5
  # shellcheck disable=SC2086
  run io.cfg $A --print-config
  grep -q '^bc = inflow,outflow,inflow,outflow$' "$DIR/out" || bad "--print-config: $(grep '^bc' "$DIR/out")"
  [ "$(cfgdump cli.h5 | grep '^bc = ')" = "bc = inflow,outflow,inflow,outflow" ] || bad "snapshot: $(cfgdump cli.h5 | grep '^bc')"
  # a restart keeps the sides (bitwise) and refuses other ones
  run --restart cli_000002.h5 --output re.h5
  want_rc 0 "restart"
  same_coeffs "restart" cli.h5 re.h5
  run --restart cli_000002.h5 --output re2.h5 --bc outflow
  want_rc 2 "restart --bc outflow"
  want_err "restart --bc outflow" "advect: restart cli_000002.h5: bc is 'inflow,outflow,inflow,outflow' in the file, 'outflow' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)"
  ;;

xdmf)
  run --cells 5x3 --degree 2 --dt 0.01 --steps 10 --output-every 3 --quiet --output run/sol.h5
  want_rc 2 "missing folder"
  want_err "missing folder" "advect: option --output: cannot write in folder run: No such file or directory"
  mkdir run || exit 2
  run --cells 5x3 --degree 2 --dt 0.01 --steps 10 --output-every 3 --quiet --output run/sol.h5
  want_rc 0 "2D run"
  # the series starts with the initial state
  for s in 0 3 6 9; do
    f=$(printf 'run/sol_%06d.h5' $s)
    [ -f "$f" ] || bad "no snapshot $f"
    [ "$(attr "$f" step)" = $s ] || bad "$f has step $(attr "$f" step)"
  done
  [ "$(attr run/sol_000000.h5 time)" = 0 ] || bad "sol_000000.h5 is at t=$(attr run/sol_000000.h5 time)"
  [ -f run/sol_000010.h5 ] && bad "the final step is also written as a numbered snapshot"
  [ -f run/sol.xdmf ] || die "no run/sol.xdmf: $(ls run)"
  # 4 snapshots + the final file; view samples default degree+1 = 3; /view/error present
  "$PY" "$CHECK_XDMF" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 5 3 --box 0 1 0 1 --s 3 \
    --nvar 1 --error 1 --ngrids 5 run/sol.xdmf > "$DIR/xdmf.out" 2>&1 || bad "2D: $(cat "$DIR/xdmf.out")"
  grep -q '<Time Value="0"' run/sol.xdmf || bad "the XDMF has no grid at t=0: $(grep Time run/sol.xdmf)"
  grep -m 1 '\.h5:/view/values<' run/sol.xdmf | grep -q 'sol_000000\.h5:' ||
    bad "the XDMF does not start with sol_000000.h5"
  grep -q '>sol\.h5:/view/values<' run/sol.xdmf || bad "the final file is not the last grid"
  # 3D, a box, an explicit sample count and a variable map; XDMF from another folder
  mkdir run3 || exit 2
  cd run3 || exit 2
  run --dim 3 --cells 3x2x4 --box 0,2,-1,1,0,3 --map band --degree 2 --degree-min 0 \
      --view-samples 2 --dt 0.01 --steps 4 --output-every 2 --quiet --output ../run/three.h5
  cd .. || exit 2
  want_rc 0 "3D run"
  "$PY" "$CHECK_XDMF" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 3 2 4 --box 0 2 -1 1 0 3 --s 2 \
    --nvar 1 --error 1 --ngrids 3 run/three.xdmf > "$DIR/xdmf.out" 2>&1 || bad "3D: $(cat "$DIR/xdmf.out")"
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
