#!/bin/sh
# io.h5dump: files written by dg_snapshot_write, read by the HDF5 command-line
# tools (not by our reader): dataset names, shapes, types and a few values.
# Usage: io_h5dump.sh IO_GEN H5DUMP H5LS DIR
set -u
IO_GEN=$1 H5DUMP=$2 H5LS=$3 DIR=$4
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
"$IO_GEN" h5dump "$DIR" || { echo "io_gen failed" >&2; exit 1; }
. "$DIR/expect.sh"

# h5ls -r: every dataset with its shape (slowest dimension first).
"$H5LS" -r "$DIR/s2.h5" > "$DIR/s2.ls" || bad "h5ls s2.h5"
want_ls() { # file.ls name shape-or-Group
  if [ "$3" = Group ]; then pat="^$2 +Group\$"; else pat="^$2 +Dataset \\{$3\\}\$"; fi
  grep -Eq "$pat" "$1" || bad "$(basename "$1"): expected '$2 $3', h5ls says: $(grep -E "^$2 " "$1")"
}
want_ls "$DIR/s2.ls" /grid Group
want_ls "$DIR/s2.ls" /grid/cells 2
want_ls "$DIR/s2.ls" /grid/lo 2
want_ls "$DIR/s2.ls" /grid/hi 2
want_ls "$DIR/s2.ls" /grid/h 2
want_ls "$DIR/s2.ls" /degree "4, 6"
want_ls "$DIR/s2.ls" /coeff_offset 25
want_ls "$DIR/s2.ls" /coeff "$NCOEFF2"
want_ls "$DIR/s2.ls" /gauss_values "24, 16, 2"
want_ls "$DIR/s2.ls" /view Group
want_ls "$DIR/s2.ls" /view/values "2, 12, 18"
want_ls "$DIR/s2.ls" /view/error "2, 12, 18"
want_ls "$DIR/s2.ls" /view/degree "12, 18"
want_ls "$DIR/s2.ls" /parameters Group
want_ls "$DIR/s2.ls" /history "3, 4"

"$H5LS" -r "$DIR/s3.h5" > "$DIR/s3.ls" || bad "h5ls s3.h5"
want_ls "$DIR/s3.ls" /degree "2, 2, 3"
want_ls "$DIR/s3.ls" /coeff_offset 13
want_ls "$DIR/s3.ls" /coeff "$NCOEFF3"
want_ls "$DIR/s3.ls" /grid/cells 3
for absent in /view /gauss_values /history; do
  grep -Eq "^$absent " "$DIR/s3.ls" && bad "s3.h5 has $absent, which was not given"
done

# h5dump -H: exact dataspace and type lines.
hdr() { "$H5DUMP" -H -d "$2" "$DIR/$1"; }
hdr s2.h5 /coeff_offset | grep -q 'DATASPACE  SIMPLE { ( 25 ) / ( 25 ) }' || bad "/coeff_offset dataspace"
hdr s2.h5 /coeff_offset | grep -q 'DATATYPE  H5T_STD_I64LE' || bad "/coeff_offset type"
hdr s2.h5 /coeff | grep -q 'DATATYPE  H5T_IEEE_F64LE' || bad "/coeff type"
hdr s2.h5 /degree | grep -q 'DATATYPE  H5T_STD_U8LE' || bad "/degree type"
hdr s2.h5 /grid/cells | grep -q 'DATATYPE  H5T_STD_I32LE' || bad "/grid/cells type"
hdr s3.h5 /degree | grep -q 'DATASPACE  SIMPLE { ( 2, 2, 3 ) / ( 2, 2, 3 ) }' || bad "3D /degree dataspace"

# Values through h5dump: attributes, cells, the degree map (i+j)%4, offsets.
dump() { "$H5DUMP" "$@" 2>&1; }
dump -a /format "$DIR/s2.h5" | grep -q '(0): "dgrid-snapshot"' || bad "attribute format"
dump -a /format_version "$DIR/s2.h5" | grep -q '(0): 1$' || bad "attribute format_version"
dump -a /dim "$DIR/s2.h5" | grep -q '(0): 2$' || bad "attribute dim"
dump -a /nvar "$DIR/s2.h5" | grep -q '(0): 2$' || bad "attribute nvar"
dump -a /q "$DIR/s2.h5" | grep -q '(0): 4$' || bad "attribute q"
dump -a /view/samples_per_element "$DIR/s2.h5" | grep -q '(0): 3$' || bad "samples_per_element"
dump -a /parameters/cfl "$DIR/s2.h5" | grep -q '(0): "0.4"' || bad "parameter cfl"
dump -a /parameters/scheme "$DIR/s2.h5" | grep -q '(0): "ssprk3"' || bad "parameter scheme"
dump -d /grid/cells "$DIR/s2.h5" | grep -q '(0): 6, 4$' || bad "/grid/cells values"
dump -d /grid/h "$DIR/s2.h5" | grep -q '(0): 0.166667, 0.75$' || bad "/grid/h values"
dump -d /degree "$DIR/s2.h5" > "$DIR/degree.dump"
grep -q '(0,0): 0, 1, 2, 3, 0, 1,' "$DIR/degree.dump" || bad "/degree row 0"
grep -q '(3,0): 3, 0, 1, 2, 3, 0$' "$DIR/degree.dump" || bad "/degree row 3"
# element sizes 2*(r+1)^2 for r = 0,1,2,3: offsets 0, 2, 10, 28, 60, 62
dump -d /coeff_offset -c 6 "$DIR/s2.h5" | grep -q '(0): 0, 2, 10, 28, 60, 62' || bad "/coeff_offset values"
# /view/degree repeats the element degree on 3x3 view cells: row 0 = 0 0 0 1 1 1 2 2 2 ...
dump -d /view/degree -s "0,0" -c "1,9" "$DIR/s2.h5" | grep -q '(0,0): 0, 0, 0, 1, 1, 1, 2, 2, 2' || bad "/view/degree row 0"
dump -d /view/degree -s "3,0" -c "1,3" "$DIR/s2.h5" | grep -q '(3,0): 1, 1, 1' || bad "/view/degree row 3"

[ $fail -eq 0 ] && echo "io.h5dump: all checks passed"
exit $fail
