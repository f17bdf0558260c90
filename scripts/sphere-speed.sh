#!/usr/bin/env bash
# sphere-speed.sh - sphere advection throughput against planar advection at
# the same degree and about the same DOFs, one build, interleaved rounds
# (BENCHMARKS.md, "The sphere against planar advection").
#
#   scripts/sphere-speed.sh BUILD [ROUNDS [DEGREES [SIZE [bench options]]]]
#
# BUILD is a build folder whose apps/bench has the models advection and
# sphere_advection.  Each round runs three bench cases per degree, in an
# order that rotates every round:
#   sphere    --grid latlon --model sphere_advection  (2n x n, Williamson's wind)
#   rotation  --model advection --velocity rotation   (planar, a wind of x)
#   const     --model advection                       (planar, constant velocity)
# all uniform degree r, SSPRK3, SIZE DOFs (bench --sizes; default 16M on a
# GPU build, 1M otherwise).  Further arguments go to every bench run (e.g.
# --min-time 0.5: longer repeats).  Reported per degree: the median over rounds of
# each case's DOF updates per second per stage, and of the per-round ratios
# sphere/rotation and sphere/const, with their smallest and largest round.
# "best s/r" and "best s/c" compare each case's fastest repeat over all rounds
# (other tenants of a shared machine only ever slow a run down, so on a noisy
# machine the fastest repeats say more than the medians, as in bench-ab.sh).
# The DOFs differ by a few percent (the sphere's grid is 2n x n); the rates
# are per DOF, so the ratio compares like with like.
set -u
[ $# -ge 1 ] || {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
build=$1
rounds=${2:-5}
degrees=${3:-1,3,5}
bench=$build/apps/bench
[ -x "$bench" ] || {
  echo "sphere-speed.sh: $bench is not an executable" >&2
  exit 2
}
if [ -n "${4:-}" ]; then
  size=$4
elif grep -q 'DGRID_BACKEND:STRING=cuda' "$build/CMakeCache.txt" 2>/dev/null; then
  size=16M
else
  size=1M
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
common=(--dim 2 --degrees "$degrees" --sizes "$size" --maps uniform --integrators ssprk3 --quiet
  --no-peak --repeats 3 "${@:5}")
cases=(sphere rotation const)
opts_sphere=(--grid latlon --model sphere_advection --initial hill)
opts_rotation=(--model advection --velocity rotation)
opts_const=(--model advection)

for ((k = 0; k < rounds; ++k)); do
  for ((j = 0; j < 3; ++j)); do
    c=${cases[$(((j + k) % 3))]}
    o="opts_$c[@]"
    "$bench" "${common[@]}" "${!o}" --csv "$tmp/$c.$k.csv" >"$tmp/$c.$k.log" 2>&1 || {
      echo "sphere-speed.sh: bench ($c, round $k) failed:" >&2
      tail -3 "$tmp/$c.$k.log" >&2
      exit 1
    }
  done
  # this round's ratios on stderr, so a run cut short still says something
  paste -d, "$tmp/sphere.$k.csv" "$tmp/rotation.$k.csv" "$tmp/const.$k.csv" | awk -F, -v k="$k" '
    NR == 1 { for (i = 1; i <= NF; ++i) if (!(($i) in col)) col[$i] = i; w = NF / 3; next }
    { r = col["dof_stage_per_s"]
      printf "sphere-speed.sh: round %d, degree %d: sphere/rotation %.3f, sphere/const %.3f\n",
        k + 1, $col["degree"], $r / $(r + w), $r / $(r + 2 * w) }' >&2
done

# degree -> rate per round and case; then medians and ratio ranges
for c in "${cases[@]}"; do
  for ((k = 0; k < rounds; ++k)); do
    awk -F, -v c="$c" -v k="$k" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
      { print c, k, $col["degree"], $col["dofs"], $col["dof_stage_per_s"],
        $col["dof_stage_per_s"] * $col["median_step_s"] / $col["min_step_s"] }' "$tmp/$c.$k.csv"
  done
done >"$tmp/all"
awk -v rounds="$rounds" '
  function median(a, n,   i, j, t) {
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { rate[$1, $2, $3] = $5; dofs[$1, $3] = $4; deg[$3] = 1; if ($6 > best[$1, $3]) best[$1, $3] = $6 }
  END {
    printf "%3s %10s %10s %12s %12s %12s %22s %22s %10s %10s\n", "deg", "dofs_sph", "dofs_plan",
      "sphere", "rotation", "const", "sphere/rotation", "sphere/const", "best s/r", "best s/c"
    for (r in deg) {
      n = 0
      for (k = 0; k < rounds; ++k) {
        ++n; s[n] = rate["sphere", k, r]; ro[n] = rate["rotation", k, r]; co[n] = rate["const", k, r]
        q1[n] = s[n] / ro[n]; q2[n] = s[n] / co[n]
      }
      lo1 = hi1 = q1[1]; lo2 = hi2 = q2[1]
      for (k = 2; k <= n; ++k) {
        if (q1[k] < lo1) lo1 = q1[k]; if (q1[k] > hi1) hi1 = q1[k]
        if (q2[k] < lo2) lo2 = q2[k]; if (q2[k] > hi2) hi2 = q2[k]
      }
      printf "%3d %10d %10d %12.4g %12.4g %12.4g %8.3f [%5.3f,%5.3f] %8.3f [%5.3f,%5.3f] %10.3f %10.3f\n", r,
        dofs["sphere", r], dofs["const", r], median(s, n), median(ro, n), median(co, n),
        median(q1, n), lo1, hi1, median(q2, n), lo2, hi2,
        best["sphere", r] / best["rotation", r], best["sphere", r] / best["const", r]
    }
  }' "$tmp/all" | sort -n
