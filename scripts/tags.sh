#!/bin/sh
# scripts/tags.sh [OUT] - a tags file (Universal Ctags; Debian: universal-ctags)
# in which the precision templates' functions have their real names: a
# template file (*_t.h, solvers/README.md "One source, two precisions") defines
# DG_SN(dg_mg_cycle), which the compiler names dg_mg_cycle_d and dg_mg_cycle_f;
# the tree is indexed once as written and once per precision with DG_SN
# expanded, so an editor jumps from dg_mg_cycle_d to its body (gdb needs
# nothing: the debug information names the _t.h lines already).
set -eu
cd "$(dirname "$0")/.."
out=${1:-tags}
command -v ctags >/dev/null 2>&1 || { echo "tags.sh: ctags not found (apt-get install universal-ctags)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dirs="core backends solvers implicit stencils models quadrature apps"
# CUDA's qualifiers read as nothing, so that the C parser sees the kernels of
# backends/cuda's templates (dg_sop_cuda_line_t.h) as functions
cuda_kw="-D __global__= -D __device__= -D __forceinline__= -D __shared__= -D __launch_bounds__(x)="
# shellcheck disable=SC2086
ctags -R --languages=C,C++,CUDA --langmap=C:+.h --langmap=CUDA:+.cuh $cuda_kw -f "$tmp/plain" $dirs
for p in d f; do
  # shellcheck disable=SC2086
  ctags -R --languages=C,C++,CUDA --langmap=C:+.h --langmap=CUDA:+.cuh -D "DG_SN(x)=x##_$p" $cuda_kw \
    -f "$tmp/$p" $dirs
done
{
  grep -h '^!_' "$tmp/plain"
  grep -hv '^!_' "$tmp/plain" "$tmp/d" "$tmp/f" | LC_ALL=C sort -u
} >"$out"
echo "tags.sh: $(grep -vc '^!_' "$out") tags in $out"
