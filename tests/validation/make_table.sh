#!/bin/sh
# make_table.sh - run every validation case (cases.txt) and print the Markdown
# table of docs/VALIDATION.md: the L2 error against the exact solution from both
# codes and their difference, then the exact command lines of every case.
#
# usage: make_table.sh [--build DIR] [--advect P] [--dgref P] [--compare P]
#                      [--workdir DIR] [--reuse] [--cases FILE]
#   --build DIR    a configured and built dgrid tree (default: ./build); the
#                  programs default to DIR/apps/advect, DIR/apps/compare and
#                  DIR/tests/reference/dgref
#   --workdir DIR  where each case runs, DIR/NAME (default: DIR_BUILD/validation-table)
#   --reuse        do not run anything: read DIR/NAME/result.txt and commands.txt
#                  left by an earlier run (ctest writes them to
#                  BUILD/tests/validation/NAME, so --workdir BUILD/tests/validation
#                  --reuse tabulates the last ctest run)
# Exit status: 0 when every case passed, 1 when one failed, 2 on usage errors.
set -u
die() { echo "make_table.sh: $*" >&2; exit 2; }

HERE=$(cd "$(dirname "$0")" && pwd) || die "cannot find the script's folder"
BUILD=build ADVECT='' DGREF='' COMPARE='' WORK='' REUSE=0 CASES=$HERE/cases.txt
while [ $# -gt 0 ]; do
  case $1 in
  --reuse) REUSE=1; shift; continue ;;
  --build | --advect | --dgref | --compare | --workdir | --cases) [ $# -ge 2 ] || die "option $1 needs a value" ;;
  *) die "unknown argument '$1' (see the header of $0)" ;;
  esac
  case $1 in
  --build) BUILD=$2 ;; --advect) ADVECT=$2 ;; --dgref) DGREF=$2 ;;
  --compare) COMPARE=$2 ;; --workdir) WORK=$2 ;; --cases) CASES=$2 ;;
  esac
  shift 2
done
[ -n "$ADVECT" ] || ADVECT=$BUILD/apps/advect
[ -n "$COMPARE" ] || COMPARE=$BUILD/apps/compare
[ -n "$DGREF" ] || DGREF=$BUILD/tests/reference/dgref
[ -n "$WORK" ] || WORK=$BUILD/validation-table
[ -r "$CASES" ] || die "cannot read the case list '$CASES'"
# as under ctest (tests/validation/CMakeLists.txt): one thread unless a case says --threads
OMP_NUM_THREADS=1
export OMP_NUM_THREADS

# field FILE KEY: value of KEY= in the one-line result file
field() { tr ' ' '\n' < "$1" | sed -n "s/^$2=//p" | head -n 1; }

[ $REUSE -eq 1 ] || mkdir -p "$WORK" || die "cannot create '$WORK'"
status=0
names=''
while IFS= read -r line || [ -n "$line" ]; do
  case $line in '' | '#'*) continue ;; esac
  # shellcheck disable=SC2086  # the case line is a list of words by design
  set -- $line
  name=$1
  shift
  names="$names $name"
  if [ $REUSE -eq 0 ]; then
    echo "make_table.sh: running $name" >&2
    sh "$HERE/run_case.sh" --advect "$ADVECT" --dgref "$DGREF" --compare "$COMPARE" \
      --workdir "$WORK/$name" --name "$name" "$@" > "$WORK.$name.log" 2>&1 || {
      echo "make_table.sh: $name did not pass:" >&2; sed 's/^/    /' "$WORK.$name.log" >&2; status=1; }
    rm -f "$WORK.$name.log"
  fi
done < "$CASES"

# sig X N: X with N significant digits (or '-')
sig() { if [ -n "$1" ]; then awk -v x="$1" -v n="$2" 'BEGIN { printf "%.*e", n - 1, x }'; else printf -- '-'; fi; }
# absdiff A B: |A-B|
absdiff() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.2e", d }'; }
# reldiff A B: |A-B| / max(|A|,|B|)
reldiff() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; if (a < 0) a = -a; if (b < 0) b = -b; m = a > b ? a : b; printf "%.2e", (m > 0 ? d / m : d) }'; }

echo "Setup (every value is passed explicitly to both programs):"
echo
echo "| case | cells | box | degrees | q | velocity | initial data | integrator | dt x steps | dofs |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for name in $names; do
  r=$WORK/$name/result.txt
  [ -r "$r" ] || continue
  [ "$(field "$r" expect)" = mismatch ] && continue
  echo "| $name | $(field "$r" cells) | $(field "$r" box) | $(field "$r" degrees) | $(field "$r" q) | $(field "$r" vel) | $(field "$r" init) | $(field "$r" rk) | $(field "$r" dt) x $(field "$r" steps) | $(field "$r" dofs) |"
done
echo
echo "Results (L2 errors against the exact solution as each program prints them; differences of the final coefficients from compare):"
echo
echo "| case | L2 error dgrid | L2 error dgref | rel. diff of L2 errors | abs. diff of masses | rel_l2_diff | coeff_rel_l2 | max rel. coeff. diff | result |"
echo "|---|---|---|---|---|---|---|---|---|"
for name in $names; do
  r=$WORK/$name/result.txt
  if [ ! -r "$r" ]; then
    echo "| $name | (no result: $r) |||||||| FAIL |"
    status=1
    continue
  fi
  st=$(field "$r" status)
  [ "$st" = PASS ] || status=1
  if [ "$(field "$r" expect)" = mismatch ]; then
    echo "| $name | (self-test: dgref runs with beta_y + 1e-7) |||| $(sig "$(field "$r" rel_l2_diff)" 3) | $(sig "$(field "$r" coeff_rel_l2)" 3) | - | mismatch caught: $st |"
    continue
  fi
  echo "| $name | $(sig "$(field "$r" advect_l2)" 12) | $(sig "$(field "$r" dgref_l2)" 12) | $(reldiff "$(field "$r" advect_l2)" "$(field "$r" dgref_l2)") | $(absdiff "$(field "$r" advect_mass)" "$(field "$r" dgref_mass)") | $(sig "$(field "$r" rel_l2_diff)" 3) | $(sig "$(field "$r" coeff_rel_l2)" 3) | $(sig "$(field "$r" max_rel_coeff_diff)" 3) | $st |"
done

echo
echo "Exact command lines (paths as run):"
echo
echo '```'
for name in $names; do
  c=$WORK/$name/commands.txt
  if [ -r "$c" ]; then cat "$c"; else echo "# $name: no commands.txt"; fi
done
echo '```'
exit $status
