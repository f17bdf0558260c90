#!/bin/sh
# cache_test.sh BUILD SRC WORK - the kernel cache's faults (docs/ARCHITECTURE.md,
# "Kernels on demand"): the command's refusals, two processes compiling one kernel, a truncated and an
# altered entry, a folder others can write, no compiler, a read-only cache (or
# one that cannot be made), a
# compile error in a modeller's header, the solvers' units, the sphere's units
# of one flux variant.  Each kernel here is of degree 1 or 2 (a few seconds to
# compile).
set -eu
build=$1 src=$2 work=$3
dgrid=$build/apps/dgrid advect=$build/apps/advect
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
C=$work/cache
export DGRID_CACHE_DIR="$C"
# the compiler, behind a name of our own: removing it later is a machine
# without one (a compute node), with the same compiler in the cache's keys
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec %s "$@"\n' "${CC:-cc}" >"$work/bin/cc"
chmod +x "$work/bin/cc"
export DGRID_CC="$work/bin/cc"
run_small() { # the summary line of a small run at degree 1
  "$advect" --cells 8x8 --degree 1 --t-end 0.1 --quiet --output "$work/s.h5" 2>"$work/s.err" | tail -n 1 |
    sed 's/ wall_s=[^ ]*//; s/ dof_stage_per_s=[^ ]*//'
}
count() { grep -c "$1" "$2" || true; }

# 0. the command's refusals: one line naming what is wrong, exit 2, nothing compiled
refuse() { # LABEL LINE ARGS...
  _l=$1 _m=$2
  shift 2
  set +e
  "$dgrid" cache "$@" >"$work/o.out" 2>"$work/o.err"
  _rc=$?
  set -e
  [ $_rc = 2 ] || fail "$_l: exit $_rc"
  [ "$(cat "$work/o.err")" = "$_m" ] || fail "$_l: '$(cat "$work/o.err")', expected '$_m'"
}
refuse "an extra argument" "dgrid cache: list takes no arguments (given 'extra')" list extra
refuse "an unknown command" "dgrid cache: unknown command 'bogus' (list, clear, warm)" bogus
refuse "no model" "dgrid cache: warm: name a model (or a model header), or --solvers" warm
refuse "an empty item" "dgrid cache: option --degrees: '1,,2' is not a list of values in 0..10" \
  warm advection --degrees 1,,2
refuse "a trailing comma" "dgrid cache: option --backends: 'omp,' is not a list such as omp,cuda" \
  warm advection --backends omp,
refuse "an option twice" "dgrid cache: option --dims given twice" warm advection --dims 2 --dims 3
[ ! -e "$C/v1/k" ] || [ -z "$(ls "$C/v1/k")" ] || fail "a refused command compiled kernels"
echo "the command's refusals: one line each, exit 2"

# 1. two processes want the same kernel at once: one compiles it
"$dgrid" cache warm advection --dims 2 --degrees 1 >"$work/a.out" 2>"$work/a.err" &
pa=$!
"$dgrid" cache warm advection --dims 2 --degrees 1 >"$work/b.out" 2>"$work/b.err" &
pb=$!
wait $pa || fail "first warm exited $?: $(cat "$work/a.err")"
wait $pb || fail "second warm exited $?: $(cat "$work/b.err")"
n=$(cat "$work/a.err" "$work/b.err" | grep -c "compiled omp advection 2D r=1 q=2 in" || true)
[ "$n" = 1 ] || fail "two processes compiled the kernel $n times"
"$dgrid" cache list >"$work/list.out"
grep -q "^1 kernel," "$work/list.out" || fail "cache list: $(cat "$work/list.out")"
ref=$(run_small)
[ -n "$ref" ] || fail "no summary from a small run: $(cat "$work/s.err")"
count "compiled" "$work/s.err" | grep -qx 0 || fail "a run with a warm cache compiled: $(cat "$work/s.err")"
echo "two processes at once: 1 compile; a run with the cache compiles nothing"

so=$(ls "$C"/v1/k/*.so)
# 2. a truncated entry is rebuilt; 3. so is an altered one
size=$(wc -c <"$so")
head -c $((size / 2)) "$so" >"$work/half" && cat "$work/half" >"$so"
out=$(run_small)
grep -q "did not verify" "$work/s.err" || fail "a truncated entry was not reported: $(cat "$work/s.err")"
[ "$out" = "$ref" ] || fail "after rebuilding a truncated entry: '$out', before: '$ref'"
[ "$(wc -c <"$so")" = "$size" ] || fail "the rebuilt entry has $(wc -c <"$so") bytes, not $size"
printf 'X' | dd of="$so" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
out=$(run_small)
grep -q "did not verify" "$work/s.err" || fail "an altered entry was not reported: $(cat "$work/s.err")"
[ "$out" = "$ref" ] || fail "after rebuilding an altered entry: '$out', before: '$ref'"
echo "truncated and altered entries: detected, rebuilt, the same result"

# 4. a cache folder others can write into is refused
chmod 777 "$C"
if "$dgrid" cache list >"$work/o.out" 2>"$work/o.err"; then fail "a world-writable cache was used"; fi
grep -q "kernel cache: folder $C is writable by others (mode 0777): refusing" "$work/o.err" ||
  fail "world-writable cache: $(cat "$work/o.err")"
chmod 700 "$C"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  mkdir -p "$work/foreign" && chown nobody "$work/foreign"
  if DGRID_CACHE_DIR=$work/foreign "$dgrid" cache list >/dev/null 2>"$work/f.err"; then fail "another user's cache was used"; fi
  grep -q "belongs to user" "$work/f.err" || fail "another user's cache: $(cat "$work/f.err")"
fi
echo "a cache others can write, or of another user: refused"

# 5. no compiler: a cold cache names the compiler; a warm one needs none
mv "$work/bin/cc" "$work/bin/cc.away"
if DGRID_CACHE_DIR=$work/cold "$dgrid" cache warm advection --dims 2 --degrees 1 >/dev/null 2>"$work/n.err"; then
  fail "compiled without a compiler"
fi
grep -q "no C compiler to build kernels: looked for '$work/bin/cc'" "$work/n.err" || fail "no compiler: $(cat "$work/n.err")"
out=$(run_small)
[ "$out" = "$ref" ] || fail "a warm cache without a compiler: '$out' ($(cat "$work/s.err"))"
mv "$work/bin/cc.away" "$work/bin/cc"
echo "no compiler: one line naming it; a warmed cache runs without one"

# 6. a read-only cache: used, and what it lacks compiled into a private one
chmod a-w "$C/v1/k" "$C"
"$dgrid" cache warm advection --dims 2 --degrees 2 >"$work/r.out" 2>"$work/r.err" || fail "read-only cache: $(cat "$work/r.err")"
chmod u+w "$C" "$C/v1/k"
grep -q "is read-only: kernels it lacks are compiled into" "$work/r.err" || fail "no note on a read-only cache: $(cat "$work/r.err")"
tmp=$(sed -n 's/.*compiled into \([^,]*\), removed.*/\1/p' "$work/r.err")
[ -n "$tmp" ] && [ ! -e "$tmp" ] || fail "the private cache '$tmp' is still there"
[ "$(ls "$C"/v1/k/*.so | wc -l)" = 1 ] || fail "a read-only cache was written"
echo "read-only cache: used, the rest in a private one, removed at exit"
# a cache folder that cannot be made (here under a file; a HOME that does not
# exist or cannot be written is the same): a private one, and a note naming why
: >"$work/notadir"
DGRID_CACHE_DIR="$work/notadir/sub/cache" "$dgrid" cache warm advection --dims 2 --degrees 1 \
  >"$work/u.out" 2>"$work/u.err" || fail "a cache that cannot be made: $(cat "$work/u.err")"
grep -q "^dgrid: note: kernel cache $work/notadir/sub/cache cannot be made (cannot create $work/notadir/sub (Not a directory)): kernels it lacks are compiled into " "$work/u.err" ||
  fail "no note on a cache that cannot be made: $(cat "$work/u.err")"
tmp=$(sed -n 's/.*compiled into \([^,]*\), removed.*/\1/p' "$work/u.err")
[ -n "$tmp" ] && [ ! -e "$tmp" ] || fail "the private cache '$tmp' is still there"
echo "a cache that cannot be made: a private one, with a note"

# 7. a compile error in a modeller's header: the compiler's lines, one message, exit 2
mkdir -p "$work/m"
sed -e 's/dg_model_advection\b/dg_model_broken/; s/"advection",/"broken",/' \
  -e 's/return dg_lane_set(p->beta\[d\]);/return dg_lane_set(p->betta[d]);/' "$src/models/advection.h" >"$work/m/broken.h"
line=$(grep -n "p->betta" "$work/m/broken.h" | cut -d: -f1)
[ -n "$line" ] || fail "the broken header has no error in it"
set +e
"$advect" --model-file "$work/m/broken.h" --cells 8x8 --degree 1 --t-end 0.1 >/dev/null 2>"$work/m.err"
rc=$?
set -e
[ $rc = 2 ] || fail "a compile error exited $rc"
grep -q "broken.h:$line:[0-9]*: error:" "$work/m.err" || fail "no file:line of the error: $(cat "$work/m.err")"
grep -q "^advect: compiling host broken failed (.*): .*broken.h:$line:" "$work/m.err" ||
  fail "no one-line message: $(cat "$work/m.err")"
echo "a compile error in a model file: broken.h:$line shown, exit 2"
# a header that ends inside a declaration: the error is placed at its end
sed -e 's/dg_model_advection\b/dg_model_unended/; s/"advection",/"unended",/' "$src/models/advection.h" >"$work/m/unended.h"
echo "struct unended_tail { int a; }" >>"$work/m/unended.h"
set +e
"$advect" --model-file "$work/m/unended.h" --cells 8x8 --degree 1 --t-end 0.1 >/dev/null 2>"$work/u2.err"
rc=$?
set -e
[ $rc = 2 ] || fail "a header ending inside a declaration exited $rc"
grep -q "^advect: compiling host unended failed (.*): the end of $work/m/unended.h:1:[0-9]*: error:" "$work/u2.err" ||
  fail "the error not placed at the header's end: $(cat "$work/u2.err")"
echo "a header ending inside a declaration: the error at 'the end of unended.h'"
# a folder whose name #include cannot take: one line before any compile
mkdir -p "$work/q\"d"
cp "$work/m/unended.h" "$work/q\"d/unended.h"
set +e
"$advect" --model-file "$work/q\"d/unended.h" --cells 8x8 --degree 1 --t-end 0.1 >/dev/null 2>"$work/q.err"
rc=$?
set -e
[ $rc = 2 ] && [ "$(cat "$work/q.err")" = "advect: model file $work/q\"d/unended.h: a path with '\"', '\\' or a control character cannot be #included (move the header to a plain path)" ] ||
  fail "a path with a quote: exit $rc, $(cat "$work/q.err")"
echo "a model file under a folder named with a quote: one line"

# 8. a modeller's header split in two: the part it includes joins the key
sed -e 's/dg_model_advection\b/dg_model_split/; s/"advection",/"split",/' \
  -e '0,/#include "dg_lane.h"/s//#include "dg_lane.h"\n#include "split_part.h"/' \
  "$src/models/advection.h" >"$work/m/split.h"
grep -q '#include "split_part.h"' "$work/m/split.h" || fail "the split header includes no part"
echo "/* part, first version */" >"$work/m/split_part.h"
split_run() {
  "$advect" --model-file "$work/m/split.h" --cells 8x8 --degree 1 --t-end 0.1 --quiet --verbose \
    --output "$work/sp.h5" >/dev/null 2>"$work/sp$1.err" || fail "split.h run $1: $(tail -n 1 "$work/sp$1.err")"
}
split_run 1
split_run 2
[ "$(count "compiled" "$work/sp2.err")" = 0 ] || fail "an unchanged split header compiled again"
echo "/* part, second version */" >"$work/m/split_part.h"
split_run 3
[ "$(count "compiled" "$work/sp3.err")" -gt 0 ] || fail "a changed included part did not recompile"
echo "a header's included part: unchanged, nothing compiled; changed, compiled again"

# 9. the solvers' lane units (docs/ARCHITECTURE.md, "Kernels on demand"): with
# no compiler a cold cache stops poisson with one line naming the compiler and
# the warm command (exit 2); warmed by `cache warm --solvers`, poisson runs
# with no compiler and compiles nothing
psn="$build/apps/poisson --n 8 --r 2 --quiet --verbose"
mv "$work/bin/cc" "$work/bin/cc.away"
rc=0
DGRID_CACHE_DIR=$work/scold $psn >/dev/null 2>"$work/p.err" || rc=$?
[ $rc = 2 ] || fail "poisson with no compiler and a cold cache exited $rc"
[ "$(grep -c . "$work/p.err")" = 1 ] || fail "no compiler, cold cache: not one line: $(cat "$work/p.err")"
grep -q "no C compiler to build kernels: looked for '$work/bin/cc'.*dgrid cache warm --solvers" \
  "$work/p.err" || fail "no compiler, cold cache: $(cat "$work/p.err")"
mv "$work/bin/cc.away" "$work/bin/cc"
DGRID_CACHE_DIR=$work/swarm $psn >/dev/null 2>"$work/p.err" || fail "poisson: $(cat "$work/p.err")"
[ "$(count "compiled omp solver lanes double r=[12] " "$work/p.err")" = 2 ] ||
  fail "poisson at degree 2 did not compile the double units of degrees 1 and 2: $(cat "$work/p.err")"
[ "$(count "omp solver lanes float" "$work/p.err")" = 0 ] || fail "an fp64 poisson compiled float units: $(cat "$work/p.err")"
DGRID_CACHE_DIR=$work/swarm "$dgrid" cache warm --solvers --dims 2 --degrees 1-2 >"$work/w.out" \
  2>"$work/w.err" || fail "cache warm --solvers: $(cat "$work/w.err")"
[ "$(count "compiled omp solver lanes float" "$work/w.err")" = 2 ] ||
  fail "cache warm --solvers --degrees 1-2 did not add the 2 float units: $(cat "$work/w.err")"
mv "$work/bin/cc" "$work/bin/cc.away"
DGRID_CACHE_DIR=$work/swarm $psn --solver mixed >/dev/null 2>"$work/p.err" ||
  fail "poisson with a warm cache and no compiler: $(cat "$work/p.err")"
mv "$work/bin/cc.away" "$work/bin/cc"
[ "$(count "compiled" "$work/p.err")" = 0 ] || fail "poisson with a warm cache compiled: $(cat "$work/p.err")"
echo "solver units: no compiler and a cold cache, one line, exit 2; fp64 compiles no float unit; warmed, nothing compiled"

# 10. the sphere's units (docs/ARCHITECTURE.md, "Kernels on demand"): a run
# compiles the one unit of its flow and no plane unit; a modeller's copy of the
# model picks its flow on the host through the kernel compiler and gives the
# same bits; a cache warmed for the model serves both flows with no compiler
sph="--grid latlon --model sphere_advection --cells 8 --degree 1 --steps 2 --quiet --verbose"
sph_run() { # NAME CACHE ARGS...: the summary line, the compile lines in $work/NAME.err
  n=$1 c=$2
  shift 2
  DGRID_CACHE_DIR=$c "$advect" "$@" --output "$work/$n.h5" 2>"$work/$n.err" | tail -n 1 |
    sed 's/ wall_s=[^ ]*//; s/ dof_stage_per_s=[^ ]*//; s/ model=[a-z_]*//'
  grep "compiled" "$work/$n.err" | sed 's/ in [0-9.]* s$//' >"$work/$n.c" || true
}
ws=$(sph_run sw "$work/sphere" $sph --flow williamson)
[ "$(cat "$work/sw.c")" = "dgrid: compiled omp sphere_advection 2D r=1 q=2 sphere flow 0" ] ||
  fail "a Williamson flow run compiled: $(cat "$work/sw.c")"
ns=$(sph_run sn "$work/sphere" $sph --flow nair_lauritzen)
[ "$(cat "$work/sn.c")" = "dgrid: compiled omp sphere_advection 2D r=1 q=2 sphere flow 1" ] ||
  fail "a Nair-Lauritzen flow run then compiled: $(cat "$work/sn.c")"
[ -n "$ws" ] && [ "$ws" != "$ns" ] || fail "the two flows gave '$ws' and '$ns'"
sed -e 's/dg_model_sphere_advection\b/dg_model_mysphere/; s/"sphere_advection",/"mysphere",/' \
  "$src/models/sphere_advection.h" >"$work/m/mysphere.h"
ms=$(sph_run sm "$work/sphere" --model-file "$work/m/mysphere.h" \
  $(echo "$sph" | sed 's/--model sphere_advection //') --flow nair_lauritzen)
grep -qx "dgrid: compiled host flux variant of mysphere" "$work/sm.c" &&
  grep -qx "dgrid: compiled omp mysphere 2D r=1 q=2 sphere flow 1" "$work/sm.c" &&
  [ "$(grep -c "omp mysphere" "$work/sm.c")" = 1 ] || fail "the modeller's copy compiled: $(cat "$work/sm.c")"
[ "$ms" = "$ns" ] || fail "the modeller's copy gave '$ms', the model '$ns'"
DGRID_CACHE_DIR=$work/swarm2 "$dgrid" cache warm sphere_advection --dims 2 --degrees 1 >/dev/null \
  2>"$work/w2.err" || fail "cache warm sphere_advection: $(cat "$work/w2.err")"
mv "$work/bin/cc" "$work/bin/cc.away"
for f in williamson nair_lauritzen; do
  o=$(sph_run s$f "$work/swarm2" $sph --flow $f)
  [ -s "$work/s$f.c" ] && fail "a warmed cache compiled: $(cat "$work/s$f.c")"
  [ "$f" = williamson ] && [ "$o" != "$ws" ] && fail "from the warmed cache: '$o', not '$ws'"
  [ "$f" = nair_lauritzen ] && [ "$o" != "$ns" ] && fail "from the warmed cache: '$o', not '$ns'"
done
mv "$work/bin/cc.away" "$work/bin/cc"
echo "the sphere: one unit per run, of its flow; a modeller's copy picks its flow and gives the same bits; warmed, both flows with no compiler"
