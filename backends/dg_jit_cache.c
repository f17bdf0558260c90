/* dg_jit_cache.c - the kernel cache's folder: where it is, whether it may
 * be trusted, the private fallback of a read-only one, and `dgrid cache
 * list | clear` (backends/dg_jit.h; docs/ARCHITECTURE.md, "Kernels on
 * demand").  Layout under the root ($DGRID_CACHE_DIR, else
 * $XDG_CACHE_HOME/dgrid, else $HOME/.cache/dgrid), every folder 0700 and
 * owned by the user:
 *   v1/src-<hash>/   the library's sources, written out for the compiler
 *   v1/k/<key>.so    a kernel object (.bin: bytes of an in-process compiler);
 *                    <key>.meta its record (size, checksum, compiler version,
 *                    what), written last: the commit mark
 *   v1/k/<key>.lock  held while one process compiles that key
 *   v1/tmp/          compiler scratch, renamed into k/ when complete */
#define _GNU_SOURCE
#include "dg_jit_internal.h"

#include "dg_error.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char dg_jit_root[DG_JIT_PATH];
char dg_jit_kdir[DG_JIT_PATH];
char dg_jit_vdir[DG_JIT_PATH];
char dg_jit_rdir[DG_JIT_PATH];

int dg_jit_fmt(char *buf, size_t cap, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(buf, cap, f, ap);
  va_end(ap);
  return n;
}

/* ---- the cache folder: private, or refused ---- */

/* A folder others can write into could hold a kernel of theirs: refuse it.
 * The root's parent may be shared only with the sticky bit (/tmp). */
static int check_private(const char *dir, int is_parent) {
  struct stat st;
  if (stat(dir, &st) != 0)
    return dg_error(DG_ERR_IO, "kernel cache: cannot read folder %s (%s)", dir, strerror(errno));
  if (!S_ISDIR(st.st_mode)) return dg_error(DG_ERR_IO, "kernel cache: %s is not a folder", dir);
  if (is_parent) {
    if ((st.st_mode & 0002) && !(st.st_mode & S_ISVTX))
      return dg_error(DG_ERR_IO,
                      "kernel cache: %s, the folder above the cache, is writable by others "
                      "without the sticky bit: refusing to load kernels under it (set "
                      "DGRID_CACHE_DIR to a private folder)",
                      dir);
    return 0;
  }
  if (st.st_uid != geteuid())
    return dg_error(DG_ERR_IO,
                    "kernel cache: folder %s belongs to user %u, not to you (%u): refusing to "
                    "load kernels from it (set DGRID_CACHE_DIR to a folder of yours)",
                    dir, (unsigned)st.st_uid, (unsigned)geteuid());
  if (st.st_mode & 0022)
    return dg_error(DG_ERR_IO,
                    "kernel cache: folder %s is writable by others (mode %04o): refusing to "
                    "load kernels from it (chmod 700 %s, or set DGRID_CACHE_DIR)",
                    dir, (unsigned)(st.st_mode & 07777), dir);
  return 0;
}

/* mkdir -p with 0700 for what it creates. */
int dg_jit_make_dirs(const char *path) {
  char buf[DG_JIT_PATH];
  if (dg_jit_fmt(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
    return dg_error(DG_ERR_IO, "kernel cache: path too long: %s", path);
  for (char *p = buf + 1; *p; ++p) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0700) != 0 && errno != EEXIST)
      return dg_error(DG_ERR_IO, "kernel cache: cannot create %s (%s)", buf, strerror(errno));
    *p = '/';
  }
  if (mkdir(buf, 0700) != 0 && errno != EEXIST)
    return dg_error(DG_ERR_IO, "kernel cache: cannot create %s (%s)", buf, strerror(errno));
  return 0;
}

int dg_jit_rm_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
  if (!S_ISDIR(st.st_mode)) return unlink(path);
  DIR *d = opendir(path);
  if (!d) return -1;
  struct dirent *e;
  int rc = 0;
  char sub[DG_JIT_PATH];
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (dg_jit_fmt(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub) {
      rc = -1;
      continue;
    }
    rc |= dg_jit_rm_tree(sub);
  }
  closedir(d);
  return rc | rmdir(path);
}

static char private_tmp[DG_JIT_PATH];
static void remove_private_tmp(void) {
  if (private_tmp[0]) dg_jit_rm_tree(private_tmp);
}

static int set_root(const char *base) {
  dg_jit_fmt(dg_jit_root, sizeof dg_jit_root, "%s", base);
  dg_jit_fmt(dg_jit_vdir, sizeof dg_jit_vdir, "%s", dg_jit_kdir);
  *strrchr(dg_jit_vdir, '/') = '\0';
  return 0;
}

/* The cache folder base cannot be written (why: "is read-only", "cannot be
 * made (...)"): what it lacks is compiled into a private temporary folder
 * that goes when the process ends, with a note saying so. */
static int private_cache(const char *base, const char *why) {
  const char *t = getenv("TMPDIR");
  char tmpl[DG_JIT_PATH];
  dg_jit_fmt(tmpl, sizeof tmpl, "%s/dgrid-cache-XXXXXX", t && t[0] == '/' ? t : "/tmp");
  if (!mkdtemp(tmpl))
    return dg_error(DG_ERR_IO,
                    "kernel cache: %s %s and no private folder could be made in %s: set "
                    "DGRID_CACHE_DIR to a writable folder",
                    base, why, t && t[0] == '/' ? t : "/tmp");
  dg_jit_fmt(private_tmp, sizeof private_tmp, "%s", tmpl);
  atexit(remove_private_tmp);
  dg_jit_fmt(dg_jit_kdir, sizeof dg_jit_kdir, "%s/v1/k", tmpl);
  DG_CALL(dg_jit_make_dirs(dg_jit_kdir));
  fprintf(stderr,
          "dgrid: note: kernel cache %s %s: kernels it lacks are compiled into %s, removed when "
          "the process ends\n",
          base, why, tmpl);
  return set_root(base);
}

int dg_jit_resolve(void) {
  if (dg_jit_root[0]) return 0;
  const char *env = getenv("DGRID_CACHE_DIR");
  char base[DG_JIT_PATH];
  if (env && *env) {
    if (env[0] != '/')
      return dg_error(DG_ERR_ARG, "DGRID_CACHE_DIR: '%s' is not an absolute path", env);
    dg_jit_fmt(base, sizeof base, "%s", env);
  } else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/') {
    dg_jit_fmt(base, sizeof base, "%s/dgrid", env);
  } else if ((env = getenv("HOME")) && env[0] == '/') {
    dg_jit_fmt(base, sizeof base, "%s/.cache/dgrid", env);
  } else {
    return dg_error(DG_ERR_IO, "kernel cache: neither DGRID_CACHE_DIR, XDG_CACHE_HOME nor HOME "
                               "is set: set DGRID_CACHE_DIR to a private folder");
  }
  size_t n = strlen(base);
  while (n > 1 && base[n - 1] == '/') base[--n] = '\0';
  if (n + 64 >= DG_JIT_PATH) return dg_error(DG_ERR_IO, "kernel cache: path too long: %s", base);
  struct stat st;
  if (stat(base, &st) != 0) {
    /* create it; its parent must not be open to others */
    char parent[DG_JIT_PATH];
    dg_jit_fmt(parent, sizeof parent, "%s", base);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) *slash = '\0';
    if (stat(parent, &st) == 0) DG_CALL(check_private(parent, 1));
    if (dg_jit_make_dirs(base) != 0) {
      /* a HOME that does not exist or cannot be written (a service account,
         a container): run as from a read-only cache that holds nothing */
      const char *m = dg_error_message(), *pre = "kernel cache: ";
      char why[DG_JIT_PATH + 64];
      dg_jit_fmt(why, sizeof why, "cannot be made (%s)",
                 strncmp(m, pre, strlen(pre)) ? m : m + strlen(pre));
      dg_error_clear();
      return private_cache(base, why);
    }
  }
  DG_CALL(check_private(base, 0));
  {
    char parent[DG_JIT_PATH];
    dg_jit_fmt(parent, sizeof parent, "%s", base);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
      *slash = '\0';
      DG_CALL(check_private(parent, 1));
    }
  }
  char k[DG_JIT_PATH];
  dg_jit_fmt(k, sizeof k, "%s/v1/k", base);
  /* read-only: no permission, or made so by its owner (chmod a-w), which
     holds for dg_jit_root too */
  struct stat kst;
  const int owner_ro = stat(base, &st) == 0 && !(st.st_mode & S_IWUSR);
  if (!owner_ro && dg_jit_make_dirs(k) == 0 && access(k, W_OK) == 0 && stat(k, &kst) == 0 &&
      (kst.st_mode & S_IWUSR)) {
    dg_jit_fmt(dg_jit_kdir, sizeof dg_jit_kdir, "%s", k);
  } else {
    /* read-only: use what is there */
    dg_error_clear();
    if (stat(k, &st) == 0) {
      DG_CALL(check_private(k, 0));
      dg_jit_fmt(dg_jit_rdir, sizeof dg_jit_rdir, "%s", k);
    }
    return private_cache(base, "is read-only");
  }
  return set_root(base);
}

const char *dg_jit_cache_dir(void) { return dg_jit_resolve() ? NULL : dg_jit_root; }

/* ---- dgrid cache list | clear ---- */

int dg_jit_cache_list(void) {
  DG_CALL(dg_jit_resolve());
  DIR *d = opendir(dg_jit_kdir);
  if (!d)
    return dg_error(DG_ERR_IO, "kernel cache: cannot read %s (%s)", dg_jit_kdir, strerror(errno));
  printf("kernel cache %s\n", dg_jit_root);
  struct dirent *e;
  int count = 0;
  long bytes = 0;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".meta")) continue;
    char p[DG_JIT_PATH];
    dg_jit_fmt(p, sizeof p, "%s/%s", dg_jit_kdir, e->d_name);
    FILE *f = fopen(p, "r");
    if (!f) continue;
    char line[512], what[512] = "?", secs[32] = "?";
    long size = 0;
    while (fgets(line, sizeof line, f)) {
      line[strcspn(line, "\n")] = '\0';
      if (!strncmp(line, "what ", 5))
        dg_jit_fmt(what, sizeof what, "%s", line + 5);
      else if (!strncmp(line, "size ", 5))
        size = strtol(line + 5, NULL, 10);
      else if (!strncmp(line, "seconds ", 8))
        dg_jit_fmt(secs, sizeof secs, "%s", line + 8);
    }
    fclose(f);
    printf("  %.*s  %8ld bytes  %6s s  %s\n", 16, e->d_name, size, secs, what);
    ++count;
    bytes += size;
  }
  closedir(d);
  printf("%d kernel%s, %.1f MiB\n", count, count == 1 ? "" : "s", (double)bytes / 1048576.0);
  return 0;
}

int dg_jit_cache_clear(void) {
  DG_CALL(dg_jit_resolve());
  char v1[DG_JIT_PATH];
  dg_jit_fmt(v1, sizeof v1, "%s/v1", dg_jit_root);
  if (dg_jit_rm_tree(v1) != 0)
    return dg_error(DG_ERR_IO, "kernel cache: cannot remove %s (%s)", v1, strerror(errno));
  printf("kernel cache %s: cleared\n", dg_jit_root);
  dg_jit_forget();
  return 0;
}

int dg_jit_cache(const char *what) {
  if (!strcmp(what, "list")) return dg_jit_cache_list();
  if (!strcmp(what, "clear")) return dg_jit_cache_clear();
  return dg_error(DG_ERR_ARG, "kernel cache: no command '%s' (list, clear)", what);
}
