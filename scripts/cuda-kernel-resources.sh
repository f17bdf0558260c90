#!/bin/bash
# cuda-kernel-resources.sh - registers, stack frame and spills of a model's 2D
# stage kernels, no GPU needed: a unit of backends/cuda/dg_cuda_stages.cuh with
# the kernels instantiated, compiled by nvcc -cubin for sm_90 with the options
# NVRTC gets (backends/cuda/README.md, "Kernels on demand"); as BENCHMARKS.md's
# shallow-water section reads them.
#   scripts/cuda-kernel-resources.sh [-s SASS_DIR] [-t TREE] MODEL R Q [KERNEL...]
# KERNEL: update (kind 1; 2 where q = r + 1), update_xf0/1 (8, 10; 9, 11),
# team (3), team_tr (4), team_tr_nx0 (5),
# team_xf0/1 (12, 14), team_tr_xf0/1 (13, 15), bc (7), rate (6); default:
# update team, plus the flux variants' copies where the model has them.
# -t TREE: the source tree to compile (default: this one; e.g. an export of
# another commit, to compare).  -s DIR: also write each kernel's machine code
# (its .text section in the cubin, as hex, by pyelftools: MODEL_rR_qQ_KERNEL.code) and PTX
# (comments and line info stripped: .ptx) to DIR, for diff against another tree.
# Environment: DEFINES, more nvcc options for both compiles (-DDG_TEAM_NEAR_SELECT=1).
# Prints one line per kernel: kernel registers frame spill_stores spill_loads.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TREE=$ROOT
SASS=""
while getopts "s:t:" o; do
  case $o in
  s) SASS=$OPTARG ;;
  t) TREE=$(cd "$OPTARG" && pwd) ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then
  echo "usage: scripts/cuda-kernel-resources.sh [-s SASS_DIR] [-t TREE] MODEL R Q [KERNEL...]" >&2
  exit 2
fi
model=$1 r=$2 q=$3
shift 3
PATH=$PATH:/usr/local/cuda/bin
command -v nvcc >/dev/null || {
  echo "cuda-kernel-resources.sh: nvcc not found" >&2
  exit 2
}
[ -f "$TREE/models/$model.h" ] || {
  echo "cuda-kernel-resources.sh: no model header $TREE/models/$model.h" >&2
  exit 2
}
flows=$(grep -c '^#define DG_MODEL_X_FLOWS' "$TREE/models/$model.h" || true)
kernels=${*:-update team}
[ $# -eq 0 ] && [ "$flows" -gt 0 ] && kernels="$kernels update_xf0 update_xf1 team_xf0 team_xf1"
inst() { # the explicit instantiation of one kernel
  case $1 in
  update) echo "dg_cuda_update<2, $r, $q, $([ "$q" -eq $((r + 1)) ] && echo true || echo false)>" ;;
  update_xf[01]) echo "dg_cuda_update<2, $r, $q, $([ "$q" -eq $((r + 1)) ] && echo true || echo false), ${1#update_xf}>" ;;
  team) echo "dg_cuda_update_team<$r, $q, false, true>" ;;
  team_tr) echo "dg_cuda_update_team<$r, $q, true, true>" ;;
  team_tr_nx0) echo "dg_cuda_update_team<$r, $q, true, false>" ;;
  team_xf[01]) echo "dg_cuda_update_team<$r, $q, false, true, ${1#team_xf}>" ;;
  team_tr_xf[01]) echo "dg_cuda_update_team<$r, $q, true, true, ${1#team_tr_xf}>" ;;
  bc) echo "dg_cuda_update_bc<2, $r, $q>" ;;
  rate) echo "dg_cuda_rate<2, $r, $q>" ;;
  *)
    echo "cuda-kernel-resources.sh: unknown kernel $1" >&2
    exit 2
    ;;
  esac
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$SASS" ] && mkdir -p "$SASS"
for k in $kernels; do
  {
    printf '#define DG_CUDA_DIM 2\n#define DG_CUDA_MODEL_HEADER "%s.h"\n' "$model"
    printf '#include "dg_cuda_stages.cuh"\n'
    printf 'template __global__ void %s(const __grid_constant__ dg_stage_args, const __grid_constant__ dg_basis);\n' "$(inst "$k")"
  } >"$tmp/$k.cu"
  # shellcheck disable=SC2086
  nvcc -cubin -arch=sm_90 -std=c++17 -fmad=true -DDG_CUDA_MIN_BLOCKS=-1 -DDG_CUDA_REUSE_TRACES=0 \
    ${DEFINES:-} -Xptxas -v -I"$TREE/stencils" -I"$TREE/models" -I"$TREE/backends/cuda" \
    -o "$tmp/$k.cubin" "$tmp/$k.cu" >"$tmp/$k.log" 2>&1 || {
    cat "$tmp/$k.log" >&2
    exit 1
  }
  # the kernel's own lines (the instantiated template; not dg_cuda_info)
  res=$(awk '/Compiling entry function/ { on = /dg_cuda_(update|rate|trace)/ } on' "$tmp/$k.log")
  regs=$(echo "$res" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -n 1)
  frame=$(echo "$res" | sed -n 's/.* \([0-9]*\) bytes stack frame.*/\1/p' | head -n 1)
  st=$(echo "$res" | sed -n 's/.* \([0-9]*\) bytes spill stores.*/\1/p' | head -n 1)
  ld=$(echo "$res" | sed -n 's/.* \([0-9]*\) bytes spill loads.*/\1/p' | head -n 1)
  echo "$model r=$r q=$q $k: registers ${regs:-?} frame ${frame:-?} spill_stores ${st:-?} spill_loads ${ld:-?}"
  if [ -n "$SASS" ]; then
    # the kernel's machine code: its .text section's bytes (no cuobjdump needed)
    python3 -c '
import sys
from elftools.elf.elffile import ELFFile
with open(sys.argv[1], "rb") as f:
    for sec in ELFFile(f).iter_sections():
        if sec.name.startswith(".text.") and "dg_cuda_" in sec.name:
            d = sec.data()
            print("\n".join(d[i:i + 16].hex() for i in range(0, len(d), 16)))
' "$tmp/$k.cubin" >"$SASS/${model}_r${r}_q${q}_$k.code"
    # shellcheck disable=SC2086
    nvcc -ptx -arch=sm_90 -std=c++17 -fmad=true -DDG_CUDA_MIN_BLOCKS=-1 -DDG_CUDA_REUSE_TRACES=0 \
      ${DEFINES:-} -I"$TREE/stencils" -I"$TREE/models" -I"$TREE/backends/cuda" -o - "$tmp/$k.cu" |
      grep -v -E '^[[:space:]]*//|\.file|\.loc' >"$SASS/${model}_r${r}_q${q}_$k.ptx"
  fi
done
