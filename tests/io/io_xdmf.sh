#!/bin/sh
# io.xdmf: two time series (2D nvar 1 with error, XDMF beside the data folder;
# 3D nvar 2 without error, XDMF in a sibling folder) checked by check_xdmf.py.
# Usage: io_xdmf.sh IO_GEN PYTHON3 H5LS H5DUMP CHECK_XDMF_PY DIR
set -u
IO_GEN=$1 PY=$2 H5LS=$3 H5DUMP=$4 CHECK=$5 DIR=$6
rm -rf "$DIR" && mkdir -p "$DIR" || exit 2
"$IO_GEN" xdmf "$DIR" || { echo "io_gen xdmf failed" >&2; exit 1; }
fail=0
"$PY" "$CHECK" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 8 4 --box 0 2 -1 1 --s 2 \
  --nvar 1 --error 1 --ngrids 3 "$DIR/run2d.xmf" || fail=1
"$PY" "$CHECK" --h5ls "$H5LS" --h5dump "$H5DUMP" --cells 3 2 4 --box 0 1 0 2 0 3 --s 2 \
  --nvar 2 --error 0 --ngrids 3 "$DIR/sub/run3d.xmf" || fail=1
# The sibling-folder series must reference its data as ../data/...
grep -q '>\.\./data/run3d_0000\.h5:/view/values<' "$DIR/sub/run3d.xmf" || { echo "FAIL: run3d.xmf paths are not ../data/..." >&2; fail=1; }
grep -q '>data/run2d_0002\.h5:/view/degree<' "$DIR/run2d.xmf" || { echo "FAIL: run2d.xmf paths are not data/..." >&2; fail=1; }
exit $fail
