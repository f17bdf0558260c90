"""Reading a snapshot (only what the pictures need, checked like dg_io.c
does): the checksum block checked before HDF5 sees a byte, then the layout
of docs/FILE_FORMAT.md.  Imported after common.load_modules(need_h5py=True)."""

import io
import math

import h5py
import numpy as np

from .common import BadInput, read_input

HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
FORMAT_NAME = "dgrid-snapshot"
FORMAT_VERSION = 1
MAX_DEGREE = 10          # DG_MAX_DEGREE
MAX_EVAL_POINTS = 4 << 20  # sample budget when evaluating modal coefficients
MAX_SNAPSHOT_BYTES = 2 << 30  # a snapshot is read whole into memory, up to this
USERBLOCK = 512               # the checksum block before the HDF5 superblock
SEAL_MAGIC = b"dgrid-checksum 1 crc64 "


_CRC_TABLE = None


def crc64(data):
    """CRC-64/XZ (docs/FILE_FORMAT.md): reflected ECMA-182, init and final
    XOR all ones; check value of b"123456789": 0x995dc9bbdf1939fa."""
    global _CRC_TABLE
    if _CRC_TABLE is None:
        t = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xC96C5795D7870F42 if c & 1 else c >> 1
            t.append(c)
        _CRC_TABLE = t
    t = _CRC_TABLE
    crc = 0xFFFFFFFFFFFFFFFF
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFFFFFFFFFF


def verify_seal(data):
    """The checksum block of a sealed snapshot, checked as dg_io_verify does."""
    if len(data) < USERBLOCK + len(HDF5_SIGNATURE):
        raise BadInput("truncated: %d bytes, a dgrid snapshot has at least %d"
                       % (len(data), USERBLOCK + len(HDF5_SIGNATURE)))
    block = data[:USERBLOCK]
    line, nl, pad = block.partition(b"\n")
    fields = line[len(SEAL_MAGIC):].split(b" ")
    ok = (line.startswith(SEAL_MAGIC) and nl and pad.count(0) == len(pad) and len(fields) == 2
          and len(fields[0]) == 16 and all(c in b"0123456789abcdef" for c in fields[0])
          and 0 < len(fields[1]) <= 19 and fields[1].isdigit())
    if not ok:
        raise BadInput("malformed dgrid checksum block (the file's first %d bytes)" % USERBLOCK)
    want, n = int(fields[0], 16), int(fields[1])
    if n != len(data) - USERBLOCK:
        raise BadInput("size mismatch: the checksum block covers %d bytes after the user "
                       "block, the file has %d (truncated or appended to)"
                       % (n, len(data) - USERBLOCK))
    have = crc64(memoryview(data)[USERBLOCK:])
    if have != want:
        raise BadInput("checksum mismatch, the file is corrupt (CRC-64 of its %d data bytes is "
                       "%016x, the checksum block says %016x)" % (n, have, want))
    if data[USERBLOCK:USERBLOCK + len(HDF5_SIGNATURE)] != HDF5_SIGNATURE:
        raise BadInput("no HDF5 signature after the checksum block")


def shape_label(shape):
    if len(shape) == 0:
        return "scalar"
    return "".join("[%d]" % n for n in shape)


def elem_label(dim, cells, e):
    i = e % cells[0]
    j = (e // cells[0]) % cells[1]
    if dim == 3:
        return "(%d,%d,%d)" % (i, j, e // (cells[0] * cells[1]))
    return "(%d,%d)" % (i, j)


def h5_reason(exc):
    """h5py's message without its generic prefix, for `(...)` suffixes."""
    text = str(exc).strip() or type(exc).__name__
    for prefix in ("Unable to open file ", "Unable to synchronously open file "):
        if text.startswith(prefix):
            text = text[len(prefix):]
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text


class Snapshot:
    """The parts of an HDF5 snapshot that the plots use, validated on open."""

    def __init__(self, path, unverified=False):
        self.path = path
        data = read_input(path, MAX_SNAPSHOT_BYTES, "a snapshot")
        # dgrid snapshots start with a 512-byte checksum block (docs/FILE_FORMAT.md),
        # checked before HDF5 parses a byte; HDF5 then reads these same bytes
        if data.startswith(b"dgrid-checksum "):
            verify_seal(data)
        elif data[:len(HDF5_SIGNATURE)] != HDF5_SIGNATURE:
            raise BadInput("not an HDF5 file")
        elif not unverified:
            raise BadInput("HDF5 file without a dgrid checksum block (written before checksums, "
                           "or by another program); not parsed unverified (give --unverified)")
        try:
            self.f = h5py.File(io.BytesIO(data), "r")
        except Exception as exc:  # h5py raises OSError and others
            raise BadInput("cannot open HDF5 file (%s)" % h5_reason(exc))
        try:
            self._check()
        except BaseException:
            self.close()
            raise

    def close(self):
        try:
            self.f.close()
        except Exception:
            pass

    # -- attributes ---------------------------------------------------------
    def _attr_raw(self, name):
        try:
            present = name in self.f.attrs
        except Exception as exc:
            raise BadInput("cannot look up attribute '%s' of / (%s)" % (name, h5_reason(exc)))
        if not present:
            raise BadInput("attribute '%s' of / is missing" % name)
        try:
            return self.f.attrs[name]
        except Exception as exc:
            raise BadInput("cannot read attribute '%s' of / (%s)" % (name, h5_reason(exc)))

    def attr_num(self, name, integer):
        a = np.asarray(self._attr_raw(name))
        if a.size != 1:
            raise BadInput("attribute '%s' of / has %d values, expected 1" % (name, a.size))
        kinds = "iu" if integer else "iuf"
        if a.dtype.kind not in kinds:
            raise BadInput("attribute '%s' of / is %s, expected %s" %
                           (name, "a string" if a.dtype.kind in "SUO" else str(a.dtype),
                            "an integer" if integer else "a number"))
        v = a.reshape(-1)[0]
        return int(v) if integer else float(v)

    def attr_str(self, name):
        v = self._attr_raw(name)
        if isinstance(v, np.ndarray):
            if v.size != 1:
                raise BadInput("attribute '%s' of / must be one string, found %d values"
                               % (name, v.size))
            v = v.reshape(-1)[0]
        if isinstance(v, (bytes, np.bytes_)):
            v = bytes(v).split(b"\0", 1)[0].decode("utf-8", "replace")
        elif not isinstance(v, str):
            raise BadInput("attribute '%s' of / is not a string" % name)
        return v.rstrip(" ")

    # -- datasets -----------------------------------------------------------
    def dataset(self, name, shape=None, integer=False, rank=None):
        try:
            obj = self.f.get(name)
        except Exception:
            obj = None
        if obj is None:
            raise BadInput("dataset %s is missing" % name)
        if not isinstance(obj, h5py.Dataset):
            raise BadInput("%s is not a dataset" % name)
        if shape is not None and tuple(obj.shape) != tuple(shape):
            raise BadInput("dataset %s has shape %s, expected %s"
                           % (name, shape_label(obj.shape), shape_label(shape)))
        if rank is not None and len(obj.shape) != rank:
            raise BadInput("dataset %s has shape %s, expected rank %d"
                           % (name, shape_label(obj.shape), rank))
        kind = obj.dtype.kind
        if integer and kind not in "iu":
            raise BadInput("dataset %s holds %s values, expected integer" % (name, obj.dtype))
        if not integer and kind != "f":
            raise BadInput("dataset %s holds %s values, expected floating point"
                           % (name, obj.dtype))
        return obj

    def has(self, name):
        try:
            return self.f.get(name) is not None
        except Exception:
            return False

    def read(self, name, ds, sel=Ellipsis):
        try:
            return np.asarray(ds[sel])
        except Exception as exc:
            raise BadInput("cannot read dataset %s (%s)" % (name, h5_reason(exc)))

    # -- the checks ---------------------------------------------------------
    def _check(self):
        fmt = self.attr_str("format")
        if fmt != FORMAT_NAME:
            raise BadInput("not a dgrid snapshot (attribute 'format' of / is '%s', expected '%s')"
                           % (fmt[:64], FORMAT_NAME))
        version = self.attr_num("format_version", True)
        if version != FORMAT_VERSION:
            raise BadInput("unsupported format_version %d (this tool reads %d)"
                           % (version, FORMAT_VERSION))
        self.dim = self.attr_num("dim", True)
        if self.dim not in (2, 3):
            raise BadInput("attribute 'dim' of / is %d, must be 2 or 3" % self.dim)
        self.nvar = self.attr_num("nvar", True)
        if self.nvar < 1:
            raise BadInput("attribute 'nvar' of / is %d, must be >= 1" % self.nvar)
        self.q = self.attr_num("q", True)
        if not 1 <= self.q <= 1000:
            raise BadInput("attribute 'q' of / is %d, must be in [1, 1000]" % self.q)
        self.time = self.attr_num("time", False)
        self.step = self.attr_num("step", True)
        self.model = self.attr_str("model")
        # The latitude-longitude sphere: x = longitude, y = latitude (radians);
        # the pictures are then lon-lat maps in degrees.
        self.sphere = 0.0
        try:
            present = "sphere_radius" in self.f.attrs
        except Exception as exc:
            raise BadInput("cannot look up attribute 'sphere_radius' of / (%s)" % h5_reason(exc))
        if present:
            self.sphere = self.attr_num("sphere_radius", False)
            if not (math.isfinite(self.sphere) and self.sphere > 0):
                raise BadInput("attribute 'sphere_radius' of / is %g, must be positive"
                               % self.sphere)

        dim = self.dim
        cells = self.read("/grid/cells", self.dataset("/grid/cells", (dim,), integer=True))
        lo = self.read("/grid/lo", self.dataset("/grid/lo", (dim,)))
        hi = self.read("/grid/hi", self.dataset("/grid/hi", (dim,)))
        self.dataset("/grid/h", (dim,))
        for d in range(dim):
            if not 1 <= int(cells[d]) <= (1 << 30):
                raise BadInput("dataset /grid/cells: entry %d is %d, must be in [1, %d]"
                               % (d, int(cells[d]), 1 << 30))
            if not (math.isfinite(lo[d]) and math.isfinite(hi[d]) and lo[d] < hi[d]):
                raise BadInput("datasets /grid/lo, /grid/hi: side %d is [%.17g, %.17g], "
                               "need lo < hi" % (d, lo[d], hi[d]))
        self.cells = [int(c) for c in cells]
        self.lo = [float(v) for v in lo]
        self.hi = [float(v) for v in hi]
        self.h = [(self.hi[d] - self.lo[d]) / self.cells[d] for d in range(dim)]
        self.nelem = 1
        for c in self.cells:
            self.nelem *= c
        if self.nelem > (1 << 40):
            raise BadInput("dataset /grid/cells gives %d elements, too many" % self.nelem)
        # Shapes are slowest first: [d2][d1] / [d3][d2][d1].
        self.grid_shape = tuple(reversed(self.cells))
        # The mid-plane z slice of a 3D run: element layer k (the upper one
        # when the plane is an element face).
        self.kmid = self.cells[2] // 2 if dim == 3 else 0

        deg_ds = self.dataset("/degree", self.grid_shape, integer=True)
        self.degree_ds = deg_ds
        self.off_ds = self.dataset("/coeff_offset", (self.nelem + 1,), integer=True)
        self.coeff_ds = self.dataset("/coeff", rank=1)
        ncoeff = int(self.read("/coeff_offset", self.off_ds, self.nelem))
        if self.coeff_ds.shape[0] != ncoeff:
            raise BadInput("dataset /coeff has shape %s, expected [%d]"
                           % (shape_label(self.coeff_ds.shape), ncoeff))

        self.gauss_ds = None
        if self.has("/gauss_values"):
            self.gauss_ds = self.dataset(
                "/gauss_values", (self.nelem, self.q ** dim, self.nvar))

        self.view_s = 0
        self.view_ds = self.error_ds = None
        if self.has("/view"):
            grp = self.f.get("/view")
            if not isinstance(grp, h5py.Group):
                raise BadInput("/view is not a group")
            try:
                present = "samples_per_element" in grp.attrs
                s = grp.attrs["samples_per_element"] if present else None
            except Exception as exc:
                raise BadInput("cannot read attribute 'samples_per_element' of /view (%s)"
                               % h5_reason(exc))
            if s is None:
                raise BadInput("attribute 'samples_per_element' of /view is missing")
            s = np.asarray(s)
            if s.size != 1 or s.dtype.kind not in "iu":
                raise BadInput("attribute 'samples_per_element' of /view is not one integer")
            s = int(s.reshape(-1)[0])
            if not 1 <= s <= 64:
                raise BadInput("attribute 'samples_per_element' of /view is %d, must be in "
                               "[1, 64]" % s)
            self.view_s = s
            vshape = (self.nvar,) + tuple(n * s for n in self.grid_shape)
            self.view_ds = self.dataset("/view/values", vshape)
            if self.has("/view/error"):
                self.error_ds = self.dataset("/view/error", vshape)

        self.history_ds = None
        if self.has("/history"):
            ds = self.dataset("/history", rank=2)
            if ds.shape[1] != 4:
                raise BadInput("dataset /history has shape %s, expected [n][4]"
                               % shape_label(ds.shape))
            self.history_ds = ds

    # -- values for the pictures ------------------------------------------
    def degree_plane(self):
        """Element degrees of the plotted plane, [d2][d1]."""
        deg = self.read("/degree", self.degree_ds)
        bad = np.nonzero(deg.reshape(-1) > MAX_DEGREE)[0]
        if bad.size:
            e = int(bad[0])
            raise BadInput("dataset /degree: element %d %s has degree %d > %d"
                           % (e, elem_label(self.dim, self.cells, e),
                              int(deg.reshape(-1)[e]), MAX_DEGREE))
        if self.dim == 3:
            deg = deg[self.kmid]
        return deg.astype(np.int64)

    def offsets(self):
        """/coeff_offset, checked against /degree (call degree_plane first)."""
        dim, nvar = self.dim, self.nvar
        deg_all = self.read("/degree", self.degree_ds).reshape(-1).astype(np.int64)
        off = self.read("/coeff_offset", self.off_ds).astype(np.int64)
        if off[0] != 0:
            raise BadInput("dataset /coeff_offset starts at %d, must start at 0" % off[0])
        need = nvar * (deg_all + 1) ** dim
        bad = np.nonzero(np.diff(off) != need)[0]
        if bad.size:
            e = int(bad[0])
            raise BadInput("dataset /coeff_offset is inconsistent with /degree at element %d %s: "
                           "offsets %d..%d span %d values, degree %d with nvar %d needs %d"
                           % (e, elem_label(dim, self.cells, e), off[e], off[e + 1],
                              off[e + 1] - off[e], deg_all[e], nvar, need[e]))
        return off

    def solution(self):
        """(x, y, values [nvar][ny][nx], z, source): u on the plotted plane."""
        if self.view_ds is not None:
            return self._view_plane("/view/values", self.view_ds)
        if self.gauss_ds is not None:
            return self._gauss_plane()
        return self._coeff_plane()

    def error(self):
        if self.error_ds is None:
            return None
        return self._view_plane("/view/error", self.error_ds)

    def history(self):
        if self.history_ds is None:
            return None
        return self.read("/history", self.history_ds).astype(np.float64)

    def _centres(self, d, s):
        n = self.cells[d] * s
        return self.lo[d] + (np.arange(n) + 0.5) * (self.h[d] / s)

    def _view_plane(self, name, ds):
        s = self.view_s
        if self.dim == 3:
            kk = (self.cells[2] * s) // 2
            vals = self.read(name, ds, (slice(None), kk))
            z = float(self._centres(2, s)[kk])
        else:
            vals = self.read(name, ds)
            z = None
        return (self._centres(0, s), self._centres(1, s), vals.astype(np.float64), z,
                "view sub-grid, %d sample%s per element" % (s, "" if s == 1 else "s"))

    def _gauss_plane(self):
        q, dim, d1, d2 = self.q, self.dim, self.cells[0], self.cells[1]
        gx = np.polynomial.legendre.leggauss(q)[0]  # ascending in [-1, 1]
        layer = d1 * d2
        e0 = self.kmid * layer if dim == 3 else 0
        vals = self.read("/gauss_values", self.gauss_ds, slice(e0, e0 + layer))
        z = None
        if dim == 3:
            # Nearest Gauss layer to the mid-plane, the upper one on a tie.
            pz = 0 if self.cells[2] % 2 == 0 else q // 2
            vals = vals.reshape(layer, q, q * q, self.nvar)[:, pz]
            z = self.lo[2] + (self.kmid + (gx[pz] + 1.0) / 2.0) * self.h[2]
        # [j][i][py][px][v] -> [v][j][py][i][px]
        vals = vals.reshape(d2, d1, q, q, self.nvar).transpose(4, 0, 2, 1, 3)
        vals = vals.reshape(self.nvar, d2 * q, d1 * q)
        x = (self.lo[0] + (np.arange(d1)[:, None] + (gx[None, :] + 1.0) / 2.0)
             * self.h[0]).reshape(-1)
        y = (self.lo[1] + (np.arange(d2)[:, None] + (gx[None, :] + 1.0) / 2.0)
             * self.h[1]).reshape(-1)
        return x, y, vals.astype(np.float64), z, "Gauss points, q = %d" % q

    def _coeff_plane(self):
        """Evaluate the modal expansion at the centres of an s x s split of
        every element of the plane (the view sub-grid points)."""
        dim, nvar, d1, d2 = self.dim, self.nvar, self.cells[0], self.cells[1]
        layer = d1 * d2
        e0 = self.kmid * layer if dim == 3 else 0
        off = self.offsets()
        deg = self.read("/degree", self.degree_ds).reshape(-1)[e0:e0 + layer].astype(np.int64)
        rmax = int(deg.max())
        s = min(8, max(2, rmax + 2))
        while s > 1 and layer * s * s > MAX_EVAL_POINTS:
            s -= 1
        c0, c1 = int(off[e0]), int(off[e0 + layer])
        coeff = self.read("/coeff", self.coeff_ds, slice(c0, c1)).astype(np.float64)
        loc = off[e0:e0 + layer] - c0
        xi = -1.0 + (2.0 * np.arange(s) + 1.0) / s
        z = None
        if dim == 3:
            zeta = -1.0 if self.cells[2] % 2 == 0 else 0.0
            z = self.lo[2] + (self.kmid + (zeta + 1.0) / 2.0) * self.h[2]
        out = np.empty((layer, nvar, s, s))
        for r in np.unique(deg):
            r = int(r)
            n = r + 1
            block = nvar * n ** dim
            vand = np.polynomial.legendre.legvander(xi, r)  # [s][n]
            pz = None
            if dim == 3:
                pz = np.polynomial.legendre.legvander(np.array([zeta]), r)[0]
            all_idx = np.nonzero(deg == r)[0]
            step = max(1, (1 << 22) // block)  # bounded temporaries
            for start in range(0, all_idx.size, step):
                idx = all_idx[start:start + step]
                c = coeff[loc[idx][:, None] + np.arange(block)[None, :]]
                with np.errstate(all="ignore"):
                    if dim == 3:
                        # [e][v][c][b][a], contracted with P_c(zeta) on the plane.
                        c = np.einsum("evcba,c->evba", c.reshape(idx.size, nvar, n, n, n), pz)
                    else:
                        c = c.reshape(idx.size, nvar, n, n)
                    out[idx] = np.einsum("pb,evba,qa->evpq", vand, c, vand)
        # [j][i][v][py][px] -> [v][j][py][i][px]
        vals = out.reshape(d2, d1, nvar, s, s).transpose(2, 0, 3, 1, 4)
        vals = vals.reshape(nvar, d2 * s, d1 * s)
        return (self._centres(0, s), self._centres(1, s), vals, z,
                "modal coefficients at %d x %d points per element" % (s, s))
