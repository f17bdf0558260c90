#!/bin/sh
# The case keys land in K_<key> through eval, which shellcheck cannot follow.
# shellcheck disable=SC2154
# sw_check.sh - dgrid's shallow water on the periodic plane (`advect --model
# shallow_water`) against the Fortran baseline (`dgref model=shallow_water`,
# README.md, "Shallow water on the plane"): the same grid, degree map, q,
# case, parameters, integrator, dt and step count.  The test reference.sw_agree.
#
# usage: sw_check.sh [--sphere] ADVECT DGREF COMPARE WORKDIR [TOL [PVTOL]]
#
# --sphere runs the sphere's cases instead (`--grid latlon` against `dgref
# model=shallow_water grid=latlon`, README.md, "Shallow water on the sphere"):
# the test reference.sw_sphere_agree.
#
# For each case below (tolerances TOL, default 1e-12, and PVTOL, default 1e-11):
#   1. both programs exit 0; dofs, step, q and the model name agree;
#   2. compare --tol TOL dgrid.h5 ref.txt passes: rel_l2_diff (the L2 norm of
#      the coefficient difference over that of dgref's solution, all three
#      variables) <= TOL, every coefficient compared, no degree differs;
#   3. per variable (eta, hu, hv), the largest |coefficient difference| over
#      the variable's dynamic size (its largest |coefficient| once the mean of
#      the cell averages is taken off mode (0,0), so eta's rest level does not
#      hide a difference in the wave) <= PVTOL; where that size is below 1e-9
#      (the lake at rest) the largest difference itself must be <= PVTOL
#      (measured: at most 4e-13; PVTOL leaves room for another compiler's
#      rounding, since this measure divides by the wave's size, not eta's);
#      and per variable the L2 norm of the coefficient difference over that of
#      dgref's coefficients <= TOL.  A case's rest=R (default 1) is the scale
#      of a state at rest: a variable whose size is below 1e-9 R has both
#      measures as its largest difference over R;
#   4. the masses of eta agree to 1e-13 relative; where dgref knows the exact
#      solution (the linear wave, the jet, the lake at rest; the plane only),
#      the two L2 errors agree to compare's l2_diff plus 1e-10 relative and
#      1e-14 absolute.
# The last case of each set plants a mismatch (dgref's bump width off by 1e-6 relative)
# and passes only if steps 2 and 3 catch it.
# Files: WORKDIR/NAME/{dgrid.h5,dgrid.txt,ref.txt,map.txt,commands.txt,*.out,*.err};
# WORKDIR/summary.txt has one line per case with the figures.
# Exit status: 0 all cases pass, 1 a case failed, 2 usage or a program failed.
set -u

prog=sw_check.sh
die() { echo "$prog: $*" >&2; exit 2; }
SET=plane
[ "${1:-}" = --sphere ] && { SET=sphere; shift; }
[ $# -ge 4 ] || die "usage: sw_check.sh [--sphere] ADVECT DGREF COMPARE WORKDIR [TOL [PVTOL]]"
ADVECT=$1 DGREF=$2 COMPARE=$3 WORK=$4 TOL=${5:-1e-12} PVTOL=${6:-1e-11}
for exe in "$ADVECT" "$DGREF" "$COMPARE"; do
  [ -x "$exe" ] || die "program '$exe' does not exist or is not executable (build it first)"
done
HERE=$(cd "$(dirname "$0")" && pwd) || die "cannot find the script's folder"
{ rm -rf "$WORK" && mkdir -p "$WORK"; } || die "cannot create '$WORK'"
: > "$WORK/summary.txt"
export OMP_NUM_THREADS=1

NFAIL=0
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
hdr() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }
show() { [ -s "$1" ] && sed 's/^/    | /' "$1" >&2; return 0; }

# Per variable: max |A - B| / the variable's dynamic size in B (check 3), and
# the L2 norm of A - B over that of B; a variable at rest (size <= 1e-9 R,
# R = $3, the rest state's scale) has both as max |A - B| / R.
pervar() {
  awk -v R="$3" '
    FNR == 1 { f++ }
    $1 == "nvar" { nv = $2 }
    $1 == "e" { key = $2 " " $3; r = $4; n = (r + 1) * (r + 1); k = 0; next }
    $1 ~ /^[-+0-9.]/ && key != "" {
      for (i = 1; i <= NF; ++i) { v = int(k / n); m = k % n; c[f, key, v, m] = $i + 0; k++
        if (f == 2 && m == 0) { mean[v] += $i; cnt[v]++ } }
    }
    END {
      out = ""; worst = 0; l2worst = 0
      for (v = 0; v < nv; ++v) { mean[v] /= cnt[v]; d[v] = 0; s[v] = 0 }
      for (idx in c) {
        split(idx, p, SUBSEP); if (p[1] != 2) continue
        v = p[3]; m = p[4]; b = c[idx]; a = c[1, p[2], v, m]
        x = a - b; if (x < 0) x = -x; if (x > d[v]) d[v] = x
        sd[v] += x * x; sb[v] += b * b
        y = b - (m == 0 ? mean[v] : 0); if (y < 0) y = -y; if (y > s[v]) s[v] = y
      }
      for (v = 0; v < nv; ++v) {
        q = s[v] > 1e-9 * R ? d[v] / s[v] : d[v] / R
        l = s[v] > 1e-9 * R ? sqrt(sd[v] / sb[v]) : q
        out = out sprintf(" var%d_diff=%.3e var%d_scale=%.3e var%d_rel=%.3e var%d_l2rel=%.3e", v, d[v], v, s[v], v, q, v, l)
        if (q > worst) worst = q
        if (l > l2worst) l2worst = l
      }
      printf "worst=%.3e l2worst=%.3e%s\n", worst, l2worst, out
    }' "$1" "$2"
}

# One case: key=value ... (model=sw|hump, case, eq, nx, ny, x0, x1, y0, y1,
# deg | map=band|random degmin [seed], q (default max degree + 1), f0, beta, wave=M,N, amp, bump=B0,W,
# drift, hump, rk, dt, nsteps; ref.bumpw=V plants a mismatch: dgref's bump width).
run() {
  NAME=$1
  shift
  KEYS="model grid case eq nx ny x0 x1 y0 y1 deg map degmin seed q f0 beta wave amp bump drift hump depth alpha rest rk dt nsteps ref_bumpw"
  for k in $KEYS; do eval "K_$k="; done
  K_model=sw K_eq=nonlinear K_x0=0 K_x1=1 K_y0=0 K_y1=1 K_f0=0 K_beta=0 K_wave=1,1 K_amp=0.01
  K_bump=0.5,0.1 K_drift=0.2 K_degmin=0 K_seed=1 K_grid=box K_depth=1 K_alpha=0 K_rest=1
  for arg in "$@"; do
    key=${arg%%=*} val=${arg#*=}
    [ "$key" = ref.bumpw ] && key=ref_bumpw
    case " $KEYS " in *" $key "*) ;; *) die "[$NAME] unknown key in '$arg'" ;; esac
    [ -n "$val" ] || die "[$NAME] empty value in '$arg'"
    eval "K_$key=\$val"
  done
  D=$WORK/$NAME
  mkdir -p "$D" || die "cannot create '$D'"
  # ---- dgrid
  if [ "$K_model" = hump ]; then set -- --model-file "$HERE/sw_lake_hump.h" --amplitude "$K_hump"
  else set -- --model shallow_water --amplitude "$K_amp"; fi
  set -- "$@" --case "$K_case" --gravity 9.80616 --depth "$K_depth" --bump "$K_bump" --cells "${K_nx}x$K_ny"
  if [ "$K_grid" = latlon ]; then set -- "$@" --grid latlon --alpha "$K_alpha"
  else set -- "$@" --equations "$K_eq" --wave "$K_wave" --coriolis "$K_f0,$K_beta" --drift "$K_drift" \
    --box "$K_x0,$K_x1,$K_y0,$K_y1"; fi
  if [ -n "$K_map" ]; then set -- "$@" --map "$K_map" --degree-min "$K_degmin" --degree "$K_deg" --seed "$K_seed"
  else set -- "$@" --degree "$K_deg"; fi
  [ -z "$K_q" ] || set -- "$@" --q "$K_q"
  set -- "$@" --integrator "$K_rk" --dt "$K_dt" --steps "$K_nsteps" \
    --output "$D/dgrid.h5" --text-output "$D/dgrid.txt" --quiet
  { echo "# $NAME: dgrid"; echo "$ADVECT $*"; } > "$D/commands.txt"
  "$ADVECT" "$@" > "$D/advect.out" 2> "$D/advect.err" ||
    { echo "$prog: [$NAME] advect failed: $ADVECT $*" >&2; show "$D/advect.err"; exit 2; }
  ALINE=$(grep '^advect: ' "$D/advect.out" | tail -n 1)
  # the map advect made, for dgref (ny lines of nx degrees, row j = 0 first)
  awk -v nx="$K_nx" -v ny="$K_ny" '$1 == "e" && NF == 4 { d[$2 + 0, $3 + 0] = $4; n++ }
    END { if (n != nx * ny) exit 1
          for (j = 0; j < ny; ++j) { l = ""; for (i = 0; i < nx; ++i) l = l (i ? " " : "") d[i, j]; print l } }' \
    "$D/dgrid.txt" > "$D/map.txt" || die "[$NAME] advect's text output has no full degree map"
  # ---- the baseline
  b0=${K_bump%,*} bw=${K_bump#*,}
  set -- model=shallow_water case="$K_case" gravity=9.80616 depth="$K_depth" bump0="$b0" \
    bumpw="${K_ref_bumpw:-$bw}" nx="$K_nx" ny="$K_ny" degfile="$D/map.txt" rk="$K_rk" dt="$K_dt" \
    nsteps="$K_nsteps" out="$D/ref.txt"
  if [ "$K_grid" = latlon ]; then set -- "$@" grid=latlon alpha="$K_alpha"
  else set -- "$@" equation="$K_eq" wavex="${K_wave%,*}" wavey="${K_wave#*,}" amp="$K_amp" f0="$K_f0" \
    beta="$K_beta" drift="$K_drift" x0="$K_x0" x1="$K_x1" y0="$K_y0" y1="$K_y1"; fi
  [ "$K_model" = hump ] && set -- "$@" hump="$K_hump"
  [ -z "$K_q" ] || set -- "$@" q="$K_q"
  { echo "# $NAME: Fortran baseline"; echo "$DGREF $*"; } >> "$D/commands.txt"
  "$DGREF" "$@" > "$D/dgref.out" 2> "$D/dgref.err" ||
    { echo "$prog: [$NAME] dgref failed: $DGREF $*" >&2; show "$D/dgref.err"; exit 2; }
  RLINE=$(grep '^dgref: ' "$D/dgref.out" | tail -n 1)
  # ---- compare
  echo "$COMPARE --tol $TOL $D/dgrid.h5 $D/ref.txt" >> "$D/commands.txt"
  "$COMPARE" --tol "$TOL" --quiet "$D/dgrid.h5" "$D/ref.txt" > "$D/compare.out" 2> "$D/compare.err"
  crc=$?
  CLINE=$(grep '^compare: dofs=' "$D/compare.out" | head -n 1)
  { [ $crc -ne 2 ] && [ -n "$CLINE" ]; } || { echo "$prog: [$NAME] compare failed" >&2; show "$D/compare.err"; exit 2; }
  REL=$(field "$CLINE" rel_l2_diff)
  PV=$(pervar "$D/dgrid.txt" "$D/ref.txt" "$K_rest")
  WORST=$(field "$PV" worst) L2WORST=$(field "$PV" l2worst)
  bad=''
  [ $crc -eq 0 ] || bad="$bad rel_l2_diff=$REL>$TOL"
  awk -v w="$WORST" -v t="$PVTOL" 'BEGIN { exit !(w <= t) }' || bad="$bad per-variable=$WORST>$PVTOL"
  awk -v w="$L2WORST" -v t="$TOL" 'BEGIN { exit !(w <= t) }' || bad="$bad per-variable-l2=$L2WORST>$TOL"
  if [ -n "$K_ref_bumpw" ]; then # the planted mismatch must be caught by both measures
    if [ $crc -eq 1 ] && awk -v w="$WORST" -v t="$PVTOL" 'BEGIN { exit !(w > t) }'; then
      echo "$prog: PASS $NAME: the planted mismatch was caught: rel_l2_diff=$REL per-variable worst=$WORST"
      echo "case=$NAME status=PASS(mismatch caught) rel_l2_diff=$REL $PV" >> "$WORK/summary.txt"
    else
      echo "$prog: FAIL $NAME: a mismatch was planted but not caught: rel_l2_diff=$REL worst=$WORST" >&2
      NFAIL=$((NFAIL + 1))
    fi
    return 0
  fi
  [ "$(field "$CLINE" degree_mismatch)" = 0 ] || bad="$bad degree_mismatch"
  [ "$(field "$ALINE" dofs)" = "$(field "$RLINE" dofs)" ] || bad="$bad dofs"
  [ "$(field "$CLINE" dofs)" = "$(field "$RLINE" dofs)" ] || bad="$bad compared-dofs"
  for k in q model step; do
    [ "$(hdr "$D/dgrid.txt" $k)" = "$(hdr "$D/ref.txt" $k)" ] || bad="$bad header-$k"
  done
  awk -v a="$(field "$ALINE" mass_eta)" -v b="$(field "$RLINE" mass_eta)" \
    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-13 * (b < 0 ? -b : b)) }' || bad="$bad mass_eta"
  # where dgref knows the exact solution, the L2 errors agree: |E_a - E_r| <=
  # l2_diff (the triangle inequality; both use q + 3 Gauss points) + rounding
  RE=$(field "$RLINE" l2_error)
  [ "$K_grid" = box ] || RE='' # the sphere: advect integrates its errors with another rule
  if [ -n "$RE" ]; then
    AE=$(field "$ALINE" l2_error)
    awk -v a="$AE" -v r="$RE" -v d="$(field "$CLINE" l2_diff)" \
      'BEGIN { x = a - r; if (x < 0) x = -x; exit !(x <= d + 1e-10 * r + 1e-14) }' || bad="$bad l2_error($AE/$RE)"
  fi
  if [ -z "$bad" ]; then
    echo "$prog: PASS $NAME: rel_l2_diff=$REL per-variable worst=$WORST l2 worst=$L2WORST"
    echo "case=$NAME status=PASS dofs=$(field "$RLINE" dofs) rel_l2_diff=$REL $PV l2_error=${RE:-none}" >> "$WORK/summary.txt"
  else
    echo "$prog: FAIL $NAME:$bad (files and commands: $D)" >&2
    echo "case=$NAME status=FAIL rel_l2_diff=$REL $PV" >> "$WORK/summary.txt"
    NFAIL=$((NFAIL + 1))
  fi
}

if [ "$SET" = plane ]; then
# The maps keep to degrees 0..3 and q to 3 or 4: advect compiles one kernel per
# model, degree and q on a cold kernel cache (5 to 30 s each); these take about
# 50 s of CPU; with a warm cache the test takes 3 s.
# (a) the gravity wave on a uniform map: the linear equations with f0 = 3, and
#     the nonlinear ones with a larger amplitude
run wave_linear case=gravity_wave eq=linear wave=1,2 f0=3 nx=8 ny=8 deg=3 rk=lsrk4 dt=0.002 nsteps=100
run wave_nonlinear case=gravity_wave wave=2,1 amp=0.05 nx=8 ny=8 deg=2 rk=ssprk3 dt=0.002 nsteps=100
# (b) advect's random map (seeded) on a non-unit box
run wave_random case=gravity_wave wave=1,1 amp=0.05 f0=1 nx=10 ny=8 x0=-1 x1=2 y0=0.5 y1=2.5 \
  map=random degmin=0 deg=2 seed=5 rk=rk4 dt=0.002 nsteps=100
# (c) the lake at rest over the periodic bump on a random map with finite-volume
#     cells (stays at rest in both), and the lake with a hump on its surface
#     (sw_lake_hump.h) over the bump, with q = 4 (the interpolant's degree K = 5)
run lake_rest_random case=lake_at_rest nx=10 ny=10 map=random degmin=0 deg=2 seed=3 rk=ssprk3 dt=0.002 nsteps=100
run lake_hump case=lake_at_rest model=hump hump=0.05 nx=8 ny=8 deg=2 q=4 rk=lsrk4 dt=0.002 nsteps=100
# (d) Coriolis with a band map (degree 1 at the y edges, 2 in the middle): the
#     perturbed lake on a beta-plane, with q = 4 (so the bottom's interpolant has
#     degree K = 2q - 1 - rmax = 5, not rmax + 1), and the jet on the f-plane
#     (q = 3, K = 3)
run lake_hump_beta case=lake_at_rest model=hump hump=0.05 f0=2 beta=4 nx=8 ny=12 x1=2 \
  map=band degmin=1 deg=2 q=4 rk=rk4 dt=0.001 nsteps=200
run jet_band case=jet f0=5 amp=0.5 drift=0.2 nx=6 ny=12 map=band degmin=1 deg=2 rk=rk4 dt=0.001 nsteps=200
# the harness's self-test: dgref's bump width off by 1e-6 relative must be caught
run catches_mismatch case=lake_at_rest model=hump hump=0.05 nx=8 ny=8 deg=2 q=4 rk=lsrk4 dt=0.002 nsteps=100 \
  ref.bumpw=0.1000001

else
# The sphere (--sphere): Williamson 2 at three angles (alpha = pi/2 - 0.05 runs
# across the poles), on the uniform, latitude and random maps; Williamson 5's
# flow over the mountain; the lake at rest over the mountain, and the lake with
# a hump of 300 m (5% of the depth, as on the plane) on the mountain's west
# flank (sw_lake_hump.h), q = 4 (K = 2q - 1 - rmax = 5).  rest= is the lake's
# momentum scale eta0 sqrt(g eta0), against which the at-rest variables'
# differences are measured.  Degrees 0..3, q 3 or 4, as above; the steps keep
# below advect's stable estimate (CFL 1).  2 s on a warm kernel cache; a cold
# one costs advect's kernel compiles (about 1.3 min of CPU).
M5=2000,0.3490658503988659 # Williamson 5's mountain: height, radius pi/9
run sph_w2_uniform grid=latlon case=williamson2 depth=3000 alpha=1.5207963267948966 nx=12 ny=6 deg=2 \
  rk=lsrk4 dt=100 nsteps=100
run sph_w2_latitude grid=latlon case=williamson2 depth=3000 alpha=0.7 nx=16 ny=8 map=latitude degmin=1 \
  deg=3 rk=lsrk4 dt=60 nsteps=100
run sph_w2_random grid=latlon case=williamson2 depth=3000 alpha=0.05 nx=12 ny=6 map=random degmin=0 deg=3 \
  seed=7 rk=lsrk4 dt=60 nsteps=100
run sph_w5_latitude grid=latlon case=williamson5 depth=5960 bump=$M5 nx=16 ny=8 map=latitude degmin=1 \
  deg=3 rk=lsrk4 dt=60 nsteps=100
run sph_lake_rest_random grid=latlon case=lake_at_rest depth=5960 rest=1.44e6 bump=$M5 nx=12 ny=6 \
  map=random degmin=0 deg=2 seed=3 rk=lsrk4 dt=100 nsteps=50
run sph_lake_hump_random grid=latlon model=hump hump=300 case=lake_at_rest depth=5960 bump=$M5 nx=12 ny=6 \
  map=random degmin=0 deg=2 seed=5 q=4 rk=lsrk4 dt=100 nsteps=100
# the harness's self-test: dgref's mountain radius off by 1e-6 relative must be caught
run sph_catches_mismatch grid=latlon model=hump hump=300 case=lake_at_rest depth=5960 bump=$M5 nx=12 ny=6 \
  deg=2 q=4 rk=lsrk4 dt=100 nsteps=100 ref.bumpw=0.3490662
# dgref's input errors on the sphere: exit status 2 and one line naming the key
refuses() {
  key=$1
  shift
  "$DGREF" model=shallow_water grid=latlon nx=4 ny=2 deg=1 dt=1 nsteps=1 out="$WORK/bad.txt" "$@" \
    > "$WORK/bad.out" 2> "$WORK/bad.err"
  rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l < "$WORK/bad.err")" -eq 1 ] && grep -q "\"$key\"" "$WORK/bad.err"; then
    echo "$prog: PASS refuses $*: $(cat "$WORK/bad.err")"
  else
    echo "$prog: FAIL refuses $*: status $rc, stderr: $(cat "$WORK/bad.err")" >&2
    NFAIL=$((NFAIL + 1))
  fi
}
refuses case case=jet
refuses rk rk=rk4
refuses q q=1
refuses a a=-1
fi

cat "$WORK/summary.txt"
[ $NFAIL -eq 0 ] || { echo "$prog: $NFAIL case(s) failed" >&2; exit 1; }
exit 0
