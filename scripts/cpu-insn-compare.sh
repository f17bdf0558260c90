#!/bin/sh
# cpu-insn-compare.sh OLD_TREE NEW_TREE BUILD [MODEL] [Q]: compile the OpenMP stage
# wrappers of MODEL (default advection), 2D, Q points (default 4: degrees 0..Q-1)
# from two source trees with the build's flags, and say per function whether the
# machine code is identical (objdump -d, addresses and symbols stripped).
# BUILD: a configured build folder (its generated dg_omp_parts.h).  The update's
# OpenMP bodies are, in order, the team copy (._omp_fn.0 in 2D), the copy for
# models without coordinates (NX = 0, degrees <= 4) and the general one.
set -eu
OLD=$1 NEW=$2 BUILD=$3 MODEL=${4:-advection} Q=${5:-4}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
printf '#include "%s.h"\n#define DG_OMP_DIM 2\n#define DG_OMP_PART cmp\n#define DG_OMP_RQ(X) DG_RQ_Q%s(X)\n#include "dg_omp_stages.inc"\n' \
  "$MODEL" "$Q" > "$W/part.c"
for t in old new; do
  [ $t = old ] && T=$OLD || T=$NEW
  gcc -O3 -DNDEBUG -march=native -fopenmp -std=gnu11 -I"$T/stencils" -I"$T/core" -I"$T/backends/omp" \
    -I"$T/backends" -I"$BUILD/backends/omp/gen" -I"$T/models" -c "$W/part.c" -o "$W/$t.o"
  objdump -d --no-show-raw-insn "$W/$t.o" | awk '
    /^[0-9a-f]+ <.*>:$/ { name = $2; gsub(/[<>:]/, "", name); next }
    /^ *[0-9a-f]+:\t/ { sub(/^ *[0-9a-f]+:\t/, ""); gsub(/[0-9a-f]+ <[^>]*>/, "ADDR");
                        gsub(/0x[0-9a-f]+\(%rip\)/, "RIP"); print name "\t" $0 }' > "$W/$t.dis"
done
for f in $(cut -f1 "$W/old.dis" "$W/new.dis" | sort -u); do
  a=$(grep -F "$f	" "$W/old.dis" | md5sum) b=$(grep -F "$f	" "$W/new.dis" | md5sum)
  n=$(grep -cF "$f	" "$W/new.dis" || true)
  if [ "$a" = "$b" ]; then echo "same      $f ($n instructions)"; else echo "different $f ($n instructions now)"; fi
done
