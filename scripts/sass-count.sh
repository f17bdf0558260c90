#!/bin/bash
# sass-count.sh OBJ... - machine instructions of each stage kernel in CUDA
# object files (static count per thread: the 2D kernels unroll every loop, so
# it is close to what a thread executes), with the most frequent opcodes.
#   scripts/sass-count.sh build-cuda/backends/cuda/CMakeFiles/dg_backend.dir/gen/dg_cuda_2d_*.o \
#     | grep 'team<1,8,'
# Needs cuobjdump: the CUDA toolkit's, or PyPI's nvidia-cuda-cuobjdump
# (pip download nvidia-cuda-cuobjdump; unzip; CUOBJDUMP=.../bin/cuobjdump).
set -eu
dump=${CUOBJDUMP:-cuobjdump}
for o in "$@"; do "$dump" -sass "$o"; done | python3 -c '
import re, sys, collections
cur = None
count, ops = collections.OrderedDict(), {}
for line in sys.stdin:
    m = re.search(r"Function : \S*dg_cuda_(\w+?)ILi(\d+)ELi(\d+)ELi(\d+)E", line) or \
        re.search(r"Function : \S*dg_cuda_(\w+?)ILi(\d+)ELi(\d+)E((?:Lb[01]E?)*)", line)
    if m:
        g = m.groups()
        cur = "%s<%s>" % (g[0], ",".join(re.sub(r"Lb([01])E?", r"\1,", x).strip(",") for x in g[1:] if x))
        count[cur], ops[cur] = 0, collections.Counter()
        continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m and cur and m.group(1) != "NOP":
        count[cur] += 1
        ops[cur][m.group(1).split(".")[0]] += 1
for k, n in count.items():
    print("%-28s %6d  %s" % (k, n, " ".join("%s:%d" % kv for kv in ops[k].most_common(8))))
'
