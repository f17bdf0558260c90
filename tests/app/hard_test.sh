#!/bin/sh
# app.hard.<CASE>: the second round of hostile input (issue 48) against the
# programs: outputs that would replace the run's inputs, restarts across
# programs and steps, options a program would accept and ignore, unconverged
# solves, --help, stdout on a full device.
# Usage: hard_test.sh CASE DIR ADVECT ADVDIFF POISSON COMPARE SRC
#
# Every refusal asserts the exact one-line message on stderr, exit status 2,
# nothing on stdout and no file changed.
set -u
CASE=$1 DIR=$2 ADV=$3 ADD=$4 POI=$5 CMP=$6 SRC=$7
rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
cd "$DIR" || exit 2
fail=0
bad() { echo "FAIL [app.hard.$CASE]: $*" >&2; fail=1; }
. "$(dirname "$0")/checks.sh"


S="--cells 6x4 --degree 1 --dt 0.01 --steps 2 --quiet"

case $CASE in

inputs)
  # No output replaces a file the run reads: the configuration file, the map
  # file, the restart file (also through a link), nor one of its own series.
  printf 'cells = 6x4\ndegree = 1\ndt = 0.01\nsteps = 2\noutput = run.cfg\n' > run.cfg
  refuse "output = the config file" \
    "advect: option --output: run.cfg would replace the configuration file run.cfg, an input of this run" \
    "$ADV" run.cfg
  printf '1 1 1 1 1 1\n1 1 1 1 1 1\n1 1 1 1 1 1\n1 1 1 1 1 1\n' > m.map
  ln -s m.map link.txt
  refuse "--text-output the map file" \
    "advect: option --text-output: m.map would replace --map-file m.map, an input of this run" \
    "$ADV" --cells 6x4 --dt 0.01 --steps 2 --quiet --map-file m.map --text-output m.map
  refuse "--text-output a link to the map file" \
    "advect: option --text-output: link.txt would replace --map-file m.map, an input of this run" \
    "$ADV" --cells 6x4 --dt 0.01 --steps 2 --quiet --map-file m.map --text-output link.txt
  refuse "advdiff --output the map file" \
    "advdiff: option --output: ./m.map would replace --map-file m.map, an input of this run" \
    "$ADD" --cells 6x4 --dt 0.01 --steps 1 --quiet --map-file m.map --output ./m.map
  runp "$ADV" $S --output s.h5 --output-every 1
  want_rc 0 "a series"
  refuse "--text-output a series snapshot" \
    "advect: option --text-output: ./s_000001.h5 would replace a snapshot of the series of --output s.h5" \
    "$ADV" $S --output s.h5 --output-every 1 --text-output ./s_000001.h5
  # a model header is an input too
  cp "$(dirname "$0")/../../models/advection.h" ./advection.h 2> /dev/null || true
  if [ -f advection.h ]; then
    refuse "--output the model file" \
      "advect: option --output: advection.h would replace --model-file advection.h, an input of this run" \
      "$ADV" $S --model-file advection.h --output advection.h
  fi
  # a new name, or another run's file, is written as before
  runp "$ADV" --cells 6x4 --dt 0.01 --steps 2 --quiet --map-file m.map --text-output other.txt
  want_rc 0 "--text-output a new file"
  ;;

restart)
  # The dt used is the one stored: a --dt that does not divide --t-end is
  # shortened, and the run's own snapshot restarts.
  runp "$ADV" --cells 6x4 --degree 1 --dt 0.03 --t-end 0.1 --output a.h5 --quiet
  want_rc 0 "--dt 0.03 to 0.1"
  [ "$(key dt)" = "0.025000000000000001" ] || bad "--dt 0.03 to 0.1: dt=$(key dt), expected 0.025000000000000001"
  runp "$ADV" --restart a.h5 --t-end 0.2 --output b.h5 --quiet
  want_rc 0 "restart of a shortened --dt"
  [ "$(key t)" = "0.20000000000000001" ] || bad "restart of a shortened --dt: t=$(key t)"
  # advect does not continue advdiff's implicit scheme with an explicit one
  runp "$ADD" --cells 4x4 --degree 1 --dt 0.01 --steps 1 --output ad.h5 --quiet
  want_rc 0 "advdiff run"
  refuse "advect --restart of an advdiff snapshot" \
    "advect: restart ad.h5: integrator is 'sdirk2' in the file (advdiff's scheme); advect continues only its explicit integrators (euler, ssprk2, ssprk3, rk4, lsrk4)" \
    "$ADV" --restart ad.h5 --steps 2 --output x.h5
  # advdiff continues its own snapshot with its own scheme alone, bitwise as
  # the run that never stopped; advect's snapshot, another scheme or another
  # dt are refused
  runp "$ADD" --restart ad.h5 --steps 2 --output ad2.h5 --quiet
  want_rc 0 "advdiff --restart"
  runp "$ADD" --cells 4x4 --degree 1 --dt 0.01 --steps 2 --output adw.h5 --quiet
  want_rc 0 "advdiff uninterrupted"
  "$CMP" --tol 0 adw.h5 ad2.h5 | grep -q 'max_abs_diff=0 ' || bad "advdiff --restart: not bitwise the uninterrupted run"
  refuse "advdiff --restart of an advect snapshot" \
    "advdiff: restart a.h5: integrator is 'ssprk3' in the file (advect's); advdiff continues only its own schemes (--scheme)" \
    "$ADD" --restart a.h5 --output y.h5
  refuse "advdiff --restart with another scheme" \
    "advdiff: restart ad.h5: option --scheme: 'sdirk2' in the file, 'be' in this run (a restart continues with the file's scheme)" \
    "$ADD" --restart ad.h5 --scheme be --steps 2 --output y.h5
  refuse "advdiff --restart of a missing file" \
    "advdiff: restart: missing.h5: cannot open: No such file or directory" \
    "$ADD" --restart missing.h5
  # poisson's snapshot: a steady state, said so (not "an older dgrid")
  runp "$POI" --n 4 --r 1 --quiet --out p.h5
  want_rc 0 "poisson --out"
  refuse "advect --restart of a poisson snapshot" \
    "advect: restart p.h5: a solution of poisson (model poisson-sipg), a steady state with no time step: there is no run to continue (compare and tools/plot read it)" \
    "$ADV" --restart p.h5 --steps 3 --output z.h5
  runp "$CMP" --quiet p.h5 p.h5
  want_rc 0 "compare reads poisson's snapshot"
  # a model file's run continues only with the header it was written with
  sed -e 's/dg_model_advection\b/dg_model_tilted/; s/"advection",/"tilted",/' \
    "$SRC/models/advection.h" > tilted.h
  runp "$ADV" --model-file ./tilted.h --cells 4x4 --degree 1 --dt 0.01 --steps 2 --output m.h5 --quiet
  want_rc 0 "--model-file run"
  runp "$ADV" --restart m.h5 --steps 4 --output m4.h5 --quiet
  want_rc 0 "restart of a --model-file run, header unchanged"
  l2a=$(key l2_error)
  cp tilted.h tilted.orig
  printf '/* edited */\n' >> tilted.h
  runp "$ADV" --restart m.h5 --steps 4 --output x.h5
  want_rc 2 "restart after the model file changed"
  want_err_glob "restart after the model file changed" \
    "advect: m.h5:/config:[0-9]*: option --model-digest: model file ./tilted.h has changed: its digest is [0-9a-f]*, not [0-9a-f]* (the header the configuration was written with)"
  [ -e x.h5 ] && bad "restart after the model file changed wrote x.h5"
  # the digest is of the text: the header as it was continues again
  mv tilted.orig tilted.h
  runp "$ADV" --restart m.h5 --steps 4 --output m4b.h5 --quiet
  want_rc 0 "restart with the header restored"
  [ -n "$l2a" ] && [ "$(key l2_error)" = "$l2a" ] || bad "restored header: l2_error=$(key l2_error), first restart's $l2a"
  refuse "--model-digest without --model-file" \
    "advect: option --model-digest: has no effect without --model-file (it is the digest of that header)" \
    "$ADV" --model-digest 0123456789abcdef0123456789abcdef --cells 4x4 --steps 1 --dt 0.01
  ;;

layout)
  # A header that includes another model's device part and writes its own
  # descriptor must give the descriptor the device part's layout: a wrong
  # naux_face (0: every auxiliary value at the faces, where the stages hold
  # DG_MODEL_NAUX_FACE = 2) is one line, not a run on misread data.
  sed -e 's/dg_model_sw_lake_hump/dg_model_wrong_face/; s/"sw_lake_hump",/"wrong_face",/' \
    -e 's/^    DG_MODEL_NAUX_FACE,$/    0,/' "$SRC/tests/reference/sw_lake_hump.h" > wrong_face.h
  grep -q '^    0,$' wrong_face.h || bad "wrong_face.h: the descriptor's naux_face was not replaced"
  refuse "a descriptor whose naux_face is not DG_MODEL_NAUX_FACE" \
    "advect: model wrong_face ($(pwd -P)/wrong_face.h): its descriptor says nvar 3, naux 5, naux_face 5 where its device part has DG_NVAR 3, DG_MODEL_NAUX 5, DG_MODEL_NAUX_FACE 2 (write those macros in the descriptor: docs/MODELS.md)" \
    "$ADV" --model-file ./wrong_face.h --case lake_at_rest --cells 4x4 --degree 1 --steps 1 --dt 1
  # the same header with the macro runs
  sed -e 's/dg_model_sw_lake_hump/dg_model_right_face/; s/"sw_lake_hump",/"right_face",/' \
    "$SRC/tests/reference/sw_lake_hump.h" > right_face.h
  runp "$ADV" --model-file ./right_face.h --case lake_at_rest --cells 4x4 --degree 1 --steps 1 --dt 1 --quiet
  want_rc 0 "the same header with DG_MODEL_NAUX_FACE"
  ;;

drift)
  # After a restart the mass drift is measured from t = 0's mass (stored in
  # the snapshot), with t = 0's choice of relative or absolute drift.
  # The reaction makes mass from none (advdiff: 4e-2 in 4 steps, 2e-2 in 2),
  # so a drift measured from the file's state would be half the uninterrupted one.
  for prog in "$ADV" "$ADD"; do
    p=$(basename "$prog")
    runp "$prog" --model advection_reaction --cells 6x4 --degree 1 --dt 0.01 --steps 4 --output "$p"4.h5 --quiet
    want_rc 0 "$p advection_reaction, 4 steps"
    d4=$(key mass_drift_abs)
    runp "$prog" --model advection_reaction --cells 6x4 --degree 1 --dt 0.01 --steps 2 --output "$p"2.h5 --quiet
    runp "$prog" --restart "$p"2.h5 --steps 4 --output "$p"24.h5 --quiet
    want_rc 0 "$p advection_reaction, 2 + 2 steps"
    [ -n "$d4" ] && [ "$(key mass_drift_abs)" = "$d4" ] ||
      bad "$p restart: mass_drift_abs=$(key mass_drift_abs) mass_drift=$(key mass_drift), uninterrupted mass_drift_abs=$d4"
  done
  ;;

series)
  # A restart from one of the series' own snapshots keeps the XDMF's earlier
  # entries: the same XDMF as the uninterrupted run.
  runp "$ADV" --cells 6x4 --degree 1 --dt 0.01 --steps 4 --output s.h5 --output-every 1
  want_rc 0 "series of 4"
  cp s.xdmf full.xdmf
  runp "$ADV" --restart s_000002.h5
  want_rc 0 "restart from s_000002.h5"
  cmp -s full.xdmf s.xdmf || bad "the XDMF after the restart differs: $(diff full.xdmf s.xdmf | head -5)"
  # an earlier snapshot gone: left out, and said so
  rm s_000001.h5
  runp "$ADV" --restart s_000002.h5
  want_rc 0 "restart with s_000001.h5 gone"
  grep -q "^advect: note: restart: 1 earlier snapshot of the series of s.h5 is missing or another run's: left out of its XDMF$" "$DIR/out" ||
    bad "no note of the missing snapshot: $(cat "$DIR/out")"
  grep -q "s_000001.h5" s.xdmf && bad "the XDMF names the missing s_000001.h5"
  grep -q "s_000000.h5" s.xdmf || bad "the XDMF lost s_000000.h5"
  ;;

ignored)
  # advdiff refuses advect's options it does not honour (command line or file)
  refuse "advdiff --output-every" "advdiff: option --output-every: advdiff writes only the final snapshot (--output)" \
    "$ADD" --cells 4x4 --steps 1 --output-every 1
  refuse "advdiff --text-output" "advdiff: option --text-output: advdiff writes only the HDF5 snapshot of --output" \
    "$ADD" --cells 4x4 --steps 1 --text-output t.txt
  refuse "advdiff --history" "advdiff: option --history: advdiff keeps no history (its progress lines give the mass)" \
    "$ADD" --cells 4x4 --steps 1 --history
  printf 'cells = 4x4\nintegrator = rk4\n' > i.cfg
  refuse "advdiff integrator in a file" "advdiff: option --integrator: advdiff takes --scheme (be, cn, sdirk2, sdirk3, ars222, ars443, rk4)" \
    "$ADD" --config i.cfg --steps 1
  # --radius is the sphere's: on a box it would be ignored
  refuse "--radius on a box" \
    "advect: option --radius: has no effect on a box grid (it is the sphere's radius: --grid latlon)" \
    "$ADV" --cells 4x4 --radius 5 --steps 1 --dt 0.01
  printf 'cells = 4x4\nradius = 7\n' > r.cfg
  refuse "radius = 7 on a box, in a file" \
    "advect: r.cfg:2: option --radius: has no effect on a box grid (it is the sphere's radius: --grid latlon)" \
    "$ADV" r.cfg --steps 1 --dt 0.01
  ;;

poisson)
  # poisson's options: checked values, no combination that ignores one, --help
  refuse "--map bogus" "poisson: option --map: 'bogus' is not one of uniform, band, random" "$POI" --map bogus
  refuse "--solver nonsense" "poisson: option --solver: 'nonsense' is not one of fp64, mixed, fp32" \
    "$POI" --solver nonsense
  refuse "--table --out" "poisson: option --out: --table writes no solution (run one solve for it)" \
    "$POI" --table --out t.h5
  refuse "--throughput --out" "poisson: option --out: --throughput writes no solution (run one solve for it)" \
    "$POI" --throughput --out t.h5
  refuse "--table --solver" "poisson: option --solver: --table runs fp64, mixed and fp32 each" \
    "$POI" --table --solver mixed
  refuse "--throughput --map" "poisson: option --map: --throughput measures the uniform map" \
    "$POI" --throughput --map band
  refuse "--table --repeat 1000000" "poisson: option --repeat: 1000000 is above the 16 timed runs --table keeps" \
    "$POI" --table --repeat 1000000
  refuse "--out --quiet" "poisson: option --out needs a value (the next argument is the option --quiet)" \
    "$POI" --out --quiet
  refuse "a control character" "poisson: option --map: 'a\\x1b[31mb' is not one of uniform, band, random" \
    "$POI" --map "$(printf 'a\033[31mb')"
  refuse "unknown option" "poisson: unknown or incomplete option '--bogus' (see --help)" "$POI" --bogus
  # --table's ranges: in order and in bounds, and not given where nothing runs them
  refuse "--rmin above --rmax" "poisson: option --rmin: 3 is above --rmax 2" "$POI" --table --rmin 3 --rmax 2
  refuse "--rmax 11" "poisson: option --rmax: 11 is not a degree in 0..10" "$POI" --table --rmax 11
  refuse "--nmin 0" "poisson: option --nmin: 0 is below 1" "$POI" --table --nmin 0
  refuse "--nmin above --nmax" "poisson: option --nmin: 64 is above --nmax 32" "$POI" --table --nmin 64 --nmax 32
  refuse "--nmax without --table" "poisson: option --nmax: only --table runs a range of grids" "$POI" --nmax 64
  refuse "--table --r" "poisson: option --r: --table runs --rmin to --rmax" "$POI" --table --r 2
  # the test fault's variable is checked too (read by the app, not the library)
  refuse "a bad DGRID_SPART_NO_EXCHANGE" \
    "poisson: DGRID_SPART_NO_EXCHANGE: 'bogus' is not 1 or transfer" env DGRID_SPART_NO_EXCHANGE=bogus "$POI"
  runp "$POI" --help
  want_rc 0 "--help"
  grep -q -- "--solver KIND" "$DIR/out" || bad "--help does not list --solver: $(cat "$DIR/out")"
  ;;

unconverged)
  # An unconverged solve: a warning with the default tolerance (also with
  # --quiet), an error with no output where --rtol was given.
  runp "$POI" --n 8 --r 3 --quiet --solver fp32 --out w.h5
  want_rc 0 "poisson fp32, default --rtol"
  want_err_glob "poisson fp32, default --rtol" \
    "poisson: warning: fp32 CG stopped after * iterations at relative residual *e-0*, above --rtol 1e-10"
  [ -f w.h5 ] || bad "poisson fp32, default --rtol: w.h5 not written"
  runp "$POI" --n 8 --r 3 --quiet --solver fp32 --rtol 1e-8 --out e.h5
  want_rc 2 "poisson fp32 --rtol 1e-8"
  want_err_glob "poisson fp32 --rtol 1e-8" \
    "poisson: option --rtol: fp32 CG stopped after * iterations at relative residual *, above --rtol 1e-08 (no file written)"
  [ -e e.h5 ] && bad "poisson fp32 --rtol 1e-8: e.h5 written"
  runp "$ADD" --cells 4x4 --degree 1 --dt 0.01 --steps 1 --maxit 1 --quiet --output w2.h5
  want_rc 0 "advdiff --maxit 1, default --rtol"
  want_err_glob "advdiff --maxit 1 --quiet" "advdiff: warning: step 1: a solve stopped at residual *e-0* > --rtol 1e-10"
  runp "$ADD" --cells 4x4 --degree 1 --dt 0.01 --steps 1 --maxit 1 --rtol 1e-10 --quiet --output e2.h5
  want_rc 2 "advdiff --maxit 1 --rtol 1e-10"
  want_err_glob "advdiff --maxit 1 --rtol 1e-10" \
    "advdiff: option --rtol: step 1: a solve stopped at residual *e-0* > --rtol 1e-10 (no output written)"
  [ -e e2.h5 ] && bad "advdiff --rtol not met: e2.h5 written"
  ;;

stdout)
  # stdout that cannot be written (a full device): one line and status 2,
  # not a success without the summary; --help likewise
  [ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 0; }
  for p in "$ADV --cells 4x4 --degree 1 --steps 1 --dt 0.01 --output f.h5" \
    "$ADD --cells 4x4 --degree 1 --steps 1 --dt 0.01 --output g.h5" \
    "$POI --n 4 --r 1 --quiet" "$ADV --help" "$ADD --help" "$POI --help" "$CMP --help"; do
    # shellcheck disable=SC2086
    $p > /dev/full 2> "$DIR/err"
    RC=$?
    prog=$(basename "${p%% *}")
    want_rc 2 "$prog > /dev/full"
    want_err "$prog > /dev/full" "$prog: cannot write to standard output (No space left on device)"
  done
  "$CMP" f.h5 f.h5 > /dev/full 2> "$DIR/err"
  RC=$?
  want_rc 2 "compare > /dev/full"
  want_err "compare > /dev/full" "compare: cannot write to standard output (No space left on device)"
  ;;

help)
  # every program answers --help with its options, on stdout, status 0
  for p in "$ADV" "$ADD" "$POI" "$CMP"; do
    runp "$p" --help
    want_rc 0 "$(basename "$p") --help"
    [ -s "$DIR/err" ] && bad "$(basename "$p") --help wrote to stderr: $(cat "$DIR/err")"
    grep -q -- "--" "$DIR/out" || bad "$(basename "$p") --help lists no option"
  done
  runp "$ADV" --help
  grep -q -- "--map KIND .*latitude | step" "$DIR/out" || bad "advect --help omits the latitude and step maps"
  ;;

sphere)
  # compare: a sphere's snapshot and a planar one on the same (lambda, theta)
  # box and cells are not the same grid
  runp "$ADV" --model sphere_advection --grid latlon --cells 4 --degree 1 --steps 1 --dt 1 --output sph.h5 --quiet
  want_rc 0 "sphere run"
  runp "$ADV" --cells 8x4 --box 0,6.2831853071795862,-1.5707963267948966,1.5707963267948966 --degree 1 \
    --steps 1 --dt 0.01 --output pl.h5 --quiet
  want_rc 0 "planar run"
  runp "$CMP" sph.h5 pl.h5
  want_rc 2 "compare sphere plane"
  want_err "compare sphere plane" \
    "compare: grids differ: A is a latitude-longitude sphere (radius 6371220), B a planar box"
  ;;

cfgline)
  # a value of a configuration file refused by the model's domain check names file:line
  printf 'model = burgers\ncells = 4x4\nbc = wall\n' > b1.cfg
  refuse "bc = wall" "advect: b1.cfg:3: boundary x-: model burgers has no wall reflection" "$ADV" b1.cfg
  printf 'model = burgers\ncells = 4x4\ngrid = latlon\n' > b2.cfg
  refuse "grid = latlon" "advect: b2.cfg:3: option --grid latlon: model burgers does not run on the sphere" \
    "$ADV" b2.cfg
  printf 'model = burgers\ncells = 4x4x4\ndim = 3\n' > b3.cfg
  refuse "dim = 3" "advect: b3.cfg:3: model burgers does not run in 3D" "$ADV" b3.cfg
  # the model from the file, the grid from the command line: the model's line
  printf '# burgers\nmodel = burgers\n' > b4.cfg
  refuse "model in a file, --bc wall" "advect: b4.cfg:2: boundary x-: model burgers has no wall reflection" \
    "$ADV" b4.cfg --cells 4x4 --bc wall
  # on the command line alone: no line to name
  refuse "--bc wall" "advect: boundary x-: model burgers has no wall reflection" \
    "$ADV" --model burgers --cells 4x4 --bc wall
  ;;

acoustics)
  # acoustics: the shape's wave is the exact solution only where the sides keep
  # it; elsewhere the error is not measured (nan), not measured against it
  A="--model acoustics --cells 8x8 --degree 2 --steps 4 --dt 0.01 --quiet"
  runp "$ADV" $A --shape standing --output a1.h5
  want_rc 0 "standing on a periodic box"
  [ "$(key l2_error)" = nan ] || bad "standing on a periodic box: l2_error=$(key l2_error), expected nan"
  runp "$ADV" $A --shape plane --bc wall --output a2.h5
  want_rc 0 "plane with walls"
  [ "$(key l2_error)" = nan ] || bad "plane with walls: l2_error=$(key l2_error), expected nan"
  runp "$ADV" $A --shape standing --bc wall --output a3.h5
  case $(key l2_error) in 0.000*) ;; *) bad "standing with walls: l2_error=$(key l2_error)" ;; esac
  runp "$ADV" $A --shape standing --wave 2,2 --output a4.h5
  case $(key l2_error) in 0.0*) ;; *) bad "standing of even modes, periodic: l2_error=$(key l2_error)" ;; esac
  ;;

notes)
  # a map that cannot reach the degree asked for on so few rows says so
  runp "$ADV" --model sphere_advection --grid latlon --cells 4 --map latitude --degree 4 --steps 1 --dt 1 \
    --quiet --output la.h5
  want_rc 0 "--map latitude on 4 rows"
  want_err "--map latitude on 4 rows" "advect: note: --map latitude reaches degree 1, not --degree 4, on 4 rows (it needs 9)"
  runp "$ADV" --model sphere_advection --grid latlon --cells 10 --map latitude --degree 4 --steps 1 --dt 1 \
    --quiet --output lb.h5
  want_rc 0 "--map latitude on 10 rows"
  [ -s "$DIR/err" ] && bad "--map latitude on 10 rows: stderr $(cat "$DIR/err")"
  runp "$POI" --map band --r 3 --n 2 --quiet
  want_rc 0 "poisson --map band on 2 rows"
  want_err "poisson --map band on 2 rows" "poisson: note: --map band reaches degree 2, not --r 3, on 2 rows in y (it needs 3)"
  refuse "poisson --map band --r 0" "poisson: option --r: 0 is below 1, the lowest degree of --map band" \
    "$POI" --map band --r 0
  ;;

range)
  # a well-formed number out of the range of a double is said to be so
  refuse "--value 1e-310" \
    "advect: option --value: '1e-310' is below the smallest normal double (2.23e-308): give 0 or a larger magnitude" \
    "$ADV" --init constant --value 1e-310 --cells 4x4
  refuse "--dt 1e400" "advect: option --dt: '1e400' is beyond the largest double (1.8e+308)" \
    "$ADV" --cells 4x4 --dt 1e400
  refuse "--dt 1e-3x" "advect: option --dt: '1e-3x' is not a finite number" "$ADV" --cells 4x4 --dt 1e-3x
  # a wave speed too large for a step blames the model's values, not --cfl
  refuse "--omega 1e308" \
    "advect: model advection: the wave speed at t = 0 overflows a double (--velocity rotation, --omega 1e308)" \
    "$ADV" --velocity rotation --omega 1e308 --cells 4x4 --steps 1
  # a tolerance fp64 cannot reach is refused before the solve, not blamed on the operator
  refuse "poisson --rtol 1e-300" "poisson: option --rtol: '1e-300' is not a number in [1e-16, 1)" \
    "$POI" --rtol 1e-300
  # a sphere whose areas leave a double's range names --radius, not the stable step
  refuse "--radius 1e-300" \
    "advect: option --radius: 1e-300 m makes the area of an element at the poles underflow (16x8 cells)" \
    "$ADV" --grid latlon --model sphere_advection --cells 16x8 --radius 1e-300 --steps 1
  refuse "--radius 1e300" "advect: option --radius: 1e+300 m makes the sphere's area overflow" \
    "$ADV" --grid latlon --model sphere_advection --cells 16x8 --radius 1e300 --steps 1
  # an implicit step too long for the solves' products names --dt, not FGMRES
  refuse "advdiff --dt 1e300" \
    "advdiff: option --dt: 1e+300 is too long: dt x the operator's largest rate (1.47e+03) x max|u| is more than the solves' products can hold in a double" \
    "$ADD" --dt 1e300 --steps 1 --cells 8x8
  ;;

*)
  echo "unknown case $CASE" >&2
  exit 2
  ;;
esac
exit $fail
