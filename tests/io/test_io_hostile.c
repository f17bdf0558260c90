/* io.<case>: bad files and hostile environments (docs/FILE_FORMAT.md,
 * "Checksum block", "Bounded reads", "Atomic writes").  Each case checks
 * status, the exact one-line message and what is left on disk.
 * Usage: test_io_hostile CASE DIR
 *   corrupt           checksum block: corrupt, truncated, appended, legacy
 *   size_bounds       declared sizes beyond the file are refused before allocation
 *   nonregular_input  FIFOs, devices and folders are refused without reading
 *   escape            dg_escape and one-line messages for hostile names/strings
 *   file_size_limit   RLIMIT_FSIZE: an EFBIG error, no SIGXFSZ death, no temporary
 *   stale_temp        a dead writer's temporary is removed by the next write
 *   nonregular_output a symlink, FIFO or folder at the target is never replaced
 *   offset_overflow   INT64_MIN in /coeff_offset: checked subtraction
 *   map_nul           a NUL byte in a degree map file names its line */
#include "io_test_util.h"

#include "dg_degree_map.h"
#include "dg_escape.h"
#include "dg_grid.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static char g_dir[512];

static const char *in_dir(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", g_dir, name);
  return buf;
}

static int snap_is_empty(const dg_snapshot *s) {
  return s->dim == 0 && s->nelem == 0 && !s->degree && !s->coeff_offset && !s->coeff &&
         !s->gauss_values && !s->view_values && !s->view_error && s->nparams == 0 &&
         !s->param_keys && s->nhist == 0 && !s->history;
}

static void expect_fail(int (*reader)(const char *, dg_snapshot *), const char *path,
                        const char *want) {
  dg_snapshot s;
  memset(&s, 0x5a, sizeof s);
  int rc = reader(path, &s);
  CHECK_ERR(rc, DG_ERR_IO, want);
  CHECK(snap_is_empty(&s), "%s: snapshot not emptied after failure", path);
  CHECK(!strchr(dg_error_message(), '\n'), "message has a newline");
  CHECK_NO_H5_LEAK();
  if (rc == 0) dg_snapshot_free(&s);
}

/* A good 7x5 snapshot at `path`; returns its size in bytes. */
static size_t write_good(const char *path, dg_snapshot *s) {
  gen_opts o = gen_defaults(2, 1);
  o.cells[0] = 7;
  o.cells[1] = 5;
  o.nhist = 3;
  gen_snapshot(s, &o);
  CHECK(dg_snapshot_write(path, s) == 0, "write %s: %s", path, dg_error_message());
  struct stat st;
  return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

static long long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* ---- corrupt ---- */

static void case_corrupt(void) {
  char good[600], p[600], want[1600];
  dg_snapshot s, back;
  size_t n = write_good(in_dir(good, sizeof good, "good.h5"), &s);
  CHECK(n > 512, "good.h5 has %zu bytes", n);
  size_t len = 0;
  char *b = file_bytes(good, &len);
  /* CRC-64/XZ's published check value: the test's CRC is the documented one. */
  CHECK(util_crc64((const unsigned char *)"123456789", 9) == 0x995dc9bbdf1939faULL,
        "util_crc64 is not CRC-64/XZ");
  /* The block is what docs/FILE_FORMAT.md says, with an independent CRC. */
  char line[128];
  snprintf(line, sizeof line, "dgrid-checksum 1 crc64 %016" PRIx64 " %zu\n",
           util_crc64((unsigned char *)b + 512, len - 512), len - 512);
  CHECK(strncmp(b, line, strlen(line)) == 0, "block is not '%s'", line);
  CHECK(memcmp(b + 512, "\x89HDF\r\n\x1a\n", 8) == 0, "no HDF5 signature at 512");

  /* One flipped bit in the last byte (coefficient data HDF5 would read
   * without complaint): refused before HDF5 sees it. */
  b[len - 1] ^= 0x10;
  in_dir(p, sizeof p, "flipped.h5");
  CHECK(file_write(p, b, len) == 0, "write %s", p);
  uint64_t have = util_crc64((unsigned char *)b + 512, len - 512);
  b[len - 1] ^= 0x10;
  uint64_t good_crc = util_crc64((unsigned char *)b + 512, len - 512);
  snprintf(want, sizeof want,
           "%s: checksum mismatch, the file is corrupt (CRC-64 of its %zu data bytes is %016" PRIx64
           ", the checksum block says %016" PRIx64 ")",
           p, len - 512, have, good_crc);
  expect_fail(dg_snapshot_read, p, want);
  expect_fail(dg_snapshot_read_any, p, want);
  expect_fail(dg_snapshot_read_unverified, p, want);

  /* Garbage over the superblock and the first objects (what crashed HDF5). */
  {
    char *c = malloc(len);
    memcpy(c, b, len);
    rng_t r = {99};
    for (size_t i = 512 + 8; i < 512 + 2048 && i < len; ++i) c[i] = (char)rng_next(&r);
    in_dir(p, sizeof p, "garbage.h5");
    CHECK(file_write(p, c, len) == 0, "write %s", p);
    snprintf(want, sizeof want, "%s: checksum mismatch, the file is corrupt (CRC-64 of its", p);
    dg_snapshot t;
    int rc = dg_snapshot_read_any(p, &t);
    CHECK(rc == DG_ERR_IO && strncmp(dg_error_message(), want, strlen(want)) == 0, "got: %s",
          dg_error_message());
    free(c);
  }

  /* Appended bytes. */
  in_dir(p, sizeof p, "appended.h5");
  {
    char *c = malloc(len + 3);
    memcpy(c, b, len);
    memcpy(c + len, "xyz", 3);
    CHECK(file_write(p, c, len + 3) == 0, "write %s", p);
    free(c);
  }
  snprintf(want, sizeof want,
           "%s: size mismatch: the checksum block covers %zu bytes after the user block, the file "
           "has %zu (truncated or appended to)",
           p, len - 512, len - 509);
  expect_fail(dg_snapshot_read, p, want);

  /* A damaged block itself. */
  {
    char *c = malloc(len);
    memcpy(c, b, len);
    c[30] = 'X'; /* inside the hex digits */
    in_dir(p, sizeof p, "bad_block.h5");
    CHECK(file_write(p, c, len) == 0, "write %s", p);
    free(c);
  }
  snprintf(want, sizeof want, "%s: malformed dgrid checksum block (the file's first 512 bytes)", p);
  expect_fail(dg_snapshot_read, p, want);

  /* A truncated file resealed (a valid checksum over bad HDF5 bytes): HDF5
   * refuses it, and its reason is appended on the same line. */
  in_dir(p, sizeof p, "truncated_sealed.h5");
  CHECK(file_write(p, b, len - 1000) == 0 && reseal(p) == 0, "write %s", p);
  {
    dg_snapshot t;
    int rc = dg_snapshot_read(p, &t);
    snprintf(want, sizeof want, "%s: cannot open HDF5 file (HDF5: ", p);
    CHECK(rc == DG_ERR_IO && strncmp(dg_error_message(), want, strlen(want)) == 0 &&
              strstr(dg_error_message(), "truncated file") && !strchr(dg_error_message(), '\n'),
          "truncated, resealed: %s", dg_error_message());
    CHECK_NO_H5_LEAK();
  }

  /* A file from before checksums: the same HDF5 bytes without the user
   * block.  Refused by default, read by dg_snapshot_read_unverified. */
  in_dir(p, sizeof p, "legacy.h5");
  CHECK(file_write(p, b + 512, len - 512) == 0, "write %s", p);
  snprintf(want, sizeof want,
           "%s: HDF5 file without a dgrid checksum block (written before checksums, or by "
           "another program); not parsed unverified",
           p);
  expect_fail(dg_snapshot_read, p, want);
  expect_fail(dg_snapshot_read_any, p, want);
  int rc = dg_snapshot_read_unverified(p, &back);
  CHECK(rc == 0, "legacy read: %s", dg_error_message());
  char why[256];
  if (rc == 0) {
    CHECK(snap_equal(&s, &back, 1, why, sizeof why), "legacy file content: %s", why);
    dg_snapshot_free(&back);
  }
  /* The good file reads, bit for bit. */
  rc = dg_snapshot_read(good, &back);
  CHECK(rc == 0, "good read: %s", dg_error_message());
  if (rc == 0) {
    CHECK(snap_equal(&s, &back, 1, why, sizeof why), "good file content: %s", why);
    dg_snapshot_free(&back);
  }
  free(b);
  dg_snapshot_free(&s);
}

/* ---- size_bounds ---- */

/* Copy `good` to `path` and (re)create dataset `name` with `dims` but no
 * data written: its storage is never allocated, so the file stays small. */
static void declare_only(const char *good, const char *path, const char *name, hid_t t, int rank,
                         const hsize_t *dims) {
  CHECK(file_copy(good, path) == 0, "copy to %s", path);
  hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t sp = H5Screate_simple(rank, dims, NULL);
  int ok = f >= 0 && sp >= 0;
  htri_t ex = ok ? H5Lexists(f, name, H5P_DEFAULT) : -1;
  ok = ok && ex >= 0 && (ex == 0 || H5Ldelete(f, name, H5P_DEFAULT) >= 0);
  hid_t ds = ok ? H5Dcreate2(f, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
  ok = ok && ds >= 0 && H5Dclose(ds) >= 0 && H5Sclose(sp) >= 0 && H5Fclose(f) >= 0;
  CHECK(ok, "declare %s in %s", name, path);
  CHECK(reseal(path) == 0, "reseal %s", path);
}

static void case_size_bounds(void) {
  char good[600], p[600], want[1600];
  dg_snapshot s;
  write_good(in_dir(good, sizeof good, "good.h5"), &s);

  /* A 2^26-row history in a file of a few KB (2 GiB if allocated). */
  hsize_t hd[2] = {(hsize_t)1 << 26, 4};
  declare_only(good, in_dir(p, sizeof p, "history.h5"), "/history", H5T_IEEE_F64LE, 2, hd);
  long long fs = file_size(p);
  CHECK(fs > 0 && fs < 65536, "history.h5 is %lld bytes", fs);
  snprintf(want, sizeof want,
           "%s: dataset /history declares 268435456 values of 8 bytes (2147483648 bytes), more "
           "than the whole file (%lld bytes)",
           p, fs);
  expect_fail(dg_snapshot_read, p, want);
  expect_fail(dg_snapshot_read_any, p, want);

  /* 2^28 rows: 8 GiB. */
  hd[0] = (hsize_t)1 << 28;
  declare_only(good, in_dir(p, sizeof p, "history28.h5"), "/history", H5T_IEEE_F64LE, 2, hd);
  fs = file_size(p);
  snprintf(want, sizeof want,
           "%s: dataset /history declares 1073741824 values of 8 bytes (8589934592 bytes), more "
           "than the whole file (%lld bytes)",
           p, fs);
  expect_fail(dg_snapshot_read, p, want);

  /* /coeff consistent with huge offsets cannot be: but /gauss_values can
   * declare [nelem][q^dim][nvar] for a q the root attribute names. */
  {
    hid_t f;
    in_dir(p, sizeof p, "gauss.h5");
    CHECK(file_copy(good, p) == 0, "copy");
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    int q = 1000;
    hid_t at = f >= 0 ? H5Aopen(f, "q", H5P_DEFAULT) : -1;
    CHECK(at >= 0 && H5Awrite(at, H5T_NATIVE_INT, &q) >= 0 && H5Aclose(at) >= 0 && H5Fclose(f) >= 0,
          "set q");
    CHECK(reseal(p) == 0, "reseal");
    hsize_t gd[3] = {35, 1000000, 1};
    char p2[600];
    declare_only(p, in_dir(p2, sizeof p2, "gauss2.h5"), "/gauss_values", H5T_IEEE_F64LE, 3, gd);
    fs = file_size(p2);
    snprintf(want, sizeof want,
             "%s: dataset /gauss_values declares 35000000 values of 8 bytes (280000000 bytes), "
             "more than the whole file (%lld bytes)",
             p2, fs);
    expect_fail(dg_snapshot_read, p2, want);
  }

  /* Text: a header that claims 2^40 elements in a file of a few hundred
   * bytes is refused before any per-element array is allocated. */
  in_dir(p, sizeof p, "huge.txt");
  const char *huge = "dgrid-text 1\ndim 2\ncells 1073741824 1024\nbox 0 1 0 1\nnvar 1\nq 3\n"
                     "time 0\nstep 0\nmodel m\nelements 1099511627776\ne 0 0 0\n1\n";
  CHECK(file_write(p, huge, strlen(huge)) == 0, "write %s", p);
  snprintf(want, sizeof want,
           "%s:10: 1099511627776 element records need at least 10995116277760 bytes (10 each), "
           "the rest of the file has 11",
           p);
  expect_fail(dg_snapshot_read_text, p, want);
  expect_fail(dg_snapshot_read_any, p, want);
  dg_snapshot_free(&s);
}

/* ---- nonregular_input ---- */

static void case_nonregular_input(void) {
  char p[600], want[1600];
  in_dir(p, sizeof p, "fifo.h5");
  CHECK(mkfifo(p, 0600) == 0, "mkfifo %s: %s", p, strerror(errno));
  snprintf(want, sizeof want, "%s: not a regular file (a FIFO); only regular files are read", p);
  /* Before the check, these blocked forever on the FIFO. */
  expect_fail(dg_snapshot_read, p, want);
  expect_fail(dg_snapshot_read_any, p, want);
  expect_fail(dg_snapshot_read_text, p, want);
  expect_fail(dg_snapshot_read_unverified, p, want);

  /* Reading /dev/zero is harmless; before the check it never ended. */
  snprintf(want, sizeof want,
           "/dev/zero: not a regular file (a character device); only regular files are read");
  expect_fail(dg_snapshot_read_any, "/dev/zero", want);
  expect_fail(dg_snapshot_read_text, "/dev/zero", want);

  snprintf(want, sizeof want, "%s: not a regular file (a folder); only regular files are read",
           g_dir);
  expect_fail(dg_snapshot_read_any, g_dir, want);

  /* A symlink to a good file is followed: its target is regular. */
  dg_snapshot s, back;
  char good[600], link[600];
  write_good(in_dir(good, sizeof good, "good.h5"), &s);
  CHECK(symlink("good.h5", in_dir(link, sizeof link, "link.h5")) == 0, "symlink");
  CHECK(dg_snapshot_read(link, &back) == 0, "read via symlink: %s", dg_error_message());
  dg_snapshot_free(&back);
  dg_snapshot_free(&s);

  /* Degree maps too. */
  dg_grid g;
  int n[3] = {3, 2, 1};
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  CHECK(dg_grid_init(&g, 2, n, lo, hi) == 0, "grid: %s", dg_error_message());
  dg_degree_map *m = NULL;
  int rc = dg_degree_map_create_file(&m, &g, p);
  snprintf(want, sizeof want, "degree map %s: not a regular file; only regular files are read", p);
  CHECK_ERR(rc, DG_ERR_IO, want);
  CHECK(m == NULL, "map returned");
}

/* ---- escape ---- */

static void case_escape(void) {
  char out[256], p[600], want[1600];
  const char *in = "a\nb\x1b[31m\\ \xc3\xa9 \xc2\x85 \xe2\x80\xae \xff\t\r\x7f";
  dg_escape(out, sizeof out, in);
  const char *exp = "a\\nb\\x1b[31m\\\\ \xc3\xa9 \\u{0085} \\u{202e} \\xff\\t\\r\\x7f";
  CHECK(strcmp(out, exp) == 0, "dg_escape\n   got: %s\n  want: %s", out, exp);
  dg_escape(out, 8, "abcdefghij");
  CHECK(strcmp(out, "abcd...") == 0, "cut: %s", out);
  dg_escape(out, 8, "abcdefg");
  CHECK(strcmp(out, "abcdefg") == 0, "fits exactly: %s", out);
  dg_escape(out, 9, "ab\n\n\n\n");
  CHECK(strcmp(out, "ab\\n...") == 0, "cut before an escape, not inside: %s", out);
  dg_escape(out, 16, "\xe2\x80"); /* truncated UTF-8 */
  CHECK(strcmp(out, "\\xe2\\x80") == 0, "bad UTF-8: %s", out);
  dg_escape_n(out, sizeof out, "a\0b", 3);
  CHECK(strcmp(out, "a\\x00b") == 0, "NUL: %s", out);
  /* a whole message: escaped parts unchanged, raw control bytes escaped */
  dg_escape_message(out, sizeof out, "file a\\x1b.h5: bad\n\x1b[2J \xc2\x85 \\");
  CHECK(strcmp(out, "file a\\x1b.h5: bad\\n\\x1b[2J \\u{0085} \\") == 0, "message: %s", out);
  char *d = dg_escape_dup("x\ny");
  CHECK(d && strcmp(d, "x\\ny") == 0, "dup: %s", d ? d : "(null)");
  free(d);

  /* A file name with a newline and a terminal escape. */
  snprintf(p, sizeof p, "%s/no\nsuch\x1b[2J.h5", g_dir);
  snprintf(want, sizeof want, "%s/no\\nsuch\\x1b[2J.h5: cannot open: No such file or directory",
           g_dir);
  expect_fail(dg_snapshot_read_any, p, want);

  /* A string attribute from the file with the same. */
  dg_snapshot s;
  char good[600];
  write_good(in_dir(good, sizeof good, "good.h5"), &s);
  in_dir(p, sizeof p, "evil_format.h5");
  CHECK(file_copy(good, p) == 0, "copy");
  hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
  const char *value = "evil\n\x1b]0;title\x07";
  hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
  int ok = f >= 0 && t >= 0 && sp >= 0 && H5Tset_size(t, strlen(value) + 1) >= 0 &&
           H5Adelete(f, "format") >= 0;
  hid_t a = ok ? H5Acreate2(f, "format", t, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
  ok = ok && a >= 0 && H5Awrite(a, t, value) >= 0 && H5Aclose(a) >= 0 && H5Tclose(t) >= 0 &&
       H5Sclose(sp) >= 0 && H5Fclose(f) >= 0;
  CHECK(ok && reseal(p) == 0, "rewrite format");
  snprintf(want, sizeof want,
           "%s: not a dgrid snapshot (attribute 'format' of / is 'evil\\n\\x1b]0;title\\x07', "
           "expected 'dgrid-snapshot')",
           p);
  expect_fail(dg_snapshot_read, p, want);

  /* A text token with control characters. */
  in_dir(p, sizeof p, "evil.txt");
  const char *txt = "dgrid-text 1\ndim 2\ncells 1 1\nbox 0 1 0 1\nnvar one\x1b[2J\n";
  CHECK(file_write(p, txt, strlen(txt)) == 0, "write");
  snprintf(want, sizeof want, "%s:5: 'nvar' value 'one\\x1b[2J' is not an integer", p);
  expect_fail(dg_snapshot_read_text, p, want);

  /* A NUL byte in a text snapshot names its line. */
  in_dir(p, sizeof p, "nul.txt");
  const char nul[] = "dgrid-text 1\ndim 2\ncells 1\0 1\n";
  CHECK(file_write(p, nul, sizeof nul - 1) == 0, "write");
  snprintf(want, sizeof want, "%s:3: NUL byte at offset 26 (not a text file?)", p);
  expect_fail(dg_snapshot_read_text, p, want);
  dg_snapshot_free(&s);
}

/* ---- file_size_limit ---- */

static void case_file_size_limit(void) {
  char p[600], want[1600], tmp[700];
  gen_opts o = gen_defaults(2, 1);
  o.cells[0] = 64;
  o.cells[1] = 64;
  o.fixed_degree = 3;
  dg_snapshot big, small;
  gen_snapshot(&big, &o); /* about 600 KB */
  o.cells[0] = 2;
  o.cells[1] = 2;
  gen_snapshot(&small, &o);
  const char *names[2] = {"limited.h5", "limited.txt"};
  for (int w = 0; w < 2; ++w) {
    in_dir(p, sizeof p, names[w]);
    int rc0 = w ? dg_snapshot_write_text(p, &small) : dg_snapshot_write(p, &small);
    CHECK(rc0 == 0, "small write: %s", dg_error_message());
    size_t n0 = 0;
    char *before = file_bytes(p, &n0);
    int pfd[2];
    CHECK(pipe(pfd) == 0, "pipe");
    pid_t pid = fork();
    if (pid == 0) {
      close(pfd[0]);
      struct rlimit rl = {65536, 65536};
      setrlimit(RLIMIT_FSIZE, &rl);
      int rc = w ? dg_snapshot_write_text(p, &big) : dg_snapshot_write(p, &big);
      char msg[1200];
      snprintf(msg, sizeof msg, "%d %ld %s", rc, (long)getpid(), dg_error_message());
      ssize_t wr = write(pfd[1], msg, strlen(msg));
      (void)wr;
      _exit(rc == 0 ? 0 : 3);
    }
    close(pfd[1]);
    char msg[1200] = "";
    ssize_t got = 0, r;
    while ((r = read(pfd[0], msg + got, sizeof msg - 1 - (size_t)got)) > 0) got += r;
    msg[got > 0 ? got : 0] = '\0';
    close(pfd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "%s: child %s %d (message: %s)", names[w],
          WIFSIGNALED(st) ? "killed by signal" : "exit", WIFSIGNALED(st) ? WTERMSIG(st) : st, msg);
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp.%ld", g_dir, names[w], (long)pid);
    snprintf(want, sizeof want, "%d %ld %s: cannot write temporary %s: File too large", DG_ERR_IO,
             (long)pid, p, tmp);
    CHECK(strcmp(msg, want) == 0, "\n   got: %s\n  want: %s", msg, want);
    CHECK(count_temporaries(g_dir) == 0, "temporary left behind");
    size_t n1 = 0;
    char *after = file_bytes(p, &n1);
    CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0, "old file changed");
    free(before);
    free(after);
  }
  dg_snapshot_free(&big);
  dg_snapshot_free(&small);
}

/* ---- stale_temp ---- */

static void touch(const char *path) {
  CHECK(file_write(path, "partial", 7) == 0, "touch %s", path);
}

static void case_stale_temp(void) {
  char p[600], dead[700], alive[700], odd[700], other[700];
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, NULL, 0); /* a pid that no longer runs */
  snprintf(dead, sizeof dead, "%s/.snap.h5.tmp.%ld", g_dir, (long)pid);
  snprintf(alive, sizeof alive, "%s/.snap.h5.tmp.%ld", g_dir, (long)getppid());
  snprintf(odd, sizeof odd, "%s/.snap.h5.tmp.12x", g_dir);
  snprintf(other, sizeof other, "%s/.other.h5.tmp.%ld", g_dir, (long)pid);
  touch(dead);
  touch(alive);
  touch(odd);
  touch(other);
  dg_snapshot s;
  write_good(in_dir(p, sizeof p, "snap.h5"), &s);
  CHECK(access(dead, F_OK) != 0, "the dead writer's temporary %s is still there", dead);
  CHECK(access(alive, F_OK) == 0, "a live process's temporary was removed");
  CHECK(access(odd, F_OK) == 0, "a non-pid name was removed");
  CHECK(access(other, F_OK) == 0, "another target's temporary was removed");
  /* Text and XDMF writers clean up the same way. */
  snprintf(dead, sizeof dead, "%s/.snap.txt.tmp.%ld", g_dir, (long)pid);
  touch(dead);
  CHECK(dg_snapshot_write_text(in_dir(p, sizeof p, "snap.txt"), &s) == 0, "text: %s",
        dg_error_message());
  CHECK(access(dead, F_OK) != 0, "text: stale temporary kept");
  dg_snapshot_free(&s);
}

/* ---- nonregular_output ---- */

static void expect_refused(const char *path, const char *kind, int writer) {
  char want[1600];
  dg_snapshot s;
  gen_opts o = gen_defaults(2, 1);
  o.view_s = 1;
  gen_snapshot(&s, &o);
  const char *files[1] = {"a.h5"};
  double t = 0;
  int rc = writer == 0   ? dg_snapshot_write(path, &s)
           : writer == 1 ? dg_snapshot_write_text(path, &s)
                         : dg_xdmf_write(path, 1, files, &t, &s);
  snprintf(want, sizeof want, "%s: refusing to replace it: not a regular file (%s)", path, kind);
  CHECK_ERR(rc, DG_ERR_IO, want);
  CHECK(count_temporaries(g_dir) == 0, "temporary left behind");
  dg_snapshot_free(&s);
}

static void case_nonregular_output(void) {
  char target[600], link[600], fifo[600];
  in_dir(target, sizeof target, "precious.dat");
  CHECK(file_write(target, "precious", 8) == 0, "write");
  CHECK(symlink("precious.dat", in_dir(link, sizeof link, "out.h5")) == 0, "symlink");
  CHECK(mkfifo(in_dir(fifo, sizeof fifo, "fifo.h5"), 0600) == 0, "mkfifo");
  for (int w = 0; w < 3; ++w) {
    expect_refused(link, "a symbolic link", w);
    expect_refused(fifo, "a FIFO", w);
  }
  struct stat st;
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the symlink was replaced");
  CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
  size_t n = 0;
  char *b = file_bytes(target, &n);
  CHECK(b && n == 8 && memcmp(b, "precious", 8) == 0, "the symlink's target changed");
  free(b);
  /* A dangling symlink is refused too (it would be replaced, not followed). */
  CHECK(symlink("nowhere.h5", in_dir(link, sizeof link, "dangling.h5")) == 0, "symlink");
  expect_refused(link, "a symbolic link", 0);
  CHECK(access(in_dir(target, sizeof target, "nowhere.h5"), F_OK) != 0, "created through link");
}

/* ---- offset_overflow ---- */

static void case_offset_overflow(void) {
  char good[600], p[600], want[1600];
  dg_snapshot s;
  write_good(in_dir(good, sizeof good, "good.h5"), &s);
  int64_t off[36];
  memcpy(off, s.coeff_offset, sizeof off);
  off[2] = INT64_MIN; /* off[2] - off[1] overflows */
  in_dir(p, sizeof p, "int64min.h5");
  CHECK(file_copy(good, p) == 0, "copy");
  hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
  hid_t ds = f >= 0 ? H5Dopen2(f, "/coeff_offset", H5P_DEFAULT) : -1;
  CHECK(ds >= 0 && H5Dwrite(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, off) >= 0 &&
            H5Dclose(ds) >= 0 && H5Fclose(f) >= 0,
        "rewrite offsets");
  CHECK(reseal(p) == 0, "reseal");
  int r = s.degree[1];
  snprintf(want, sizeof want,
           "%s: dataset /coeff_offset is inconsistent with /degree at element 1 (1,0): offsets "
           "%" PRId64 "..-9223372036854775808 span overflow, degree %d with nvar 1 needs %d",
           p, off[1], r, (r + 1) * (r + 1));
  expect_fail(dg_snapshot_read, p, want);

  /* The writer's own check of a dg_snapshot is checked the same way. */
  s.coeff_offset[2] = INT64_MIN;
  in_dir(p, sizeof p, "refused.h5");
  int rc = dg_snapshot_write(p, &s);
  snprintf(want, sizeof want,
           "%s: cannot write snapshot: coeff_offset of element 1 (1,0) is %" PRId64
           "..-9223372036854775808 (the span overflows), degree %d with nvar 1 needs %d",
           p, off[1], r, (r + 1) * (r + 1));
  CHECK_ERR(rc, DG_ERR_ARG, want);
  s.coeff_offset[2] = off[1] + (r + 1) * (r + 1);
  dg_snapshot_free(&s);
}

/* ---- map_nul ---- */

static void case_map_nul(void) {
  char p[600], want[1600];
  dg_grid g;
  int n[3] = {3, 2, 1};
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  CHECK(dg_grid_init(&g, 2, n, lo, hi) == 0, "grid: %s", dg_error_message());
  dg_degree_map *m = NULL;
  in_dir(p, sizeof p, "good.map");
  CHECK(file_write(p, "# ok\n1 2 3\n3 2 1", 16) == 0, "write");
  int rc = dg_degree_map_create_file(&m, &g, p);
  CHECK(rc == 0 && m && m->deg[2] == 3 && m->deg[3] == 3 && m->rmax == 3, "good map: %s",
        dg_error_message());
  dg_degree_map_destroy(&m);

  in_dir(p, sizeof p, "nul.map");
  const char bad[] = "# map\n1 2 3\n1 2\0 3\n";
  CHECK(file_write(p, bad, sizeof bad - 1) == 0, "write");
  rc = dg_degree_map_create_file(&m, &g, p);
  snprintf(want, sizeof want, "degree map %s, line 3: NUL byte at column 4", p);
  CHECK_ERR(rc, DG_ERR_IO, want);
  CHECK(m == NULL, "map returned");

  in_dir(p, sizeof p, "esc.map");
  CHECK(file_write(p, "1 2 3\n1 \x1b[2J 3\n", 16) == 0, "write");
  rc = dg_degree_map_create_file(&m, &g, p);
  snprintf(want, sizeof want, "degree map %s, line 2: '\\x1b[2J' is not an integer", p);
  CHECK_ERR(rc, DG_ERR_IO, want);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s CASE DIR\n", argv[0]);
    return 2;
  }
  snprintf(g_dir, sizeof g_dir, "%s", argv[2]);
  if (fresh_dir(g_dir) != 0) return 2;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  unsetenv("DGRID_IO_FAIL");
  static const struct {
    const char *name;
    void (*fn)(void);
  } cases[] = {{"corrupt", case_corrupt},
               {"size_bounds", case_size_bounds},
               {"nonregular_input", case_nonregular_input},
               {"escape", case_escape},
               {"file_size_limit", case_file_size_limit},
               {"stale_temp", case_stale_temp},
               {"nonregular_output", case_nonregular_output},
               {"offset_overflow", case_offset_overflow},
               {"map_nul", case_map_nul}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    if (strcmp(argv[1], cases[i].name) == 0) {
      cases[i].fn();
      if (g_failures) {
        fprintf(stderr, "io.%s: %d check(s) failed\n", argv[1], g_failures);
        return 1;
      }
      printf("io.%s: all checks passed\n", argv[1]);
      return 0;
    }
  fprintf(stderr, "test_io_hostile: unknown case '%s'\n", argv[1]);
  return 2;
}
