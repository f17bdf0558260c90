#!/usr/bin/env python3
"""cuda-cache-resources.py - registers and stack frame of every kernel of the
CUDA units in the kernel cache (as NVRTC compiled them: `dgrid cache warm MODEL
--backends cuda:sm_90` fills it without a GPU), read from each unit's CUBIN:
EIATTR_REGCOUNT and EIATTR_FRAME_SIZE of its .nv.info section (pyelftools).

  scripts/cuda-cache-resources.py [--cache DIR] [PATTERN]

PATTERN: a substring of the unit's description in its .meta file
("cuda shallow_water 2D r=3 q=4"; default "cuda ").  DIR: the cache folder
[$DGRID_CACHE_DIR, else $XDG_CACHE_HOME/dgrid, else ~/.cache/dgrid].
Prints one line per kernel: the unit, the kernel's name, registers, frame bytes.
"""
import io
import os
import re
import struct
import sys

from elftools.elf.elffile import ELFFile

EIFMT_SVAL, EIATTR_FRAME_SIZE, EIATTR_REGCOUNT = 0x04, 0x11, 0x2F


def cache_dir(arg):
    if arg:
        return arg
    if os.environ.get("DGRID_CACHE_DIR"):
        return os.environ["DGRID_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dgrid")


def kernels(blob):
    """(name, registers, frame) of each kernel of the first ELF image in blob."""
    start = blob.find(b"\x7fELF")
    if start < 0:
        return []
    elf = ELFFile(io.BytesIO(blob[start:]))
    names = [s.name for s in elf.get_section_by_name(".symtab").iter_symbols()]
    regs, frame, text = {}, {}, []
    for sec in elf.iter_sections():
        if sec.name.startswith(".text."):
            text.append(sec.name[len(".text."):])
        if not sec.name.startswith(".nv.info"):
            continue
        d, p = sec.data(), 0
        while p + 4 <= len(d):
            fmt, attr, size = d[p], d[p + 1], struct.unpack_from("<H", d, p + 2)[0]
            if fmt != EIFMT_SVAL:
                p += 4
                continue
            if attr in (EIATTR_REGCOUNT, EIATTR_FRAME_SIZE) and size >= 8:
                sym, val = struct.unpack_from("<II", d, p + 4)
                (regs if attr == EIATTR_REGCOUNT else frame)[names[sym]] = val
            p += 4 + size
    return [(n, regs.get(n, "?"), frame.get(n, "?")) for n in sorted(text)
            if "dg_cuda_info" not in n]


def main(argv):
    args, cache = [], None
    it = iter(argv)
    for a in it:
        if a == "--cache":
            cache = next(it, None)
        else:
            args.append(a)
    pattern = args[0] if args else "cuda "
    kdir = os.path.join(cache_dir(cache), "v1", "k")
    if not os.path.isdir(kdir):
        print(f"cuda-cache-resources.py: no kernel cache at {kdir}", file=sys.stderr)
        return 2
    rows = []
    for meta in sorted(os.listdir(kdir)):
        if not meta.endswith(".meta"):
            continue
        with open(os.path.join(kdir, meta), errors="replace") as f:
            text = f.read()
        m = re.search(r"^what (cuda .*)$", text, re.M)
        if not m or pattern not in m.group(1):
            continue
        binf = os.path.join(kdir, meta[: -len(".meta")] + ".bin")
        if not os.path.exists(binf):
            continue
        with open(binf, "rb") as f:
            for name, r, fr in kernels(f.read()):
                rows.append((m.group(1), name, r, fr))
    for unit, name, r, fr in sorted(rows):
        print(f"{unit}: {name} registers {r} frame {fr}")
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
