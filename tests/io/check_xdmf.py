#!/usr/bin/env python3
"""io.xdmf: check an XDMF sidecar written by dg_xdmf_write against the HDF5
files it points to.  Standard library only; dataset shapes and types come
from h5ls, the snapshot time from h5dump.

usage: check_xdmf.py --h5ls H5LS --h5dump H5DUMP --cells N1 N2 [N3]
                     --box X0 X1 Y0 Y1 [Z0 Z1] --s S --nvar N --error 0|1
                     --ngrids G FILE.xmf
Exit status 0 when every check passes, 1 otherwise (each failure printed).
"""
import argparse
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def close(a, b, rel=1e-12):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def ints(text):
    return [int(x) for x in text.split()]


def floats(text):
    return [float(x) for x in text.split()]


_ls_cache = {}


def h5_datasets(h5ls, path):
    """{'/view/values': ([dims], 'type text')} from h5ls -r -v."""
    if path in _ls_cache:
        return _ls_cache[path]
    out = subprocess.run([h5ls, "-r", "-v", path], capture_output=True, text=True)
    if out.returncode != 0:
        fail("h5ls cannot read %s: %s" % (path, out.stderr.strip()))
        _ls_cache[path] = {}
        return {}
    found, current = {}, None
    for line in out.stdout.splitlines():
        m = re.match(r"^(/\S*)\s+Dataset \{([^}]*)\}", line)
        if m:
            dims = [int(d.split("/")[0]) for d in m.group(2).split(",")]
            current = m.group(1)
            found[current] = [dims, ""]
            continue
        if re.match(r"^/\S*\s+Group", line):
            current = None
            continue
        m = re.match(r"^\s+Type:\s+(.*)$", line)
        if m and current is not None and not found[current][1]:
            found[current][1] = m.group(1).strip()
    _ls_cache[path] = found
    return found


def h5_time(h5dump, path):
    out = subprocess.run([h5dump, "-a", "/time", path], capture_output=True, text=True)
    m = re.search(r"\(0\): (\S+)", out.stdout)
    return float(m.group(1)) if m else None


def check_hdf_item(item, xdir, args, used_files):
    """A DataItem with Format="HDF": the file and dataset exist with the
    declared Dimensions and a matching number type."""
    text = (item.text or "").strip()
    if ":" not in text:
        fail("HDF DataItem without file:/dataset: %r" % text)
        return None
    rel, dset = text.split(":", 1)
    if os.path.isabs(rel):
        fail("HDF path %s is absolute, expected relative to the XDMF folder" % rel)
    path = os.path.normpath(os.path.join(xdir, rel))
    if not os.path.isfile(path):
        fail("%s: file %s (from %r) does not exist" % (dset, path, text))
        return None
    used_files.add(path)
    sets = h5_datasets(args.h5ls, path)
    if dset not in sets:
        fail("%s: dataset %s does not exist (has: %s)" % (path, dset, sorted(sets)))
        return None
    dims, htype = sets[dset]
    want = ints(item.get("Dimensions", ""))
    if dims != want:
        fail("%s:%s has shape %s, XDMF declares %s" % (path, dset, dims, want))
    ntype, prec = item.get("NumberType"), item.get("Precision")
    if ntype == "Float" and prec == "8":
        ok = "double" in htype or "64-bit" in htype
    elif ntype == "UChar" and prec == "1":
        ok = "unsigned char" in htype or "8-bit unsigned" in htype
    else:
        ok = False
    if not ok:
        fail("%s:%s type %r does not match NumberType=%s Precision=%s"
             % (path, dset, htype, ntype, prec))
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--h5ls", required=True)
    ap.add_argument("--h5dump", required=True)
    ap.add_argument("--cells", type=int, nargs="+", required=True)
    ap.add_argument("--box", type=float, nargs="+", required=True)
    ap.add_argument("--s", type=int, required=True)
    ap.add_argument("--nvar", type=int, required=True)
    ap.add_argument("--error", type=int, choices=[0, 1], required=True)
    ap.add_argument("--ngrids", type=int, required=True)
    ap.add_argument("xmf")
    args = ap.parse_args()

    dim = len(args.cells)
    lo = args.box[0::2]
    hi = args.box[1::2]
    # XDMF orders everything slowest first: (z,) y, x.
    vcells = [c * args.s for c in reversed(args.cells)]
    nodes = [c + 1 for c in vcells]
    origin = list(reversed(lo))
    spacing = [(h - l) / c / args.s for l, h, c in zip(reversed(lo), reversed(hi), reversed(args.cells))]
    ncells = math.prod(vcells)
    xdir = os.path.dirname(os.path.abspath(args.xmf))

    try:
        root = ET.parse(args.xmf).getroot()
    except ET.ParseError as e:
        fail("%s is not well-formed XML: %s" % (args.xmf, e))
        return 1
    if root.tag != "Xdmf" or not root.get("Version"):
        fail("root element is <%s Version=%r>, expected <Xdmf Version=...>" % (root.tag, root.get("Version")))
    domains = root.findall("Domain")
    if len(domains) != 1:
        fail("expected one Domain, found %d" % len(domains))
        return 1
    colls = domains[0].findall("Grid")
    if len(colls) != 1:
        fail("expected one top-level Grid, found %d" % len(colls))
        return 1
    coll = colls[0]
    if coll.get("GridType") != "Collection" or coll.get("CollectionType") != "Temporal":
        fail("top Grid is GridType=%r CollectionType=%r, expected a temporal collection"
             % (coll.get("GridType"), coll.get("CollectionType")))
    grids = coll.findall("Grid")
    if len(grids) != args.ngrids:
        fail("temporal collection holds %d grids, expected %d" % (len(grids), args.ngrids))

    if args.nvar == 1:
        var_names = ["u"] + (["error"] if args.error else [])
    else:
        var_names = ["u%d" % v for v in range(args.nvar)]
        if args.error:
            var_names += ["error%d" % v for v in range(args.nvar)]

    last_time = None
    all_files = []
    for g in grids:
        name = g.get("Name")
        if g.get("GridType") != "Uniform":
            fail("%s: GridType %r, expected Uniform" % (name, g.get("GridType")))
        t = g.find("Time")
        if t is None or t.get("Value") is None:
            fail("%s: no <Time Value=...>" % name)
            continue
        tv = float(t.get("Value"))
        if last_time is not None and not tv > last_time:
            fail("%s: time %r does not increase (previous %r)" % (name, tv, last_time))
        last_time = tv

        topo = g.find("Topology")
        want_topo = "%dDCoRectMesh" % dim
        if topo is None or topo.get("TopologyType") != want_topo:
            fail("%s: topology %r, expected %s" % (name, None if topo is None else topo.get("TopologyType"), want_topo))
        elif ints(topo.get("Dimensions", "")) != nodes:
            fail("%s: topology Dimensions %s, expected nodes %s" % (name, topo.get("Dimensions"), nodes))

        geo = g.find("Geometry")
        want_geo = "ORIGIN_DXDYDZ" if dim == 3 else "ORIGIN_DXDY"
        if geo is None or geo.get("GeometryType") != want_geo:
            fail("%s: geometry %r, expected %s" % (name, None if geo is None else geo.get("GeometryType"), want_geo))
        else:
            items = geo.findall("DataItem")
            if len(items) != 2:
                fail("%s: geometry has %d DataItems, expected 2" % (name, len(items)))
            else:
                o, d = floats(items[0].text), floats(items[1].text)
                if len(o) != dim or not all(close(a, b) for a, b in zip(o, origin)):
                    fail("%s: origin %s, expected %s (slowest first)" % (name, o, origin))
                if len(d) != dim or not all(close(a, b) for a, b in zip(d, spacing)):
                    fail("%s: spacing %s, expected %s (slowest first)" % (name, d, spacing))
                far = [a + b * (n - 1) for a, b, n in zip(o, d, nodes)]
                if not all(close(a, b, 1e-9) for a, b in zip(far, reversed(hi))):
                    fail("%s: far corner %s, expected %s" % (name, far, list(reversed(hi))))

        used = set()
        attrs = {a.get("Name"): a for a in g.findall("Attribute")}
        want_attrs = set(var_names) | {"degree"}
        if set(attrs) != want_attrs:
            fail("%s: attributes %s, expected %s" % (name, sorted(attrs), sorted(want_attrs)))
        for aname, a in attrs.items():
            if a.get("Center") != "Cell":
                fail("%s/%s: Center %r, expected Cell" % (name, aname, a.get("Center")))
            item = a.find("DataItem")
            if item is None:
                fail("%s/%s: no DataItem" % (name, aname))
                continue
            want_dset = "/view/degree" if aname == "degree" else (
                "/view/error" if aname.startswith("error") else "/view/values")
            if item.get("ItemType") == "HyperSlab":
                kids = item.findall("DataItem")
                if len(kids) != 2:
                    fail("%s/%s: HyperSlab needs 2 DataItems, has %d" % (name, aname, len(kids)))
                    continue
                sel = ints(kids[0].text)
                rank = dim + 1
                if ints(kids[0].get("Dimensions", "")) != [3, rank] or len(sel) != 3 * rank:
                    fail("%s/%s: selection is not 3 x %d" % (name, aname, rank))
                    continue
                start, stride, count = sel[:rank], sel[rank:2 * rank], sel[2 * rank:]
                v = int(re.sub(r"\D", "", aname) or 0)
                if start != [v] + [0] * dim or stride != [1] * rank or count != [1] + vcells:
                    fail("%s/%s: hyperslab start %s stride %s count %s, expected variable %d of %s"
                         % (name, aname, start, stride, count, v, vcells))
                if ints(item.get("Dimensions", "")) != count:
                    fail("%s/%s: HyperSlab Dimensions %s != count %s" % (name, aname, item.get("Dimensions"), count))
                data = kids[1]
                shown = math.prod(count)
            else:
                data = item
                shown = math.prod(ints(item.get("Dimensions", "")))
            if shown != ncells:
                fail("%s/%s: %d values for %d cells" % (name, aname, shown, ncells))
            if data.get("Format") != "HDF":
                fail("%s/%s: data Format %r, expected HDF" % (name, aname, data.get("Format")))
                continue
            if not (data.text or "").strip().endswith(":" + want_dset):
                fail("%s/%s: points to %r, expected dataset %s" % (name, aname, data.text, want_dset))
            path = check_hdf_item(data, xdir, args, used)
        # Every HDF DataItem anywhere in the grid (none may escape the checks above).
        n_hdf = sum(1 for it in g.iter("DataItem") if it.get("Format") == "HDF")
        if n_hdf != len(attrs):
            fail("%s: %d HDF DataItems for %d attributes" % (name, n_hdf, len(attrs)))
        if len(used) != 1:
            fail("%s: attributes point to %d different files, expected 1" % (name, len(used)))
        for path in used:
            all_files.append(path)
            ft = h5_time(args.h5dump, path)
            if ft is None or not close(ft, tv, 1e-5):
                fail("%s: file %s has time %r, XDMF says %r" % (name, path, ft, tv))
    if len(set(all_files)) != len(all_files):
        fail("two grids point to the same file: %s" % all_files)

    if failures:
        print("%s: %d check(s) failed" % (args.xmf, len(failures)), file=sys.stderr)
        return 1
    print("%s: %d grids, all checks passed" % (args.xmf, len(grids)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
