#!/usr/bin/env bash
# bench-ab.sh - compare two builds' apps/bench numbers side by side in one run.
#
#   scripts/bench-ab.sh [-n ROUNDS] [-o SUMMARY.csv] [-k] BUILD_A BUILD_B [bench options]
#
# BUILD_A and BUILD_B are build folders (their apps/bench is run) or bench
# executables.  The two are run alternately, ROUNDS times each (A B, B A,
# A B, ...: the order flips every round so that a drift of the machine hits
# both alike), each run with the same bench options plus --quiet --csv.  Per
# case (dim, degree, map, integrator, cells) the script pairs the runs of one
# round and reports the median over rounds of the ratio
#     ratio = median_step_s(B) / median_step_s(A)      (< 1: B is faster)
# with the smallest and largest ratio of the rounds, and each build's median
# step time.  The verdict says "B faster" or "B slower" only when every one
# of at least 5 rounds agrees (a sign test: by chance with p <= 1/16); a
# ratio range that contains 1 is noise, not a difference.  To see the noise
# of the machine, compare a build with itself (A = B).  "best B/A" is the
# ratio of each build's fastest repeat over all rounds (min_step_s): other
# tenants of a shared machine only ever slow a run down, so on a noisy
# machine the fastest repeats say more than the medians.
#
# Without bench options the cases are: --dims 2,3 --degrees 1,3,5 --sizes 1M
# --maps uniform --integrators ssprk3.  --csv and --json are the script's.
#   -n ROUNDS   rounds (runs of each build)                       [5]
#   -o PATH     also write the per-case summary as CSV
#   -k          keep the per-run CSVs (their folder is printed)
# Exit status: 0 compared, 1 a run failed, 2 bad usage.
set -u

usage() {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
die() {
  echo "bench-ab.sh: $*" >&2
  exit 2
}

rounds=5
summary=""
keep=0
while [ $# -gt 0 ]; do
  case $1 in
  -n)
    [ $# -ge 2 ] || die "option -n needs a value"
    rounds=$2
    shift 2
    ;;
  -o)
    [ $# -ge 2 ] || die "option -o needs a value"
    summary=$2
    shift 2
    ;;
  -k)
    keep=1
    shift
    ;;
  -h | --help) usage ;;
  --)
    shift
    break
    ;;
  -*) die "unknown option '$1' (before BUILD_A; see --help)" ;;
  *) break ;;
  esac
done
case $rounds in
'' | *[!0-9]*) die "option -n: '$rounds' is not a positive integer" ;;
esac
[ "$rounds" -ge 1 ] || die "option -n: '$rounds' is not a positive integer"
[ $# -ge 2 ] || die "need BUILD_A and BUILD_B (see --help)"

resolve() { # build folder or executable -> executable
  if [ -d "$1" ]; then
    [ -x "$1/apps/bench" ] || die "$1: no apps/bench in this build folder (build the 'bench' target)"
    echo "$1/apps/bench"
  elif [ -f "$1" ] && [ -x "$1" ]; then
    echo "$1"
  else
    die "$1: not a build folder or an executable"
  fi
}
A=$(resolve "$1") || exit 2
B=$(resolve "$2") || exit 2
shift 2
args=("$@")
for a in "${args[@]}"; do
  case $a in
  --csv | --csv=* | --json | --json=*) die "option $a: the script sets --csv itself" ;;
  esac
done
if [ ${#args[@]} -eq 0 ]; then
  args=(--dims 2,3 --degrees 1,3,5 --sizes 1M --maps uniform --integrators ssprk3)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-ab.XXXXXX") || die "cannot make a temporary folder"
if [ $keep -eq 0 ]; then
  trap 'rm -rf "$work"' EXIT
fi

echo "bench-ab: A = $A"
echo "bench-ab: B = $B"
echo "bench-ab: $rounds rounds of: bench ${args[*]}"
echo "bench-ab: OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
for ((i = 1; i <= rounds; i++)); do
  if ((i % 2)); then order="A B"; else order="B A"; fi
  for which in $order; do
    if [ "$which" = A ]; then exe=$A; else exe=$B; fi
    echo "bench-ab: round $i/$rounds: $which" >&2
    if ! "$exe" "${args[@]}" --quiet --csv "$work/$which.$i.csv" >"$work/$which.$i.out" \
      2>"$work/$which.$i.err"; then
      echo "bench-ab: run $which round $i failed:" >&2
      cat "$work/$which.$i.err" >&2
      exit 1
    fi
  done
done

# One line per (build, round, case): key, median step time, dofs, stream.
awk -F, -v rounds="$rounds" -v summary="$summary" '
  function median(arr, n,   i, j, t, s) {
    for (i = 1; i <= n; i++) s[i] = arr[i]
    for (i = 2; i <= n; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
    return n % 2 ? s[(n + 1) / 2] : 0.5 * (s[n / 2] + s[n / 2 + 1])
  }
  FNR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    split(FILENAME, parts, "/"); base = parts[length(parts)]
    split(base, wr, "."); which = wr[1]; round = wr[2]
    next
  }
  {
    map = $(col["map"]); if (map != "uniform") map = map $(col["degree_min"]) "-" $(col["degree"])
    key = $(col["dim"]) "D deg " $(col["degree"]) " " map " " $(col["integrator"]) " " $(col["cells"])
    if (!(key in seen)) { seen[key] = ++nkeys; keys[nkeys] = key }
    t[which, key, round] = $(col["median_step_s"])
    d[which, key] = $(col["dofs"])
    b = $(col["min_step_s"]) + 0
    if (!((which, key) in best) || b < best[which, key]) best[which, key] = b
    st[which, round] = $(col["stream_gbs"])
  }
  END {
    printf "\n%-44s %12s %12s %8s %17s %8s %s\n", "case", "A step_s", "B step_s", "B/A", "B/A range", "best B/A", "verdict"
    if (summary != "") print "case,dofs,a_median_step_s,b_median_step_s,ratio_median,ratio_min,ratio_max,rounds,ratio_best" > summary
    bad = 0
    for (k = 1; k <= nkeys; k++) {
      key = keys[k]; n = 0; na = 0; nb = 0; lo = 1e300; hi = -1e300
      for (r = 1; r <= rounds; r++) {
        if ((("A", key, r) in t)) ta[++na] = t["A", key, r]
        if ((("B", key, r) in t)) tb[++nb] = t["B", key, r]
        if ((("A", key, r) in t) && (("B", key, r) in t) && t["A", key, r] > 0) {
          q = t["B", key, r] / t["A", key, r]; rat[++n] = q
          if (q < lo) lo = q; if (q > hi) hi = q
        }
      }
      if (n == 0) { printf "%-44s only in %s\n", key, na ? "A" : "B"; continue }
      if (d["A", key] != d["B", key]) { printf "%-44s DOFs differ: A %s, B %s\n", key, d["A", key], d["B", key]; bad = 1 }
      m = median(rat, n)
      # sign test: all n rounds on one side happens by chance with p = 2^(1-n)
      verdict = n < 5 ? "(fewer than 5 rounds)" : (hi < 1 ? "B faster" : (lo > 1 ? "B slower" : "no clear difference"))
      bq = best["A", key] > 0 ? best["B", key] / best["A", key] : 0
      printf "%-44s %12.5g %12.5g %8.3f %8.3f..%-8.3f %8.3f %s\n", key, median(ta, na), median(tb, nb), m, lo, hi, bq, verdict
      if (summary != "") printf "%s,%s,%.9g,%.9g,%.6g,%.6g,%.6g,%d,%.6g\n", key, d["A", key], median(ta, na), median(tb, nb), m, lo, hi, n, bq > summary
    }
    for (r = 1; r <= rounds; r++) { sa[r] = st["A", r]; sb[r] = st["B", r] }
    printf "\nstream triad (median over rounds): A %.2f GB/s, B %.2f GB/s\n", median(sa, rounds), median(sb, rounds)
    exit bad
  }' "$work"/A.*.csv "$work"/B.*.csv
rc=$?
[ $keep -eq 1 ] && echo "bench-ab: per-run CSVs and outputs kept in $work"
[ -n "$summary" ] && echo "bench-ab: summary written to $summary"
exit $rc
