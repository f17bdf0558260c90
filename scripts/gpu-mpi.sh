#!/bin/bash
# gpu-mpi.sh - the CUDA backend across ranks on a lent GPU machine (issue 46):
# a CUDA build with MPI in build-cuda-mpi (Open MPI is there; the parallel HDF5
# from Debian's packages in .debs, gpu-deps.sh), then its gpu.mpi_* tests on 2
# and 3 ranks sharing the device against one CUDA process: advect bitwise (the
# exchange as MPI allows, and staged: DGRID_CUDA_AWARE=off), poisson and
# advdiff within 1e-10 (iterations within one).  First the exchange's path as
# --verbose says it (device buffers to a CUDA-aware MPI, or staged through
# page-locked host memory).
# Environment: OUT [./gpu-mpi-out], JOBS [nproc].
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-$PWD/gpu-mpi-out}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"
# shellcheck source-path=SCRIPTDIR source=gpu-deps.sh
. scripts/gpu-deps.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
t0=$(date +%s)
cmake -S . -B build-cuda-mpi "${cmake_args[@]}" "${mpi_cmake_args[@]}" -DDGRID_MPI=ON \
  -DDGRID_BACKEND=cuda -DDGRID_FORTRAN_REFERENCE=OFF >"$OUT/configure.log" 2>&1 &&
  cmake --build build-cuda-mpi -j "$JOBS" --target advect poisson advdiff compare \
    >"$OUT/build.log" 2>&1 ||
  { echo "build failed:"; tail -n 30 "$OUT/configure.log" "$OUT/build.log"; exit 1; }
echo "== build $(($(date +%s) - t0)) s"
for aware in auto off; do
  DGRID_CUDA_AWARE=$aware timeout 300 mpirun --oversubscribe -np 2 build-cuda-mpi/apps/advect --backend cuda \
    --cells 24x16 --steps 2 --verbose 2>&1 | grep -E '^halo:|advect:' | sed "s/^/$aware: /"
done
ctest --test-dir build-cuda-mpi -R '^gpu\.mpi_' -j 4 -V >"$OUT/ctest.log" 2>&1
rc=$?
grep -E "tests passed|Passed|Failed|FAIL|mpi\.(advect|poisson|advdiff):" "$OUT/ctest.log" | tail -n 60
echo "== ctest rc=$rc, $(($(date +%s) - t0)) s"
exit $rc
