"""Drawing helpers the pictures share (tools/plot's snapshot and benchmark
pictures, tools/swdiag's maps): Agg figures, panel sizes, filled-contour
panels, element lines, and the atomic PNG write.  Imported after
common.load_modules()."""

import math
import os

import numpy as np

from .common import OutputError

MAX_PLOT_POINTS = 1024   # per direction; larger fields are thinned for drawing


PANEL_W, PANEL_H, DPI = 5.6, 4.6, 100


def new_figure(figsize, dpi, layout):
    """A Figure with an Agg canvas (the drawing modules load here, after the
    input has been checked)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=figsize, dpi=dpi, layout=layout)
    FigureCanvasAgg(fig)
    return fig


def box_ratio(snap):
    """Height over width of the plotted box, as drawn (see set_aspect)."""
    r = (snap.hi[1] - snap.lo[1]) / (snap.hi[0] - snap.lo[0])
    return r if 0.2 <= r <= 5.0 else 1.0


def panel_size(snap, extra_w):
    """Figure inches for one map panel: the axes follow the box's shape,
    plus room for the labels and a colorbar (extra_w)."""
    r = box_ratio(snap)
    if r >= 1.0:
        ah = 4.0
        aw = max(4.0 / r, 1.6)
    else:
        aw = 5.0
        ah = max(5.0 * r, 1.6)
    return aw + extra_w + 0.9, ah + 1.1


def thin(x, y, z):
    """Every k-th point of fields wider than MAX_PLOT_POINTS (drawing only)."""
    kx = max(1, -(-x.size // MAX_PLOT_POINTS))
    ky = max(1, -(-y.size // MAX_PLOT_POINTS))
    if kx == 1 and ky == 1:
        return x, y, z
    return x[::kx], y[::ky], z[..., ::ky, ::kx]


def set_aspect(ax, snap):
    wx, wy = snap.hi[0] - snap.lo[0], snap.hi[1] - snap.lo[1]
    ax.set_aspect("equal" if 0.2 <= wy / wx <= 5.0 else "auto")
    ax.set_xlim(snap.lo[0], snap.hi[0])
    ax.set_ylim(snap.lo[1], snap.hi[1])
    if snap.sphere:  # a lon-lat map: ticks in degrees
        ax.set_xticks([math.radians(v) for v in range(0, 361, 60)])
        ax.set_xticklabels(["%d" % v for v in range(0, 361, 60)])
        ax.set_yticks([math.radians(v) for v in range(-90, 91, 30)])
        ax.set_yticklabels(["%d" % v for v in range(-90, 91, 30)])
        ax.set_xlabel("longitude (degrees)")
        ax.set_ylabel("latitude (degrees)")
        return
    ax.set_xlabel("x")
    ax.set_ylabel("y")


def element_lines(ax, snap, color, lw, alpha):
    from matplotlib.collections import LineCollection
    d1, d2 = snap.cells[0], snap.cells[1]
    if d1 > 32 or d2 > 32:  # denser grids only add moire
        return
    x0, x1, y0, y1 = snap.lo[0], snap.hi[0], snap.lo[1], snap.hi[1]
    segs = [[(x0 + i * snap.h[0], y0), (x0 + i * snap.h[0], y1)] for i in range(1, d1)]
    segs += [[(x0, y0 + j * snap.h[1]), (x1, y0 + j * snap.h[1])] for j in range(1, d2)]
    if segs:
        ax.add_collection(LineCollection(segs, colors=color, linewidths=lw, alpha=alpha))


def degree_change_segments(snap, deg):
    """Element faces in the plane whose two elements differ in degree, as an
    array of segments [n][2 ends][x, y]."""
    x0, y0, hx, hy = snap.lo[0], snap.lo[1], snap.h[0], snap.h[1]
    jj, ii = np.nonzero(deg[:, 1:] != deg[:, :-1])      # face between i and i+1
    x = x0 + (ii + 1) * hx
    vert = np.stack([np.stack([x, y0 + jj * hy], -1), np.stack([x, y0 + (jj + 1) * hy], -1)], 1)
    jj, ii = np.nonzero(deg[1:, :] != deg[:-1, :])      # face between j and j+1
    y = y0 + (jj + 1) * hy
    horz = np.stack([np.stack([x0 + ii * hx, y], -1), np.stack([x0 + (ii + 1) * hx, y], -1)], 1)
    return np.concatenate([vert.reshape(-1, 2, 2), horz.reshape(-1, 2, 2)])


def contour_panel(fig, ax, snap, x, y, z, title, label, signed_error=False):
    """Filled contours of one cell-centred field over the whole box."""
    from matplotlib.ticker import MaxNLocator
    x, y, z = thin(x, y, z)
    finite = np.isfinite(z)
    ax.set_title(title, fontsize=10)
    set_aspect(ax, snap)
    if not finite.any():
        ax.text(0.5, 0.5, "no finite values", transform=ax.transAxes, ha="center",
                va="center")
        return
    vmin, vmax = float(z[finite].min()), float(z[finite].max())
    amax = max(abs(vmin), abs(vmax))
    if amax > 1e30 or 0.0 < amax < 1e-30:
        # Beyond what locators and colorbars handle gracefully: show z/amax.
        z = z / amax
        vmin, vmax = vmin / amax, vmax / amax
        label = "%s / %.3g" % (label, amax)
    # Pad with the edge values so the colours reach the box boundary.
    xe = np.concatenate(([snap.lo[0]], x, [snap.hi[0]]))
    ye = np.concatenate(([snap.lo[1]], y, [snap.hi[1]]))
    zp = np.pad(z, 1, mode="edge")
    zp = np.ma.masked_invalid(zp)
    cmap = "viridis"
    ticks = None
    if signed_error and vmin < 0.0 < vmax:
        m = max(-vmin, vmax)
        levels = MaxNLocator(nbins=20, symmetric=True).tick_values(-m, m)
        cmap = "RdBu_r"
    elif vmax > vmin:
        levels = MaxNLocator(nbins=20).tick_values(vmin, vmax)
        # centre a band on every tick: a band edge exactly at 0 would turn the
        # round-off-sized ripples of a field that is ~0 into bold stripes
        step = levels[1] - levels[0]
        ticks = levels
        levels = np.append(levels - step / 2, levels[-1] + step / 2)
    else:
        d = abs(vmin) * 1e-6 if vmin != 0.0 else 1.0
        levels = [vmin - d, vmin + d]
    extend = {(False, False): "neither", (True, False): "min", (False, True): "max",
              (True, True): "both"}[(vmin < levels[0], vmax > levels[-1])]
    cs = ax.contourf(xe, ye, zp, levels=levels, cmap=cmap, extend=extend)
    cb = fig.colorbar(cs, ax=ax, shrink=0.9)
    cb.set_label(label)
    if ticks is not None:
        cb.set_ticks(ticks[::2])
    if vmax == vmin:
        cb.set_ticks([vmin])
        cb.set_ticklabels(["%.6g (constant)" % vmin])
    element_lines(ax, snap, "k", 0.4, 0.25)


def save(fig, out_dir, name):
    """Write the PNG atomically (temporary + rename); return its path."""
    path = os.path.join(out_dir, name)
    tmp = os.path.join(out_dir, ".%s.tmp.%d.png" % (name, os.getpid()))
    try:
        fig.savefig(tmp, format="png", dpi=DPI)
        os.replace(tmp, path)
    except Exception as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise OutputError("%s: cannot write: %s" % (path, reason))
    finally:
        fig.clear()
    print(path, flush=True)
    return path


def ensure_out_dir(out_dir):
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise OutputError("%s: cannot create folder: %s" % (out_dir, exc.strerror or exc))
