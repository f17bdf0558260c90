#!/bin/sh
# implicit.app: apps/advdiff from the command line: a run's progress lines
# and summary (error against the exact solution, mass, iterations), its
# snapshot (the advect format: /coeff, /degree), and bad options (the exact
# line on stderr, exit status 2, nothing written).
# Usage: advdiff_test.sh DIR ADVDIFF H5LS HAVE_BURGERS(0|1) HAVE_ACOUSTICS(0|1)
set -u
DIR=$1 ADV=$2 H5LS=$3 BURGERS=$4 ACOUSTICS=$5
rm -rf "$DIR" && mkdir -p "$DIR" && cd "$DIR" || exit 2
fail=0
bad() { echo "FAIL [implicit.app]: $*" >&2; fail=1; }
run() { "$ADV" "$@" > out 2> err; RC=$?; }
key() { tail -n 1 out | tr ' ' '\n' | sed -n "s/^$1=//p"; }
want_err() { # LABEL LINE: exit 2, stderr exactly LINE, no snapshot
  [ "$RC" -eq 2 ] || bad "$1: exit status $RC, expected 2"
  [ "$(wc -l < err)" -eq 1 ] && [ "$(cat err)" = "$2" ] ||
    bad "$1: stderr is '$(cat err)', expected exactly '$2'"
  [ ! -e u.h5 ] || bad "$1: wrote u.h5"
}

# a run: sdirk3 at 8x8, degree 3, progress every 2 steps
run --cells 8x8 --degree 3 --nu 0.05 --beta 1,0.5 --scheme sdirk3 --dt 0.02 --t-end 0.1 \
  --progress-every 2 --output u.h5
[ "$RC" -eq 0 ] || bad "run: exit status $RC ($(cat err))"
[ "$(grep -c '^progress: step [0-9]* t=[0-9.e-]* its=[1-9][0-9]* residual=[0-9.e+-]* mass=' out)" -eq 2 ] ||
  bad "run: expected 2 progress lines with iterations and residual: $(cat out)"
l2=$(key l2_error)
awk -v e="$l2" 'BEGIN { exit !(e > 0 && e < 1e-3) }' || bad "run: l2_error '$l2' not in (0, 1e-3)"
drift=$(key mass_drift_abs)
awk -v e="$drift" 'BEGIN { exit !(e < 1e-14 && e > -1e-14) }' || bad "run: mass drift '$drift'"
[ "$(key steps)" = 5 ] || bad "run: steps $(key steps), expected 5"
"$H5LS" u.h5 > ls.out 2>&1 || bad "run: h5ls u.h5 failed: $(cat ls.out)"
grep -q '^coeff ' ls.out && grep -q '^degree ' ls.out || bad "run: u.h5 lacks /coeff or /degree: $(cat ls.out)"
rm -f u.h5

# a system: linear acoustics (p, u, v) by sdirk3 at 4 CFL steps; the progress
# lines carry each variable's mass, the summary each variable's error and mass
if [ "$ACOUSTICS" = 1 ]; then
  run --model acoustics --cells 8x8 --degree 3 --scheme sdirk3 --cfl 4 --t-end 0.5 \
    --progress-every 7 --output u.h5
  [ "$RC" -eq 0 ] || bad "acoustics: exit status $RC ($(cat err))"
  [ "$(grep -c '^progress: step [0-9]* t=[0-9.e-]* its=[1-9][0-9]* residual=[0-9.e+-]* mass=[^ ,]*,[^ ,]*,[^ ,]* ' out)" -eq 2 ] ||
    bad "acoustics: expected 2 progress lines with three masses: $(cat out)"
  # measured 3.6e-3 (the spatial error of degree 3 on 8^2 and sdirk3's at dt = 4 CFL steps)
  l2=$(key l2_error)
  awk -v e="$l2" 'BEGIN { exit !(e > 1e-4 && e < 1e-2) }' || bad "acoustics: l2_error '$l2'"
  for v in p u v; do
    [ -n "$(key l2_error_$v)" ] || bad "acoustics: no l2_error_$v: $(tail -n 1 out)"
    d=$(key mass_drift_abs_$v)
    awk -v e="$d" 'BEGIN { exit !(e < 1e-14 && e > -1e-14) }' || bad "acoustics: mass drift of $v '$d'"
  done
  "$H5LS" u.h5 > ls.out 2>&1 && grep -q '^coeff ' ls.out || bad "acoustics: u.h5: $(cat ls.out)"
  rm -f u.h5
fi

run --scheme sdirk4 --output u.h5
want_err scheme "advdiff: option --scheme: 'sdirk4' is not a scheme (be, cn, sdirk2, sdirk3, ars222, ars443, rk4)"
run --rtol 2 --output u.h5
want_err rtol "advdiff: option --rtol: 2 is outside 1e-16..0.5"
run --precond float --output u.h5
want_err precond "advdiff: option --precond: 'float' is not fp64 or mixed"
run --integrator rk4 --output u.h5
want_err integrator "advdiff: option --integrator: advdiff takes --scheme (be, cn, sdirk2, sdirk3, ars222, ars443, rk4)"
run --maxit --output u.h5
want_err maxit "advdiff: option --maxit: '--output' is not an integer"
run --newton-maxit 0 --output u.h5
want_err newton-maxit "advdiff: option --newton-maxit: 0 is outside 1..1000"
run --eta 1 --output u.h5
want_err eta "advdiff: option --eta: 1 is outside 0..0.99"
# a solve option the run would not use: refused, not ignored
run --scheme rk4 --precond mixed --output u.h5
want_err rk4-precond "advdiff: option --precond: --scheme rk4 is explicit (it solves nothing)"
run --newton-maxit 3 --output u.h5
want_err linear-newton "advdiff: option --newton-maxit: no Newton iterations here (the model is linear)"
if [ "$BURGERS" = 1 ]; then
  run --model burgers --nu 0.02 --scheme ars222 --eta 0.5 --output u.h5
  want_err imex-eta "advdiff: option --eta: no Newton iterations here (--scheme ars222 takes the nonlinear part explicitly)"
fi
run --print-config --output u.h5
want_err print-config "advdiff: option --print-config: advdiff cannot print its configuration"

# 3D: sdirk2 at 4^3, degree 2: error at the spatial level (measured 1.78e-2), mass to round-off
run --dim 3 --cells 4x4x4 --degree 2 --nu 0.02 --beta 1,0.5,0.25 --scheme sdirk2 --dt 0.05 \
  --t-end 0.1 --progress-every 1 --output u.h5
[ "$RC" -eq 0 ] || bad "3d: exit status $RC ($(cat err))"
grep -q '^advdiff: .*model advection_diffusion, 3D, 64 elements' out || bad "3d: header: $(head -1 out)"
[ "$(grep -c '^progress: step [0-9]* t=[0-9.e-]* its=[1-9][0-9]* residual=' out)" -eq 2 ] ||
  bad "3d: expected 2 progress lines: $(cat out)"
l2=$(key l2_error)
awk -v e="$l2" 'BEGIN { exit !(e > 5e-3 && e < 3e-2) }' || bad "3d: l2_error '$l2' not in (5e-3, 3e-2)"
drift=$(key mass_drift_abs)
awk -v e="$drift" 'BEGIN { exit !(e < 1e-14 && e > -1e-14) }' || bad "3d: mass drift '$drift'"
rm -f u.h5

if [ "$BURGERS" = 1 ]; then
  # viscous Burgers by Newton: progress lines with Newton and Krylov
  # iterations, one line per Newton iterate with --verbose, mass to round-off
  run --model burgers --nu 0.02 --cells 8x8 --degree 3 --scheme sdirk2 --dt 0.04 --t-end 0.12 \
    --progress-every 1 --verbose --output u.h5
  [ "$RC" -eq 0 ] || bad "burgers: exit status $RC ($(cat err))"
  grep -q '^advdiff: .*model burgers, .*scheme sdirk2 (implicit, Newton), nu=0.02' out ||
    bad "burgers: header: $(head -1 out)"
  [ "$(grep -c '^progress: step [0-9]* t=[0-9.e-]* newton=[1-9][0-9]* its=[1-9][0-9]* residual=[0-9.e+-]* mass=' out)" -eq 3 ] ||
    bad "burgers: expected 3 progress lines with Newton and Krylov iterations: $(cat out)"
  [ "$(grep -c '^newton: step 3 stage 2 it 0 residual=[0-9.e+-]* its=0$' out)" -eq 1 ] ||
    bad "burgers: no Newton history line for step 3, stage 2: $(grep newton: out)"
  nit=$(key newton_its)
  awk -v n="$nit" 'BEGIN { exit !(n >= 6 && n <= 24) }' || bad "burgers: newton_its '$nit' not in 6..24"
  drift=$(key mass_drift)
  awk -v e="$drift" 'BEGIN { exit !(e < 1e-14 && e > -1e-14) }' || bad "burgers: mass drift '$drift'"
  rm -f u.h5
  # Newton that cannot converge: one clear line, exit 2, nothing written
  run --model burgers --nu 0.02 --cells 8x8 --degree 3 --scheme be --dt 0.04 --steps 1 \
    --newton-maxit 1 --rtol 1e-13 --output u.h5
  sed 's/relative residual [0-9.e+-]* >/relative residual R >/' err > err2 && mv err2 err
  want_err newton "advdiff: scheme be: Newton did not converge in 1 iteration at stage 1 (t=0, dt=0.04): relative residual R > rtol 1e-13"
fi
run --nu -1 --output u.h5
want_err nu "advdiff: option --nu: -1 is not a diffusion coefficient (give nu >= 0)"
exit $fail
