#!/bin/bash
# one device call: the CUDA build and its solver check (gpu-check.sh, the solver
# regexes) beside the CUDA backend across ranks (gpu-mpi.sh, its own MPI build),
# and Williamson 2's rates on the GPU once the first build is there
export GPU_CHECK_BENCH=none GPU_CHECK_SANITIZER=0 GPU_CHECK_BIG=0 GPU_CHECK_PACK=0
export GPU_CHECK_CTEST_REGEX='solvers\.|implicit\.|poisson|advdiff|install'
export GPU_CHECK_CONSISTENCY_REGEX='solver_consistency|backends'
export GPU_CHECK_CTEST_LIMIT=170 GPU_CHECK_CONSISTENCY_LIMIT=170
L=${LIMIT:-330}
O=${OUT:-/tmp/lease1}
mkdir -p "$O/check" "$O/rates" "$O/mpi"
OUT=$O/check timeout "$L" bash scripts/gpu-check.sh >"$O/check.txt" 2>&1 &
chk=$!
OUT=$O/mpi JOBS=8 timeout "$L" bash scripts/gpu-mpi.sh >"$O/mpi.txt" 2>&1 &
mpi=$!
for _ in $(seq 200); do [ -x build-cuda/apps/advect ] && [ -x build-cuda/apps/dgrid ] && break; sleep 2; done
sleep 5
OUT=$O/rates PAR=3 BUDGET=${RATES_BUDGET:-150} RUN_LIMIT=120 bash scripts/gpu-sw.sh rates >"$O/rates.txt" 2>&1 &
wait $chk
echo "check rc=$?"
tail -n 40 "$O/check.txt"
wait $mpi
echo "gpu-mpi rc=$?"
cat "$O/mpi.txt"
wait
cat "$O/rates.txt"
