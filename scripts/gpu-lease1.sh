#!/bin/bash
# one device call: the CUDA build and its solver check (gpu-check.sh, the solver
# regexes), Williamson 2's rates on the GPU beside it once the build is there,
# then the CUDA backend across ranks (gpu-mpi.sh) and a memcheck of poisson
export GPU_CHECK_BENCH=none GPU_CHECK_SANITIZER=0 GPU_CHECK_BIG=0 GPU_CHECK_PACK=0
export GPU_CHECK_CTEST_REGEX='solvers\.|implicit\.|poisson|advdiff|install'
export GPU_CHECK_CONSISTENCY_REGEX='solver_consistency|backends'
export GPU_CHECK_CTEST_LIMIT=180 GPU_CHECK_CONSISTENCY_LIMIT=180
O=${OUT:-/tmp/lease1}
mkdir -p "$O/check" "$O/rates" "$O/mpi"
OUT=$O/check timeout 280 bash scripts/gpu-check.sh >"$O/check.txt" 2>&1 &
chk=$!
for _ in $(seq 200); do [ -x build-cuda/apps/advect ] && [ -x build-cuda/apps/dgrid ] && break; sleep 2; done
sleep 10
OUT=$O/rates PAR=3 BUDGET=200 RUN_LIMIT=150 bash scripts/gpu-sw.sh rates >"$O/rates.txt" 2>&1 &
wait $chk
echo "check rc=$?"
tail -n 40 "$O/check.txt"
OUT=$O/mpi timeout 150 bash scripts/gpu-mpi.sh
echo "gpu-mpi rc=$?"
. scripts/gpu-deps.sh >/dev/null 2>&1
timeout 20 compute-sanitizer --tool memcheck --error-exitcode 3 build-cuda/apps/poisson --backend cuda \
  --n 8 --solver mixed --map band --quiet >"$O/san-poisson.txt" 2>&1
echo "memcheck poisson rc=$?: $(tail -n 1 "$O/san-poisson.txt")"
wait
cat "$O/rates.txt"
