#!/bin/sh
# consistency.sh - the CUDA backend against the OpenMP backend.
#
# Runs the same advect configurations on both backends (--backend cuda and
# --backend omp; a CUDA build has both, so --cuda and --omp may name the same
# executable) and compares their final modal coefficients with
# `compare --tol TOL` (relative L2 norm of the difference; DESIGN.md: never
# bit for bit, 1e-12 relative).  Configurations: uniform degrees 0..7, a
# band map 1..7, a random map 0..7 (degree jumps between neighbours), one
# case with more points than needed (q = 12), in 2D and 3D, and in 2D a
# constant-velocity band map 1..4 with and without DGRID_OWN_Q=on, each with every
# integrator (euler ssprk2 ssprk3 rk4 lsrk4); constant and rotating
# velocity alternate, so the position-dependent flux path runs too; and in
# 2D every other model of the build (deforming velocity, Burgers, acoustics,
# the source of advection_reaction, the velocity data of advection_field) on band,
# random and uniform maps, boundaries (inflow/outflow, walls), shallow water (plane and sphere), and the sphere (sphere_advection on --grid latlon, a random,
# a latitude and uniform maps, Williamson's and Nair-Lauritzen's winds).
#
# usage: consistency.sh --cuda ADVECT --omp ADVECT --compare COMPARE
#                       --workdir DIR [--tol T] [--quick] [--dims "2 3"] [--only GLOB]
#                       [--jobs N]
#   --quick   only rk4 and lsrk4 (fewer runs, same configurations)
#   --jobs    configurations run N at a time (each its two runs and the compare;
#             the kernel cache lets concurrent runs compile a kernel once) [1]
#   --only    only the configurations whose name matches the shell pattern GLOB
#             (e.g. 'd2_sphere*': a CUDA build with only some models)
#   --dims    the dimensions to run (a CUDA build with DGRID_CUDA_DIMS=2: --dims 2)
# Exit status: 0 all agree, 1 a difference beyond TOL, 2 a run failed or bad usage.
set -u

cuda="" omp="" cmp="" work="" tol=1e-12 quick=0 dims="2 3" only='*' jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --cuda) cuda=$2; shift 2 ;;
    --omp) omp=$2; shift 2 ;;
    --compare) cmp=$2; shift 2 ;;
    --workdir) work=$2; shift 2 ;;
    --tol) tol=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --dims) dims=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "consistency.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for p in "$cuda" "$omp" "$cmp"; do
  if [ -z "$p" ] || [ ! -x "$p" ]; then
    echo "consistency.sh: need --cuda, --omp and --compare executables (got '$p')" >&2
    exit 2
  fi
done
[ -n "$work" ] || { echo "consistency.sh: need --workdir" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work" || exit 2

integrators="euler ssprk2 ssprk3 rk4 lsrk4"
[ "$quick" = 1 ] && integrators="rk4 lsrk4"

case "$jobs" in '' | *[!0-9]* | 0) echo "consistency.sh: --jobs '$jobs': expected a positive integer" >&2; exit 2 ;; esac
summary="$work/summary.txt"
names="$work/names.txt"
: >"$summary"
: >"$names"

# At most $jobs configurations at once: a token per free slot in a FIFO.
if [ "$jobs" -gt 1 ]; then
  mkfifo "$work/slots" || exit 2
  exec 3<>"$work/slots"
  rm -f "$work/slots"
  i=0
  while [ $i -lt "$jobs" ]; do echo >&3; i=$((i + 1)); done
fi

# one configuration: both backends, then compare; its line goes to NAME.result
# ("ok NAME rel_l2_diff=X", "FAIL NAME ...") and a FAIL line to stdout too
run_case() {
  name=$1
  shift
  res="$work/$name.result"
  for b in cuda omp; do
    exe=$cuda
    [ "$b" = omp ] && exe=$omp
    if ! "$exe" "$@" --backend "$b" --quiet --output "$work/$name.$b.h5" --text-output "$work/$name.$b.txt" \
      >"$work/$name.$b.log" 2>&1 3>&-; then
      echo "FAIL $name: $b advect failed: $(tail -n 1 "$work/$name.$b.log")" | tee "$res"
      return
    fi
  done
  out=$("$cmp" --quiet --tol "$tol" "$work/$name.cuda.txt" "$work/$name.omp.txt" 2>&1 3>&-)
  rc=$?
  rel=$(printf '%s\n' "$out" | sed -n 's/.*rel_l2_diff=\([^ ]*\).*/\1/p' | head -n 1)
  if [ $rc -eq 0 ]; then
    echo "ok   $name rel_l2_diff=$rel" >"$res"
  elif [ $rc -eq 1 ]; then
    echo "FAIL $name rel_l2_diff=$rel > $tol" | tee "$res"
  else
    echo "FAIL $name: compare: $out" | tee "$res"
  fi
  rm -f "$work/$name.cuda.h5" "$work/$name.omp.h5"
}

# run NAME ARGS...: a configuration, if --only selects it (the environment
# of the call goes with it)
run() {
  # shellcheck disable=SC2254
  case "$1" in $only) ;; *) return ;; esac
  echo "$1" >>"$names"
  if [ "$jobs" -gt 1 ]; then
    read -r _ <&3
    (
      run_case "$@"
      echo >&3
    ) &
  else
    run_case "$@"
  fi
}

for dim in $dims; do
  if [ $dim = 2 ]; then
    cells=12x10 steps=6
  else
    cells=5x4x3 steps=3
  fi
  k=0
  for integ in $integrators; do
    for r in 0 1 2 3 4 5 6 7; do
      vel=const
      [ $(((r + k) % 2)) = 1 ] && vel=rotation
      run "d${dim}_uniform${r}_${integ}" --dim $dim --cells $cells --degree $r \
        --velocity $vel --integrator "$integ" --steps $steps
    done
    run "d${dim}_band1-7_${integ}" --dim $dim --cells $cells --map band --degree-min 1 \
      --degree 7 --velocity rotation --integrator "$integ" --steps $steps
    run "d${dim}_random0-7_${integ}" --dim $dim --cells $cells --map random --degree-min 0 \
      --degree 7 --seed 3 --velocity const --integrator "$integ" --steps $steps
    run "d${dim}_uniform3_q12_${integ}" --dim $dim --cells $cells --degree 3 --q 12 \
      --velocity rotation --integrator "$integ" --steps 2
    if [ $dim = 2 ]; then
      # own q (docs/ARCHITECTURE.md): a constant-velocity band with elements away from
      # the degree changes in every degree; by default the CPU splits its degrees and
      # the GPU (too few elements) does not, with DGRID_OWN_Q=on both split
      run "d2_band1-4_const_${integ}" --dim 2 --cells 12x24 --map band --degree-min 1 \
        --degree 4 --velocity const --integrator "$integ" --steps $steps
      export DGRID_OWN_Q=on
      run "d2_band1-4_const_ownq_${integ}" --dim 2 --cells 12x24 --map band --degree-min 1 \
        --degree 4 --velocity const --integrator "$integ" --steps $steps
      unset DGRID_OWN_Q
      # every other model of the build (docs/MODELS.md): a velocity varying in x and t,
      # a nonlinear flux, a system, a source, a velocity held as data; band and random maps
      run "d2_deform_random0-4_${integ}" --dim 2 --cells $cells --map random --degree-min 0 \
        --degree 4 --seed 5 --model deformation --period 1 --integrator "$integ" \
        --dt 0.002 --steps $steps
      run "d2_burgers_band1-5_${integ}" --model burgers --cells $cells --map band --degree-min 1 \
        --degree 5 --integrator "$integ" --dt 0.002 --steps $steps
      run "d2_acoustics_random0-5_${integ}" --model acoustics --cells $cells --map random \
        --degree-min 0 --degree 5 --seed 2 --integrator "$integ" --dt 0.002 --steps $steps
      run "d2_acoustics_uniform4_${integ}" --model acoustics --cells $cells --degree 4 \
        --integrator "$integ" --dt 0.002 --steps $steps
      run "d2_reaction_band1-5_${integ}" --model advection_reaction --cells $cells --map band \
        --degree-min 1 --degree 5 --lambda 0.5 --integrator "$integ" --dt 0.002 --steps $steps
      run "d2_field_deform_random0-5_${integ}" --model advection_field --field deformation \
        --period 1 --cells $cells --map random --degree-min 0 --degree 5 --seed 3 \
        --integrator "$integ" --dt 0.002 --steps $steps
      # boundaries: inflow data and outflow on a random map, walls for a system
      run "d2_bc_inout_random0-5_${integ}" --cells $cells --map random --degree-min 0 \
        --degree 5 --seed 3 --bc inflow,outflow,inflow,outflow --init gauss \
        --integrator "$integ" --dt 0.002 --steps $steps
      run "d2_bc_wall_acoustics_band1-5_${integ}" --model acoustics --cells $cells --map band \
        --degree-min 1 --degree 5 --bc wall --shape standing --integrator "$integ" \
        --dt 0.002 --steps $steps
      # the sphere: metric terms, pole faces, the row mass, the point trigonometry
      run "d2_sphere_random0-5_${integ}" --grid latlon --model sphere_advection --cells 12 \
        --map random --degree-min 0 --degree 5 --seed 4 --alpha 1.2 --initial hill \
        --integrator "$integ" --cfl 0.4 --steps $steps
      run "d2_sphere_nl_latitude1-4_${integ}" --grid latlon --model sphere_advection \
        --flow nair_lauritzen --cells 10 --map latitude --degree-min 1 --degree 4 \
        --initial hill --integrator "$integ" --cfl 0.4 --steps $steps
      # uniform maps: the team update's copies for both flows (the GPU's
      # from 5 points on), and below that the one-element update's
      run "d2_sphere_uniform5_${integ}" --grid latlon --model sphere_advection --cells 10 \
        --degree 5 --alpha 1.5 --initial hill --integrator "$integ" --cfl 0.4 --steps $steps
      run "d2_sphere_nl_uniform4_${integ}" --grid latlon --model sphere_advection \
        --flow nair_lauritzen --cells 10 --degree 4 --initial hill --integrator "$integ" \
        --cfl 0.4 --steps $steps
      run "d2_sphere_uniform3_${integ}" --grid latlon --model sphere_advection --cells 10 \
        --degree 3 --alpha 0.7 --initial hill --integrator "$integ" --cfl 0.4 --steps $steps
      # shallow water: a system with a source and auxiliary data through the element
      # interpolant, walls; on the sphere its metric terms and the running flow's lanes;
      # on the GPU the team update from 3 points on (walls: the one-element update)
      run "d2_sw_wave_random0-5_${integ}" --model shallow_water --case gravity_wave \
        --coriolis 3,0 --wave 1,2 --cells $cells --map random --degree-min 0 --degree 5 --seed 6 \
        --integrator "$integ" --dt 0.0005 --steps $steps
      run "d2_sw_lake_walls_band1-5_${integ}" --model shallow_water --case lake_at_rest \
        --coriolis 3,2 --bc wall --cells $cells --map band --degree-min 1 --degree 5 \
        --integrator "$integ" --dt 0.0005 --steps $steps
      run "d2_sw_w2_latitude1-4_${integ}" --grid latlon --model shallow_water \
        --case williamson2 --alpha 1.2 --cells 10 --map latitude --degree-min 1 --degree 4 \
        --integrator "$integ" --cfl 0.4 --steps $steps
      run "d2_sw_w5_uniform3_${integ}" --grid latlon --model shallow_water --case williamson5 \
        --cells 10 --degree 3 --integrator "$integ" --cfl 0.4 --steps $steps
      # the team update's lowest and highest q for auxiliary data on the GPU (3 and 6
      # points: the plane's jet, the sphere's Rossby-Haurwitz wave)
      run "d2_sw_jet_uniform2_${integ}" --model shallow_water --case jet --cells $cells \
        --degree 2 --integrator "$integ" --cfl 0.4 --steps $steps
      run "d2_sw_w6_uniform5_${integ}" --grid latlon --model shallow_water --case williamson6 \
        --cells 10 --degree 5 --integrator "$integ" --cfl 0.4 --steps $steps
    fi
    k=$((k + 1))
  done
done

wait
fail=0 err=0 n=0 worst=0
while read -r name; do
  n=$((n + 1))
  line=$(cat "$work/$name.result" 2>/dev/null) || line="FAIL $name: no result"
  echo "$line" >>"$summary"
  case "$line" in
    "ok "*)
      rel=${line##*rel_l2_diff=}
      worst=$(awk -v a="$worst" -v b="$rel" 'BEGIN { print (b + 0 > a + 0) ? b : a }')
      ;;
    *"rel_l2_diff="*" > "*) fail=$((fail + 1)) ;;
    *) err=$((err + 1)) ;;
  esac
done <"$names"
echo "consistency: $n configurations, $fail beyond tol $tol, $err failed runs; largest rel_l2_diff $worst"
echo "(per case: $summary)"
[ $err -gt 0 ] && exit 2
[ $fail -gt 0 ] && exit 1
exit 0
