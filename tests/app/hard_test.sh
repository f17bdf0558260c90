#!/bin/sh
# app.hard.<CASE>: the second round of hostile input (issue 48) against the
# programs: outputs that would replace the run's inputs, restarts across
# programs and steps, options a program would accept and ignore, unconverged
# solves, --help, stdout on a full device.
# Usage: hard_test.sh CASE DIR ADVECT ADVDIFF POISSON COMPARE
#
# Every refusal asserts the exact one-line message on stderr, exit status 2,
# nothing on stdout and no file changed.
set -u
CASE=$1 DIR=$2 ADV=$3 ADD=$4 POI=$5 CMP=$6
rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
cd "$DIR" || exit 2
fail=0
bad() { echo "FAIL [app.hard.$CASE]: $*" >&2; fail=1; }

# runp PROG ARGS...: RC, stdout in $DIR/out, stderr in $DIR/err
runp() { _p=$1; shift; "$_p" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
want_rc() { [ "$RC" -eq "$1" ] || bad "$2: exit status $RC, expected $1 (stderr: $(cat "$DIR/err"))"; }
want_err() {
  [ "$(wc -l < "$DIR/err")" -eq 1 ] && [ "$(cat "$DIR/err")" = "$2" ] ||
    bad "$1: stderr is '$(cat "$DIR/err")', expected exactly the line '$2'"
}
key() { tail -n 1 "$DIR/out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
listing() { find . -type f ! -name out ! -name err | LC_ALL=C sort | xargs -r cksum; }
# refuse LABEL MESSAGE PROG ARGS...: status 2, the one line, no stdout, no file changed
refuse() {
  _l=$1 _m=$2
  shift 2
  _before=$(listing)
  runp "$@"
  want_rc 2 "$_l"
  want_err "$_l" "$_m"
  [ -s "$DIR/out" ] && bad "$_l: wrote to stdout: $(cat "$DIR/out")"
  [ "$(listing)" = "$_before" ] || bad "$_l: files changed: $(listing)"
}

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
  refuse "--output the restart file" \
    "advect: option --output: s_000001.h5 would replace --restart s_000001.h5, an input of this run" \
    "$ADV" --restart s_000001.h5 --steps 2 --output s_000001.h5
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
  # advdiff refuses --restart (even of a missing file) rather than ignoring it
  refuse "advdiff --restart" \
    "advdiff: option --restart: advdiff does not restart from a snapshot (it runs from t = 0)" \
    "$ADD" --restart a.h5 --output y.h5
  refuse "advdiff --restart of a missing file" \
    "advdiff: option --restart: advdiff does not restart from a snapshot (it runs from t = 0)" \
    "$ADD" --restart missing.h5
  # poisson's snapshot: a steady state, said so (not "an older dgrid")
  runp "$POI" --n 4 --r 1 --quiet --out p.h5
  want_rc 0 "poisson --out"
  refuse "advect --restart of a poisson snapshot" \
    "advect: restart p.h5: a solution of poisson (model poisson-sipg), a steady state with no time step: there is no run to continue (compare and tools/plot read it)" \
    "$ADV" --restart p.h5 --steps 3 --output z.h5
  runp "$CMP" --quiet p.h5 p.h5
  want_rc 0 "compare reads poisson's snapshot"
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
  refuse "advdiff integrator in a file" "advdiff: option --integrator: advdiff steps with --scheme, not --integrator" \
    "$ADD" --config i.cfg --steps 1
  ;;

*)
  echo "unknown case $CASE" >&2
  exit 2
  ;;
esac
exit $fail
