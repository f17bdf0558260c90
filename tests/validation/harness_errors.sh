#!/bin/sh
# validation.harness_errors: run_case.sh turns bad paths and bad cases into exit
# status 2 and one message that names what is wrong; a malformed degree map is
# refused by the solver with a message naming the file.
# usage: harness_errors.sh RUN_CASE ADVECT DGREF COMPARE DIR
set -u
[ $# -eq 5 ] || { echo "usage: harness_errors.sh RUN_CASE ADVECT DGREF COMPARE DIR" >&2; exit 2; }
RUN=$1 ADVECT=$2 DGREF=$3 COMPARE=$4 DIR=$5
{ rm -rf "$DIR" && mkdir -p "$DIR"; } || { echo "cannot create $DIR" >&2; exit 2; }
fail=0
GOOD="nx=4 ny=3 x0=0 x1=1 y0=0 y1=1 deg=1 vel=const bx=1 by=1 init=sine rk=euler dt=1e-3 nsteps=2"

# expect NAME STATUS TEXT -- run_case.sh arguments: exit STATUS and TEXT in stderr
expect() {
  name=$1 want=$2 text=$3
  shift 4
  sh "$RUN" "$@" > "$DIR/$name.out" 2> "$DIR/$name.err"
  rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL [$name]: exit status $rc, expected $want; stderr:" >&2; sed 's/^/    /' "$DIR/$name.err" >&2; fail=1
  elif ! grep -qF -- "$text" "$DIR/$name.err"; then
    echo "FAIL [$name]: stderr does not contain '$text':" >&2; sed 's/^/    /' "$DIR/$name.err" >&2; fail=1
  else
    echo "ok [$name]: $(head -n 1 "$DIR/$name.err")"
  fi
}
P="--advect $ADVECT --dgref $DGREF --compare $COMPARE"

# shellcheck disable=SC2086  # $P and $GOOD are word lists by design
{
expect no_dgref 2 "program '$DIR/no-such-dgref' does not exist" -- \
  --advect "$ADVECT" --dgref "$DIR/no-such-dgref" --compare "$COMPARE" --workdir "$DIR/w1" $GOOD
expect no_workdir_opt 2 "missing --workdir" -- $P $GOOD
expect unknown_key 2 "unknown key 'nz' in 'nz=3'" -- $P --workdir "$DIR/w2" $GOOD nz=3
expect missing_key 2 "case needs key 'rk'" -- $P --workdir "$DIR/w3" \
  nx=4 ny=3 x0=0 x1=1 y0=0 y1=1 deg=1 vel=const bx=1 by=1 init=sine dt=1e-3 nsteps=2
expect twice 2 "key 'nx' given twice" -- $P --workdir "$DIR/w4" $GOOD nx=5
expect bad_number 2 "key 'dt'='1e-3x' is not a number" -- $P --workdir "$DIR/w5" \
  nx=4 ny=3 x0=0 x1=1 y0=0 y1=1 deg=1 vel=const bx=1 by=1 init=sine rk=euler dt=1e-3x nsteps=2
expect bell_needs 2 "case needs key 'radius'" -- $P --workdir "$DIR/w6" \
  nx=4 ny=3 x0=0 x1=1 y0=0 y1=1 deg=1 vel=const bx=1 by=1 init=bell bcx=0.5 bcy=0.5 height=1 rk=euler dt=1e-3 nsteps=2
expect no_map 2 "degree map '$DIR/no-such-map.txt' does not exist" -- $P --workdir "$DIR/w7" \
  nx=4 ny=3 x0=0 x1=1 y0=0 y1=1 degfile="$DIR/no-such-map.txt" vel=const bx=1 by=1 init=sine rk=euler dt=1e-3 nsteps=2
expect bad_tol 2 "--tol 'tight' is not a number" -- $P --tol tight --workdir "$DIR/w8" $GOOD
}

# A degree map with 2 rows for ny=3: advect must refuse it, naming the file.
printf '# two rows only\n1 2 3 4\n0 1 2 3\n' > "$DIR/short_map.txt"
# shellcheck disable=SC2086
expect short_map 2 "advect failed with exit status" -- $P --workdir "$DIR/w9" \
  nx=4 ny=3 x0=0 x1=1 y0=0 y1=1 degfile="$DIR/short_map.txt" vel=const bx=1 by=1 init=sine rk=euler dt=1e-3 nsteps=2
grep -qF "short_map.txt" "$DIR/w9/advect.err" ||
  { echo "FAIL [short_map]: advect's message does not name the map file" >&2; fail=1; }
# dgref refuses the same file the same way (exit 2, file and line named).
"$DGREF" nx=4 ny=3 degfile="$DIR/short_map.txt" dt=1e-3 nsteps=1 out="$DIR/x.txt" > /dev/null 2> "$DIR/dgref_short.err"
rc=$?
if [ $rc -ne 2 ] || ! grep -qF "short_map.txt\": 2 rows, expected ny=3" "$DIR/dgref_short.err"; then
  echo "FAIL [dgref_short_map]: status $rc, stderr: $(cat "$DIR/dgref_short.err")" >&2; fail=1
else
  echo "ok [dgref_short_map]: $(cat "$DIR/dgref_short.err")"
fi

# A working case still passes with these programs (the errors above are not a broken setup).
# shellcheck disable=SC2086
sh "$RUN" $P --workdir "$DIR/good" --name good $GOOD > "$DIR/good.out" 2>&1 ||
  { echo "FAIL [good]: a valid case did not pass:" >&2; sed 's/^/    /' "$DIR/good.out" >&2; fail=1; }

[ $fail -eq 0 ] && echo "harness_errors: all checks passed"
exit $fail
