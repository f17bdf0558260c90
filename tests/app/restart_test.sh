#!/bin/sh
# app.restart.<CASE>: restarts of apps/advect: from the snapshot alone
# (bitwise), refusals of a changed problem, files with bad times crafted by
# io_gen, mismatched or broken files, and 2N steps == N + restart + N,
# bitwise, for every integrator (restart_<integrator>_<map>).
# Usage: restart_test.sh CASE DIR ADVECT COMPARE H5LS H5DUMP PYTHON3 CHECK_XDMF_PY DG_APP_C IO_GEN
# (the arguments, the working folder and the helpers: app_common.sh)
. "$(dirname "$0")/app_common.sh"

case $CASE in

restart_alone)
  # --restart FILE alone continues the run from the file's configuration:
  # bitwise the run that was not interrupted.
  # (1) dt from --cfl and --t-end, with a series and a history
  run --cells 7x5 --map random --degree 4 --seed 11 --t-end 0.05 --output-every 3 --progress-every 2 \
    --history --quiet --output full.h5
  want_rc 0 "uninterrupted run"
  n=$(key steps)
  [ "$n" -gt 7 ] || die "only $n steps"
  [ "$(attr full_000000.h5 step)" = 0 ] || bad "the series does not start at step 0"
  mv full.h5 ref.h5
  run --restart full_000006.h5
  want_rc 0 "restart alone"
  [ -s "$DIR/err" ] && bad "restart alone wrote to stderr: $(cat "$DIR/err")"
  [ "$(key steps)" = $((n - 6)) ] || bad "restart ran $(key steps) steps, expected $((n - 6))"
  same_coeffs "restart alone vs uninterrupted" full.h5 ref.h5
  # the restarted history continues the old one: the same rows, from step 0
  "$H5DUMP" -d /history -b LE -o hist_ref.bin ref.h5 > /dev/null 2>&1 &&
    "$H5DUMP" -d /history -b LE -o hist_rest.bin full.h5 > /dev/null 2>&1 || bad "h5dump /history"
  cmp -s hist_ref.bin hist_rest.bin || bad "the restarted /history differs from the uninterrupted one"
  [ "$(od -An -tf8 -N8 hist_rest.bin | tr -d ' ')" = 0 ] || bad "the restarted /history does not start at step 0"
  # (2) a leg to t-end T continued to 2T with --t-end only: the leg's dt is kept
  run --cells 6x4 --degree 2 --t-end 0.05 --quiet --output leg.h5
  want_rc 0 "first leg"
  dt1=$(key dt) s1=$(key steps)
  run --restart leg.h5 --t-end 0.1 --output ext.h5
  want_rc 0 "continued to t-end 0.1"
  [ -s "$DIR/err" ] && bad "continuation wrote to stderr: $(cat "$DIR/err")"
  [ "$(key dt)" = "$dt1" ] || bad "the continuation's dt $(key dt) is not the leg's $dt1"
  [ "$(attr ext.h5 step)" = $((2 * s1)) ] || bad "ext.h5 is at step $(attr ext.h5 step), expected $((2 * s1))"
  run --cells 6x4 --degree 2 --dt "$dt1" --steps $((2 * s1)) --quiet --output ext_ref.h5
  same_coeffs "leg + continuation vs 2 legs at once" ext.h5 ext_ref.h5
  cfgdump ext.h5 | grep -q '^t-end = 0.1$' || bad "ext.h5 does not store t-end 0.1: $(cfgdump ext.h5)"
  # an end that is no whole number of the leg's steps: a warning, and the run ends after it
  run --restart leg.h5 --t-end 0.0777 --output odd.h5
  want_rc 0 "t-end between steps"
  want_err_glob "t-end between steps" "advect: warning: --t-end 0.077* is not a whole number of steps of the restarted run's dt $dt1: it ends at step *, t=*"
  # (3) a model whose dt is re-estimated every step
  run --model burgers --cells 8x8 --degree 2 --t-end 0.1 --output-every 4 --quiet --output bg.h5
  want_rc 0 "burgers"
  mv bg.h5 bg_ref.h5
  run --restart bg_000004.h5
  want_rc 0 "burgers restart alone"
  same_coeffs "burgers restart vs uninterrupted" bg.h5 bg_ref.h5
  # (4) a --map-file run continues without its map file
  printf '0 1 2 3 4 5 6\n6 5 4 3 2 1 0\n3 3 3 3 3 3 3\n0 6 0 6 0 6 0\n2 2 2 2 2 2 2\n' > deg.map
  run --cells 7x5 --map-file deg.map --dt 0.004 --steps 12 --output-every 6 --quiet --output mf.h5
  want_rc 0 "map-file run"
  mv mf.h5 mf_ref.h5
  rm deg.map
  run --restart mf_000006.h5
  want_rc 0 "map-file restart without the map file"
  same_coeffs "map-file restart vs uninterrupted" mf.h5 mf_ref.h5
  # (5) 3D, fixed --dt, another integrator: the final file of a short leg, more --steps,
  # written over itself (the file's own --output)
  G3="--dim 3 --cells 4x3x3 --map random --degree 3 --seed 2 --integrator lsrk4 --dt 0.004 --quiet"
  run $G3 --steps 5 --output s.h5
  run $G3 --steps 10 --output s10.h5
  run --restart s.h5 --steps 10
  want_rc 0 "3D restart over its own file"
  [ "$(attr s.h5 step)" = 10 ] || bad "s.h5 is at step $(attr s.h5 step) after the restart"
  same_coeffs "3D restart vs uninterrupted" s.h5 s10.h5
  cfgdump s.h5 | grep -q '^steps = 10$' || bad "s.h5 does not store steps 10"
  # what does not change the problem may change
  run --restart s10.h5 --steps 12 --output o.h5 --output-every 1 --text-output o.txt --view-samples 2 \
    --progress-every 1 --history --verbose
  want_rc 0 "allowed changes"
  [ -f o.txt ] && [ -f o_000011.h5 ] && [ "$(attr o.h5 step)" = 12 ] || bad "allowed changes: $(ls)"
  ;;

restart_refuse)
  # A restart that changes the problem is refused, naming the key and both values.
  run --cells 6x4 --map random --degree 3 --degree-min 1 --seed 4 --velocity rotation --init gauss \
    --integrator rk4 --cfl 0.4 --t-end 0.05 --output-every 2 --quiet --output base.h5
  want_rc 0 "setup run"
  printf '1 1 1 1 1 1\n1 1 1 1 1 1\n1 1 1 1 1 1\n1 1 1 1 1 1\n' > deg.map
  printf 'velocity = const\n' > vel.cfg
  printf '[physics]\nomega = 2\n' > omega.cfg
  before=$(listing)
  W="(a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)"
  while IFS='|' read -r args msg; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    run --restart base_000002.h5 --output out.h5 $args
    want_rc 2 "$args"
    want_err "$args" "advect: restart base_000002.h5: $msg $W"
    [ -s "$DIR/out" ] && bad "$args: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$args: files changed: $(listing)"
  done << 'EOF'
--model burgers|model is 'advection' in the file, 'burgers' in this run
--model=deformation|model is 'advection' in the file, 'deformation' in this run
--dim 3 --cells 6x4x2|dim is '2' in the file, '3' in this run
--cells 6x5|cells is '6x4' in the file, '6x5' in this run
--box 0,2,0,1|box is '0,1,0,1' in the file, '0,2,0,1' in this run
--degree 4|degree is '3' in the file, '4' in this run
--degree-min 0|degree-min is '1' in the file, '0' in this run
--map band|map is 'random' in the file, 'band' in this run
--map-file deg.map|degree is '3' in the file, not set in this run
--seed 5|seed is '4' in the file, '5' in this run
--q 5|q is '4' in the file, '5' in this run
--velocity const|velocity is 'rotation' in the file, 'const' in this run
vel.cfg|velocity is 'rotation' in the file, 'const' in this run
--omega 2|omega is '1' in the file, '2' in this run
omega.cfg|omega is '1' in the file, '2' in this run
--rot-centre 0.4,0.5|rot-centre is '0.5,0.5' in the file, '0.4,0.5' in this run
--init bell|init is 'gauss' in the file, 'bell' in this run
--bell-radius 0.2|bell-radius is '0.1' in the file, '0.2' in this run
--integrator ssprk3|integrator is 'rk4' in the file, 'ssprk3' in this run
--cfl 0.5|cfl is '0.4' in the file, '0.5' in this run
--dt 0.001|cfl is '0.4' in the file, this run has dt '0.001' instead
EOF
  # the same values in other spellings, and what does not change the problem, run
  for args in "--cfl 0.40 --q 4 --seed 4 --beta 1,1.0 --box 0,1,0,1.0" "--t-end 0.07" "--steps 9" \
              "--output-every 3 --text-output t.txt --view-samples 2 --progress-every 1 --history --verbose"; do
    # shellcheck disable=SC2086
    run --restart base_000002.h5 --output ok.h5 --quiet $args
    want_rc 0 "allowed: $args"
  done
  ;;

restart_time)
  # Files whose time, step, dt, history or configuration are not a run's
  # record are refused (crafted with io_gen edit: sealed like real ones).
  run --cells 6x4 --degree 2 --dt 0.01 --steps 4 --history --progress-every 1 --quiet --output r4.h5
  want_rc 0 "fixed-step run"
  run --model burgers --cells 6x4 --degree 2 --t-end 0.05 --quiet --output b.h5
  want_rc 0 "adaptive run"
  vline=$(cfgdump r4.h5 | grep -n '^velocity = ' | cut -d: -f1)
  dline=$(cfgdump r4.h5 | grep -n '^dt = ' | cut -d: -f1)
  [ -n "$vline" ] && [ -n "$dline" ] || die "r4.h5 stores no velocity or dt: $(cfgdump r4.h5)"
  i=0
  # SOURCE EDIT... | exact stderr line
  while IFS='|' read -r edits msg; do
    [ -z "$edits" ] && continue
    i=$((i + 1))
    f=e$i.h5
    # shellcheck disable=SC2086
    "$IO_GEN" edit $edits || { bad "io_gen edit $edits failed"; continue; }
    mv edited.h5 "$f"
    before=$(listing)
    run --restart "$f" --output out.h5
    want_rc 2 "$edits"
    msg=$(echo "$msg" | sed "s|FILE|$f|g; s|VLINE|$vline|; s|DLINE|$dline|")
    case $msg in
    *'*'*) want_err_glob "$edits" "$msg" ;;
    *) want_err "$edits" "$msg" ;;
    esac
    [ -s "$DIR/out" ] && bad "$edits: wrote to stdout: $(cat "$DIR/out")"
    [ "$(listing)" = "$before" ] || bad "$edits: files changed: $(listing)"
  done << 'EOF'
r4.h5 edited.h5 time=nan|advect: restart FILE: time nan is not a finite number >= 0
r4.h5 edited.h5 time=inf|advect: restart FILE: time inf is not a finite number >= 0
r4.h5 edited.h5 time=-0.04|advect: restart FILE: time -0.040000000000000001 is not a finite number >= 0
r4.h5 edited.h5 step=-4|advect: restart FILE: step -4 is negative
r4.h5 edited.h5 time=0.05|advect: restart FILE: time 0.050000000000000003 is not step 4 x dt 0.01 (an inconsistent file)
r4.h5 edited.h5 step=5|advect: restart FILE: time 0.040000000000000001 is not step 5 x dt 0.01 (an inconsistent file)
r4.h5 edited.h5 dt=nan|advect: restart FILE: time step dt nan is not a finite number > 0
r4.h5 edited.h5 dt=-0.01|advect: restart FILE: time step dt -0.01 is not a finite number > 0
r4.h5 edited.h5 dt=0|advect: restart FILE: time step dt 0 is not a finite number > 0 (attribute 'dt' of / is missing)
r4.h5 edited.h5 dt=0.02|advect: restart FILE: time step dt 0.02 is not the 0.01 of its configuration (an inconsistent file)
r4.h5 edited.h5 step=9 time=0.09|advect: restart FILE: file is at step 9, beyond this run's 4 steps
r4.h5 edited.h5 hist=2,7,0.02|advect: restart FILE: /history row 2 (step 7, t=0.02) is after the file's own step and time (an inconsistent file)
r4.h5 edited.h5 hist=1,nan,0|advect: restart FILE: /history row 1 (step nan, t=0) is not a step and a time >= 0 (an inconsistent file)
r4.h5 edited.h5 hist=3,1,0.01|advect: restart FILE: /history row 3 (step 1, t=0.01) goes back in steps (an inconsistent file)
r4.h5 edited.h5 noconfig|advect: restart FILE: the file stores no configuration (attribute 'config' of /; written by an older dgrid), so there is no run to continue
r4.h5 edited.h5 rename:velocity=velocty|advect: FILE:/config:VLINE: unknown key 'velocty'
r4.h5 edited.h5 config:velocity=spin|advect: FILE:/config:VLINE: option --velocity: 'spin' is not one of const, rotation
r4.h5 edited.h5 config:dt=nan|advect: FILE:/config:DLINE: option --dt: 'nan' is not a finite number
b.h5 edited.h5 time=0|advect: restart FILE: time 0 at step * (an inconsistent file)
b.h5 edited.h5 time=1|advect: restart FILE: file is at t=1, beyond this run's t-end 0.050000000000000003
EOF
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
--cells 6x5 --dt 0.01 --restart r4.h5|advect: restart r4.h5: cells is '6x4' in the file, '6x5' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 5x4 --dt 0.01 --restart r4.h5|advect: restart r4.h5: cells is '6x4' in the file, '5x4' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --box 0,2,0,1 --restart r4.h5|advect: restart r4.h5: box is '0,1,0,1' in the file, '0,2,0,1' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --box 0,1,-1,1 --restart r4.h5|advect: restart r4.h5: box is '0,1,0,1' in the file, '0,1,-1,1' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--dim 3 --cells 6x4x2 --dt 0.01 --restart r4.h5|advect: restart r4.h5: dim is '2' in the file, '3' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --restart r3d.h5|advect: restart r3d.h5: cells is '6x4x2' in the file, '6x4' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--dim 2 --cells 6x4 --dt 0.01 --restart r3d.h5|advect: restart r3d.h5: dim is '3' in the file, '2' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --velocity rotation --restart r4.h5|advect: restart r4.h5: velocity is 'const' in the file, 'rotation' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --q 4 --restart r4.h5|advect: restart r4.h5: q is '3' in the file, '4' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --map band --degree-min 1 --restart r4.h5|advect: restart r4.h5: map is 'uniform' in the file, 'band' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --map band --restart r4.h5|advect: restart r4.h5: map is 'uniform' in the file, 'band' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.01 --map random --degree-min 0 --seed 4 --restart rmap.h5|advect: restart rmap.h5: degree is '3' in the file, '2' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --dt 0.02 --restart r4.h5|advect: restart r4.h5: dt is '0.01' in the file, '0.02' in this run (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
--cells 6x4 --cfl 0.3 --restart r4.h5|advect: restart r4.h5: dt is '0.01' in the file, this run has cfl '0.3' instead (a restart changes only t-end, steps, output, output-every, text-output, view-samples, progress-every, history, quiet, verbose, backend)
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

*)
  die "unknown case $CASE"
  ;;
esac
exit $fail
