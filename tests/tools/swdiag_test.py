"""tools.swdiag: tools/swdiag on shallow-water snapshots that advect writes.

  errors   Williamson 2 (alpha = 0.7, 6 hours): swdiag's l2_rel of an 8 x 4,
           degree 1 run against a 16 x 8, degree 3 run agrees with advect's
           own l2_rel against the exact solution to 1% (the reference's error
           is about 1e-3 of the coarse run's); a run against itself gives 0; a
           reference that does not refine the run is refused (status 2)
  picture  the relative vorticity of Williamson 2's initial state (alpha =
           0: 2 u0 sin(theta) / a) drawn as a PNG; the vorticity's values
           (swdiag's field()) agree with the exact ones to 1%; the vorticity
           over Williamson 5's mountain is refused in one line (status 2)
  phase    Williamson 6's initial state: the wave-4 amplitude along 40 N that
           swdiag phase reports agrees with the exact one to 1e-4 (24 x 12,
           degree 3); a snapshot against itself does not shift

Usage: PYTHON swdiag_test.py CASE SWDIAG ADVECT DIR
"""

import importlib.machinery
import importlib.util
import math
import os
import re
import subprocess
import sys

CASE = sys.argv[1]
SWDIAG, ADVECT, DIR = (os.path.abspath(a) for a in sys.argv[2:5])
failures = []


def bad(msg):
    failures.append(msg)
    print("FAIL [%s]: %s" % (CASE, msg), file=sys.stderr)


def advect(name, *args):
    """Run advect into DIR/name.h5; its summary line's key=value pairs."""
    out = os.path.join(DIR, name + ".h5")
    r = subprocess.run([ADVECT, "--model", "shallow_water", "--grid", "latlon", "--integrator",
                        "lsrk4", "--cfl", "0.5", "--quiet", "--output", out] + list(args),
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("advect %s failed: %s" % (name, r.stderr), file=sys.stderr)
        sys.exit(1)
    return out, dict(re.findall(r"(\w+)=(\S+)", r.stdout))


def swdiag(*args):
    r = subprocess.run([sys.executable, SWDIAG] + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def case_errors():
    w2 = ["--case", "williamson2", "--alpha", "0.7", "--t-end", "21600"]
    run, summ = advect("w2_8x4", "--cells", "8x4", "--degree", "1", *w2)
    ref, _ = advect("w2_16x8", "--cells", "16x8", "--degree", "3", *w2)
    rc, out, err = swdiag("errors", run, ref)
    m = re.search(r"l2_rel=(\S+)", out)
    if rc != 0 or not m:
        bad("swdiag errors: status %d, stdout %r, stderr %r" % (rc, out, err))
        return
    mine, exact = float(m.group(1)), float(summ["l2_rel"])
    print("williamson2 8x4 r=1: swdiag l2_rel %.6e, advect's against the exact solution %.6e"
          % (mine, exact))
    if not abs(mine / exact - 1) < 1e-2:
        bad("l2_rel %.6e against the reference, %.6e against the exact solution" % (mine, exact))
    rc, out, err = swdiag("errors", run, run)
    if rc != 0 or "l1_rel=0.000000e+00 l2_rel=0.000000e+00 linf_rel=0.000000e+00" not in out:
        bad("a run against itself: status %d, %r %r" % (rc, out, err))
    rc, out, err = swdiag("errors", ref, run)
    want = "the reference's 8 cells along direction 0 do not refine the run's 16"
    if rc != 2 or want not in err or err.count("\n") != 1:
        bad("a coarser reference: status %d (want 2), stderr %r (want one line with %r)"
            % (rc, err, want))


def case_picture():
    path, _ = advect("w2_t0", "--case", "williamson2", "--cells", "16x8", "--degree", "3",
                     "--steps", "0")
    png = os.path.join(DIR, "w2_vorticity.png")
    rc, out, err = swdiag("picture", "--field", "vorticity", "--out", png, path)
    if rc != 0 or out.strip() != png or not os.path.isfile(png):
        bad("picture: status %d, stdout %r, stderr %r" % (rc, out, err))
    with open(png, "rb") as fh:
        if fh.read(8) != b"\x89PNG\r\n\x1a\n":
            bad("%s is not a PNG" % png)
    loader = importlib.machinery.SourceFileLoader("swdiag_tool", SWDIAG)
    spec = importlib.util.spec_from_loader("swdiag_tool", loader)
    tool = importlib.util.module_from_spec(spec)
    loader.exec_module(tool)
    if not tool.load_plot():
        sys.exit(1)
    snap = tool.S.Snapshot(path)
    try:
        lam, th, z = tool.field(snap, "vorticity", 4)
    finally:
        snap.close()
    a = 6.37122e6
    u0 = 2 * math.pi * a / (12 * 86400)
    exact = 2 * u0 * tool.np.sin(th) / a
    dev = float(tool.np.abs(z - exact[:, None]).max()) / float(tool.np.abs(exact).max())
    print("williamson2 16x8 r=3 at t = 0: vorticity's largest deviation %.2e of its maximum"
          % dev)
    if not dev < 1e-2:
        bad("vorticity deviates by %.2e of its maximum" % dev)
    w5, _ = advect("w5_t0", "--case", "williamson5", "--cells", "8x4", "--degree", "2",
                   "--steps", "0")
    rc, out, err = swdiag("picture", "--field", "vorticity", "--out", png, w5)
    want = "over a flat bottom only"
    if rc != 2 or want not in err or err.count("\n") != 1:
        bad("vorticity over the mountain: status %d (want 2), stderr %r" % (rc, err))


def case_phase():
    path, _ = advect("w6_t0", "--case", "williamson6", "--cells", "24x12", "--degree", "3",
                     "--steps", "0")
    rc, out, err = swdiag("phase", path, path)
    m = re.search(r"shift_deg=(\S+) period_deg=90 time=0 amplitude0=(\S+) amplitude1=(\S+)", out)
    if rc != 0 or not m:
        bad("phase: status %d, stdout %r, stderr %r" % (rc, out, err))
        return
    # Williamson 6's wave-4 amplitude at 40 N: (a^2 / g) B(theta), B = 2 (Omega + omega) K /
    # ((R + 1)(R + 2)) cos^R (R^2 + 2R + 2 - (R + 1)^2 cos^2), R = 4, omega = K
    a, g, om, k, r = 6.37122e6, 9.80616, 7.292e-5, 7.848e-6, 4
    c = math.cos(math.radians(40))
    b = 2 * (om + k) * k / ((r + 1) * (r + 2)) * c ** r * (r * r + 2 * r + 2 - (r + 1) ** 2 * c * c)
    exact = a * a / g * b
    shift, amp0 = float(m.group(1)), float(m.group(2))
    print("williamson6 24x12 r=3 at t = 0: wave-4 amplitude at 40 N %.4f m (exact %.4f), shift "
          "against itself %g" % (amp0, exact, shift))
    if not abs(amp0 / exact - 1) < 1e-4:
        bad("wave-4 amplitude %.6g, exact %.6g" % (amp0, exact))
    if not (shift < 1e-9 or shift > 90 - 1e-9):
        bad("a snapshot against itself shifted by %g degrees" % shift)


os.makedirs(DIR, exist_ok=True)
{"errors": case_errors, "picture": case_picture, "phase": case_phase}[CASE]()
if failures:
    sys.exit(1)
print("tools.swdiag_%s: ok" % CASE)
