/* dg_io_file.c - bounded input and atomic output for the snapshot formats.
 *
 * Input: a file is opened without blocking (a FIFO cannot stall us), must be
 * a regular file, and exactly the size fstat reports is read into memory;
 * parsers then work on those bytes only.
 *
 * Output: ".<name>.tmp.<pid>" next to the target, created exclusively,
 * written with checked write(2) calls (SIGXFSZ ignored meanwhile, so a file
 * size limit is reported as EFBIG), fsync'ed, closed and renamed over the
 * target.  A target that exists and is not a regular file (symlink, device,
 * FIFO, folder) is never replaced.  Temporaries of dead processes next to
 * the target are removed on the next write. */
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define OUT_FLUSH (1u << 20) /* buffered text is written in chunks of this size */

/* "a FIFO", "a symbolic link", ... for a file type that is not regular. */
static const char *kind_name(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a plain file";
}

int dg_io_load(const char *path, const char *label, char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return dg_error(DG_ERR_IO, "%s: cannot open: %s", label, strerror(errno));
  struct stat st;
  int rc = 0;
  if (fstat(fd, &st) != 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot stat: %s", label, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    rc = dg_error(DG_ERR_IO, "%s: not a regular file (%s); only regular files are read", label,
                  kind_name(st.st_mode));
  } else if ((unsigned long long)st.st_size >= (unsigned long long)SIZE_MAX / 2) {
    rc = dg_error(DG_ERR_MEM, "%s: the file is %lld bytes, too large to read", label,
                  (long long)st.st_size);
  }
  char *b = NULL;
  size_t size = rc == 0 ? (size_t)st.st_size : 0, got = 0;
  if (rc == 0 && !(b = malloc(size + 1)))
    rc = dg_error(DG_ERR_MEM, "%s: out of memory: reading the file needs %zu bytes", label,
                  size + 1);
  while (rc == 0 && got < size) {
    ssize_t n = read(fd, b + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      rc = dg_error(DG_ERR_IO, "%s: read error: %s", label, strerror(errno));
    else if (n == 0)
      rc = dg_error(DG_ERR_IO, "%s: the file shrank while being read (%zu of %zu bytes)", label,
                    got, size);
    else
      got += (size_t)n;
  }
  close(fd);
  if (rc != 0) {
    free(b);
    return rc;
  }
  b[size] = '\0';
  *buf = b;
  *len = size;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Atomic output                                                            */
/* ------------------------------------------------------------------------ */

/* Is `name` ".<base>.tmp.<digits>" (a temporary of ours for target base)?
 * Returns the pid, or 0. */
static long tmp_pid(const char *name, const char *base) {
  size_t bl = strlen(base);
  if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 || strncmp(name + 1 + bl, ".tmp.", 5))
    return 0;
  const char *d = name + 1 + bl + 5;
  long pid = 0;
  if (*d == '\0' || strlen(d) > 9) return 0;
  for (; *d; ++d) {
    if (*d < '0' || *d > '9') return 0;
    pid = pid * 10 + (*d - '0');
  }
  return pid;
}

/* Remove ".<base>.tmp.<pid>" files next to the target whose process no
 * longer exists (left by a killed writer).  Only regular files we own are
 * touched; anything unclear is left alone.  Best effort: no error. */
static void remove_stale(const char *dir, const char *base) {
  DIR *d = opendir(dir);
  if (!d) return;
  int dfd = dirfd(d);
  long self = (long)getpid();
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    long pid = tmp_pid(e->d_name, base);
    if (pid <= 0 || pid == self) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive, or cannot tell */
    struct stat st;
    if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
        st.st_uid != geteuid())
      continue;
    (void)unlinkat(dfd, e->d_name, 0);
  }
  closedir(d);
}

/* The target, if it exists, must be a regular file. */
static int check_target(const char *path, const char *label) {
  struct stat st;
  if (lstat(path, &st) != 0) return 0; /* absent (or unreachable: creating tells why) */
  if (!S_ISREG(st.st_mode))
    return dg_error(DG_ERR_IO, "%s: refusing to replace it: not a regular file (%s)", label,
                    kind_name(st.st_mode));
  return 0;
}

static void xfsz_restore(dg_io_out *o) {
  if (o->xfsz_saved) (void)sigaction(SIGXFSZ, &o->old_xfsz, NULL);
  o->xfsz_saved = 0;
}

static void out_release(dg_io_out *o) {
  if (o->fd >= 0) close(o->fd);
  o->fd = -1;
  xfsz_restore(o);
  free(o->tmp);
  free(o->tmp_label);
  free(o->buf);
  o->tmp = o->tmp_label = o->buf = NULL;
}

int dg_io_out_open(dg_io_out *o, const char *path, const char *label) {
  memset(o, 0, sizeof *o);
  o->fd = -1;
  o->path = path;
  o->label = label;
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = path + dirlen;
  if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
    return dg_error(DG_ERR_ARG, "%s: output path names a folder, not a file", label);
  DG_CALL(check_target(path, label));

  size_t len = dirlen + strlen(base) + 32;
  char *dir = malloc(dirlen + 2);
  o->tmp = malloc(len);
  if (!dir || !o->tmp) {
    free(dir);
    out_release(o);
    return dg_error(DG_ERR_MEM, "%s: out of memory", label);
  }
  snprintf(o->tmp, len, "%.*s.%s.tmp.%ld", (int)dirlen, path, base, (long)getpid());
  if (dirlen)
    snprintf(dir, dirlen + 2, "%.*s", (int)dirlen, path);
  else
    snprintf(dir, dirlen + 2, ".");
  remove_stale(dir, base);
  free(dir);
  o->tmp_label = dg_escape_dup(o->tmp);
  if (!o->tmp_label) {
    out_release(o);
    return dg_error(DG_ERR_MEM, "%s: out of memory", label);
  }

  /* A file size limit must be an error we report, not a signal that kills. */
  struct sigaction ign;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  if (sigaction(SIGXFSZ, &ign, &o->old_xfsz) == 0) o->xfsz_saved = 1;

  const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  o->fd = open(o->tmp, flags, 0666);
  if (o->fd < 0 && errno == EEXIST) {
    /* Left by an earlier process that had our pid: same name, dead owner. */
    struct stat st;
    if (lstat(o->tmp, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
        unlink(o->tmp) == 0)
      o->fd = open(o->tmp, flags, 0666);
    else
      errno = EEXIST;
  }
  if (o->fd < 0) {
    int rc = dg_error(DG_ERR_IO, "%s: cannot create temporary file %s: %s", label, o->tmp_label,
                      strerror(errno));
    out_release(o);
    return rc;
  }
  return 0;
}

/* write(2) everything or remember why not. */
static void raw_write(dg_io_out *o, const void *p, size_t n) {
  const char *c = p;
  while (o->err == 0 && n > 0) {
    ssize_t w = write(o->fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      o->err = errno ? errno : EIO;
    } else if (w == 0) {
      o->err = EIO;
    } else {
      c += w;
      n -= (size_t)w;
    }
  }
}

static void out_flush(dg_io_out *o) {
  if (o->used) raw_write(o, o->buf, o->used);
  o->used = 0;
}

void dg_io_out_write(dg_io_out *o, const void *p, size_t n) {
  out_flush(o);
  raw_write(o, p, n);
}

void dg_io_out_printf(dg_io_out *o, const char *fmt, ...) {
  if (o->err) return;
  for (int pass = 0; pass < 2; ++pass) {
    size_t room = o->cap - o->used;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf ? o->buf + o->used : NULL, o->buf ? room : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      o->err = EINVAL;
      return;
    }
    if ((size_t)n < room) {
      o->used += (size_t)n;
      if (o->used >= OUT_FLUSH) out_flush(o);
      return;
    }
    /* Grow to hold this piece, then format again. */
    size_t cap = o->cap ? o->cap : 4096;
    while (cap - o->used <= (size_t)n) cap *= 2;
    char *nb = realloc(o->buf, cap);
    if (!nb) {
      o->err = ENOMEM;
      return;
    }
    o->buf = nb;
    o->cap = cap;
  }
}

void dg_io_out_abort(dg_io_out *o) {
  if (o->fd >= 0) close(o->fd);
  o->fd = -1;
  if (o->tmp) (void)unlink(o->tmp);
  out_release(o);
}

int dg_io_out_commit(dg_io_out *o, const char *hook) {
  int rc = 0;
  out_flush(o);
  if (o->err)
    rc = dg_error(o->err == ENOMEM ? DG_ERR_MEM : DG_ERR_IO, "%s: cannot write temporary %s: %s",
                  o->label, o->tmp_label, strerror(o->err));
  if (rc == 0 && dg_io_fail_injected(hook))
    rc = dg_error(DG_ERR_IO, "%s: injected failure (DGRID_IO_FAIL=%s) after a partial write of %s",
                  o->label, hook, o->tmp_label);
  if (rc == 0 && fsync(o->fd) != 0 && errno != EINVAL && errno != EROFS)
    rc = dg_error(DG_ERR_IO, "%s: cannot write temporary %s: %s", o->label, o->tmp_label,
                  strerror(errno));
  if (o->fd >= 0) {
    int st = close(o->fd);
    o->fd = -1;
    if (st != 0 && rc == 0)
      rc = dg_error(DG_ERR_IO, "%s: cannot finish writing temporary %s: %s", o->label, o->tmp_label,
                    strerror(errno));
  }
  /* Again just before the rename: the target may have changed meanwhile. */
  if (rc == 0) rc = check_target(o->path, o->label);
  if (rc == 0 && rename(o->tmp, o->path) != 0)
    rc = dg_error(DG_ERR_IO, "%s: cannot rename temporary %s into place: %s", o->label,
                  o->tmp_label, strerror(errno));
  if (rc != 0) (void)unlink(o->tmp);
  out_release(o);
  return rc;
}
