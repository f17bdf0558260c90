#!/bin/sh
# gpu.warm_offline: `dgrid cache warm --backends cuda:sm_90` compiles CUDA
# stage units into a cache on a machine without a GPU (a login node), and a
# second warm finds them there; the compile-only backend runs nothing, and a
# target that is not sm_NN is named.  Runs wherever the CUDA build does.
#   warm_offline.sh DGRID ADVECT WORK
set -u
dgrid=$1 adv=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 2
export DGRID_CACHE_DIR="$work/cache"
fail=0
bad() { echo "FAIL [gpu.warm_offline]: $*" >&2; fail=1; }

"$dgrid" cache warm advection --dims 2 --degrees 1 --backends cuda:sm_90 >out 2>err ||
  bad "warm: exit $? ($(cat err))"
grep -qx 'dgrid cache: cuda advection 2D: 1 (degree, points) pairs ready' out ||
  bad "warm said: $(cat out)"
"$dgrid" cache list >list 2>&1 || bad "cache list: $(cat list)"
grep -q ' cuda advection 2D r=1 q=2$' list || bad "no cuda r=1 q=2 entry: $(cat list)"
n1=$(grep -c ' cuda ' list)
# the second warm compiles nothing (same key: target, NVRTC, sources)
"$dgrid" cache warm advection --dims 2 --degrees 1 --backends cuda:sm_90 >out2 2>err2 ||
  bad "second warm: $(cat err2)"
grep -q 'compiled' err2 && bad "the second warm compiled: $(cat err2)"
"$dgrid" cache list >list2 2>&1
[ "$(grep -c ' cuda ' list2)" = "$n1" ] || bad "entries $n1 then $(grep -c ' cuda ' list2)"

# refusals: one line, exit 2
want() { # LABEL MESSAGE CMD...
  _l=$1 _m=$2
  shift 2
  "$@" >o 2>e
  _rc=$?
  [ "$_rc" = 2 ] || bad "$_l: exit $_rc, want 2"
  [ "$(cat e)" = "$_m" ] || bad "$_l: stderr '$(cat e)', want '$_m'"
}
want "advect on a compile-only backend" \
  "advect: backend cuda:sm_90 compiles kernels into the cache only (dgrid cache warm); it runs nothing" \
  "$adv" --backend cuda:sm_90 --cells 4x4 --steps 1 --dt 0.01
want "target sm_9" \
  "dgrid cache: option --backends: backend 'cuda:sm_9': the target is not sm_NN (sm_80, sm_90, ...)" \
  "$dgrid" cache warm advection --backends cuda:sm_9
want "target sm_x" \
  "dgrid cache: option --backends: backend 'cuda:sm_x': the target is not sm_NN (sm_80, sm_90, ...)" \
  "$dgrid" cache warm advection --backends cuda:sm_x
exit $fail
