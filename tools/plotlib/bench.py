"""Throughput and roofline pictures of a benchmark CSV (tools/plot --bench;
tools/README.md).  Imported after common.load_modules(need_h5py=False)."""

import io
import os

import numpy as np

from .common import BadInput, read_input
from .drawing import DPI, PANEL_H, PANEL_W, ensure_out_dir, new_figure, save

MAX_CSV_BYTES = 64 << 20  # a benchmark CSV is read whole into memory, up to this


def read_bench(path):
    import csv
    data = read_input(path, MAX_CSV_BYTES, "a benchmark CSV")
    try:
        text = data.decode("utf-8")
        rows = list(csv.reader(line for line in io.StringIO(text, newline="")
                               if not line.lstrip().startswith("#")))
    except (csv.Error, UnicodeDecodeError) as exc:
        raise BadInput("not a CSV file (%s)" % exc)
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if not rows:
        raise BadInput("no header line")
    header = [h.strip() for h in rows[0]]
    data = []
    for n, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise BadInput("row %d has %d fields, the header has %d" % (n, len(r), len(header)))
        data.append(dict(zip(header, (c.strip() for c in r))))
    if not data:
        raise BadInput("no data rows")
    return header, data


def bench_column(path, header, data, name, numeric=True, required=True):
    if name not in header:
        if required:
            raise BadInput("column '%s' is missing" % name)
        return None
    if not numeric:
        return [row[name] for row in data]
    out = []
    for n, row in enumerate(data, start=2):
        text = row[name]
        try:
            out.append(float(text) if text != "" else float("nan"))
        except ValueError:
            raise BadInput("row %d: column '%s' value '%s' is not a number" % (n, name, text))
    return np.array(out)


def plot_bench(path, out_dir, prefix):
    from matplotlib.ticker import MaxNLocator
    header, data = read_bench(path)
    degree = bench_column(path, header, data, "degree")
    thr = bench_column(path, header, data, "dof_stage_per_s")
    gflops = bench_column(path, header, data, "gflops")
    gbs = bench_column(path, header, data, "gbs")
    stream = bench_column(path, header, data, "stream_gbs", required=False)
    keys = [k for k in ("dim", "map", "integrator") if k in header]
    groups = {}
    for n, row in enumerate(data):
        label = ", ".join("%s" % row[k] if k != "dim" else "%sD" % row[k] for k in keys)
        groups.setdefault(label or "all", []).append(n)
    ensure_out_dir(out_dir)

    fig = new_figure(figsize=(1.3 * PANEL_W, PANEL_H), dpi=DPI, layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    for label, idx in groups.items():
        idx = np.array(idx)
        ok = idx[np.isfinite(degree[idx]) & np.isfinite(thr[idx]) & (thr[idx] > 0)]
        if ok.size:
            order = ok[np.argsort(degree[ok], kind="stable")]
            ax.plot(degree[order], thr[order], "o-", ms=4, label=label)
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("degree")
    ax.set_ylabel("DOF stage updates per second")
    ax.grid(True, which="both", alpha=0.3)
    if len(groups) > 1 or keys:
        ax.legend(fontsize=8)
    ax.set_title("throughput (%s)" % os.path.basename(path), fontsize=10)
    save(fig, out_dir, prefix + "_throughput.png")

    fig = new_figure(figsize=(1.3 * PANEL_W, PANEL_H), dpi=DPI, layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    with np.errstate(all="ignore"):
        intensity = gflops / gbs  # GFLOP/s over GB/s = flops per byte
    ok_all = np.isfinite(intensity) & (intensity > 0) & np.isfinite(gflops) & (gflops > 0)
    for label, idx in groups.items():
        idx = np.array(idx)
        ok = idx[ok_all[idx]]
        if ok.size:
            ax.plot(intensity[ok], gflops[ok], "o", ms=5, label=label)
            for n in ok:
                ax.annotate("%g" % degree[n], (intensity[n], gflops[n]), fontsize=7,
                            xytext=(3, 3), textcoords="offset points")
    if ok_all.any():
        lo, hi = intensity[ok_all].min() / 4.0, intensity[ok_all].max() * 4.0
        bw = None
        if stream is not None and np.isfinite(stream).any():
            bw = float(np.nanmax(stream))
            src = "measured (stream_gbs)"
        elif np.isfinite(gbs).any():
            bw = float(np.nanmax(gbs))
            src = "highest gbs"
        if bw is not None and bw > 0:
            xs = np.array([lo, hi])
            ax.plot(xs, bw * xs, "k--", lw=1.2, label="%s %.4g GB/s" % (src, bw))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    else:
        ax.text(0.5, 0.5, "no rows with gflops > 0 and gbs > 0", transform=ax.transAxes,
                ha="center")
    ax.set_xlabel("arithmetic intensity (flop/byte)")
    ax.set_ylabel("GFLOP/s")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title("roofline (%s; labels: degree)" % os.path.basename(path), fontsize=10)
    save(fig, out_dir, prefix + "_roofline.png")
