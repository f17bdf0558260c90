#!/bin/bash
# mpi-one-rank.sh - the MPI build on one rank against the plain build (issue 46:
# within 2% on both backends), interleaved pairs, on a machine with a GPU:
#   scripts/mpi-one-rank.sh PLAIN MPI [PAIRS]
# PLAIN and MPI are CUDA builds (both backends each; e.g. build-cuda from
# scripts/gpu-check.sh and build-cuda-mpi from scripts/gpu-mpi.sh).  Each pair
# runs `advect` of both builds, the order flipped every pair, the MPI build under
# `mpirun -np 1` (bound as the plain run: no binding, all threads): the CUDA
# backend on 1024^2 degree 3 (16.8M DOFs), LSRK4, STEPS_GPU steps; the OpenMP backend
# on 1024^2 degree 3 (16.8M DOFs), SSP-RK3, STEPS_CPU steps, all cores.  The
# figure is advect's wall_s (the stepping loop; start-up and the kernels' load
# left out).  Prints per backend the medians and the median of the per-pair
# ratios MPI / plain with their range; every run in $OUT/one-rank.csv.
# Environment: OUT [./mpi-one-rank-out], STEPS_GPU [400], STEPS_CPU [60].
set -u
cd "$(dirname "$0")/.." || exit 1
plain=$1
mpi=$2
pairs=${3:-9}
OUT=${OUT:-$PWD/mpi-one-rank-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_PROC_BIND=close OMP_PLACES=cores
CSV=$OUT/one-rank.csv
echo "backend,build,pair,wall_s" >"$CSV"
field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p" | tail -n 1; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
case_of() {
  case $1 in
  cuda) echo "--backend cuda --cells 1024x1024 --degree 3 --integrator lsrk4 --steps ${STEPS_GPU:-400}" ;;
  omp) echo "--backend omp --cells 1024x1024 --degree 3 --integrator ssprk3 --steps ${STEPS_CPU:-60}" ;;
  esac
}
# one BACKEND BUILD PAIR: one run, its wall_s into the CSV
one() {
  local be=$1 b=$2 p=$3 log=$OUT/run.log
  local args
  read -r -a args <<<"$(case_of "$be")"
  if [ "$b" = mpi ]; then
    timeout 300 mpirun -np 1 --bind-to none -x OMP_PROC_BIND -x OMP_PLACES \
      "$mpi/apps/advect" "${args[@]}" --quiet --output /tmp/one-rank-mpi.h5 >"$log" 2>&1
  else
    timeout 300 "$plain/apps/advect" "${args[@]}" --quiet --output /tmp/one-rank-plain.h5 \
      >"$log" 2>&1
  fi || { echo "$be $b pair $p failed: $(tail -n 2 "$log")"; return; }
  echo "$be,$b,$p,$(field wall_s "$log")" >>"$CSV"
}
for be in cuda omp; do
  one "$be" plain 0 # warm-up: the kernel units into the cache, the first-touch pages
  one "$be" mpi 0
  for p in $(seq 1 "$pairs"); do
    if [ $((p % 2)) = 1 ]; then
      one "$be" plain "$p"
      one "$be" mpi "$p"
    else
      one "$be" mpi "$p"
      one "$be" plain "$p"
    fi
  done
done
echo "backend  plain_median_s  mpi_median_s  mpi/plain (median of pairs, range)"
for be in cuda omp; do
  mp=$(awk -F, -v b="$be" '$1 == b && $2 == "plain" && $3 > 0 { print $4 }' "$CSV" | median)
  mm=$(awk -F, -v b="$be" '$1 == b && $2 == "mpi" && $3 > 0 { print $4 }' "$CSV" | median)
  ratios=$(awk -F, -v b="$be" '$1 == b && $3 > 0 { w[$3, $2] = $4; n[$3] = 1 }
    END { for (p in n) if (w[p, "plain"] > 0 && w[p, "mpi"] > 0) print w[p, "mpi"] / w[p, "plain"] }' "$CSV")
  rm=$(echo "$ratios" | median)
  lo=$(echo "$ratios" | sort -g | head -n 1)
  hi=$(echo "$ratios" | sort -g | tail -n 1)
  printf '%-7s  %14s  %12s  %.4f (%.4f..%.4f)\n' "$be" "$mp" "$mm" "$rm" "$lo" "$hi"
done
