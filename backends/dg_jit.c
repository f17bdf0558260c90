/* dg_jit.c - compile, cache and load kernels on demand (dg_jit.h;
 * docs/ARCHITECTURE.md, "Kernels on demand"): the library's sources written
 * out for the compiler, the system C compiler found and run, entries keyed,
 * checked, locked, published and loaded; in-process compilers' bytes
 * (NVRTC) the same way.  The cache's folder: dg_jit_cache.c; the hashes
 * keys are made of: dg_jit_hash.c. */
#define _GNU_SOURCE
#include "dg_jit_internal.h"

#include "dg_error.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#ifndef DG_JIT_CC
#define DG_JIT_CC "cc"
#endif
#ifndef DG_JIT_CFLAGS
#define DG_JIT_CFLAGS "-O3"
#endif
#ifndef DG_JIT_WARN
#define DG_JIT_WARN ""
#endif
#ifndef DG_JIT_WERROR_FLAG
#define DG_JIT_WERROR_FLAG ""
#endif

static int verbose;
static char srcdir[DG_JIT_PATH];
static char cc_path[DG_JIT_PATH];
static char cc_version[256];
static int cc_state; /* 0 unknown, 1 found, -1 missing */
static uint64_t src_hash[2];
static int src_hashed;

void dg_jit_set_verbose(int on) { verbose = on; }

void dg_jit_forget(void) {
  dg_jit_root[0] = dg_jit_kdir[0] = dg_jit_vdir[0] = dg_jit_rdir[0] = '\0';
  srcdir[0] = '\0';
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- the library's sources, for the compiler ---- */

static void hash_sources(void) {
  if (src_hashed) return;
  dg_jit_hash h;
  dg_jit_h_init(&h);
  for (int i = 0; i < dg_jit_nsources; ++i) {
    dg_jit_h_str(&h, dg_jit_sources[i].path);
    dg_jit_h_add(&h, dg_jit_sources[i].data, dg_jit_sources[i].len);
  }
  src_hash[0] = h.a;
  src_hash[1] = h.b;
  src_hashed = 1;
}

static int write_file(const char *path, const void *data, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  if (fd < 0) return -1;
  const unsigned char *p = data;
  while (len) {
    ssize_t w = write(fd, p, len);
    if (w < 0) {
      if (errno == EINTR) continue;
      close(fd);
      return -1;
    }
    p += w;
    len -= (size_t)w;
  }
  return close(fd);
}

/* v1/src-<hash>/ holds the sources the compiler reads; written once into a
 * temporary folder and renamed, so that no compiler sees half of it. */
static int write_sources(void) {
  if (srcdir[0]) return 0;
  hash_sources();
  char dir[DG_JIT_PATH];
  dg_jit_fmt(dir, sizeof dir, "%s/src-%016llx%016llx", dg_jit_vdir, (unsigned long long)src_hash[0],
             (unsigned long long)src_hash[1]);
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
    /* verify: a file edited or removed since is written again */
    int ok = 1;
    for (int i = 0; i < dg_jit_nsources && ok; ++i) {
      char p[DG_JIT_PATH];
      dg_jit_fmt(p, sizeof p, "%s/%s", dir, dg_jit_sources[i].path);
      FILE *f = fopen(p, "rb");
      if (!f) {
        ok = 0;
        break;
      }
      unsigned char buf[8192];
      size_t off = 0, n;
      while (ok && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (off + n > dg_jit_sources[i].len || memcmp(buf, dg_jit_sources[i].data + off, n)) ok = 0;
        off += n;
      }
      fclose(f);
      if (off != dg_jit_sources[i].len) ok = 0;
    }
    if (ok) {
      dg_jit_fmt(srcdir, sizeof srcdir, "%s", dir);
      return 0;
    }
    dg_jit_rm_tree(dir);
  }
  char tmp[DG_JIT_PATH];
  dg_jit_fmt(tmp, sizeof tmp, "%s/tmp/src-XXXXXX", dg_jit_vdir);
  {
    char t2[DG_JIT_PATH];
    dg_jit_fmt(t2, sizeof t2, "%s/tmp", dg_jit_vdir);
    DG_CALL(dg_jit_make_dirs(t2));
  }
  if (!mkdtemp(tmp))
    return dg_error(DG_ERR_IO, "kernel cache: cannot create a folder in %s/tmp (%s)", dg_jit_vdir,
                    strerror(errno));
  for (int i = 0; i < dg_jit_nsources; ++i) {
    char p[DG_JIT_PATH];
    dg_jit_fmt(p, sizeof p, "%s/%s", tmp, dg_jit_sources[i].path);
    char *slash = strrchr(p, '/');
    *slash = '\0';
    if (dg_jit_make_dirs(p)) {
      dg_jit_rm_tree(tmp);
      return DG_ERR_IO;
    }
    *slash = '/';
    if (write_file(p, dg_jit_sources[i].data, dg_jit_sources[i].len)) {
      int e = errno;
      dg_jit_rm_tree(tmp);
      return dg_error(DG_ERR_IO, "kernel cache: cannot write %s (%s)", p, strerror(e));
    }
  }
  if (rename(tmp, dir) != 0) {
    dg_jit_rm_tree(tmp); /* another process published it first: use theirs */
    if (stat(dir, &st) != 0)
      return dg_error(DG_ERR_IO, "kernel cache: cannot publish %s (%s)", dir, strerror(errno));
  }
  dg_jit_fmt(srcdir, sizeof srcdir, "%s", dir);
  return 0;
}

/* ---- the compiler ---- */

/* Split a flags string on spaces into argv (at most cap-1 words). */
static int split_words(char *s, char **argv, int cap) {
  int n = 0;
  for (char *p = strtok(s, " "); p && n < cap - 1; p = strtok(NULL, " ")) argv[n++] = p;
  argv[n] = NULL;
  return n;
}

/* Run argv with stdout+stderr into `out` (a path); the exit status, or -1
 * where it could not start (errno set). */
static int run_to_file(char *const argv[], const char *out, pid_t *pid_out) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa)) return -1;
  posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) {
    errno = rc;
    return -1;
  }
  if (pid_out) {
    *pid_out = pid;
    return 0;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static const char *compiler(void) {
  const char *env = getenv("DGRID_CC");
  if (env && *env) return env;
  return DG_JIT_CC;
}

/* Find the compiler and read its version (the first line of --version),
 * once.  Sets cc_state. */
static void probe_compiler(void) {
  if (cc_state) return;
  dg_jit_fmt(cc_path, sizeof cc_path, "%s", compiler());
  char out[DG_JIT_PATH];
  const char *t = getenv("TMPDIR");
  dg_jit_fmt(out, sizeof out, "%s/dgrid-ccv-%ld", t && t[0] == '/' ? t : "/tmp", (long)getpid());
  char *argv[] = {cc_path, (char *)"--version", NULL};
  int rc = run_to_file(argv, out, NULL);
  cc_state = -1;
  if (rc == 0) {
    FILE *f = fopen(out, "r");
    if (f) {
      if (fgets(cc_version, sizeof cc_version, f)) {
        cc_version[strcspn(cc_version, "\n")] = '\0';
        cc_state = 1;
      }
      fclose(f);
    }
  }
  unlink(out);
}

static int no_compiler(void) {
  return dg_error(DG_ERR_BACKEND,
                  "no C compiler to build kernels: looked for '%s' (DGRID_CC chooses another); "
                  "install one (apt-get install gcc) or warm the cache on a machine that has "
                  "one (dgrid cache warm MODEL; dgrid cache warm --solvers for poisson and the "
                  "implicit steps)",
                  cc_path);
}

/* ---- entries ---- */

typedef struct {
  const dg_jit_unit *u;
  char key[DG_JIT_KEY + 1];
  void *handle;
  int lock_fd;
  pid_t pid;
  char tmp_so[DG_JIT_PATH], tmp_c[DG_JIT_PATH], tmp_err[DG_JIT_PATH];
  double t0;
} job;

static const char *cpu_id(void) {
  static char id[DG_JIT_KEY + 1];
  if (id[0]) return id;
  dg_jit_hash h;
  dg_jit_h_init(&h);
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f) {
    char line[8192];
    int seen = 0;
    while (fgets(line, sizeof line, f) && seen < 2) {
      if (!strncmp(line, "model name", 10) || !strncmp(line, "flags", 5)) {
        dg_jit_h_str(&h, line);
        ++seen;
      }
    }
    fclose(f);
  }
  dg_jit_h_hex(&h, id);
  return id;
}

static const char *unit_flags(const dg_jit_unit *u) {
  static char f[2][1024];
  dg_jit_fmt(f[u->user != 0], sizeof f[0], "%s %s%s", DG_JIT_CFLAGS, DG_JIT_WARN,
             u->user ? "" : DG_JIT_WERROR_FLAG);
  return f[u->user != 0];
}

/* The key of unit u: the library's sources, what builds it (`tool`: the
 * compiler, its flags, the CPU where they hold -march=native; or an
 * in-process compiler's name, version and options), the unit's text and the
 * model file's text, with the headers beside it that it includes. */
static int key_of(const dg_jit_unit *u, const char *tool, char out[DG_JIT_KEY + 1]) {
  hash_sources();
  dg_jit_hash h;
  dg_jit_h_init(&h);
  dg_jit_h_add(&h, src_hash, sizeof src_hash);
  dg_jit_h_str(&h, tool);
  dg_jit_h_str(&h, u->source);
  int nfiles = 0;
  if (u->model_path) DG_CALL(dg_jit_hash_header(&h, u->model_path, 1, 8, &nfiles));
  dg_jit_h_hex(&h, out);
  return 0;
}

/* The system compiler's unit: its tool is the compiler, the flags and the CPU. */
static int unit_key(const dg_jit_unit *u, char out[DG_JIT_KEY + 1]) {
  char tool[2048];
  dg_jit_fmt(tool, sizeof tool, "%s|%s|%s", compiler(), unit_flags(u),
             strstr(DG_JIT_CFLAGS, "-march=native") ? cpu_id() : "");
  return key_of(u, tool, out);
}

/* The checksum of an open file's contents, and its size. */
static int file_sum(int fd, char sum[DG_JIT_KEY + 1], long *size) {
  dg_jit_hash h;
  dg_jit_h_init(&h);
  unsigned char buf[65536];
  long total = 0;
  ssize_t n;
  if (lseek(fd, 0, SEEK_SET) < 0) return -1;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    dg_jit_h_add(&h, buf, (size_t)n);
    total += n;
  }
  if (n < 0) return -1;
  dg_jit_h_hex(&h, sum);
  *size = total;
  return 0;
}

/* Try the entry `key` in folder dir: the record present, the object
 * private, of the recorded size and checksum, built by this compiler where
 * one is present.  1 loaded, 0 absent, -1 present but bad (rebuild). */
static int try_load(const char *dir, job *j) {
  char meta[DG_JIT_PATH], so[DG_JIT_PATH];
  dg_jit_fmt(meta, sizeof meta, "%s/%s.meta", dir, j->key);
  dg_jit_fmt(so, sizeof so, "%s/%s.so", dir, j->key);
  FILE *m = fopen(meta, "r");
  if (!m) return 0;
  char line[512], sum_rec[DG_JIT_KEY + 1] = "", ver[256] = "";
  long size_rec = -1;
  int magic = 0;
  while (fgets(line, sizeof line, m)) {
    line[strcspn(line, "\n")] = '\0';
    if (!strcmp(line, "dgrid-kernel 1"))
      magic = 1;
    else if (!strncmp(line, "size ", 5))
      size_rec = strtol(line + 5, NULL, 10);
    else if (!strncmp(line, "sum ", 4))
      dg_jit_fmt(sum_rec, sizeof sum_rec, "%s", line + 4);
    else if (!strncmp(line, "compiler ", 9))
      dg_jit_fmt(ver, sizeof ver, "%s", line + 9);
  }
  fclose(m);
  if (!magic || size_rec < 0 || !sum_rec[0]) return -1;
  if (cc_state == 1 && strcmp(ver, cc_version) != 0) return -1; /* another compiler version */
  int fd = open(so, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  char sum[DG_JIT_KEY + 1];
  long size;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0022) ||
      file_sum(fd, sum, &size) || size != size_rec || strcmp(sum, sum_rec)) {
    close(fd);
    return -1;
  }
  close(fd);
  /* by name, in a folder only we can write (checked): a path under
     /proc/self/fd would be reused, and dlopen would hand back the object
     loaded under it before */
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!h) return -1;
  j->handle = h;
  return 1;
}

static int lookup(job *j) {
  int rc = try_load(dg_jit_kdir, j);
  if (rc == 0 && dg_jit_rdir[0]) rc = try_load(dg_jit_rdir, j);
  return rc;
}

static int lock_entry(job *j, int block) {
  char p[DG_JIT_PATH];
  dg_jit_fmt(p, sizeof p, "%s/%s.lock", dg_jit_kdir, j->key);
  j->lock_fd = open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (j->lock_fd < 0)
    return dg_error(DG_ERR_IO, "kernel cache: cannot open lock %s (%s)", p, strerror(errno));
  while (flock(j->lock_fd, LOCK_EX | (block ? 0 : LOCK_NB)) != 0) {
    if (errno == EINTR) continue;
    close(j->lock_fd);
    j->lock_fd = -1;
    if (errno == EWOULDBLOCK) return 1;
    return dg_error(DG_ERR_IO, "kernel cache: cannot lock %s (%s)", p, strerror(errno));
  }
  return 0;
}

static void unlock_entry(job *j) {
  if (j->lock_fd >= 0) close(j->lock_fd);
  j->lock_fd = -1;
}

static int start_compile(job *j) {
  if (cc_state != 1) return no_compiler();
  DG_CALL(write_sources());
  char tdir[DG_JIT_PATH];
  dg_jit_fmt(tdir, sizeof tdir, "%s/tmp", dg_jit_vdir);
  DG_CALL(dg_jit_make_dirs(tdir));
  dg_jit_fmt(j->tmp_c, sizeof j->tmp_c, "%s/%s.%ld.c", tdir, j->key, (long)getpid());
  dg_jit_fmt(j->tmp_so, sizeof j->tmp_so, "%s/%s.%ld.so", tdir, j->key, (long)getpid());
  dg_jit_fmt(j->tmp_err, sizeof j->tmp_err, "%s/%s.%ld.err", tdir, j->key, (long)getpid());
  if (write_file(j->tmp_c, j->u->source, strlen(j->u->source)))
    return dg_error(DG_ERR_IO, "kernel cache: cannot write %s (%s)", j->tmp_c, strerror(errno));
  char flags[2048];
  dg_jit_fmt(flags, sizeof flags, "%s", unit_flags(j->u));
  char inc[4][DG_JIT_PATH];
  dg_jit_fmt(inc[0], sizeof inc[0], "-I%s/stencils", srcdir);
  dg_jit_fmt(inc[1], sizeof inc[1], "-I%s/models", srcdir);
  dg_jit_fmt(inc[2], sizeof inc[2], "-I%s/backends/omp", srcdir);
  dg_jit_fmt(inc[3], sizeof inc[3], "-I%s/solvers", srcdir); /* the solver lane units' */
  char *argv[96];
  int n = 0;
  argv[n++] = cc_path;
  n += split_words(flags, argv + n, 80);
  argv[n++] = (char *)"-fPIC";
  argv[n++] = (char *)"-shared";
  for (int i = 0; i < 4; ++i) argv[n++] = inc[i];
  argv[n++] = (char *)"-o";
  argv[n++] = j->tmp_so;
  argv[n++] = j->tmp_c;
  argv[n] = NULL;
  j->t0 = now_s();
  if (run_to_file(argv, j->tmp_err, &j->pid) != 0) {
    if (errno == ENOENT) return no_compiler();
    return dg_error(DG_ERR_BACKEND, "cannot start the compiler %s (%s)", cc_path, strerror(errno));
  }
  return 0;
}

/* A failed unit: the compiler's first lines on stderr as it wrote them
 * (file:line of the header at fault), and its first error line into
 * `first` for the one-line message. */
static void compiler_lines(const char *path, char *first, size_t cap) {
  dg_jit_fmt(first, cap, "see the compiler's lines above");
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[512];
  int k = 0, found = 0;
  while (fgets(line, sizeof line, f)) {
    if (k++ < 12) fputs(line, stderr);
    if (!found && strstr(line, "error")) {
      line[strcspn(line, "\n")] = '\0';
      dg_jit_fmt(first, cap, "%s", line);
      found = 1;
    }
    if (k >= 12 && found) break;
  }
  fclose(f);
}

/* Wait for j's compiler, check, publish into dg_jit_kdir (object first, record
 * last) and load. */
static int finish_compile(job *j) {
  int st;
  while (waitpid(j->pid, &st, 0) < 0)
    if (errno != EINTR) return dg_error(DG_ERR_BACKEND, "waiting for the compiler failed");
  j->pid = 0;
  const double dt = now_s() - j->t0;
  int rc = 0;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    char first[512];
    compiler_lines(j->tmp_err, first, sizeof first);
    rc = dg_error(DG_ERR_ARG, "compiling %s failed (%s): %s", j->u->what, cc_path, first);
    goto out;
  }
  int fd = open(j->tmp_so, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  char sum[DG_JIT_KEY + 1];
  long size;
  if (fd < 0 || file_sum(fd, sum, &size)) {
    if (fd >= 0) close(fd);
    rc = dg_error(DG_ERR_IO, "kernel cache: cannot read back %s", j->tmp_so);
    goto out;
  }
  close(fd);
  char meta_tmp[DG_JIT_PATH], meta[DG_JIT_PATH], so[DG_JIT_PATH], text[1024];
  dg_jit_fmt(meta_tmp, sizeof meta_tmp, "%s.meta", j->tmp_so);
  dg_jit_fmt(meta, sizeof meta, "%s/%s.meta", dg_jit_kdir, j->key);
  dg_jit_fmt(so, sizeof so, "%s/%s.so", dg_jit_kdir, j->key);
  int len = dg_jit_fmt(text, sizeof text,
                       "dgrid-kernel 1\nsize %ld\nsum %s\ncompiler %s\nwhat %s\nseconds %.2f\n",
                       size, sum, cc_version, j->u->what, dt);
  if (write_file(meta_tmp, text, (size_t)len) || rename(j->tmp_so, so) || rename(meta_tmp, meta)) {
    rc = dg_error(DG_ERR_IO, "kernel cache: cannot publish %s (%s)", so, strerror(errno));
    unlink(meta_tmp);
    goto out;
  }
  if (verbose) fprintf(stderr, "dgrid: compiled %s in %.2f s\n", j->u->what, dt);
  if (try_load(dg_jit_kdir, j) != 1)
    rc = dg_error(DG_ERR_BACKEND, "kernel %s: cannot load %s (%s)", j->u->what, so,
                  dlerror() ? dlerror() : "bad entry");
out:
  unlink(j->tmp_c);
  unlink(j->tmp_err);
  unlink(j->tmp_so);
  return rc;
}

static int ncpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (n > 64 ? 64 : (int)n);
}

int dg_jit_load(int n, const dg_jit_unit *u, void **handles) {
  if (n <= 0) return 0;
  DG_CALL(dg_jit_resolve());
  job *jobs = calloc((size_t)n, sizeof *jobs);
  if (!jobs) return dg_error(DG_ERR_MEM, "out of memory");
  int rc = 0, nbad = 0;
  for (int i = 0; i < n; ++i) {
    jobs[i].u = &u[i];
    jobs[i].lock_fd = -1;
    if ((rc = unit_key(&u[i], jobs[i].key))) goto out;
  }
  /* the compiler's version is part of every entry's validity; where no
     compiler is found, entries are taken as built (a warmed cache) */
  probe_compiler();
  for (int i = 0; i < n; ++i)
    if (lookup(&jobs[i]) < 0) ++nbad;
  /* compile what is missing: first the entries no other process holds
     (several compilers at once), then wait for the others' */
  for (int pass = 0; pass < 2 && !rc; ++pass) {
    int running = 0, limit = ncpus();
    for (int i = 0; i < n && !rc; ++i) {
      job *j = &jobs[i];
      if (j->handle || j->pid) continue;
      int l = lock_entry(j, pass == 1);
      if (l == 1) continue; /* another process compiles it: pass 2 */
      if (l) {
        rc = l;
        break;
      }
      if (lookup(j) == 1) { /* published while we waited */
        unlock_entry(j);
        continue;
      }
      if ((rc = start_compile(j))) break;
      if (++running >= limit) {
        for (int k = 0; k <= i; ++k)
          if (jobs[k].pid) {
            int r2 = finish_compile(&jobs[k]);
            unlock_entry(&jobs[k]);
            if (r2 && !rc) rc = r2;
          }
        running = 0;
      }
    }
    for (int k = 0; k < n; ++k)
      if (jobs[k].pid) {
        int r2 = finish_compile(&jobs[k]);
        unlock_entry(&jobs[k]);
        if (r2 && !rc) rc = r2;
      }
  }
  if (!rc && nbad)
    fprintf(stderr,
            "dgrid: note: %d kernel cache entr%s in %s did not verify (truncated, "
            "altered or of another compiler): rebuilt\n",
            nbad, nbad == 1 ? "y" : "ies", dg_jit_kdir);
  for (int i = 0; i < n && !rc; ++i) {
    if (!jobs[i].handle) {
      rc = dg_error(DG_ERR_BACKEND, "kernel %s: not built", u[i].what);
      break;
    }
    handles[i] = jobs[i].handle;
  }
out:
  for (int i = 0; i < n; ++i) {
    if (jobs[i].pid) waitpid(jobs[i].pid, NULL, 0);
    unlock_entry(&jobs[i]);
    if (rc && jobs[i].handle) dlclose(jobs[i].handle);
  }
  free(jobs);
  return rc;
}

int dg_jit_load_model(const char *path, const void **desc, const int **layout) {
  *desc = NULL;
  *layout = NULL;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strlen(base);
  char name[64];
  if (path[0] != '/' || len < 3 || len - 2 >= sizeof name || strcmp(base + len - 2, ".h"))
    return dg_error(DG_ERR_ARG, "model file %s: not an absolute path to NAME.h", path);
  memcpy(name, base, len - 2);
  name[len - 2] = '\0';
  for (const char *c = name; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_') ||
        (c == name && !(*c >= 'a' && *c <= 'z')))
      return dg_error(DG_ERR_ARG,
                      "model file %s: '%s' is not a model name (lower case, digits, _; the "
                      "header defines dg_model_%s)",
                      path, name, name);
  /* the path goes into #include "..." (no escapes there) */
  for (const char *c = path; *c; ++c)
    if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
      return dg_error(DG_ERR_ARG,
                      "model file %s: a path with '\"', '\\' or a control character cannot be "
                      "#included (move the header to a plain path)",
                      path);
  /* A header that ends inside a declaration (a struct without its ';', "int
     x =") makes the compiler fail on the first line after it: the #line
     names that place "the end of" the header, where it would name the
     generated unit or dg_model_layout.h. */
  char src[2 * DG_JIT_PATH + 256], what[160], sym[96], lsym[104];
  dg_jit_fmt(src, sizeof src,
             "/* dgrid kernel: host part of %s */\n#define DG_MODEL_HOST\n#include \"%s\"\n"
             "#line 1 \"the end of %s\"\ntypedef int dg_model_file_end_;\n"
             "#include \"dg_model_layout.h\"\nDG_MODEL_LAYOUT(%s)\n",
             name, path, path, name);
  dg_jit_fmt(what, sizeof what, "host %s", name);
  dg_jit_fmt(sym, sizeof sym, "dg_model_%s", name);
  dg_jit_unit u = {what, src, path, 1, 0};
  void *h = NULL;
  DG_CALL(dg_jit_load(1, &u, &h));
  *desc = dlsym(h, sym);
  if (!*desc)
    return dg_error(DG_ERR_ARG, "model file %s: defines no 'const dg_model_desc %s'", path, sym);
  dg_jit_fmt(lsym, sizeof lsym, "dg_model_%s_layout", name);
  *layout = dlsym(h, lsym);
  if (!*layout)
    return dg_error(DG_ERR_BACKEND, "model file %s: no %s in its host part", path, lsym);
  return 0;
}

/* ---- entries built in process (NVRTC): bytes, not objects ---- */

/* Read and check the entry key in dir: 1 read (*bytes malloc'd), 0 absent, -1 bad. */
static int blob_read(const char *dir, const char *key, void **bytes, size_t *len) {
  char meta[DG_JIT_PATH], bin[DG_JIT_PATH];
  dg_jit_fmt(meta, sizeof meta, "%s/%s.meta", dir, key);
  dg_jit_fmt(bin, sizeof bin, "%s/%s.bin", dir, key);
  FILE *m = fopen(meta, "r");
  if (!m) return 0;
  char line[512], sum_rec[DG_JIT_KEY + 1] = "";
  long size_rec = -1;
  int magic = 0;
  while (fgets(line, sizeof line, m)) {
    line[strcspn(line, "\n")] = '\0';
    if (!strcmp(line, "dgrid-kernel 1"))
      magic = 1;
    else if (!strncmp(line, "size ", 5))
      size_rec = strtol(line + 5, NULL, 10);
    else if (!strncmp(line, "sum ", 4))
      dg_jit_fmt(sum_rec, sizeof sum_rec, "%s", line + 4);
  }
  fclose(m);
  if (!magic || size_rec < 0 || !sum_rec[0]) return -1;
  int fd = open(bin, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0022) ||
      st.st_size != size_rec) {
    close(fd);
    return -1;
  }
  unsigned char *b = malloc((size_t)size_rec + 1);
  size_t got = 0;
  while (b && got < (size_t)size_rec) {
    ssize_t r = read(fd, b + got, (size_t)size_rec - got);
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  dg_jit_hash h;
  dg_jit_h_init(&h);
  char sum[DG_JIT_KEY + 1];
  if (b) dg_jit_h_add(&h, b, got);
  dg_jit_h_hex(&h, sum);
  if (!b || got != (size_t)size_rec || strcmp(sum, sum_rec)) {
    free(b);
    return -1;
  }
  *bytes = b;
  *len = got;
  return 1;
}

int dg_jit_load_blob(const dg_jit_unit *u, const char *tool, dg_jit_build_fn build, void *ctx,
                     void **bytes, size_t *len) {
  *bytes = NULL;
  *len = 0;
  DG_CALL(dg_jit_resolve());
  job j;
  memset(&j, 0, sizeof j);
  j.u = u;
  j.lock_fd = -1;
  DG_CALL(key_of(u, tool, j.key));
  int r = blob_read(dg_jit_kdir, j.key, bytes, len);
  if (r == 0 && dg_jit_rdir[0]) r = blob_read(dg_jit_rdir, j.key, bytes, len);
  if (r == 1) return 0;
  const int bad = r < 0;
  DG_CALL(lock_entry(&j, 1));
  int rc = 0;
  if (blob_read(dg_jit_kdir, j.key, bytes, len) == 1) goto out; /* built while we waited */
  const double t0 = now_s();
  void *b = NULL;
  size_t n = 0;
  if ((rc = build(ctx, u, &b, &n))) goto out;
  const double dt = u->built_s > 0 ? u->built_s : now_s() - t0;
  char tmp[DG_JIT_PATH], meta_tmp[DG_JIT_PATH], bin[DG_JIT_PATH], meta[DG_JIT_PATH], text[1024];
  char tdir[DG_JIT_PATH];
  dg_jit_fmt(tdir, sizeof tdir, "%s/tmp", dg_jit_vdir);
  if ((rc = dg_jit_make_dirs(tdir))) {
    free(b);
    goto out;
  }
  dg_jit_fmt(tmp, sizeof tmp, "%s/%s.%ld.bin", tdir, j.key, (long)getpid());
  dg_jit_fmt(meta_tmp, sizeof meta_tmp, "%s.meta", tmp);
  dg_jit_fmt(bin, sizeof bin, "%s/%s.bin", dg_jit_kdir, j.key);
  dg_jit_fmt(meta, sizeof meta, "%s/%s.meta", dg_jit_kdir, j.key);
  dg_jit_hash h;
  dg_jit_h_init(&h);
  dg_jit_h_add(&h, b, n);
  char sum[DG_JIT_KEY + 1];
  dg_jit_h_hex(&h, sum);
  int tl = dg_jit_fmt(text, sizeof text,
                      "dgrid-kernel 1\nsize %zu\nsum %s\ncompiler %s\nwhat %s\nseconds %.2f\n", n,
                      sum, tool, u->what, dt);
  if (write_file(tmp, b, n) || write_file(meta_tmp, text, (size_t)tl) || rename(tmp, bin) ||
      rename(meta_tmp, meta)) {
    rc = dg_error(DG_ERR_IO, "kernel cache: cannot publish %s (%s)", bin, strerror(errno));
    unlink(tmp);
    unlink(meta_tmp);
    free(b);
    goto out;
  }
  if (verbose) fprintf(stderr, "dgrid: compiled %s in %.2f s\n", u->what, dt);
  if (bad)
    fprintf(stderr,
            "dgrid: note: kernel cache entry %s/%s did not verify (truncated or "
            "altered): rebuilt\n",
            dg_jit_kdir, j.key);
  *bytes = b;
  *len = n;
out:
  unlock_entry(&j);
  return rc;
}
