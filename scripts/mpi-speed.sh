#!/bin/bash
# mpi-speed.sh - the CPU speed figures of runs across ranks (issue 46) on a machine
# with many cores (the leased GPU machine's 16), one call, logs and CSVs under $OUT:
#   1. two OpenMP builds with the same flags: build-speed-plain (DGRID_MPI=OFF) and
#      build-speed-mpi (DGRID_MPI=ON; needs Open MPI and a parallel HDF5: on the lent
#      GPU machines, whose HDF5 is serial, Debian's packages in .debs, gpu-deps.sh);
#   2. the STREAM triad of the OpenMP backend at 1, 2, 4, 8, ... cores (apps/bench);
#   3. one case, advect 2D degree 3 uniform SSP-RK3 on CELLS (default 1024x1024:
#      16M DOFs), as ranks x threads = 1x16, 2x8, 4x4, 8x2, 16x1 (for 16 cores),
#      REPEATS rounds, the layouts interleaved within a round: medians, and each
#      layout against the best;
#   4. strong scaling: 1, 2, 4, ... ranks of one thread each against the triad at
#      the same core count;
#   5. the MPI build on one rank (mpirun -np 1) against the plain build, A/B
#      interleaved, REPEATS pairs: the ratio of the medians;
#   6. the halo's share of a step with and without the overlap: each layout of
#      more than one rank with DGRID_HALO_TIMING=1 (advect's halo line: the
#      time in the ghosts' exchange, posting and waiting, the largest over
#      the ranks, against the steps' wall time) and DGRID_OVERLAP=on|off
#      interleaved, REPEATS rounds: medians.
# The last lines are a table; mpi-speed.csv holds every run, halo.csv the
# halo lines.
# Environment: OUT [./mpi-speed-out], CORES [nproc], CELLS [1024x1024],
#   STEPS [100: at 20 a run of 0.3 s fell in two groups 25% apart on the GPU machine], REPEATS [5], JOBS [nproc], SKIP_BUILD=1 (builds exist),
#   HALO_ONLY=1 (the MPI build and part 6 alone), MPI_BUILD [build-speed-mpi].
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/mpi-speed-out}
mkdir -p "$OUT"
CORES=${CORES:-$(nproc)}
CELLS=${CELLS:-1024x1024}
STEPS=${STEPS:-100}
REPEATS=${REPEATS:-5}
JOBS=${JOBS:-$(nproc)}
CSV=$OUT/mpi-speed.csv
note() { echo "== [$SECONDS s] $*"; }
field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p" | tail -n 1; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Open MPI refuses root without these (a leased machine runs commands as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export DGRID_CACHE_DIR=${DGRID_CACHE_DIR:-$OUT/cache}

# GSL and a parallel HDF5 from .debs where the machine lacks them (gpu-deps.sh)
. scripts/gpu-deps.sh
HALO_ONLY=${HALO_ONLY:-0}
MPI_BUILD=${MPI_BUILD:-build-speed-mpi}
builds="plain:OFF mpi:ON"
[ "$HALO_ONLY" = 1 ] && builds="mpi:ON"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  note "builds: $builds (Release, OpenMP only)"
  for v in $builds; do
    b=build-speed-${v%%:*}
    extra=()
    [ "${v##*:}" = ON ] && extra=("${mpi_cmake_args[@]}")
    cmake -S . -B $b "${cmake_args[@]}" "${extra[@]}" -DDGRID_MPI=${v##*:} -DDGRID_BACKEND=omp \
      -DDGRID_FORTRAN_REFERENCE=OFF >"$OUT/configure-${v%%:*}.log" 2>&1 &&
      cmake --build $b -j"$JOBS" --target advect bench >"$OUT/build-${v%%:*}.log" 2>&1 ||
      {
        echo "mpi-speed: the ${v%%:*} build failed: see $OUT/build-${v%%:*}.log" >&2
        tail -n 20 "$OUT/configure-${v%%:*}.log" "$OUT/build-${v%%:*}.log" >&2
        exit 1
      }
  done
fi
PLAIN=build-speed-plain/apps/advect
MPI=$MPI_BUILD/apps/advect

# the core counts: powers of two up to CORES, and CORES itself
counts=""
k=1
while [ $k -lt "$CORES" ]; do
  counts="$counts $k"
  k=$((k * 2))
done
counts="$counts $CORES"

if [ "$HALO_ONLY" != 1 ]; then
  note "triad per core count (bench, OpenMP threads)"
  echo "cores,triad_gbs" >"$OUT/triad.csv"
  for k in $counts; do
    OMP_NUM_THREADS=$k OMP_PROC_BIND=close OMP_PLACES=cores build-speed-plain/apps/bench --case \
      --sizes 32K --repeats 1 --no-peak --csv "$OUT/triad-$k.csv" >"$OUT/triad-$k.log" 2>&1
    col=$(head -n 1 "$OUT/triad-$k.csv" | tr ',' '\n' | grep -n '^stream_gbs$' | cut -d: -f1)
    echo "$k,$(sed -n 2p "$OUT/triad-$k.csv" | cut -d, -f"$col")" >>"$OUT/triad.csv"
  done
fi

ARGS="--cells $CELLS --degree 3 --integrator ssprk3 --steps $STEPS --progress-every 0"
echo "kind,build,ranks,threads,round,wall_s,dof_stage_per_s" >"$CSV"
# one run: KIND BUILD RANKS THREADS ROUND
one() {
  local kind=$1 build=$2 np=$3 th=$4 round=$5 log=$OUT/run-$1-$2-$3x$4-$5.log
  local out=$OUT/tmp-$np.h5
  if [ "$build" = plain ]; then
    OMP_NUM_THREADS=$th OMP_PROC_BIND=close OMP_PLACES=cores timeout 300 $PLAIN $ARGS \
      --output "$out" >"$log" 2>&1
  else
    # each rank its own cores: --map-by slot:PE=th binds th cores per rank
    OMP_NUM_THREADS=$th OMP_PROC_BIND=close OMP_PLACES=cores timeout 300 mpirun -np "$np" \
      --map-by "slot:PE=$th" --bind-to core -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_PLACES \
      -x DGRID_CACHE_DIR $MPI $ARGS --output "$out" >"$log" 2>&1
  fi
  local rc=$?
  rm -f "$out"
  [ $rc -eq 0 ] || echo "mpi-speed: $kind $build ${np}x$th failed (rc $rc): $(tail -n 1 "$log")" >&2
  echo "$kind,$build,$np,$th,$round,$(field wall_s "$log"),$(field dof_stage_per_s "$log")" >>"$CSV"
}

# one run of the halo's share: RANKS THREADS OVERLAP(on|off) ROUND
halo() {
  local np=$1 th=$2 ov=$3 round=$4 log=$OUT/run-halo-$1x$2-$3-$4.log
  local out=$OUT/tmp-$np.h5
  DGRID_OVERLAP=$ov DGRID_HALO_TIMING=1 OMP_NUM_THREADS=$th OMP_PROC_BIND=close OMP_PLACES=cores \
    timeout 300 mpirun -np "$np" --map-by "slot:PE=$th" --bind-to core -x OMP_NUM_THREADS \
    -x OMP_PROC_BIND -x OMP_PLACES -x DGRID_CACHE_DIR -x DGRID_OVERLAP -x DGRID_HALO_TIMING \
    $MPI $ARGS --output "$out" >"$log" 2>&1
  local rc=$?
  rm -f "$out"
  [ $rc -eq 0 ] || echo "mpi-speed: halo ${np}x$th overlap $ov failed (rc $rc): $(tail -n 1 "$log")" >&2
  local h
  h=$(grep '^halo: ' "$log" | tail -n 1)
  echo "$np,$th,$ov,$round,$(field wall_s <(echo "$h")),$(field post_s <(echo "$h")),$(field wait_s <(echo "$h")),$(field halo_share <(echo "$h"))" >>"$OUT/halo.csv"
}

note "warm-up: the kernels compile once into the cache"
[ "$HALO_ONLY" = 1 ] || one warm plain 1 "$CORES" 0
one warm mpi 1 "$CORES" 0

layouts=""
for k in $counts; do
  [ $((CORES % k)) -eq 0 ] && layouts="$layouts $k"
done
if [ "$HALO_ONLY" != 1 ]; then
  note "ranks x threads at $CORES cores, strong scaling, MPI on one rank against plain: $REPEATS rounds"
  for r in $(seq 1 "$REPEATS"); do
    for np in $layouts; do one layout mpi "$np" $((CORES / np)) "$r"; done
    for np in $counts; do one scaling mpi "$np" 1 "$r"; done
    one ab plain 1 "$CORES" "$r"
    one ab mpi 1 "$CORES" "$r"
  done
med() { awk -F, -v k="$1" -v b="$2" -v n="$3" -v t="$4" '$1 == k && $2 == b && $3 == n && $4 == t { print $6 }' "$CSV" | median; }
{
  echo "case: advect $ARGS (medians of $REPEATS; $(date -u +%F), commit $(git rev-parse --short HEAD 2>/dev/null))"
  echo "ranks x threads at $CORES cores:"
  best=""
  for np in $layouts; do
    m=$(med layout mpi "$np" $((CORES / np)))
    best=$(awk -v a="$best" -v b="$m" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
  done
  for np in $layouts; do
    m=$(med layout mpi "$np" $((CORES / np)))
    awk -v n="$np" -v t=$((CORES / np)) -v m="$m" -v b="$best" \
      'BEGIN { printf "  %2d x %-2d  wall %.4f s  %.3f x the best\n", n, t, m, m / b }'
  done
  echo "strong scaling (ranks x 1 thread) against the triad at the same cores:"
  w1=$(med scaling mpi 1 1)
  t1=$(awk -F, '$1 == 1 { print $2 }' "$OUT/triad.csv")
  for np in $counts; do
    m=$(med scaling mpi "$np" 1)
    tk=$(awk -F, -v k="$np" '$1 == k { print $2 }' "$OUT/triad.csv")
    awk -v n="$np" -v m="$m" -v w1="$w1" -v t1="$t1" -v tk="$tk" \
      'BEGIN { printf "  %2d ranks  wall %.4f s  speed-up %.2f  triad %.1f GB/s (x%.2f)  speed-up / triad gain %.2f\n", n, m, w1 / m, tk, tk / t1, (w1 / m) / (tk / t1) }'
  done
  a=$(med ab plain 1 "$CORES")
  b=$(med ab mpi 1 "$CORES")
  awk -v a="$a" -v b="$b" -v c="$CORES" \
    'BEGIN { printf "MPI build on one rank (%d threads) against the plain build: wall %.4f s / %.4f s = %.4f\n", c, b, a, b / a }'
} | tee "$OUT/table.txt"
fi

note "the halo's share of a step, overlap on and off: $REPEATS rounds"
echo "ranks,threads,overlap,round,wall_s,post_s,wait_s,halo_share" >"$OUT/halo.csv"
for r in $(seq 1 "$REPEATS"); do
  for np in $layouts; do
    [ "$np" -gt 1 ] || continue
    if [ $((r % 2)) -eq 1 ]; then ovs="on off"; else ovs="off on"; fi
    for ov in $ovs; do halo "$np" $((CORES / np)) $ov "$r"; done
  done
done
hmed() { awk -F, -v n="$1" -v o="$2" -v c="$3" '$1 == n && $3 == o { print $c }' "$OUT/halo.csv" | median; }
{
  echo "the halo's share of a step (DGRID_HALO_TIMING=1: the ghosts' exchange, post + wait, the"
  echo "largest over the ranks, over the steps' wall time; medians of $REPEATS; advect $ARGS):"
  for np in $layouts; do
    [ "$np" -gt 1 ] || continue
    for ov in on off; do
      awk -v n="$np" -v t=$((CORES / np)) -v o="$ov" -v w="$(hmed "$np" $ov 5)" -v p="$(hmed "$np" $ov 6)" \
        -v q="$(hmed "$np" $ov 7)" -v s="$(hmed "$np" $ov 8)" \
        'BEGIN { printf "  %2d x %-2d overlap %-3s  wall %.4f s  post %.4f s  wait %.4f s  halo share %.1f%%\n", n, t, o, w, p, q, 100 * s }'
    done
    awk -v n="$np" -v a="$(hmed "$np" on 5)" -v b="$(hmed "$np" off 5)" \
      'BEGIN { printf "  %2d ranks: wall with overlap / without %.4f\n", n, a / b }'
  done
} | tee "$OUT/halo.txt"
