# app_common.sh - what the advect test scripts of tests/app share (sourced by
# app_test.sh, config_test.sh and restart_test.sh, which all take the arguments
#   CASE DIR ADVECT COMPARE H5LS H5DUMP PYTHON3 CHECK_XDMF_PY DG_APP_C IO_GEN):
# the arguments, a fresh working folder DIR (made the current one), and the
# helpers that run advect and read its snapshots.
#
# Every error case asserts the exact one-line message on stderr, exit status
# 2, and that nothing was written (or the earlier output is byte-identical).
# A crash or a sanitizer report fails these checks: it changes the status and
# adds lines to stderr.
# shellcheck shell=sh disable=SC2034  # (the variables are for the scripts that source it)
set -u
CASE=$1 DIR=$2 ADV=$3 CMP=$4 H5LS=$5 H5DUMP=$6 PY=$7 CHECK_XDMF=$8 DG_APP_C=$9 IO_GEN=${10}
rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
cd "$DIR" || exit 2
fail=0
bad() { echo "FAIL [app.$CASE]: $*" >&2; fail=1; }
die() { echo "FAIL [app.$CASE]: $*" >&2; exit 1; }

# run ARGS...: advect in the current folder; RC, stdout in $DIR/out, stderr in $DIR/err
run() { "$ADV" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
. "$(dirname "$0")/checks.sh"
# runenv VAR=VALUE ARGS...: the same with one extra environment variable
runenv() { _e=$1; shift; env "$_e" "$ADV" "$@" > "$DIR/out" 2> "$DIR/err"; RC=$?; }
# attr FILE NAME: a scalar root attribute of an HDF5 file
attr() { "$H5DUMP" -a "/$2" "$1" | sed -n 's/^ *(0): //p' | tr -d '"'; }
# coeff_bin FILE OUT: the raw bytes of /coeff (and /degree) for a bitwise comparison
coeff_bin() {
  "$H5DUMP" -d /coeff -b LE -o "$2.coeff" "$1" > /dev/null 2>&1 &&
    "$H5DUMP" -d /degree -b LE -o "$2.degree" "$1" > /dev/null 2>&1
}
# same_coeffs LABEL A B: A and B hold bitwise identical coefficients
same_coeffs() {
  "$CMP" --tol 0 "$2" "$3" > "$DIR/cmp.out" 2> "$DIR/cmp.err"
  _rc=$?
  [ $_rc -eq 0 ] || { bad "$1: compare --tol 0 $2 $3 exited $_rc: $(cat "$DIR/cmp.out" "$DIR/cmp.err")"; return; }
  _line=$(head -n 1 "$DIR/cmp.out")
  case $_line in *" max_abs_diff=0 "*" degree_mismatch=0") ;;
  *) bad "$1: $2 and $3 differ: $_line" ;; esac
  coeff_bin "$2" "$DIR/bin_a" && coeff_bin "$3" "$DIR/bin_b" || { bad "$1: h5dump of /coeff failed"; return; }
  cmp -s "$DIR/bin_a.coeff" "$DIR/bin_b.coeff" || bad "$1: /coeff of $2 and $3 differ in their bytes"
  cmp -s "$DIR/bin_a.degree" "$DIR/bin_b.degree" || bad "$1: /degree of $2 and $3 differ"
}
# readable LABEL FILE: FILE reads back as a snapshot (compare FILE FILE)
readable() {
  "$CMP" --quiet --tol 0 "$2" "$2" > "$DIR/cmp.out" 2> "$DIR/cmp.err" ||
    bad "$1: $2 does not read back: $(cat "$DIR/cmp.err" "$DIR/cmp.out")"
}
# param FILE KEY: the value of KEY in /parameters (the options as given)
param() {
  "$H5DUMP" -g /parameters "$1" | awk -v a="ATTRIBUTE \"$2\" {" \
    'index($0, a) { on = 1 } on && /\(0\): / { sub(/^ *\(0\): /, ""); gsub(/"/, ""); print; exit }'
}
# cfgdump FILE: the configuration a snapshot stores (as --print-config writes it)
cfgdump() { "$ADV" --restart "$1" --print-config 2> /dev/null | grep -v '^restart = '; }
# listing: the files of the current folder, recursively, with their checksums
# (its own listing: the comparison files it makes are not the run's)
listing() { find . -type f ! -name out ! -name err ! -name 'cmp.*' ! -name 'bin_*' | LC_ALL=C sort | xargs -r cksum; }
