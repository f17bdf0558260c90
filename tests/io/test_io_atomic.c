/* io.atomic: a failed write leaves the previous file untouched (same bytes,
 * reads back bit-identical) and no temporary behind.  Failures are injected
 * with DGRID_IO_FAIL=snapshot|text|xdmf, and provoked for real (missing
 * folder, target is a folder).  Usage: test_io_atomic DIR */
#include "io_test_util.h"

#include <unistd.h>

static char g_dir[512];

static void expect_injected(int rc, const char *target, const char *hook) {
  char want[1400];
  snprintf(want, sizeof want,
           "%s: injected failure (DGRID_IO_FAIL=%s) after a partial write of %s/.%s.tmp.%ld",
           target, hook, g_dir, strrchr(target, '/') + 1, (long)getpid());
  CHECK_ERR(rc, DG_ERR_IO, want);
}

static void atomic_snapshot(void) {
  char path[600], why[256];
  snprintf(path, sizeof path, "%s/snap.h5", g_dir);
  gen_opts o = gen_defaults(2, 1);
  o.view_s = 2;
  o.nparams = 2;
  dg_snapshot first, second, back;
  gen_snapshot(&first, &o);
  o.seed = 777; /* a different solution */
  o.cells[0] = 9;
  gen_snapshot(&second, &o);

  CHECK(dg_snapshot_write(path, &first) == 0, "first write: %s", dg_error_message());
  size_t n0 = 0, n1 = 0;
  char *before = file_bytes(path, &n0);

  dg_io_set_fail("snapshot");
  int rc = dg_snapshot_write(path, &second);
  dg_io_set_fail(NULL);
  expect_injected(rc, path, "snapshot");
  CHECK_NO_H5_LEAK();

  char *after = file_bytes(path, &n1);
  CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0,
        "the old file's bytes changed (%zu -> %zu bytes)", n0, n1);
  free(before);
  free(after);
  rc = dg_snapshot_read(path, &back);
  CHECK(rc == 0, "read after failed write: %s", dg_error_message());
  if (rc == 0) CHECK(snap_equal(&first, &back, 1, why, sizeof why), "old snapshot: %s", why);
  dg_snapshot_free(&back);
  CHECK(count_temporaries(g_dir) == 0, "%d temporaries left in %s", count_temporaries(g_dir),
        g_dir);

  /* The hook names one writer: text writes are unaffected. */
  char tpath[600];
  snprintf(tpath, sizeof tpath, "%s/snap.txt", g_dir);
  dg_io_set_fail("snapshot");
  CHECK(dg_snapshot_write_text(tpath, &second) == 0, "text write under snapshot hook: %s",
        dg_error_message());
  dg_io_set_fail(NULL);

  /* Without a previous file nothing at all appears. */
  char fresh[600];
  snprintf(fresh, sizeof fresh, "%s/fresh.h5", g_dir);
  dg_io_set_fail("snapshot");
  rc = dg_snapshot_write(fresh, &second);
  dg_io_set_fail(NULL);
  expect_injected(rc, fresh, "snapshot");
  CHECK(access(fresh, F_OK) != 0, "%s exists after a failed first write", fresh);
  CHECK(count_temporaries(g_dir) == 0, "temporaries left after failed fresh write");

  /* The second write succeeds once the hook is gone. */
  CHECK(dg_snapshot_write(path, &second) == 0, "second write: %s", dg_error_message());
  rc = dg_snapshot_read(path, &back);
  if (rc == 0) CHECK(snap_equal(&second, &back, 1, why, sizeof why), "new snapshot: %s", why);
  dg_snapshot_free(&back);
  dg_snapshot_free(&first);
  dg_snapshot_free(&second);
}

static void atomic_text(void) {
  char path[600], why[256];
  snprintf(path, sizeof path, "%s/modal.txt", g_dir);
  gen_opts o = gen_defaults(3, 2);
  dg_snapshot first, second, back;
  gen_snapshot(&first, &o);
  o.seed = 4242;
  gen_snapshot(&second, &o);
  CHECK(dg_snapshot_write_text(path, &first) == 0, "text write: %s", dg_error_message());
  dg_io_set_fail("text");
  int rc = dg_snapshot_write_text(path, &second);
  dg_io_set_fail(NULL);
  expect_injected(rc, path, "text");
  rc = dg_snapshot_read_text(path, &back);
  CHECK(rc == 0, "text read after failed write: %s", dg_error_message());
  if (rc == 0) CHECK(snap_equal(&first, &back, 0, why, sizeof why), "old text: %s", why);
  dg_snapshot_free(&back);
  CHECK(count_temporaries(g_dir) == 0, "temporaries left after failed text write");
  dg_snapshot_free(&first);
  dg_snapshot_free(&second);
}

static void atomic_xdmf(void) {
  char path[600];
  snprintf(path, sizeof path, "%s/series.xmf", g_dir);
  gen_opts o = gen_defaults(2, 1);
  o.view_s = 2;
  dg_snapshot s;
  gen_snapshot(&s, &o);
  const char *files1[1] = {"a.h5"};
  const char *files2[2] = {"a.h5", "b.h5"};
  double times[2] = {0.0, 1.0};
  CHECK(dg_xdmf_write(path, 1, files1, times, &s) == 0, "xdmf: %s", dg_error_message());
  size_t n0 = 0, n1 = 0;
  char *before = file_bytes(path, &n0);
  dg_io_set_fail("xdmf");
  int rc = dg_xdmf_write(path, 2, files2, times, &s);
  dg_io_set_fail(NULL);
  expect_injected(rc, path, "xdmf");
  char *after = file_bytes(path, &n1);
  CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0, "old XDMF changed");
  CHECK(after && strstr(after, "b.h5") == NULL, "failed XDMF content leaked into the target");
  free(before);
  free(after);
  CHECK(count_temporaries(g_dir) == 0, "temporaries left after failed XDMF write");
  dg_snapshot_free(&s);
}

/* Real failures: no folder, and a target that is a folder (refused before
 * anything is written). */
static void real_failures(void) {
  char path[600], want[1400], sub[600];
  gen_opts o = gen_defaults(2, 1);
  dg_snapshot s;
  gen_snapshot(&s, &o);

  snprintf(path, sizeof path, "%s/no/such/folder/x.h5", g_dir);
  int rc = dg_snapshot_write(path, &s);
  snprintf(want, sizeof want, "%s: cannot create temporary file %s/no/such/folder/.x.h5.tmp.%ld",
           path, g_dir, (long)getpid());
  CHECK(rc == DG_ERR_IO, "status %d for missing folder", rc);
  CHECK(strncmp(dg_error_message(), want, strlen(want)) == 0, "got: %s\nwant prefix: %s",
        dg_error_message(), want);
  CHECK(strstr(dg_error_message(), "No such file or directory") != NULL, "no reason in: %s",
        dg_error_message());
  CHECK_NO_H5_LEAK();

  snprintf(sub, sizeof sub, "%s/a_folder", g_dir);
  CHECK(ensure_dir(sub) == 0, "mkdir %s", sub);
  rc = dg_snapshot_write(sub, &s);
  snprintf(want, sizeof want, "%s: refusing to replace it: not a regular file (a folder)", sub);
  CHECK_ERR(rc, DG_ERR_IO, want);
  CHECK(count_temporaries(g_dir) == 0, "temporary left after failed rename");
  CHECK_NO_H5_LEAK();

  rc = dg_snapshot_write_text(sub, &s);
  CHECK(rc == DG_ERR_IO, "text onto a folder: status %d", rc);
  CHECK(count_temporaries(g_dir) == 0, "temporary left after failed text rename");
  dg_snapshot_free(&s);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  snprintf(g_dir, sizeof g_dir, "%s", argv[1]);
  if (fresh_dir(g_dir) != 0) return 2;
  dg_io_set_fail(NULL);
  atomic_snapshot();
  atomic_text();
  atomic_xdmf();
  real_failures();
  if (g_failures) {
    fprintf(stderr, "io.atomic: %d check(s) failed\n", g_failures);
    return 1;
  }
  printf("io.atomic: all checks passed\n");
  return 0;
}
