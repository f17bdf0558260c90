#!/bin/sh
# compare.<CASE>: runs apps/compare on files from `io_gen compare` and checks
# exit status, the machine-readable line, the summary and error messages.
# Usage: compare_test.sh CASE COMPARE IO_GEN DIR
set -u
CASE=$1 CMP=$2 GEN=$3 DIR=$4
rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
"$GEN" compare "$DIR" || { echo "io_gen compare failed" >&2; exit 1; }
. "$DIR/expect.sh"
fail=0
bad() { echo "FAIL [$CASE]: $*" >&2; fail=1; }

# run ARGS...: RC, and stdout/stderr in $DIR/out, $DIR/err
run() { "$CMP" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
# key NAME: value of NAME= on the machine-readable (first) line
key() { head -n 1 "$DIR/out" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# near A B TOL: |A-B| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
# relnear A B REL: |A-B| <= REL*|B|
relnear() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= r * m) }'; }
want_rc() { [ "$RC" -eq "$1" ] || bad "exit status $RC, expected $1 (stderr: $(cat "$DIR/err"))"; }
want_key() { [ "$(key "$1")" = "$2" ] || bad "$1=$(key "$1"), expected $2 in: $(head -n 1 "$DIR/out")"; }
want_err() { [ "$(cat "$DIR/err")" = "$1" ] || bad "stderr: '$(cat "$DIR/err")', expected '$1'"; }
want_out_line() { grep -qxF "$1" "$DIR/out" || bad "no line '$1' in stdout: $(cat "$DIR/out")"; }
machine_line_ok() {
  head -n 1 "$DIR/out" | grep -Eq '^compare: dofs=[0-9]+ max_abs_diff=[^ ]+ max_at_element=\([0-9,]+\) max_at_mode=\([0-9,]+\) l2_diff=[^ ]+ l2_ref=[^ ]+ rel_l2_diff=[^ ]+ coeff_rel_l2=[^ ]+ degree_mismatch=[0-9]+$' ||
    bad "machine-readable line malformed: $(head -n 1 "$DIR/out")"
}

case $CASE in
identical)
  run --tol 0 "$DIR/base.h5" "$DIR/base.h5"
  want_rc 0; machine_line_ok
  want_key dofs "$DOFS"; want_key max_abs_diff 0; want_key l2_diff 0; want_key rel_l2_diff 0
  want_key coeff_rel_l2 0; want_key degree_mismatch 0
  # the first largest difference is reported: element (0,0), mode (0,0) when none differ
  want_key max_at_element "(0,0)"; want_key max_at_mode "(0,0)"
  relnear "$(key l2_ref)" "$L2_REF" 1e-13 || bad "l2_ref $(key l2_ref), expected $L2_REF"
  grep -q '^compare: PASS: rel_l2_diff=0 <= tol=0$' "$DIR/out" || bad "no PASS line"
  # HDF5 against its text twin: %.17g text is exact, so still zero.
  run "$DIR/base.txt" "$DIR/base.h5"
  want_rc 0; want_key max_abs_diff 0; want_key dofs "$DOFS"
  grep -q '  A: .*base.txt (text, ' "$DIR/out" || bad "A not reported as text"
  grep -q '  B: .*base.h5 (HDF5, ' "$DIR/out" || bad "B not reported as HDF5"
  ;;
perturbed)
  run --tol 1e-12 "$DIR/pert.h5" "$DIR/base.h5"
  want_rc 1; machine_line_ok
  want_key max_at_element "$PERT_ELEM"; want_key max_at_mode "$PERT_MODE"
  want_key dofs "$DOFS"; want_key degree_mismatch 0
  near "$(key max_abs_diff)" 1e-9 1e-20 || bad "max_abs_diff $(key max_abs_diff) not within 1e-20 of 1e-9"
  relnear "$(key l2_diff)" "$PERT_L2" 1e-12 || bad "l2_diff $(key l2_diff), expected $PERT_L2 (mass-matrix norm)"
  relnear "$(key coeff_rel_l2)" "$PERT_CREL" 1e-12 || bad "coeff_rel_l2 $(key coeff_rel_l2), expected $PERT_CREL"
  relnear "$(key rel_l2_diff)" "$(awk -v a="$PERT_L2" -v b="$L2_REF" 'BEGIN { printf "%.17g", a / b }')" 1e-12 ||
    bad "rel_l2_diff $(key rel_l2_diff) is not l2_diff/l2_ref"
  grep -q "^compare: FAIL: rel_l2_diff=$(key rel_l2_diff) exceeds tol=9.9999999999999998e-13$" "$DIR/out" ||
    bad "no FAIL line explaining why: $(cat "$DIR/out")"
  grep -q "^  largest |A-B| = 1.000000e-09 at element (3,2), variable 0, mode (1,2)$" "$DIR/out" ||
    bad "summary does not name the perturbed coefficient"
  # A looser tolerance passes; --quiet leaves only the machine line.
  run --quiet --tol=1e-6 "$DIR/pert.h5" "$DIR/base.h5"
  want_rc 0
  [ "$(wc -l < "$DIR/out")" -eq 1 ] || bad "--quiet printed $(wc -l < "$DIR/out") lines"
  run --quiet --tol 1e-12 "$DIR/pert.h5" "$DIR/base.h5"
  want_rc 1
  [ "$(wc -l < "$DIR/out")" -eq 2 ] || bad "--quiet with a failure should print the line and the FAIL reason"
  # Without --tol a difference is reported, not failed.
  run "$DIR/pert.h5" "$DIR/base.h5"
  want_rc 0
  # 3D location format.
  run "$DIR/pert3.h5" "$DIR/base3.h5"
  want_rc 0; machine_line_ok
  want_key max_at_element "$PERT3_ELEM"; want_key max_at_mode "$PERT3_MODE"
  near "$(key max_abs_diff)" 1e-6 1e-15 || bad "3D max_abs_diff $(key max_abs_diff)"
  ;;
degree_mismatch)
  for order in "lowdeg.h5 base.h5" "base.h5 lowdeg.h5"; do
    set -- $order
    run "$DIR/$1" "$DIR/$2"
    want_rc 0; machine_line_ok
    want_key degree_mismatch "$LOW_MISMATCH"; want_key dofs "$LOW_DOFS"
    want_key max_abs_diff 0  # common modes are the same numbers
    want_out_line "  elements with different degrees: $LOW_MISMATCH; uncompared modes: $LOW_UNCOMPARED, largest |coefficient| among them: $LOW_UMAX"
  done
  ;;
grid_mismatch)
  run "$DIR/base.h5" "$DIR/cells16.h5"
  want_rc 2; want_err "compare: grids differ: A has cells 8x6, B has 16x6"
  [ -s "$DIR/out" ] && bad "stdout not empty on a grid mismatch"
  run "$DIR/base.h5" "$DIR/box2.h5"
  want_rc 2; want_err "compare: grids differ: A has box [0,1]x[0,1], B has [0,2]x[0,1]"
  run "$DIR/base.h5" "$DIR/nvar2.h5"
  want_rc 2; want_err "compare: variables differ: A has nvar 1, B has nvar 2"
  run "$DIR/base.h5" "$DIR/dim3.h5"
  want_rc 2; want_err "compare: grids differ: A has dim 2, B has dim 3"
  ;;
missing_file)
  run "$DIR/base.h5" "$DIR/nope.h5"
  want_rc 2; want_err "compare: $DIR/nope.h5: cannot open: No such file or directory"
  run "$DIR/nope.txt" "$DIR/base.h5"
  want_rc 2; want_err "compare: $DIR/nope.txt: cannot open: No such file or directory"
  ;;
malformed)
  run "$DIR/truncated.txt" "$DIR/base.h5"
  want_rc 2
  want_err "compare: $DIR/truncated.txt:11: expected 4 coefficient values for element (0,0), found 3 before end of file"
  run "$DIR/base.h5" "$DIR/nocoeff.h5"
  want_rc 2; want_err "compare: $DIR/nocoeff.h5: dataset /coeff is missing"
  ;;
hostile)
  # Every refusal is exactly one line on stderr and status 2, never a hang.
  one_line() { [ "$(wc -l < "$DIR/err")" -eq 1 ] || bad "stderr is not one line: $(cat "$DIR/err")"; }
  # A corrupt snapshot (8 bytes overwritten inside the HDF5 metadata) never
  # reaches HDF5: the checksum block catches it.
  cp "$DIR/base.h5" "$DIR/corrupt.h5"
  printf 'CORRUPT!' | dd of="$DIR/corrupt.h5" bs=1 seek=600 conv=notrunc 2>/dev/null
  size=$(wc -c < "$DIR/corrupt.h5")
  run "$DIR/corrupt.h5" "$DIR/base.h5"
  want_rc 2; one_line
  grep -qx "compare: $DIR/corrupt.h5: checksum mismatch, the file is corrupt (CRC-64 of its $((size - 512)) data bytes is [0-9a-f]\{16\}, the checksum block says [0-9a-f]\{16\})" "$DIR/err" ||
    bad "corrupt file: $(cat "$DIR/err")"
  # Non-regular inputs are refused without reading (these used to hang).
  run /dev/zero "$DIR/base.h5"
  want_rc 2; want_err "compare: /dev/zero: not a regular file (a character device); only regular files are read"
  mkfifo "$DIR/fifo" || bad "mkfifo"
  run "$DIR/base.h5" "$DIR/fifo"
  want_rc 2; want_err "compare: $DIR/fifo: not a regular file (a FIFO); only regular files are read"
  # A file from before checksums: refused, read with --unverified.
  tail -c +513 "$DIR/base.h5" > "$DIR/legacy.h5"
  run "$DIR/legacy.h5" "$DIR/base.h5"
  want_rc 2; want_err "compare: $DIR/legacy.h5: HDF5 file without a dgrid checksum block (written before checksums, or by another program); not parsed unverified"
  run --unverified --tol 0 "$DIR/legacy.h5" "$DIR/base.h5"
  want_rc 0; want_key max_abs_diff 0; want_key dofs "$DOFS"
  # Option values and file names with newlines and terminal escapes: escaped, one line.
  run --tol "$(printf '1\n\033[2J')" "$DIR/base.h5" "$DIR/base.h5"
  want_rc 2; want_err "compare: --tol needs a non-negative number, got '1\n\x1b[2J'"
  run "$DIR/no$(printf '\n\033')such.h5" "$DIR/base.h5"
  want_rc 2; want_err "compare: $DIR/no\n\x1bsuch.h5: cannot open: No such file or directory"
  ;;
usage)
  run
  want_rc 2; want_err "compare: expected two files A and B, got 0 (see compare --help)"
  run "$DIR/base.h5"
  want_rc 2; want_err "compare: expected two files A and B, got 1 (see compare --help)"
  run "$DIR/base.h5" "$DIR/base.h5" "$DIR/base.h5"
  want_rc 2
  run --bogus "$DIR/base.h5" "$DIR/base.h5"
  want_rc 2; want_err "compare: unknown option '--bogus' (see compare --help)"
  run --tol abc "$DIR/base.h5" "$DIR/base.h5"
  want_rc 2; want_err "compare: --tol needs a non-negative number, got 'abc'"
  run --tol -1 "$DIR/base.h5" "$DIR/base.h5"
  want_rc 2; want_err "compare: --tol needs a non-negative number, got '-1'"
  run --tol 0x1p-40 "$DIR/base.h5" "$DIR/base.h5"
  want_rc 2; want_err "compare: --tol needs a non-negative number, got '0x1p-40'"
  run "$DIR/base.h5" "$DIR/base.h5" --tol
  want_rc 2; want_err "compare: --tol needs a value (see compare --help)"
  run --help
  want_rc 0
  for word in "--tol T" "--quiet" "--help" "exit status" "max_at_element" "coeff_rel_l2"; do
    grep -qF -- "$word" "$DIR/out" || bad "--help does not mention '$word'"
  done
  ;;
*)
  echo "compare_test.sh: unknown case '$CASE'" >&2
  exit 2
  ;;
esac
[ $fail -eq 0 ] && echo "compare.$CASE: all checks passed"
exit $fail
