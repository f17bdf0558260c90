"""tools.plot_<CASE>: runs tools/plot on snapshots made by io_gen (and on
variants of them made here with h5py) and checks the PNGs it writes, its
stdout (one path per PNG), and its messages and exit status on bad input.

Usage: PYTHON plot_test.py CASE PLOT IO_GEN DIR
PYTHON must import numpy, matplotlib and h5py; the tool runs under the same
interpreter (sys.executable PLOT ...), whatever `python3` on PATH is.
"""

import csv
import os
import shutil
import struct
import subprocess
import sys

import h5py
import numpy as np

CASE = sys.argv[1]
PLOT, IO_GEN, DIR = (os.path.abspath(a) for a in sys.argv[2:5])
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
failures = []


def bad(msg):
    failures.append(msg)
    print("FAIL [%s]: %s" % (CASE, msg), file=sys.stderr)


def gen(mode):
    """io_gen MODE into DIR/gen_MODE (once per test folder)."""
    out = os.path.join(DIR, "gen_" + mode)
    if not os.path.isdir(out):
        r = subprocess.run([IO_GEN, mode, out], capture_output=True, text=True)
        if r.returncode != 0:
            print("io_gen %s failed: %s" % (mode, r.stderr), file=sys.stderr)
            sys.exit(1)
    return out


def run_plot(*args, cwd=None, python=None, env=None):
    cmd = (python or [sys.executable]) + [PLOT] + list(args)
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env)
    return r.returncode, r.stdout, r.stderr


def png_size(path):
    """(width, height) from the IHDR chunk, after checking the signature and
    that the file ends with an IEND chunk; None (and a failure) otherwise."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        bad("%s: cannot read: %s" % (path, exc))
        return None
    if data[:8] != PNG_SIGNATURE:
        bad("%s: no PNG signature" % path)
        return None
    if len(data) < 8 + 25 + 12:
        bad("%s: only %d bytes" % (path, len(data)))
        return None
    length, ctype = struct.unpack(">I4s", data[8:16])
    if ctype != b"IHDR" or length != 13:
        bad("%s: first chunk is %r of length %d, expected IHDR of 13" % (path, ctype, length))
        return None
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    if depth != 8 or colour not in (2, 6):
        bad("%s: bit depth %d, colour type %d" % (path, depth, colour))
    if data[-12:-8] != b"\0\0\0\0" or data[-8:-4] != b"IEND":
        bad("%s: does not end with an IEND chunk" % path)
    return width, height


def distinct_colours(path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.image as mpimg
        img = mpimg.imread(path)
    except Exception:
        return None  # no PNG decoder here: the header checks must do
    flat = (np.asarray(img)[..., :3] * 255).astype(np.uint8).reshape(-1, 3)
    return len(np.unique(flat, axis=0))


# Expected picture sizes in pixels: (wmin, wmax, hmin, hmax).
SIZES = {
    "solution": (300, 2000, 300, 1200),
    "error": (300, 2000, 300, 1200),
    "degree": (300, 1000, 300, 1200),
    "history": (800, 1600, 300, 700),
    "throughput": (500, 1200, 300, 800),
    "roofline": (500, 1200, 300, 800),
}


def check_pngs(stdout, out_dir, prefix, kinds, min_colours=None):
    """stdout lists exactly out_dir/prefix_KIND.png for KIND in kinds, in order;
    each is a complete PNG of a plausible size.  Returns {kind: (w, h)}."""
    want = [os.path.join(out_dir, "%s_%s.png" % (prefix, k)) for k in kinds]
    got = stdout.splitlines()
    if got != want:
        bad("stdout lines %r, expected %r" % (got, want))
    sizes = {}
    for k, path in zip(kinds, want):
        if not os.path.isfile(path):
            bad("%s was not written" % path)
            continue
        wh = png_size(path)
        if wh is None:
            continue
        sizes[k] = wh
        wmin, wmax, hmin, hmax = SIZES[k]
        if not (wmin <= wh[0] <= wmax and hmin <= wh[1] <= hmax):
            bad("%s is %dx%d, expected width %d..%d and height %d..%d"
                % (path, wh[0], wh[1], wmin, wmax, hmin, hmax))
        need = (min_colours or {}).get(k, 8)
        n = distinct_colours(path)
        if n is not None and n < need:
            bad("%s has only %d distinct colours (expected >= %d): blank picture?"
                % (path, n, need))
    leftovers = [f for f in os.listdir(out_dir) if ".tmp." in f]
    if leftovers:
        bad("temporary files left in %s: %s" % (out_dir, leftovers))
    return sizes


def want_ok(rc, err):
    if rc != 0:
        bad("exit status %d, expected 0 (stderr: %s)" % (rc, err.strip()))
    if err.strip():
        bad("unexpected stderr: %s" % err.strip())


def want_error(args, message, prefix_only=False, status=2):
    """The tool prints exactly `message` (one line) on stderr, nothing on
    stdout, exits with `status` and writes no PNG."""
    out_dir = os.path.join(DIR, "bad_out")
    shutil.rmtree(out_dir, ignore_errors=True)
    rc, out, err = run_plot("--out-dir", out_dir, *args)
    if rc != status:
        bad("%s: exit status %d, expected %d (stderr: %s)" % (args, rc, status, err.strip()))
    if "Traceback" in err:
        bad("%s: traceback on stderr:\n%s" % (args, err))
    lines = err.splitlines()
    if len(lines) != 1:
        bad("%s: %d stderr lines, expected 1: %r" % (args, len(lines), err))
    elif prefix_only and not lines[0].startswith(message):
        bad("%s: stderr %r, expected it to start with %r" % (args, lines[0], message))
    elif not prefix_only and lines[0] != message:
        bad("%s: stderr\n   got: %s\n  want: %s" % (args, lines[0], message))
    if out:
        bad("%s: unexpected stdout %r" % (args, out))
    if os.path.isdir(out_dir) and any(f.endswith(".png") for f in os.listdir(out_dir)):
        bad("%s: PNGs written for bad input: %s" % (args, os.listdir(out_dir)))


def crc64_xz(data):
    """CRC-64/XZ bit by bit (docs/FILE_FORMAT.md), independent of the tool's."""
    crc = 0xFFFFFFFFFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xC96C5795D7870F42 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFFFFFFFFFF


assert crc64_xz(b"123456789") == 0x995DC9BBDF1939FA


def seal(path):
    """Write the checksum block of a file that has a 512-byte user block (as
    dgrid does after writing it), so an edited file is bad only in content."""
    with open(path, "r+b") as fh:
        data = fh.read()
        body = data[512:]
        line = b"dgrid-checksum 1 crc64 %016x %d\n" % (crc64_xz(body), len(body))
        fh.seek(0)
        fh.write(line + bytes(512 - len(line)))


def variant(src, name, edit):
    """Copy `src` (a sealed snapshot) to DIR/name, let `edit(h5py.File)` change
    it and seal it again."""
    dst = os.path.join(DIR, name)
    shutil.copyfile(src, dst)
    with h5py.File(dst, "r+") as f:
        edit(f)
    seal(dst)
    return dst


def load_tool():
    """tools/plot's snapshot reader (plotlib/ beside it), for value checks."""
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.dirname(os.path.realpath(PLOT)))
    from plotlib import common
    if not common.load_modules(True):
        sys.exit(1)
    from plotlib import snapshot
    return snapshot


def write_snapshot(path, dim, cells, lo, hi, degree, coeff_of, nvar=1, q=3, view=None,
                   gauss=None):
    """A minimal valid snapshot written with h5py (then sealed).  coeff_of(e, r)
    returns the element's nvar*(r+1)^dim coefficients."""
    write_unsealed(path, dim, cells, lo, hi, degree, coeff_of, nvar, q, view, gauss)
    seal(path)


def write_unsealed(path, dim, cells, lo, hi, degree, coeff_of, nvar=1, q=3, view=None,
                   gauss=None, userblock=512):
    """write_snapshot's file with its user block (of `userblock` bytes) left empty."""
    nelem = int(np.prod(cells))
    off = [0]
    coeff = []
    for e in range(nelem):
        c = np.asarray(coeff_of(e, int(degree.reshape(-1)[e])), dtype=np.float64)
        coeff.append(c)
        off.append(off[-1] + c.size)
    with h5py.File(path, "w", userblock_size=userblock) as f:
        f.attrs["format"] = np.bytes_(b"dgrid-snapshot")
        f.attrs["format_version"] = np.int32(1)
        f.attrs["dim"] = np.int32(dim)
        f.attrs["nvar"] = np.int32(nvar)
        f.attrs["q"] = np.int32(q)
        f.attrs["time"] = np.float64(0.5)
        f.attrs["step"] = np.int64(7)
        f.attrs["model"] = np.bytes_(b"test-poly")
        f["grid/cells"] = np.array(cells, dtype=np.int32)
        f["grid/lo"] = np.array(lo, dtype=np.float64)
        f["grid/hi"] = np.array(hi, dtype=np.float64)
        f["grid/h"] = (np.array(hi) - np.array(lo)) / np.array(cells)
        f["degree"] = degree.astype(np.uint8)
        f["coeff_offset"] = np.array(off, dtype=np.int64)
        f["coeff"] = np.concatenate(coeff)
        if gauss is not None:
            f["gauss_values"] = gauss
        if view is not None:
            s, vals = view
            g = f.create_group("view")
            g.attrs["samples_per_element"] = np.int32(s)
            g["values"] = vals
        f.create_group("parameters")


# --------------------------------------------------------------------------

def case_2d():
    """s2.h5: 2D, nvar 2, view s=3 with error, Gauss values, 3 history rows
    (the first l2_error NaN): all four pictures."""
    g = gen("h5dump")
    out_dir = os.path.join(DIR, "out")
    rc, out, err = run_plot("--out-dir", out_dir, os.path.join(g, "s2.h5"))
    want_ok(rc, err)
    sizes = check_pngs(out, out_dir, "s2", ["solution", "degree", "error", "history"],
                       {"solution": 20, "error": 20, "degree": 4, "history": 8})
    # nvar 2: two solution panels side by side, wider than the one degree map.
    if "solution" in sizes and "degree" in sizes and sizes["solution"][0] <= sizes["degree"][0]:
        bad("s2_solution.png (%dx%d) should be wider than s2_degree.png (%dx%d)"
            % (sizes["solution"] + sizes["degree"]))
    # --prefix
    rc, out, err = run_plot("--out-dir", out_dir, "--prefix", "named", os.path.join(g, "s2.h5"))
    want_ok(rc, err)
    check_pngs(out, out_dir, "named", ["solution", "degree", "error", "history"])


def case_3d():
    """3D: s3.h5 has nothing optional (the solution comes from the modal
    coefficients), run3d has a view sub-grid with nvar 2."""
    g = gen("h5dump")
    x = gen("xdmf")
    out_dir = os.path.join(DIR, "out")
    rc, out, err = run_plot("--out-dir", out_dir, os.path.join(g, "s3.h5"))
    want_ok(rc, err)
    check_pngs(out, out_dir, "s3", ["solution", "degree"], {"solution": 20, "degree": 3})
    rc, out, err = run_plot("--out-dir", out_dir, os.path.join(x, "data", "run3d_0002.h5"))
    want_ok(rc, err)
    check_pngs(out, out_dir, "run3d_0002", ["solution", "degree"], {"solution": 20})


def case_series():
    """Several snapshots in one call (the xdmf series), default prefixes, and
    the current folder as default output folder."""
    x = gen("xdmf")
    files = [os.path.join(x, "data", "run2d_%04d.h5" % i) for i in range(3)]
    out_dir = os.path.join(DIR, "cwd")
    os.makedirs(out_dir, exist_ok=True)
    rc, out, err = run_plot(*files, cwd=out_dir)
    want_ok(rc, err)
    lines = out.splitlines()
    want = ["run2d_%04d_%s.png" % (i, k) for i in range(3) for k in ("solution", "degree", "error")]
    if lines != [os.path.join(".", w) for w in want]:
        bad("stdout %r, expected %r" % (lines, [os.path.join(".", w) for w in want]))
    for w in want:
        png_size(os.path.join(out_dir, w))
    # One bad file among good ones: the good ones are still drawn, exit 2.
    out2 = os.path.join(DIR, "mixed")
    rc, out, err = run_plot("--out-dir", out2, files[0], os.path.join(DIR, "nope.h5"), files[1])
    if rc != 2:
        bad("mixed good/bad inputs: exit status %d, expected 2" % rc)
    if err != "plot: %s: cannot open: No such file or directory\n" % os.path.join(DIR, "nope.h5"):
        bad("mixed good/bad inputs: stderr %r" % err)
    if len(out.splitlines()) != 6:
        bad("mixed good/bad inputs: expected 6 PNGs, stdout %r" % out)


def case_gauss():
    """Without /view the solution comes from /gauss_values; without both,
    from the coefficients (io_gen compare files, one with mixed degrees)."""
    g = gen("h5dump")
    c = gen("compare")
    src = variant(os.path.join(g, "s2.h5"), "s2_noview.h5", lambda f: f.__delitem__("view"))
    out_dir = os.path.join(DIR, "out")
    rc, out, err = run_plot("--out-dir", out_dir, src)
    want_ok(rc, err)
    check_pngs(out, out_dir, "s2_noview", ["solution", "degree", "history"], {"solution": 20})
    for name in ("base", "lowdeg", "nvar2", "dim3"):
        rc, out, err = run_plot("--out-dir", out_dir, os.path.join(c, name + ".h5"))
        want_ok(rc, err)
        check_pngs(out, out_dir, name, ["solution", "degree"], {"solution": 20})


def case_values():
    """The values behind the pictures: the mid-plane slice, the Gauss-point
    coordinates and the evaluation of the modal coefficients."""
    tool = load_tool()
    # 3D, cells 2x3x4 on [0,2]x[-1,2]x[0,4], mixed degrees, the polynomial
    # u = 1 + x + x*y + z^2 written exactly in every element's Legendre basis.
    cells, lo, hi = [2, 3, 4], [0.0, -1.0, 0.0], [2.0, 2.0, 4.0]
    h = [(hi[d] - lo[d]) / cells[d] for d in range(3)]
    deg = np.array([[[2 + (i + j + k) % 2 for i in range(2)] for j in range(3)]
                    for k in range(4)])

    def exact(x, y, z):
        return 1.0 + x + x * y + z * z

    def coeffs(e, r):
        i, j, k = e % 2, (e // 2) % 3, e // 6
        n = r + 1
        # interpolate at Gauss points and project (exact: degree <= 2 per direction)
        xg, wg = np.polynomial.legendre.leggauss(n + 2)
        X = lo[0] + (i + (xg + 1) / 2) * h[0]
        Y = lo[1] + (j + (xg + 1) / 2) * h[1]
        Z = lo[2] + (k + (xg + 1) / 2) * h[2]
        V = np.polynomial.legendre.legvander(xg, r)  # [pt][mode]
        U = exact(X[None, None, :], Y[None, :, None], Z[:, None, None])  # [z][y][x]
        norm = (2 * np.arange(n) + 1) / 2.0
        C = np.einsum("zyx,z,y,x,zc,yb,xa->cba", U, wg, wg, wg, V, V, V)
        C *= norm[:, None, None] * norm[None, :, None] * norm[None, None, :]
        return C.reshape(-1)

    path = os.path.join(DIR, "poly3.h5")
    write_snapshot(path, 3, cells, lo, hi, deg, coeffs)
    snap = tool.Snapshot(path)
    x, y, vals, z, _ = snap.solution()
    if abs(z - 2.0) > 1e-12:
        bad("3D coefficient slice at z = %r, expected the mid-plane 2.0" % z)
    want = exact(x[None, :], y[:, None], z)
    if vals.shape != (1, y.size, x.size) or not np.allclose(vals[0], want, rtol=0, atol=1e-11):
        bad("coefficient evaluation: max |diff| %g"
            % float(np.abs(vals[0] - want).max()) if vals.shape[1:] == want.shape
            else "coefficient evaluation: shape %r" % (vals.shape,))
    sx = x.size // cells[0]
    if x.size != cells[0] * sx or not np.allclose(x, lo[0] + (np.arange(x.size) + 0.5) * h[0] / sx):
        bad("sample x coordinates %r do not sit at sub-cell centres" % x)
    dplane = snap.degree_plane()
    if not np.array_equal(dplane, deg[2]):
        bad("degree slice %r, expected layer k=2 %r" % (dplane.tolist(), deg[2].tolist()))
    snap.close()

    # Odd d3: the slice is the middle layer's zeta = 0.  Gauss values at
    # q = 3 points of u = x + 10 y + 100 z, and a view with s = 3 of the same.
    cells = [3, 2, 3]
    lo, hi = [0.0, 0.0, 0.0], [3.0, 2.0, 6.0]
    q = 3
    xg = np.polynomial.legendre.leggauss(q)[0]
    nelem = 18
    gauss = np.empty((nelem, q ** 3, 2))
    for e in range(nelem):
        i, j, k = e % 3, (e // 3) % 2, e // 6
        for pz in range(q):
            for py in range(q):
                for px in range(q):
                    X, Y, Z = i + (xg[px] + 1) / 2, j + (xg[py] + 1) / 2, 2 * k + (xg[pz] + 1)
                    gauss[e, px + q * (py + q * pz), 0] = X + 10 * Y + 100 * Z
                    gauss[e, px + q * (py + q * pz), 1] = -X
    s = 3
    cz = (np.arange(9) + 0.5) * (6.0 / 9)
    cy = (np.arange(6) + 0.5) * (2.0 / 6)
    cx = (np.arange(9) + 0.5) * (3.0 / 9)
    view = np.empty((2, 9, 6, 9))
    view[0] = cx[None, None, :] + 10 * cy[None, :, None] + 100 * cz[:, None, None]
    view[1] = -cx[None, None, :] + 0 * cz[:, None, None] + 0 * cy[None, :, None]
    degs = np.zeros((3, 2, 3), dtype=np.uint8)
    path = os.path.join(DIR, "gauss3.h5")
    write_snapshot(path, 3, cells, lo, hi, degs, lambda e, r: [0.0, 0.0], nvar=2, q=q,
                   gauss=gauss)
    snap = tool.Snapshot(path)
    x, y, vals, z, _ = snap.solution()
    snap.close()
    if abs(z - 3.0) > 1e-12:
        bad("3D Gauss slice at z = %r, expected 3.0" % z)
    if not np.allclose(vals[0], x[None, :] + 10 * y[:, None] + 100 * z, atol=1e-12):
        bad("Gauss values are not placed at their points")
    if not np.allclose(vals[1], -x[None, :] + 0 * y[:, None]):
        bad("Gauss values of variable 1 are misplaced")
    if not (np.all(np.diff(x) > 0) and np.all(np.diff(y) > 0)):
        bad("Gauss point coordinates are not increasing")
    path = os.path.join(DIR, "view3.h5")
    write_snapshot(path, 3, cells, lo, hi, degs, lambda e, r: [0.0, 0.0], nvar=2, q=q,
                   view=(s, view))
    snap = tool.Snapshot(path)
    x, y, vals, z, _ = snap.solution()
    snap.close()
    if abs(z - 3.0) > 1e-12 or not np.allclose(x, cx) or not np.allclose(y, cy):
        bad("view slice at z = %r, x %r, y %r" % (z, x, y))
    if not np.allclose(vals[0], x[None, :] + 10 * y[:, None] + 100 * z):
        bad("view slice values are not the layer at z = 3")
    # The pictures of these files, too.
    out_dir = os.path.join(DIR, "out")
    for name in ("poly3", "gauss3", "view3"):
        rc, out, err = run_plot("--out-dir", out_dir, os.path.join(DIR, name + ".h5"))
        want_ok(rc, err)
        check_pngs(out, out_dir, name, ["solution", "degree"],
                   {"solution": 20, "degree": 1 if name != "poly3" else 3})


def case_bad_input():
    """Each bad input: one exact line on stderr, exit status 2, no PNG."""
    c = gen("compare")
    g = gen("h5dump")
    missing = os.path.join(DIR, "missing.h5")
    want_error([missing], "plot: %s: cannot open: No such file or directory" % missing)
    text = os.path.join(c, "truncated.txt")
    want_error([text], "plot: %s: not an HDF5 file" % text)
    empty = os.path.join(DIR, "empty.h5")
    open(empty, "wb").close()
    want_error([empty], "plot: %s: not an HDF5 file" % empty)
    want_error([DIR], "plot: %s: not a regular file (a folder); only regular files are read" % DIR)
    nocoeff = os.path.join(c, "nocoeff.h5")
    want_error([nocoeff], "plot: %s: dataset /coeff is missing" % nocoeff)

    # Truncated HDF5: the signature is there, HDF5 refuses the file.
    src = os.path.join(g, "s2.h5")
    cut = os.path.join(DIR, "cut.h5")
    with open(src, "rb") as fh:
        data = fh.read()
    with open(cut, "wb") as fh:
        fh.write(data[: len(data) // 2])
    want_error([cut], "plot: %s: size mismatch: the checksum block covers %d bytes after the "
               "user block, the file has %d (truncated or appended to)"
               % (cut, len(data) - 512, len(data) // 2 - 512))

    cases = [
        ("nodegree.h5", lambda f: f.__delitem__("degree"), "dataset /degree is missing"),
        ("noview.h5", lambda f: f.__delitem__("view/values"), "dataset /view/values is missing"),
        ("nodim.h5", lambda f: f.attrs.__delitem__("dim"), "attribute 'dim' of / is missing"),
        ("dim4.h5", lambda f: f.attrs.__setitem__("dim", np.int32(4)),
         "attribute 'dim' of / is 4, must be 2 or 3"),
        ("notdgrid.h5", lambda f: f.attrs.__setitem__("format", np.bytes_(b"other")),
         "not a dgrid snapshot (attribute 'format' of / is 'other', expected 'dgrid-snapshot')"),
        ("v2.h5", lambda f: f.attrs.__setitem__("format_version", np.int32(2)),
         "unsupported format_version 2 (this tool reads 1)"),
        ("degshape.h5", reshape_degree, "dataset /degree has shape [6][4], expected [4][6]"),
        ("histshape.h5", reshape_history, "dataset /history has shape [3][3], expected [n][4]"),
        ("deg11.h5", degree_11, "dataset /degree: element 3 (3,0) has degree 11 > 10"),
    ]
    for name, edit, what in cases:
        path = variant(src, name, edit)
        want_error([path], "plot: %s: %s" % (path, what))
    path = variant(os.path.join(c, "base.h5"), "offsets.h5", break_offsets)
    want_error([path], "plot: %s: dataset /coeff_offset is inconsistent with /degree at element "
               "4 (4,0): offsets 64..80 span 16 values, degree 2 with nvar 1 needs 9" % path)
    # Checked even when the solution comes from the view (s2: nvar 2, degree (i+j)%4).
    path = variant(src, "offsets_view.h5", break_offsets)
    want_error([path], "plot: %s: dataset /coeff_offset is inconsistent with /degree at element "
               "4 (4,0): offsets 60..62 span 2 values, degree 2 with nvar 2 needs 18" % path)

    # No Python modules (an isolated interpreter without site-packages): exit 1.
    rc, out, err = run_plot(os.path.join(g, "s2.h5"), python=[sys.executable, "-I", "-S"])
    if rc != 1 or not err.startswith("plot: ") or "cannot import" not in err \
            or len(err.splitlines()) != 1:
        bad("without modules: exit status %d, stderr %r" % (rc, err))


def reshape_degree(f):
    d = f["degree"][...]
    del f["degree"]
    f["degree"] = d.reshape(6, 4)


def reshape_history(f):
    h = f["history"][...]
    del f["history"]
    f["history"] = h[:, :3]


def degree_11(f):
    d = f["degree"][...]
    d[0, 3] = 11
    f["degree"][...] = d


def break_offsets(f):
    d = f["degree"][...]
    d[0, 4] = 2  # was 3: offsets no longer match
    f["degree"][...] = d


def case_hostile():
    """Inputs the tool must not wait on, read without bound or trust: a FIFO, a
    device, a file over the bound, a corrupt checksum, no checksum block, a
    name with control characters.  One line each, exit status 2."""
    g = gen("h5dump")
    src = os.path.join(g, "s2.h5")
    fifo = os.path.join(DIR, "fifo.h5")
    os.mkfifo(fifo)
    want_error([fifo], "plot: %s: not a regular file (a FIFO); only regular files are read" % fifo)
    want_error(["--bench", fifo],
               "plot: %s: not a regular file (a FIFO); only regular files are read" % fifo)
    want_error(["--bench", "/dev/zero"],
               "plot: /dev/zero: not a regular file (a character device); only regular files "
               "are read")
    big = os.path.join(DIR, "big.csv")
    with open(big, "wb") as fh:
        fh.truncate((64 << 20) + 1)  # sparse: no disk used
    want_error(["--bench", big], "plot: %s: the file is %d bytes, above the %d this tool reads "
               "of a benchmark CSV" % (big, (64 << 20) + 1, 64 << 20))
    # one flipped byte in the data: compare refuses it, so does plot
    flip = os.path.join(DIR, "flip.h5")
    with open(src, "rb") as fh:
        data = bytearray(fh.read())
    data[-100] ^= 0x01
    with open(flip, "wb") as fh:
        fh.write(data)
    want_error([flip], "plot: %s: checksum mismatch, the file is corrupt (CRC-64 of its %d data "
               "bytes is %016x, the checksum block says %s)"
               % (flip, len(data) - 512, crc64_xz(bytes(data[512:])),
                  bytes(data[23:39]).decode()))
    # without a block: refused unless --unverified
    raw = os.path.join(DIR, "raw.h5")
    write_unsealed(raw, 2, [2, 2], [0, 0], [1, 1], np.ones((2, 2), dtype=np.uint8),
                   lambda e, r: [1.0, 0.0, 0.0, 0.0], userblock=0)
    want_error([raw], "plot: %s: HDF5 file without a dgrid checksum block (written before "
               "checksums, or by another program); not parsed unverified (give --unverified)"
               % raw)
    rc, out, err = run_plot("--unverified", "--out-dir", os.path.join(DIR, "raw_out"), raw)
    if rc != 0 or err:
        bad("--unverified: exit status %d, stderr %r" % (rc, err))
    # a name with an escape sequence is echoed escaped, on one line
    odd = os.path.join(DIR, "a\x1b[31mb\nc.h5")
    with open(odd, "wb") as fh:
        fh.write(b"text")
    want_error([odd], "plot: %s: not an HDF5 file"
               % os.path.join(DIR, "a\\x1b[31mb\\nc.h5"))


def case_usage():
    g = gen("h5dump")
    for args in ([], ["--prefix", "a", os.path.join(g, "s2.h5"), os.path.join(g, "s3.h5")],
                 ["--bogus", os.path.join(g, "s2.h5")],
                 ["--bench", "x.csv", os.path.join(g, "s2.h5")]):
        rc, out, err = run_plot(*args)
        if rc != 2 or "Traceback" in err or not err.strip() or out:
            bad("usage %r: exit status %d, stdout %r, stderr %r" % (args, rc, out, err))
    rc, out, err = run_plot("--help")
    if rc != 0 or "--out-dir" not in out:
        bad("--help: exit status %d, stdout %r" % (rc, out))
    # An output folder that cannot be made: exit 1, one line.
    blocker = os.path.join(DIR, "file")
    open(blocker, "w").close()
    rc, out, err = run_plot("--out-dir", os.path.join(blocker, "sub"), os.path.join(g, "s2.h5"))
    if rc != 1 or len(err.splitlines()) != 1 or not err.startswith("plot: ") or out:
        bad("unwritable output folder: exit status %d, stdout %r, stderr %r" % (rc, out, err))
    # A HOME where matplotlib's folder cannot be made (a service account's): a
    # private one, no warning of matplotlib's on stderr; a snapshot after the
    # options as before them.
    env = {k: v for k, v in os.environ.items() if k not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME")}
    env["HOME"] = os.path.join(blocker, "home")
    out_dir = os.path.join(DIR, "homeless")
    rc, out, err = run_plot("--out-dir", out_dir, os.path.join(g, "s2.h5"), "--prefix", "h",
                            env=env)
    want_ok(rc, err)
    if not os.path.exists(os.path.join(out_dir, "h_solution.png")):
        bad("no h_solution.png with the options around the snapshot: %r" % out)


def case_bench():
    """--bench: columns by name (any order, extra columns ignored)."""
    path = os.path.join(DIR, "results.csv")
    cols = ["stream_gbs", "integrator", "degree", "extra", "dim", "gflops", "map", "dofs",
            "dof_stage_per_s", "gbs", "bw_fraction"]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for dim in (2, 3):
            for integ in ("ssprk3", "rk4"):
                for r in range(1, 6):
                    gbs = 300.0 + 20 * r
                    ai = 0.5 * r * dim
                    row = {"stream_gbs": 900.0, "integrator": integ, "degree": r, "extra": "x",
                           "dim": dim, "gflops": gbs * ai, "map": "affine",
                           "dofs": 1000 * (r + 1) ** dim,
                           "dof_stage_per_s": 1e9 / (r + 1) / dim, "gbs": gbs,
                           "bw_fraction": gbs / 900.0}
                    w.writerow([row[c] for c in cols])
    out_dir = os.path.join(DIR, "out")
    rc, out, err = run_plot("--bench", path, "--out-dir", out_dir)
    want_ok(rc, err)
    check_pngs(out, out_dir, "results", ["throughput", "roofline"],
               {"throughput": 20, "roofline": 20})
    nocol = os.path.join(DIR, "nocol.csv")
    with open(nocol, "w") as fh:
        fh.write("dim,degree,map\n2,1,affine\n")
    want_error(["--bench", nocol], "plot: %s: column 'dof_stage_per_s' is missing" % nocol)
    missing = os.path.join(DIR, "missing.csv")
    want_error(["--bench", missing], "plot: %s: cannot open: No such file or directory" % missing)


CASES = {
    "2d": case_2d,
    "3d": case_3d,
    "series": case_series,
    "gauss": case_gauss,
    "values": case_values,
    "bad_input": case_bad_input,
    "hostile": case_hostile,
    "usage": case_usage,
    "bench": case_bench,
}

if __name__ == "__main__":
    if CASE not in CASES:
        print("plot_test.py: unknown case '%s'" % CASE, file=sys.stderr)
        sys.exit(2)
    shutil.rmtree(DIR, ignore_errors=True)
    os.makedirs(DIR)
    CASES[CASE]()
    if failures:
        print("%d failure(s) in tools.plot_%s" % (len(failures), CASE), file=sys.stderr)
        sys.exit(1)
    print("tools.plot_%s: ok" % CASE)
