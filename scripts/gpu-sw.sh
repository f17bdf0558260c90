#!/bin/bash
# gpu-sw.sh - the shallow-water measurements on a leased GPU machine (issue 45),
# after a CUDA build in build-cuda (scripts/gpu-check.sh or gpu-sphere.sh build);
# logs and CSVs under $OUT:
#   scripts/gpu-sw.sh speed
#       bench: shallow water on the sphere, LSRK4, degrees 2..5 at 16M DOFs per
#       variable on the GPU (bw% counts the three variables and the aux data),
#       uniform and latitude maps; and on the CPU (all cores) shallow water against
#       constant-velocity advection at 1M DOFs, degree 3, per variable-DOF
#   scripts/gpu-sw.sh maps [DAYS]
#       Williamson 2 (alpha = pi/2 - 0.05, across the poles), the steady Galewsky jet
#       and Williamson 6 on the GPU: uniform, latitude and step maps of the same
#       equatorial degree 4 on 64x32 and 128x64: the stable step, the steps, the
#       wall time and the error (sw-maps.csv)  [DAYS: 1; none started after BUDGET
#       seconds, 480; one day on 128 x 64 takes about 250,000 steps at degree 4 and
#       does not fit a 600-second command; `maps 0.25` should, by the step counts]
#   scripts/gpu-sw.sh rates
#       Williamson 2 for 5 days on the GPU (LSRK4, CFL 0.3, as docs/VALIDATION.md's
#       CPU table): uniform degree r = 1..4 on a pair of grids one refinement finer than
#       that table's finest, and latitude maps (r-1)..r; alphas 0 and pi/2 - 0.05 first,
#       then 0.05 and pi/2; PAR runs at once, none started after BUDGET seconds
#       (sw-rates.csv: Williamson's normalised l1, l2, linf of h)  [PAR 4, BUDGET 420,
#       RUN_LIMIT 300 s a run; RATES_JOBS "ALPHA MAP R CELLS;...": those runs alone]
#   scripts/gpu-sw.sh team-check
#       the team update with auxiliary data (the CUDA plan's default for shallow
#       water at 3..6 points, team_aux_q): backends_check shallow_water
#       (gpu.backends: the sphere, uniform 3 and band 1..4, one process) and every
#       shallow-water case of tests/gpu/consistency.sh (--quick), CUDA against OpenMP
#       to 1e-12, once with DGRID_UPDATE=team (the walled lake left out: refused) and
#       once with DGRID_UPDATE=element; and
#       the plan each degree 2..5 takes by default (advect --verbose)
#   scripts/gpu-sw.sh team-speed [ROUNDS]
#       the one-element update (DGRID_UPDATE=element) against the team update
#       (DGRID_UPDATE=team), interleaved: for each degree 2..5, ROUNDS rounds of one
#       bench run of each, LSRK4, uniform map, 16M DOFs per variable (--sizes 48M: about
#       1024^2 elements at degree 3), on the sphere (GRIDS="latlon box": the plane too);
#       sw-team.csv and a table of the median step per update and their ratio  [ROUNDS 3]
#   scripts/gpu-sw.sh ncu
#       Nsight Compute on one launch of the team update on the sphere (Williamson 2,
#       16M DOFs per variable) at each degree of NCU_DEGREES [3 5]: throughputs,
#       occupancy and its limits, warp stalls; the digest on stdout, the reports in $OUT
# Environment: OUT [./gpu-sw-out].
set -u
cd "$(dirname "$0")/.." || exit 1
# a CSV on stdin as aligned columns (util-linux's column is not on every machine)
table() {
  awk -F, '{ for (i = 1; i <= NF; ++i) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
             if (NF > n) n = NF; r = NR }
           END { for (j = 1; j <= r; ++j) { s = ""
                 for (i = 1; i <= n; ++i) s = s sprintf("%-*s  ", w[i], c[j, i]); print s } }'
}
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-sw-out}
mkdir -p "$OUT"
B=${B:-build-cuda/apps}
note() { echo "== [$SECONDS s] $*"; }
field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p" | tail -n 1; }

case ${1:-} in
speed)
  note "GPU: shallow water, latlon, lsrk4, degrees 2..5, 16M DOFs"
  timeout 240 $B/bench --backend cuda --model shallow_water --grid latlon --dims 2 --degrees 2-5 \
    --sizes 16M --integrators lsrk4 --maps uniform,latitude --degree-min 1 --repeats 3 \
    --csv "$OUT/sw-gpu.csv" 2>"$OUT/sw-gpu.err" | tee "$OUT/sw-gpu.txt"
  note "CPU ($(nproc) threads): shallow water against constant-velocity advection, degree 3, 1M DOFs"
  for m in advection shallow_water; do
    g=""
    [ $m = shallow_water ] && g="--grid latlon"
    # shellcheck disable=SC2086
    OMP_PROC_BIND=close OMP_PLACES=cores timeout 120 $B/bench --backend omp --model $m $g --dims 2 \
      --degrees 3 --sizes 1M --integrators lsrk4 --maps uniform --repeats 5 \
      --csv "$OUT/cpu-$m.csv" 2>"$OUT/cpu-$m.err" | tee "$OUT/cpu-$m.txt"
  done
  ;;
maps)
  days=${2:-1}
  T=$(awk -v d="$days" 'BEGIN { printf "%d", d * 86400 }')
  echo "case,cells,map,dofs,dt,steps,wall_s,l2_error,mass_drift_eta" >"$OUT/sw-maps.csv"
  for c in "williamson2 --alpha 1.5207963267948966" "galewsky --perturbation 0" "williamson6"; do
    name=${c%% *}
    for cells in 64x32 128x64; do
      for map in uniform latitude step; do
        # none started after BUDGET seconds, so that the table still comes back
        [ "$SECONDS" -lt "${BUDGET:-480}" ] || { echo "$name $cells $map: not run (BUDGET)"; continue; }
        mopt="--map $map"
        [ $map != uniform ] && mopt="$mopt --degree-min 1"
        log="$OUT/${name}_${cells}_${map}.log"
        # shellcheck disable=SC2086
        timeout 120 $B/advect --backend cuda --model shallow_water --grid latlon --case $c \
          --cells $cells --degree 4 $mopt --integrator lsrk4 --cfl 0.9 --t-end $T \
          --output "$OUT/tmp.h5" >"$log" 2>&1 || echo "$name $cells $map: $(tail -n 1 "$log")"
        echo "$name,$cells,$map,$(field dofs "$log"),$(sed -n 's/.* dt=\([^ ,]*\).*/\1/p' "$log" | head -n 1),$(field steps "$log"),$(field wall_s "$log"),$(field l2_error "$log"),$(field mass_drift_eta "$log")" >>"$OUT/sw-maps.csv"
      done
    done
  done
  rm -f "$OUT/tmp.h5"
  table <"$OUT/sw-maps.csv"
  ;;
rates)
  T0=$(date +%s)
  jobs=$OUT/sw-rates.jobs
  : >"$jobs"
  if [ -n "${RATES_JOBS:-}" ]; then # "ALPHA MAP R CELLS;..." instead of the list below
    tr ';' '\n' <<<"$RATES_JOBS" >"$jobs"
  else
    for a in 0 1.5207963267948966 0.05 1.5707963267948966; do
      # uniform r: the finest pair; latitude (r-1)..r on the same grids
      for rc in "1 64x32" "1 128x64" "2 32x16" "2 64x32" "3 32x16" "3 64x32" "4 16x8" "4 32x16"; do
        echo "$a uniform ${rc% *} ${rc#* }" >>"$jobs"
      done
      case $a in 0 | 1.52*)
        for rc in "2 32x16" "2 64x32" "3 32x16" "3 64x32" "4 16x8" "4 32x16"; do
          echo "$a latitude ${rc% *} ${rc#* }" >>"$jobs"
        done
        ;;
      esac
    done
  fi
  echo "alpha,map,degree,cells,dofs,steps,wall_s,l1_rel,l2_rel,linf_rel,mass_drift_eta" >"$OUT/sw-rates.csv"
  run_one() {
    a=$1 map=$2 r=$3 cells=$4
    [ $(($(date +%s) - T0)) -lt "${BUDGET:-420}" ] || return 0
    mopt="--degree $r"
    [ "$map" = latitude ] && mopt="--map latitude --degree-min $((r - 1)) --degree $r"
    log="$OUT/rates_${a}_${map}_${r}_${cells}.log"
    # shellcheck disable=SC2086
    timeout "${RUN_LIMIT:-300}" $B/advect --backend "${BACKEND:-cuda}" --model shallow_water --grid latlon \
      --case williamson2 --alpha "$a" --cells "$cells" $mopt --integrator lsrk4 --cfl 0.3 \
      --t-end "${T_END:-432000}" \
      --output "$OUT/rates_${a}_${map}_${r}_${cells}.h5" >"$log" 2>&1 || echo "$a $map $r $cells: $(tail -n 1 "$log")"
    rm -f "$OUT/rates_${a}_${map}_${r}_${cells}.h5"
    echo "$a,$map,$r,$cells,$(field dofs "$log"),$(field steps "$log"),$(field wall_s "$log"),$(field l1_rel "$log"),$(field l2_rel "$log"),$(field linf_rel "$log"),$(field mass_drift_eta "$log")" >>"$OUT/sw-rates.csv"
  }
  export -f run_one field
  export B OUT T0 BUDGET BACKEND T_END RUN_LIMIT
  # shellcheck disable=SC2016
  xargs -P "${PAR:-4}" -L 1 bash -c 'run_one "$@"' _ <"$jobs"
  (head -n 1 "$OUT/sw-rates.csv" && tail -n +2 "$OUT/sw-rates.csv" | sort -t, -k1,1 -k2,2 -k3,3n) | table
  ;;
team-check)
  for mode in team element; do
    note "gpu.backends, shallow water (one process, omp and cuda), DGRID_UPDATE=$mode"
    DGRID_UPDATE=$mode timeout 300 "${B%/apps}/tests/gpu/backends_check" shallow_water |
      tee "$OUT/sw-backends-$mode.txt"
    note "consistency, shallow water, DGRID_UPDATE=$mode"
    # the team forms no boundary states: DGRID_UPDATE=team on the walled lake is refused
    only='d2_sw*'
    [ $mode = team ] && only='d2_sw_[!l]*'
    DGRID_UPDATE=$mode timeout 420 sh tests/gpu/consistency.sh --cuda "$B/advect" --omp "$B/advect" \
      --compare "$B/compare" --workdir "$OUT/sw-cons-$mode" --dims 2 --only "$only" --quick |
      tee "$OUT/sw-cons-$mode.txt"
  done
  for r in 2 3 4 5; do
    for g in "--grid latlon --case williamson5 --cells 10" "--case jet --cells 12x12"; do
      # shellcheck disable=SC2086
      $B/advect --backend cuda --model shallow_water $g --degree $r --steps 1 --verbose --quiet \
        --output "$OUT/tmp.h5" 2>&1 | grep -o "plan: .*" | sed "s/^/degree $r ${g%% --cells*}: /"
    done
  done
  rm -f "$OUT/tmp.h5"
  ;;
team-speed)
  rounds=${2:-3}
  : >"$OUT/sw-team.csv"
  for g in ${GRIDS:-latlon}; do
    for r in 2 3 4 5; do
      for k in $(seq "$rounds"); do
        for mode in element team; do
          csv="$OUT/sw-team-$g-$r-$k-$mode.csv"
          note "$g degree $r round $k: DGRID_UPDATE=$mode"
          DGRID_UPDATE=$mode timeout 120 "$B"/bench --backend cuda --model shallow_water --grid "$g" \
            --dims 2 --degrees "$r" --sizes 48M --integrators lsrk4 --maps uniform --repeats 3 \
            --no-peak --csv "$csv" 2>"$csv.err" >/dev/null || echo "failed: $(tail -n 1 "$csv.err")"
          # grid, degree, update, round, the row's median step and its fraction of the
          # triad on the bytes moved (the state, its registers and the aux data: issue 45's)
          awk -F, -v g="$g" -v r="$r" -v m="$mode" -v k="$k" 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i }
            NR == 2 { print g "," r "," m "," k "," $c["nelem"] "," $c["dofs"] "," $c["median_step_s"] "," $c["bw_fraction_moved"] }' \
            "$csv" >>"$OUT/sw-team.csv"
        done
      done
    done
  done
  echo "grid degree: element ms/step (% of the triad, aux counted) | team ms/step (%) | element/team;" \
    "medians over the rounds"
  sort -t, -k1,1 -k2,2n "$OUT/sw-team.csv" | awk -F, '
    function med(s,   a, n, i, j, t) { n = split(s, a, " ")
      for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    { key = $1 " " $2; keys[key] = 1; t[key, $3] = t[key, $3] " " $7; b[key, $3] = b[key, $3] " " $8 }
    END { for (key in keys) { te = med(t[key, "element"]); tt = med(t[key, "team"])
      printf "%s: %.3f (%.1f%%) | %.3f (%.1f%%) | %.2f\n", key, 1e3 * te, 100 * med(b[key, "element"]),
        1e3 * tt, 100 * med(b[key, "team"]), (tt > 0 ? te / tt : 0) } }' | sort -k1,1 -k2,2n
  ;;
ncu)
  # what bounds the team update on the sphere: one launch per degree under ncu
  for r in ${NCU_DEGREES:-3 5}; do
    n=$(awk -v r="$r" 'BEGIN { printf "%d", sqrt(16777216 / ((r + 1) * (r + 1)) / 2) + 0.5 }')
    note "ncu: team update, sphere, degree $r, $((2 * n))x$n"
    timeout 150 ncu --clock-control none -k regex:dg_cuda_update_team --launch-skip 2 -c 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats \
      --page details "$B"/advect --backend cuda --model shallow_water --grid latlon \
      --case williamson2 --cells "$((2 * n))x$n" --degree "$r" --steps 1 --integrator lsrk4 \
      --quiet --output "$OUT/ncu.h5" >"$OUT/ncu-sw-r$r.txt" 2>&1
    echo "--- degree $r (rc=$?)"
    grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Compute \(SM\) Throughput|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Block Limit|Dynamic Shared|Threads  |Grid Size|Executed Instructions  |Bank|Mem Busy|Max Bandwidth|L1/TEX Cache Throughput|L2 Cache Throughput|DRAM Bandwidth" \
      "$OUT/ncu-sw-r$r.txt" | grep -v "^==" | head -n 45
    grep -E -A2 "OPT.*(stall|cycles)" "$OUT/ncu-sw-r$r.txt" | head -n 12
  done
  ;;
*)
  echo "usage: scripts/gpu-sw.sh speed | maps [DAYS] | rates | team-check | team-speed [ROUNDS] | ncu" >&2
  exit 2
  ;;
esac
