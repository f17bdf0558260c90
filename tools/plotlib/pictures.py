"""The pictures of one snapshot: the solution, the degree map, the pointwise
error and the history (tools/README.md).  Imported after
common.load_modules(need_h5py=True)."""

import matplotlib as mpl
import numpy as np

from .drawing import (DPI, PANEL_H, PANEL_W, contour_panel, degree_change_segments,
                      element_lines, ensure_out_dir, new_figure, panel_size, save, set_aspect)
from .snapshot import Snapshot

MAX_PANELS = 9           # variables drawn per picture


def field_figure(snap, x, y, vals, z, what, source, signed_error=False):
    nvar = vals.shape[0]
    if nvar > MAX_PANELS:
        source += " (the first %d of %d variables)" % (MAX_PANELS, nvar)
        nvar = MAX_PANELS
    ncols = min(nvar, 3)
    nrows = -(-nvar // ncols)
    pw, ph = panel_size(snap, 1.9)
    fig = new_figure(figsize=(pw * ncols, ph * nrows + 0.5), dpi=DPI, layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    for v in range(nrows * ncols):
        ax = axes[v // ncols][v % ncols]
        if v >= nvar:
            ax.set_visible(False)
            continue
        name = what if nvar == 1 else "%s%d" % (what, v)
        title = name
        if signed_error:
            fin = np.isfinite(vals[v])
            title += "  (max |error| %.3g)" % (float(np.abs(vals[v][fin]).max())
                                               if fin.any() else float("nan"))
        contour_panel(fig, ax, snap, x, y, vals[v], title, name, signed_error)
    fig.suptitle("%s%s: %s\n%s" % (heading(snap), plane_note(snap, z), what, source),
                 fontsize=10)
    return fig


def heading(snap):
    return "%s  t = %.6g  step %d" % (snap.model or "(no model)", snap.time, snap.step)


def plane_note(snap, z):
    if snap.dim != 3:
        return ""
    mid = 0.5 * (snap.lo[2] + snap.hi[2])
    if z is None or abs(z - mid) <= 1e-12 * max(abs(mid), snap.hi[2] - snap.lo[2]):
        return "\nslice z = %.6g (mid-plane)" % mid
    return "\nslice z = %.6g (samples nearest the mid-plane z = %.6g)" % (z, mid)


def degree_figure(snap, deg, z):
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MplPath
    pw, ph = panel_size(snap, 1.5)
    fig = new_figure(figsize=(max(pw, 4.2), ph + 0.5), dpi=DPI, layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    dmin, dmax = int(deg.min()), int(deg.max())
    nlev = dmax - dmin + 1
    base = mpl.colormaps["YlGnBu"]
    colours = [base(0.12 + 0.6 * (t / max(nlev - 1, 1))) for t in range(nlev)]
    cmap = ListedColormap(colours)
    norm = BoundaryNorm(np.arange(dmin - 0.5, dmax + 1.0), nlev)
    xe = snap.lo[0] + np.arange(snap.cells[0] + 1) * snap.h[0]
    ye = snap.lo[1] + np.arange(snap.cells[1] + 1) * snap.h[1]
    xe[-1], ye[-1] = snap.hi[0], snap.hi[1]
    mesh = ax.pcolormesh(xe, ye, deg, cmap=cmap, norm=norm, shading="flat")
    cb = fig.colorbar(mesh, ax=ax, shrink=0.9, ticks=np.arange(dmin, dmax + 1))
    cb.set_label("degree")
    element_lines(ax, snap, "k", 0.4, 0.2)
    segs = degree_change_segments(snap, deg)
    if len(segs):
        # Thinner lines on finer grids, so that the colours stay visible.
        lw = min(1.8, 50.0 / max(snap.cells[0], snap.cells[1]))
        # One path of MOVETO/LINETO pairs: fast even with millions of faces.
        codes = np.tile(np.array([MplPath.MOVETO, MplPath.LINETO], dtype=np.uint8), len(segs))
        # add_artist, not add_patch: the limits are set by hand, and
        # add_patch's limit update walks every segment in Python.
        ax.add_artist(PathPatch(MplPath(segs.reshape(-1, 2), codes), fill=False,
                                edgecolor="k", linewidth=lw, capstyle="round",
                                transform=ax.transData))
    d1, d2 = snap.cells[0], snap.cells[1]
    if d1 * d2 <= 400:
        size = max(5.0, min(10.0, 160.0 / max(d1, d2)))
        for j in range(d2):
            for i in range(d1):
                ax.text(snap.lo[0] + (i + 0.5) * snap.h[0], snap.lo[1] + (j + 0.5) * snap.h[1],
                        str(int(deg[j, i])), ha="center", va="center", fontsize=size)
    set_aspect(ax, snap)
    counts = np.bincount(deg.reshape(-1), minlength=dmax + 1)
    ax.set_title("degree (lines: changes)", fontsize=10)
    fig.suptitle("%s%s\nelements per degree: %s" % (
        heading(snap), plane_note(snap, z),
        ", ".join("%d: %d" % (r, counts[r]) for r in range(dmin, dmax + 1) if counts[r])),
        fontsize=9)
    return fig


def history_figure(snap, hist):
    step, time, mass, l2 = hist[:, 0], hist[:, 1], hist[:, 2], hist[:, 3]
    if np.isfinite(time).any():
        t, tlabel = time, "time"
    else:
        t, tlabel = step, "step"
    fig = new_figure(figsize=(2 * PANEL_W, PANEL_H), dpi=DPI, layout="constrained")
    ax_m, ax_e = fig.subplots(1, 2)

    ok = np.isfinite(t) & np.isfinite(mass)
    if ok.any():
        m0 = mass[ok][0]
        if m0 != 0.0:
            drift, ylab = (mass - m0) / abs(m0), "(mass - mass0) / |mass0|"
        else:
            drift, ylab = mass - m0, "mass - mass0"
        ax_m.plot(t[ok], drift[ok], "o-", ms=3)
        ax_m.set_ylabel(ylab)
        ax_m.set_title("mass drift (mass0 = %.10g)" % m0, fontsize=10)
    else:
        ax_m.set_title("mass drift", fontsize=10)
        ax_m.text(0.5, 0.5, "mass not recorded", transform=ax_m.transAxes, ha="center")
    ax_m.set_xlabel(tlabel)
    ax_m.grid(True, alpha=0.3)

    ok = np.isfinite(t) & np.isfinite(l2)
    if ok.any():
        ax_e.plot(t[ok], l2[ok], "o-", ms=3, color="C3")
        if (l2[ok] > 0.0).all():
            ax_e.set_yscale("log")
        ax_e.set_title("L2 error (last %.3g)" % l2[ok][-1], fontsize=10)
    else:
        ax_e.set_title("L2 error", fontsize=10)
        ax_e.text(0.5, 0.5, "L2 error not recorded", transform=ax_e.transAxes, ha="center")
    ax_e.set_xlabel(tlabel)
    ax_e.set_ylabel("L2 error")
    ax_e.grid(True, alpha=0.3)
    fig.suptitle("%s: history, %d row%s" % (heading(snap), hist.shape[0],
                                           "" if hist.shape[0] == 1 else "s"), fontsize=10)
    return fig


def plot_snapshot(path, out_dir, prefix, unverified=False):
    snap = Snapshot(path, unverified)
    try:
        # Read and check everything first: a bad file writes no PNG at all.
        deg = snap.degree_plane()
        snap.offsets()
        x, y, vals, z, source = snap.solution()
        err = snap.error()
        hist = snap.history()
    finally:
        snap.close()
    ensure_out_dir(out_dir)
    with np.errstate(all="ignore"):
        save(field_figure(snap, x, y, vals, z, "u", source), out_dir, prefix + "_solution.png")
        save(degree_figure(snap, deg, z), out_dir, prefix + "_degree.png")
        if err is not None:
            ex, ey, evals, ez, _ = err
            save(field_figure(snap, ex, ey, evals, ez, "error", "pointwise error, view sub-grid",
                              signed_error=True), out_dir, prefix + "_error.png")
        if hist is not None and hist.shape[0] > 0:
            save(history_figure(snap, hist), out_dir, prefix + "_history.png")
