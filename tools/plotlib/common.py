"""What every part of tools/plot (and tools/swdiag) shares: the program name
in messages, the two kinds of failure, one-line escaped messages, the one
reader of input files (regular files only, read once and whole, up to a
bound) and the check that the Python modules import."""

import importlib
import os
import stat
import sys

PROG = "plot"  # the program named in messages (tools/swdiag sets its own)


class BadInput(Exception):
    """A file this tool cannot use; str() is the `what` of `plot: FILE: what`."""


class OutputError(Exception):
    """A PNG or folder that could not be written; str() is the whole message."""


def escape(text, keep_backslash=False):
    """A one-line, terminal-safe copy of an untrusted string, as dg_escape()
    writes it: control characters as \\xNN (\\n, \\t, \\r), C1 controls,
    line separators and bidi controls as \\u{XXXX}, bytes that were not UTF-8
    (surrogate escapes) as \\xNN, and backslashes doubled unless kept."""
    out = []
    for ch in text:
        v = ord(ch)
        if ch == "\\":
            out.append(ch if keep_backslash else "\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif v < 0x20 or v == 0x7f:
            out.append("\\x%02x" % v)
        elif 0xdc80 <= v <= 0xdcff:  # an undecodable byte (os.fsdecode)
            out.append("\\x%02x" % (v - 0xdc00))
        elif (0x80 <= v <= 0x9f or v in (0x2028, 0x2029, 0x200e, 0x200f)
              or 0x202a <= v <= 0x202e or 0x2066 <= v <= 0x2069 or 0xd800 <= v <= 0xdfff):
            out.append("\\u{%04x}" % v)
        else:
            out.append(ch)
    return "".join(out)


def say_error(path, what):
    what = escape(str(what), keep_backslash=True)
    if path is None:
        sys.stderr.write("%s: %s\n" % (PROG, what))
    else:
        sys.stderr.write("%s: %s: %s\n" % (PROG, escape(path), what))
    sys.stderr.flush()


def kind_name(mode):
    """What a file that is not regular is, for the refusal."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a plain file"


def read_input(path, limit, what):
    """The whole of a regular file, read once, at most `limit` bytes: the one
    place this tool reads an input.  Opened without blocking (a FIFO would wait
    for a writer), then checked by fstat on the open descriptor."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise BadInput("cannot open: %s" % (exc.strerror or exc))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput("not a regular file (%s); only regular files are read"
                           % kind_name(st.st_mode))
        if st.st_size > limit:
            raise BadInput("the file is %d bytes, above the %d this tool reads of %s"
                           % (st.st_size, limit, what))
        chunks, got = [], 0
        while got <= limit:
            b = os.read(fd, min(1 << 20, limit + 1 - got))
            if not b:
                break
            chunks.append(b)
            got += len(b)
        if got > limit:
            raise BadInput("the file grew above the %d bytes this tool reads of %s"
                           % (limit, what))
        return b"".join(chunks)
    except OSError as exc:
        raise BadInput("read error: %s" % (exc.strerror or exc))
    finally:
        os.close(fd)


def private_mpl_config():
    """Where matplotlib's own folder cannot be made (a HOME that does not
    exist or cannot be written, as a service account's), give it a private
    temporary one, removed at exit: matplotlib would say so in a warning of
    its own, a second line beside this tool's one-line messages."""
    if os.environ.get("MPLCONFIGDIR"):
        return
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    d = os.path.join(base, "matplotlib")
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)
        if os.access(d, os.W_OK):
            return
    except OSError:
        pass
    import atexit
    import shutil
    import tempfile
    try:
        t = tempfile.mkdtemp(prefix="plot-mpl-")
    except OSError:
        return  # matplotlib then warns itself
    atexit.register(shutil.rmtree, t, True)
    os.environ["MPLCONFIGDIR"] = t


def load_modules(need_h5py):
    """Check that the plotting stack imports (the modules that draw import
    it themselves, after this), or explain which Debian package is missing."""
    missing = []
    private_mpl_config()
    try:
        importlib.import_module("numpy")
    except ImportError:
        missing.append("numpy (python3-numpy)")
    try:
        importlib.import_module("matplotlib").use("Agg")
    except ImportError:
        missing.append("matplotlib (python3-matplotlib)")
    if need_h5py:
        try:
            importlib.import_module("h5py")
        except ImportError:
            missing.append("h5py (python3-h5py)")
    if missing:
        say_error(None, "%s cannot import %s; install them or run the tool with a Python "
                  "that has them, e.g. /usr/bin/python3 %s"
                  % (sys.executable or "python3", ", ".join(missing), sys.argv[0]))
        return False
    return True
