#!/bin/sh
# install_test.sh - dgrid as an installed package (tests/install/README.md).
#
#   install_test.sh package   BUILD SRC WORK CC RUN   install BUILD into WORK/prefix; check the
#                                                     layout and that every header compiles alone
#   install_test.sh cmake     BUILD SRC WORK CC RUN   build examples/ with find_package(dgrid)
#   install_test.sh pkgconfig BUILD SRC WORK CC RUN   build examples/advection.c with pkg-config
#
# RUN=0 (a CUDA build on a machine without a GPU): build and link only.
# The example's numbers are checked against the installed advect app on the
# same problem (same degree map, step and integrator) and, with CMake, its
# convergence rate from N = 16 to N = 32.
set -eu
mode=$1 build=$2 src=$3 work=$4 cc=$5 run=$6
prefix=$work/prefix
cmake=${CMAKE:-cmake} # the cmake of the build (ctest sets CMAKE)

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# field NAME FILE: the value of NAME=... in FILE (the last occurrence)
field() { tr ' ' '\n' <"$2" | sed -n "s/^$1=//p" | tail -n 1; }
# close A B RTOL: |A - B| <= RTOL |B|
close() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= r * m) }'; }

# run_example EXE N TAG: run it, keep its output in $work/TAG.out, the map
# in $work/TAG.map and the snapshot in $work/TAG.h5
run_example() {
  "$1" "$2" "$work/$3" >"$work/$3.out" 2>"$work/$3.err" ||
    fail "$3: advection $2 exited $? ($(cat "$work/$3.err"))"
  cat "$work/$3.out"
}

# check_against_advect TAG: the installed advect on the example's problem
# (same degree map, step, integrator) gives the same L2 error and mass: one
# library, two programs.
check_against_advect() {
  out=$work/$1.out
  dt=$(field dt "$out") steps=$(field steps "$out") l2=$(field l2_error "$out")
  mass0=$(field mass0 "$out") mass=$(field mass "$out") drift=$(field mass_drift "$out")
  [ -n "$dt" ] && [ -n "$steps" ] && [ -n "$l2" ] && [ -n "$mass" ] || fail "$1: no numbers in $(cat "$out")"
  awk -v d="$drift" -v m="$mass0" 'BEGIN { exit !(d * d <= 1e-24 * m * m) }' ||
    fail "$1: mass drift $drift of $mass0"
  "$prefix/bin/advect" --model advection --beta 1,0.5 --init gauss --bell-centre 0.5,0.5 \
    --bell-radius 0.15 --bell-height 1 --cells 16x16 --map-file "$work/$1.map" \
    --integrator ssprk3 --dt "$dt" --steps "$steps" --quiet --output "$work/$1_advect.h5" \
    >"$work/$1.advect" 2>&1 || fail "$1: advect: $(tail -n 1 "$work/$1.advect")"
  tail -n 1 "$work/$1.advect"
  a_l2=$(field l2_error "$work/$1.advect") a_mass=$(field mass "$work/$1.advect")
  a_steps=$(field steps "$work/$1.advect")
  [ "$a_steps" = "$steps" ] || fail "$1: advect ran $a_steps steps, the example $steps"
  # the example prints 7 digits of the error and 17 of the mass
  close "$l2" "$a_l2" 1e-6 || fail "$1: the example's L2 error $l2, advect's $a_l2"
  close "$mass" "$a_mass" 1e-13 || fail "$1: the example's mass $mass, advect's $a_mass"
  echo "$1: L2 error $l2 and mass $mass, as advect's ($a_l2, $a_mass)"
}

case $mode in
package)
  rm -rf "$work"
  mkdir -p "$work"
  "$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    fail "cmake --install: $(tail -n 3 "$work/install.log")"
  for f in bin/advect bin/compare bin/dgrid lib/libdgrid.a include/dgrid/dgrid.h \
    lib/cmake/dgrid/dgridConfig.cmake lib/cmake/dgrid/dgridConfigVersion.cmake \
    lib/cmake/dgrid/dgridTargets.cmake lib/pkgconfig/dgrid.pc; do
    [ -e "$prefix/$f" ] || fail "$f is not installed"
  done
  [ "$(readlink "$prefix/bin/dgrid")" = advect ] || fail "bin/dgrid is not a link to advect"
  archives=$(cd "$prefix/lib" && ls ./*.a)
  [ "$archives" = "./libdgrid.a" ] || fail "lib/ holds $archives, want libdgrid.a alone"
  # what a program must not see: the stage internals and core's private headers
  for h in dg_lane.h dg_stages.h dg_stage_ops.h dg_stage_rate.h dg_team.h dg_basis.h dg_stage_args.h \
    dg_types.h dg_backend.h dg_disc_internal.h dg_model_internal.h dg_io_internal.h dg_escape.h \
    dg_parse.h advection.h; do
    [ ! -e "$prefix/include/dgrid/$h" ] || fail "internal header include/dgrid/$h is installed"
  done
  # every installed header compiles alone, with the prefix's include/ only
  # (no HDF5, GSL, OpenMP or CUDA path), as C11 and, where there is one, C++
  n=0
  for h in "$prefix"/include/dgrid/*.h; do
    name=$(basename "$h")
    printf '#include <dgrid/%s>\nint dg_test_unit;\n' "$name" >"$work/hdr.c"
    "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$work/hdr.c" \
      2>"$work/hdr.err" || fail "include/dgrid/$name does not compile alone: $(head -n 3 "$work/hdr.err")"
    if command -v c++ >/dev/null 2>&1; then
      c++ -x c++ -std=c++11 -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$work/hdr.c" \
        2>"$work/hdr.err" || fail "include/dgrid/$name does not compile as C++: $(head -n 3 "$work/hdr.err")"
    fi
    n=$((n + 1))
  done
  [ "$n" -ge 12 ] || fail "only $n headers under include/dgrid"
  "$prefix/bin/dgrid" --help >"$work/help.out" 2>&1 || fail "bin/dgrid --help: $(tail -n 1 "$work/help.out")"
  # a modeller's header outside the tree: the installed advection.h copied,
  # renamed and given another default velocity, run with --model-file by the
  # installed advect, against the built-in model with that velocity
  [ -e "$prefix/share/dgrid/models/advection.h" ] || fail "share/dgrid/models/advection.h is not installed"
  # the stage headers beside the models, every one of stencils/ (the stages span several files)
  for h in "$src"/stencils/*.h; do
    [ -e "$prefix/share/dgrid/stencils/${h##*/}" ] || fail "share/dgrid/stencils/${h##*/} is not installed"
  done
  if [ "$run" = 1 ]; then
    mkdir -p "$work/mymodels"
    sed -e 's/dg_model_advection\b/dg_model_tilted/; s/"advection",/"tilted",/; s/"1,1,1",/"0.5,2,1",/' \
      "$prefix/share/dgrid/models/advection.h" >"$work/mymodels/tilted.h"
    ! cmp -s "$prefix/share/dgrid/models/advection.h" "$work/mymodels/tilted.h" || fail "the copy is unchanged"
    common="--cells 12x12 --degree 3 --init gauss --t-end 0.25 --quiet --output $work/um.h5"
    # shellcheck disable=SC2086
    (cd "$work/mymodels" && "$prefix/bin/advect" --model-file ./tilted.h $common) >"$work/um.out" 2>&1 ||
      fail "advect --model-file: $(tail -n 3 "$work/um.out")"
    # shellcheck disable=SC2086
    "$prefix/bin/advect" --model advection --beta 0.5,2 $common >"$work/builtin.out" 2>&1 ||
      fail "advect --model advection: $(tail -n 1 "$work/builtin.out")"
    grep -q "model=tilted" "$work/um.out" || fail "the run did not use the model file: $(tail -n 1 "$work/um.out")"
    for k in l2_error linf_error mass steps; do
      a=$(field $k "$work/um.out") b=$(field $k "$work/builtin.out")
      [ -n "$a" ] && [ "$a" = "$b" ] || fail "--model-file $k=$a, the built-in model's $b"
    done
    echo "--model-file tilted.h: l2_error $(field l2_error "$work/um.out"), the same as the built-in model's"
  fi
  echo "installed into $prefix: $n headers, libdgrid.a, the CMake package, dgrid.pc, the apps"
  ;;
cmake)
  [ -e "$prefix/lib/cmake/dgrid/dgridConfig.cmake" ] || fail "no installed package (install.package)"
  rm -rf "$work/cmake"
  # the prefix first, then where the build found its own dependencies
  # (DGRID_DEP_PREFIX: the build's CMAKE_PREFIX_PATH, ':'-separated)
  deps=$(printf '%s' "${DGRID_DEP_PREFIX:-}" | tr ':' ';')
  "$cmake" -S "$src/examples" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix${deps:+;$deps}" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/cmake.log" 2>&1 ||
    fail "configuring examples/: $(grep -A 4 'Error' "$work/cmake.log" | head -n 8)"
  grep -q "dgrid 0\.[0-9.]*: [a-z]* backend" "$work/cmake.log" || fail "find_package(dgrid) printed no version"
  "$cmake" --build "$work/cmake" >"$work/cmake_build.log" 2>&1 ||
    fail "building examples/: $(grep -B 2 -A 4 -i 'error' "$work/cmake_build.log" | head -n 10)"
  [ "$run" = 1 ] || { echo "examples/ configured, built and linked (not run)"; exit 0; }
  run_example "$work/cmake/advection" 16 cmake16
  run_example "$work/cmake/advection" 32 cmake32
  e16=$(field l2_error "$work/cmake16.out") e32=$(field l2_error "$work/cmake32.out")
  rate=$(awk -v a="$e16" -v b="$e32" 'BEGIN { printf "%.2f", log(a / b) / log(2) }')
  echo "L2 error $e16 (N = 16), $e32 (N = 32): rate $rate"
  # degree 2 and 3 elements: at least 3 less a margin for the pre-asymptotic range
  awk -v r="$rate" 'BEGIN { exit !(r >= 2.5 && r <= 4.5) }' || fail "convergence rate $rate, want 2.5..4.5"
  check_against_advect cmake16
  ;;
pkgconfig)
  [ -e "$prefix/lib/pkgconfig/dgrid.pc" ] || fail "no installed package (install.package)"
  pc=$(command -v pkg-config || command -v pkgconf || true)
  [ -n "$pc" ] || fail "pkg-config not found (Debian: apt-get install pkgconf; scripts/deps.sh)"
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" "$pc" --cflags --libs dgrid) ||
    fail "pkg-config --cflags --libs dgrid failed"
  echo "pkg-config --cflags --libs dgrid: $flags"
  mkdir -p "$work/pc"
  # shellcheck disable=SC2086
  "$cc" -O2 -Wall -Wextra -Werror "$src/examples/advection.c" $flags -o "$work/pc/advection" \
    2>"$work/pc.err" || fail "compiling with pkg-config's flags: $(head -n 5 "$work/pc.err")"
  [ "$run" = 1 ] || { echo "examples/advection.c compiled and linked with pkg-config (not run)"; exit 0; }
  run_example "$work/pc/advection" 16 pc16
  check_against_advect pc16
  ;;
*)
  fail "mode '$mode': package, cmake or pkgconfig"
  ;;
esac
