#!/usr/bin/env bash
# tests/bench/smoke.sh BENCH WORKDIR - bench.smoke: run tiny fixed cases of
# apps/bench, print their numbers, and check that the output is well formed
# and the counted numbers are right.  Never fails on speed: timings are only
# checked to be finite, positive and consistent with each other.
#
# The flops and bytes of a stage are recomputed here from the operations in
# stencils/dg_stages.h (uniform degree r, Q = r+1, one variable, constant
# velocity), separately from core/dg_disc.c's dg_disc_work.  One RK stage is
# one fused pass per element (the traces of the new coefficients are written
# by the update that makes them):
#   face values of the new coefficients (the next stage's traces) and, unless
#            the backend reads them back from the trace array (CSV column
#            reuse_traces), of the old ones (own side of each flux); with
#            nbr_coeffs (CSV column) the old ones and, on each face, the
#            neighbour's facing side from its coefficients, and no traces
#            at all: per direction, collapse the normal
#            direction into even and odd sums (M adds, then e-o and e+o for
#            the two sides) and contract the tangential ones to the Q face
#            points on each side
#   lifting: per direction, the two faces' fluxes combined (G- - G+ for the
#            even modes, G- + G+ for the odd), contracted, added to M modes
#   every 1D contraction is split into even and odd parts over the
#            symmetric point pairs (dg_contract)
#   volume : values at the Q^d points, flux x weight per direction, test with
#            the gradient; faces: Rusanov, lifting; mass scale and RK update
#   bytes_min   = dofs x real x (2 + register streams)       (the definition)
#   bytes_moved = padded coefficients x real x (2 + register streams)
#                 + (2 + reuse_traces) x face traces (write new, read the
#                   neighbours' and, with reuse_traces, the own old ones),
#                   none with nbr_coeffs (the neighbours' coefficients count
#                   as cache hits)
#                 + neighbour offsets (int)
# bytes_min and dofs follow from their definitions; the flops and bytes_moved
# mirror the implementation and change with it: when dg_disc_work's model
# changes, change it here too (that is the point of the check).
set -u
BENCH=${1:?usage: smoke.sh BENCH WORKDIR}
WORK=${2:?usage: smoke.sh BENCH WORKDIR}
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
fail=0
bad() { echo "bench.smoke: FAIL: $*" >&2; fail=1; }

REQUIRED="dim degree map integrator nelem dofs steps median_step_s spread trace_s update_s \
dof_stage_per_s gflops gbs_min gbs_moved bw_fraction stream_gbs backend threads real"
# quick and small: no peak loop, a cache-sized triad, fixed steps
COMMON="--repeats 3 --warmup 0 --stream-mib 8 --no-peak"

run() { # name, then bench options
  local name=$1
  shift
  echo "== bench $* $COMMON"
  "$BENCH" "$@" $COMMON --csv "$WORK/$name.csv" --json "$WORK/$name.json" \
    >"$WORK/$name.out" 2>"$WORK/$name.err"
  local rc=$?
  cat "$WORK/$name.out"
  if [ $rc -ne 0 ]; then
    bad "$name: exit status $rc: $(cat "$WORK/$name.err")"
    return 1
  fi
  [ -s "$WORK/$name.err" ] || bad "$name: no progress lines on stderr"
  return 0
}

# Check one CSV: header, field counts, numbers, counted work.
# $2: expected number of rows.
check_csv() {
  local csv=$1 rows=$2
  awk -F, -v want_rows="$rows" -v required="$REQUIRED" '
    function fail(msg) { print "bench.smoke: FAIL: " FILENAME ": " msg > "/dev/stderr"; bad = 1 }
    function num(name,   v) {
      v = $(col[name])
      if (v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) { fail("row " NR ": " name " = \"" v "\" is not a number"); return 0 }
      return v + 0
    }
    function pos(name,   v) { v = num(name); if (!(v > 0)) fail("row " NR ": " name " = " v " is not positive"); return v }
    function close_to(name, got, want) {
      if (!(got - want <= 1e-6 * (want < 0 ? -want : want) + 1e-9 && want - got <= 1e-6 * (want < 0 ? -want : want) + 1e-9))
        fail("row " NR ": " name " = " got ", expected " want)
    }
    function p(b, e,   x, i) { x = 1; for (i = 0; i < e; i++) x *= b; return x }
    NR == 1 {
      nf = NF
      for (i = 1; i <= NF; i++) col[$i] = i
      n = split(required, req, " ")
      for (i = 1; i <= n; i++) if (!(req[i] in col)) fail("column " req[i] " is missing")
      for (i = 1; i <= n; i++) if (col[req[i]] != i) fail("column " req[i] " is not column " i)
      next
    }
    {
      nrow++
      if (NF != nf) { fail("row " NR " has " NF " fields, the header " nf); next }
      d = num("dim"); r = num("degree"); nel = pos("nelem"); dofs = pos("dofs")
      stages = pos("stages"); W = pos("lane_width")
      T = pos("median_step_s"); pos("steps"); pos("dof_stage_per_s"); pos("gflops")
      pos("gbs_min"); pos("gbs_moved"); pos("bw_fraction"); pos("stream_gbs"); pos("threads")
      if (num("trace_s") < 0 || num("update_s") < 0) fail("row " NR ": negative phase time")
      if (num("spread") < 0) fail("row " NR ": negative spread")
      if (num("min_step_s") > T || num("max_step_s") < T) fail("row " NR ": median outside min..max")
      if ($(col["backend"]) == "") fail("row " NR ": empty backend")
      real = $(col["real"]); rb = real == "double" ? 8 : (real == "float" ? 4 : 0)
      if (!rb) fail("row " NR ": real is \"" real "\"")
      fl = pos("flops_stage"); bmin = pos("bytes_min_stage"); bmov = pos("bytes_moved_stage")
      # rates are the counted numbers over the median step
      close_to("dof_stage_per_s", num("dof_stage_per_s"), dofs * stages / T)
      close_to("gflops", num("gflops"), fl * stages / T / 1e9)
      close_to("gbs_min", num("gbs_min"), bmin * stages / T / 1e9)
      close_to("gbs_moved", num("gbs_moved"), bmov * stages / T / 1e9)
      close_to("bw_fraction", num("bw_fraction"), num("gbs_min") / num("stream_gbs"))
      if ($(col["map"]) != "uniform") next
      # uniform degree r, Q = r+1 (the default)
      N = r + 1; Q = N; M = p(N, d); QF = p(Q, d - 1); NP = p(Q, d)
      if (num("q") != Q) fail("row " NR ": q = " num("q") ", expected " Q)
      nc = split($(col["cells"]), cc, "x"); prod = 1
      for (i = 1; i <= nc; i++) prod *= cc[i]
      if (nc != d) fail("row " NR ": cells " $(col["cells"]) " for dim " d)
      close_to("nelem", nel, prod)
      close_to("dofs", dofs, nel * M)
      # a contraction between N modes and Q points, per line, in the even-odd
      # form: N ceil(Q/2) multiply-adds and floor(Q/2) sums/differences
      C = 2 * N * int((Q + 1) / 2) + 2 * int(Q / 2)
      # face values once (new coefficients) or twice (old ones too, unless
      # the backend reads them back: column reuse_traces)
      reuse = num("reuse_traces"); nfv = reuse ? 1 : 2
      if (reuse != 0 && reuse != 1) fail("row " NR ": reuse_traces = " reuse)
      coef = num("nbr_coeffs"); ntr = coef ? 0 : 2 + reuse
      if (coef != 0 && coef != 1) fail("row " NR ": nbr_coeffs = " coef)
      if (coef && reuse) fail("row " NR ": nbr_coeffs and reuse_traces")
      if (coef) nfv = 1
      if (d == 2) {
        f = nfv * 2 * (M + 2 * N + 2 * C) + C * N + C * Q
        if (coef) f += 4 * (M + N + C)
        f += 2 * (3 * NP + C * Q + C * N)
        f += 4 * 10 * QF + 2 * (2 * QF + 2 * C + M) + 6 * M
      } else {
        f = nfv * 3 * (M + 2 * N * N + 2 * (C * N + C * Q))
        if (coef) f += 6 * (M + N * N + C * N + C * Q)
        f += C * N * N + C * Q * N + C * Q * Q
        f += 3 * (3 * NP + C * Q * Q + C * N * Q + C * N * N)
        f += 6 * 10 * QF + 3 * (2 * QF + 2 * (C * Q + C * N) + M) + 6 * M
      }
      close_to("flops_stage", fl, nel * f)
      integ = $(col["integrator"])
      reg = integ == "euler" ? 0 : (integ == "rk4" ? 3 : (integ == "lsrk4" ? 2 : 1))
      close_to("stages", stages, integ == "euler" ? 1 : (integ == "ssprk2" ? 2 : (integ == "ssprk3" ? 3 : (integ == "rk4" ? 4 : 5))))
      slots = int((nel + W - 1) / W) * W
      close_to("bytes_min_stage", bmin, dofs * rb * (2 + reg))
      close_to("bytes_moved_stage", bmov, slots * M * rb * (2 + reg) + ntr * slots * 2 * d * QF * rb + slots * 2 * d * 4)
    }
    END {
      if (nrow != want_rows) fail(nrow " rows, expected " want_rows)
      exit bad
    }' "$csv" || fail=1
}

check_json() {
  local json=$1 rows=$2
  local py
  py=$(command -v python3 || true)
  if [ -z "$py" ]; then
    echo "bench.smoke: python3 not found: JSON syntax not checked"
    return 0
  fi
  "$py" - "$json" "$rows" <<'EOF' || fail=1
import json, math, sys
path, rows = sys.argv[1], int(sys.argv[2])
try:
    doc = json.load(open(path))
except Exception as exc:
    print("bench.smoke: FAIL: %s: not JSON: %s" % (path, exc), file=sys.stderr)
    sys.exit(1)
ok = True
def fail(msg):
    global ok
    print("bench.smoke: FAIL: %s: %s" % (path, msg), file=sys.stderr)
    ok = False
meta = doc.get("meta", {})
for k in ("backend", "real", "threads", "stream_gbs", "command", "compiler"):
    if k not in meta:
        fail("meta.%s is missing" % k)
if not (isinstance(meta.get("stream_gbs"), (int, float)) and meta["stream_gbs"] > 0):
    fail("meta.stream_gbs is not positive")
cases = doc.get("cases", [])
if len(cases) != rows:
    fail("%d cases, expected %d" % (len(cases), rows))
for c in cases:
    for k in ("dofs", "median_step_s", "dof_stage_per_s", "flops_stage", "bytes_min_stage"):
        if not (isinstance(c.get(k), (int, float)) and c[k] > 0 and math.isfinite(c[k])):
            fail("case %r: %s = %r" % (c.get("label"), k, c.get(k)))
sys.exit(0 if ok else 1)
EOF
}

# 1. one 2D case (the --case path), forward Euler
if run case2d --case --dim 2 --cells 4x4 --degree 2 --integrator euler --steps 2; then
  check_csv "$WORK/case2d.csv" 1
  check_json "$WORK/case2d.json" 1
  grep -q "^  2   2 uniform" "$WORK/case2d.out" || bad "case2d: no table row"
fi
# 2. one 3D case, classical RK4 (3 register streams), padding-free grid
if run case3d --case --cells 4x4x4 --degree 1 --integrator rk4 --steps 1; then
  check_csv "$WORK/case3d.csv" 1
  check_json "$WORK/case3d.json" 1
fi
# 2b. both the other way of seeing neighbours than the backend's default
#     (DGRID_NEIGHBOURS): the counts follow the nbr_coeffs column
other=coeffs
grep -q ',1$' "$WORK/case2d.csv" 2>/dev/null && other=traces
for dims in "--dim 2 --cells 4x4 --degree 3 --integrator lsrk4" "--cells 2x2x2 --degree 2 --integrator ssprk2"; do
  export DGRID_NEIGHBOURS=$other
  # shellcheck disable=SC2086
  if run nbr$other --case $dims --steps 1; then
    check_csv "$WORK/nbr$other.csv" 1
    want=$([ $other = coeffs ] && echo 1 || echo 0)
    [ "$(awk -F, 'NR == 2 { print $NF }' "$WORK/nbr$other.csv")" = "$want" ] ||
      bad "DGRID_NEIGHBOURS=$other: nbr_coeffs column is not $want"
  fi
  unset DGRID_NEIGHBOURS
done
# a bad value: one line naming the variable, exit status 2
DGRID_NEIGHBOURS=faces "$BENCH" --case --dim 2 --cells 4x4 --degree 1 >"$WORK/badenv.out" \
  2>"$WORK/badenv.err"
rc=$?
[ $rc -ne 0 ] || bad "DGRID_NEIGHBOURS=faces: exit status 0"
grep -q "DGRID_NEIGHBOURS='faces': expected traces, coeffs or auto" "$WORK/badenv.err" ||
  bad "DGRID_NEIGHBOURS=faces: message: $(cat "$WORK/badenv.err")"
# 3. a tiny sweep: degrees 0..2 x {uniform, band 1..2} x {ssprk3, lsrk4}; band
#    runs only above --degree-min 1, so 3*2 uniform + 1*2 band rows
if run sweep --dims 2 --degrees 0-2 --sizes 1K --maps uniform,band --integrators ssprk3,lsrk4 \
  --min-time 0.001; then
  check_csv "$WORK/sweep.csv" 8
  check_json "$WORK/sweep.json" 8
  grep -q "band 1..2 vs uniform 2" "$WORK/sweep.out" || bad "sweep: no band vs uniform line"
fi
# 4. bad options: one line on stderr naming the option, exit status 2
for args in "--degrees 99" "--maps square" "--sizes 1Q" "--frobnicate 1" "--cells 4x4 --dim 3"; do
  # shellcheck disable=SC2086
  "$BENCH" $args >"$WORK/bad.out" 2>"$WORK/bad.err"
  rc=$?
  opt=${args%% *}
  [ $rc -eq 2 ] || bad "'$args': exit status $rc, expected 2"
  [ "$(wc -l <"$WORK/bad.err")" -eq 1 ] || bad "'$args': stderr is not one line: $(cat "$WORK/bad.err")"
  grep -q -- "${opt#--}" "$WORK/bad.err" || bad "'$args': message does not name $opt: $(cat "$WORK/bad.err")"
  [ -s "$WORK/bad.out" ] && bad "'$args': wrote to stdout"
done
# a path option followed by an option: refused, and no file named after it
(cd "$WORK" && "$BENCH" --csv --help >bad.out 2>bad.err)
rc=$?
[ $rc -eq 2 ] || bad "'--csv --help': exit status $rc, expected 2"
[ "$(cat "$WORK/bad.err")" = "bench: option --csv: '--help' looks like an option, not a path (write ./--help)" ] ||
  bad "'--csv --help': $(cat "$WORK/bad.err")"
[ -e "$WORK/--help" ] && bad "'--csv --help' wrote a file named --help"
# --help: exit 0, usage on stdout
"$BENCH" --help >"$WORK/help.out" 2>&1 || bad "--help: exit status $?"
grep -q -- "--gridtools" "$WORK/help.out" || bad "--help does not describe --gridtools"

if [ $fail -ne 0 ]; then
  echo "bench.smoke: FAILED" >&2
  exit 1
fi
echo "bench.smoke: ok"
