#!/bin/bash
# gpu-band-profile.sh - where a band map's time goes on the GPU, in one call:
# builds the 2D CUDA kernels (build-band), times band 1..R against uniform R
# on one grid for each DGRID_CUDA_STREAMS setting, then reads one RK stage of
# the band map with Nsight Compute (one row per degree bucket: duration,
# occupancy, registers, the top warp stall reasons).  Logs under $OUT.
#
#   scripts/gpu-band-profile.sh [CELLS [R]]        [768x768 7]
#
# Environment: BAND_STREAMS ("1 4 8"), BAND_INTEGRATORS ("euler,lsrk4"),
# BAND_NCU (1), BAND_NCU_INTEGRATOR (lsrk4; its stages per step are known),
# BAND_NCU_LAUNCHES (update launches per stage: R, or 2R-1 where own q
# splits every degree below R), BAND_CMAKE (extra CMake arguments, e.g. a -D
# of a variant).
# First run on the lent H100 (2026-11-23): about 75 s for
# the 2D build, the bench runs and the profile.
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/gpu-band-out}
mkdir -p "$OUT"
cells=${1:-768x768}
r=${2:-7}
. scripts/gpu-deps.sh
# shellcheck disable=SC2086
cmake -S . -B build-band "${cmake_args[@]}" -DDGRID_BACKEND=cuda \
  -DDGRID_FORTRAN_REFERENCE=OFF ${BAND_CMAKE:-} \
  >"$OUT/configure.log" 2>&1 &&
  cmake --build build-band -j "$(nproc)" --target bench >"$OUT/build.log" 2>&1 ||
  {
    echo "gpu-band-profile: build failed" >&2
    tail -n 30 "$OUT/build.log" >&2
    exit 1
  }
b=build-band/apps/bench
common=(--cells "$cells" --degree "$r" --degree-min 1 --min-time 0.05 --repeats 5 --quiet)
for s in ${BAND_STREAMS:-1 4 8}; do
  for map in uniform band; do
    echo "== streams $s, $map"
    DGRID_CUDA_STREAMS=$s "$b" "${common[@]}" --map "$map" \
      --integrators "${BAND_INTEGRATORS:-euler,lsrk4}" | grep -E "^ +2 " | tee -a "$OUT/bench.txt"
  done
done
[ "${BAND_NCU:-1}" = 1 ] || exit 0
STALLS=smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__average_warps_issue_stalled_misc_per_issue_active.ratio
# one stage after the first step (lsrk4 5 stages, the others as named): every
# update launch of that stage, then the same for uniform R
integ=${BAND_NCU_INTEGRATOR:-lsrk4}
case $integ in euler) ns=1 ;; ssprk2) ns=2 ;; ssprk3) ns=3 ;; *) ns=5 ;; esac
nl=${BAND_NCU_LAUNCHES:-$r}
for map in band uniform; do
  [ $map = uniform ] && nl=1
  ncu --clock-control none -k regex:dg_cuda_update --launch-skip $((ns * nl)) --launch-count "$nl" \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --metrics "smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,$STALLS" \
    --csv --page details "$b" --cells "$cells" --degree "$r" --degree-min 1 --map $map \
    --integrator "$integ" --steps 1 --repeats 1 --warmup 0 --quiet >"$OUT/ncu-$map.csv" 2>"$OUT/ncu-$map.err"
  echo "ncu $map rc=$?"
done
python3 - "$OUT/ncu-band.csv" "$OUT/ncu-uniform.csv" <<'EOF'
import csv, sys, collections
want = ["Duration", "Registers Per Thread", "Achieved Occupancy", "Theoretical Occupancy",
        "Block Size", "Grid Size", "Compute (SM) Throughput", "Memory Throughput",
        "DRAM Throughput", "Issue Slots Busy", "Warp Cycles Per Issued Instruction"]
scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1, "ms": 1e3, "msecond": 1e3}
for f in sys.argv[1:]:
    print("==", f)
    rows = list(csv.reader(open(f)))
    hdr = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    k = rows[hdr]
    per = collections.OrderedDict()
    for r in rows[hdr + 1:]:
        d = dict(zip(k, r))
        key = (d["ID"], d["Kernel Name"][:60])
        per.setdefault(key, {})[d["Metric Name"]] = (d["Metric Value"], d["Metric Unit"])
    total = 0.0
    for (i, name), m in per.items():
        print(i, name)
        print("   ", "; ".join(f"{w}={m[w][0]}{m[w][1]}" for w in want if w in m))
        if "Duration" in m:
            v, u = m["Duration"]
            total += float(v.replace(",", "")) * scale.get(u, 1)
        st = [(float(v[0].replace(",", "")), n) for n, v in m.items()
              if n.startswith("Stall") or "stall" in n.lower()]
        st.sort(reverse=True)
        print("    stalls:", "; ".join(n.replace("smsp__average_warps_issue_stalled_", "").replace("_per_issue_active.ratio", "") + f"={v:.2f}" for v, n in st[:5]))
        g = lambda n: " ".join(m.get(n, ("?", "")))
        print("    warp instructions:", g("smsp__inst_executed.sum"), "; dram read:",
              g("dram__bytes_read.sum"), "; write:", g("dram__bytes_write.sum"))
    print("sum of durations (us):", round(total, 1))
EOF
