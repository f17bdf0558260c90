/* io.bad_input: malformed HDF5 and text snapshots are refused with one
 * message naming the file and the dataset/attribute or line, a non-zero
 * status, an empty snapshot and no HDF5 handle left open.
 * Usage: test_io_bad_input DIR */
#include "io_test_util.h"

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

/* Read `path` with `reader`, expect DG_ERR_IO and exactly `want`. */
static void expect_fail(int (*reader)(const char *, dg_snapshot *), const char *path,
                        const char *want) {
  dg_snapshot s;
  memset(&s, 0x5a, sizeof s); /* garbage in: the reader must clear it */
  int rc = reader(path, &s);
  CHECK_ERR(rc, DG_ERR_IO, want);
  CHECK(snap_is_empty(&s), "%s: snapshot not emptied after failure", path);
  CHECK_NO_H5_LEAK();
  if (rc == 0) dg_snapshot_free(&s);
}

/* ---- corrupting good HDF5 files with the HDF5 API ---- */

static hid_t open_rw(const char *good, const char *path) {
  if (file_copy(good, path) != 0) {
    fprintf(stderr, "cannot copy %s to %s\n", good, path);
    return -1;
  }
  return H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
}

static void make_without(const char *good, const char *path, const char *obj) {
  hid_t f = open_rw(good, path);
  CHECK(f >= 0 && H5Ldelete(f, obj, H5P_DEFAULT) >= 0 && H5Fclose(f) >= 0, "delete %s", obj);
  CHECK(reseal(path) == 0, "reseal %s", path);
}

static void make_without_attr(const char *good, const char *path, const char *obj,
                              const char *name) {
  hid_t f = open_rw(good, path);
  CHECK(f >= 0 && H5Adelete_by_name(f, obj, name, H5P_DEFAULT) >= 0 && H5Fclose(f) >= 0,
        "delete attribute %s", name);
  CHECK(reseal(path) == 0, "reseal %s", path);
}

/* Replace dataset `name` by one of type `t` and shape `dims` holding `buf`. */
static void make_replaced(const char *good, const char *path, const char *name, hid_t t, int rank,
                          const hsize_t *dims, const void *buf) {
  hid_t f = open_rw(good, path);
  hid_t sp = H5Screate_simple(rank, dims, NULL);
  int ok = f >= 0 && sp >= 0 && H5Ldelete(f, name, H5P_DEFAULT) >= 0;
  hid_t ds = ok ? H5Dcreate2(f, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
  ok = ok && ds >= 0 && H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
  ok = ok && H5Dclose(ds) >= 0 && H5Sclose(sp) >= 0 && H5Fclose(f) >= 0;
  CHECK(ok, "replace %s in %s", name, path);
  CHECK(reseal(path) == 0, "reseal %s", path);
}

static void make_format(const char *good, const char *path, const char *value) {
  hid_t f = open_rw(good, path);
  hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
  int ok = f >= 0 && t >= 0 && sp >= 0 && H5Tset_size(t, strlen(value) + 1) >= 0 &&
           H5Adelete(f, "format") >= 0;
  hid_t a = ok ? H5Acreate2(f, "format", t, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
  ok = ok && a >= 0 && H5Awrite(a, t, value) >= 0 && H5Aclose(a) >= 0 && H5Tclose(t) >= 0 &&
       H5Sclose(sp) >= 0 && H5Fclose(f) >= 0;
  CHECK(ok, "rewrite format in %s", path);
  CHECK(reseal(path) == 0, "reseal %s", path);
}

static void bad_hdf5(void) {
  char good[600], p[600], want[1400];
  gen_opts o = gen_defaults(2, 1);
  o.cells[0] = 7;
  o.cells[1] = 5;
  o.view_s = 2;
  dg_snapshot s;
  gen_snapshot(&s, &o);
  in_dir(good, sizeof good, "good.h5");
  CHECK(dg_snapshot_write(good, &s) == 0, "write good.h5: %s", dg_error_message());
  dg_snapshot check;
  CHECK(dg_snapshot_read(good, &check) == 0, "good.h5 must read: %s", dg_error_message());
  dg_snapshot_free(&check);

  make_without(good, in_dir(p, sizeof p, "missing_coeff.h5"), "/coeff");
  snprintf(want, sizeof want, "%s: dataset /coeff is missing", p);
  expect_fail(dg_snapshot_read, p, want);
  expect_fail(dg_snapshot_read_any, p, want);

  make_without(good, in_dir(p, sizeof p, "missing_grid.h5"), "/grid");
  snprintf(want, sizeof want, "%s: dataset /grid/cells is missing", p);
  expect_fail(dg_snapshot_read, p, want);

  /* Element 5 = (5,0) claims one value too many. */
  {
    int64_t off[36];
    memcpy(off, s.coeff_offset, sizeof off);
    for (int e = 6; e <= 35; ++e) off[e] += 1;
    hsize_t n = 36;
    make_replaced(good, in_dir(p, sizeof p, "bad_offset.h5"), "/coeff_offset", H5T_NATIVE_INT64, 1,
                  &n, off);
    int r = s.degree[5];
    snprintf(want, sizeof want,
             "%s: dataset /coeff_offset is inconsistent with /degree at element 5 (5,0): offsets "
             "%" PRId64 "..%" PRId64 " span %" PRId64 " values, degree %d with nvar 1 needs %d",
             p, off[5], off[6], off[6] - off[5], r, (r + 1) * (r + 1));
    expect_fail(dg_snapshot_read, p, want);

    for (int e = 0; e <= 35; ++e) off[e] = s.coeff_offset[e] + 2;
    make_replaced(good, in_dir(p, sizeof p, "offset_start.h5"), "/coeff_offset", H5T_NATIVE_INT64,
                  1, &n, off);
    snprintf(want, sizeof want, "%s: dataset /coeff_offset starts at 2, must start at 0", p);
    expect_fail(dg_snapshot_read, p, want);
  }
  {
    hsize_t dims[2] = {7, 5}; /* transposed */
    make_replaced(good, in_dir(p, sizeof p, "degree_shape.h5"), "/degree", H5T_NATIVE_UINT8, 2,
                  dims, s.degree);
    snprintf(want, sizeof want, "%s: dataset /degree has shape [7][5], expected [5][7]", p);
    expect_fail(dg_snapshot_read, p, want);

    uint8_t deg[35];
    memcpy(deg, s.degree, sizeof deg);
    deg[3] = 12;
    dims[0] = 5;
    dims[1] = 7;
    make_replaced(good, in_dir(p, sizeof p, "degree_big.h5"), "/degree", H5T_NATIVE_UINT8, 2, dims,
                  deg);
    snprintf(want, sizeof want, "%s: dataset /degree: element 3 (3,0) has degree 12 > 10", p);
    expect_fail(dg_snapshot_read, p, want);
  }
  {
    hsize_t n = (hsize_t)s.coeff_offset[35];
    int *ic = calloc(n, sizeof *ic);
    make_replaced(good, in_dir(p, sizeof p, "int_coeff.h5"), "/coeff", H5T_NATIVE_INT, 1, &n, ic);
    free(ic);
    snprintf(want, sizeof want, "%s: dataset /coeff holds integer values, expected floating-point",
             p);
    expect_fail(dg_snapshot_read, p, want);
    n -= 1;
    make_replaced(good, in_dir(p, sizeof p, "short_coeff.h5"), "/coeff", H5T_NATIVE_DOUBLE, 1, &n,
                  s.coeff);
    snprintf(want, sizeof want, "%s: dataset /coeff has shape [%llu], expected [%llu]", p,
             (unsigned long long)n, (unsigned long long)n + 1);
    expect_fail(dg_snapshot_read, p, want);
  }
  make_format(good, in_dir(p, sizeof p, "not_dgrid.h5"), "other");
  snprintf(want, sizeof want,
           "%s: not a dgrid snapshot (attribute 'format' of / is 'other', expected "
           "'dgrid-snapshot')",
           p);
  expect_fail(dg_snapshot_read, p, want);

  make_without_attr(good, in_dir(p, sizeof p, "no_time.h5"), "/", "time");
  snprintf(want, sizeof want, "%s: attribute 'time' of / is missing", p);
  expect_fail(dg_snapshot_read, p, want);

  make_without_attr(good, in_dir(p, sizeof p, "no_samples.h5"), "/view", "samples_per_element");
  snprintf(want, sizeof want, "%s: attribute 'samples_per_element' of /view is missing", p);
  expect_fail(dg_snapshot_read, p, want);

  /* Truncated: the checksum block records the size. */
  {
    size_t n = 0;
    char *b = file_bytes(good, &n);
    in_dir(p, sizeof p, "truncated.h5");
    CHECK(b && file_write(p, b, n / 2) == 0, "write %s", p);
    free(b);
    snprintf(want, sizeof want,
             "%s: size mismatch: the checksum block covers %zu bytes after the user block, the "
             "file has %zu (truncated or appended to)",
             p, n - 512, n / 2 - 512);
    expect_fail(dg_snapshot_read, p, want);
  }
  {
    in_dir(p, sizeof p, "plain.txt");
    CHECK(file_write(p, "hello\n", 6) == 0, "write %s", p);
    snprintf(want, sizeof want,
             "%s: not a dgrid HDF5 snapshot (neither a dgrid checksum block nor an HDF5 signature "
             "at byte 0)",
             p);
    expect_fail(dg_snapshot_read, p, want);
  }
  in_dir(p, sizeof p, "nofile.h5");
  snprintf(want, sizeof want, "%s: cannot open: No such file or directory", p);
  expect_fail(dg_snapshot_read, p, want);
  expect_fail(dg_snapshot_read_any, p, want);
  expect_fail(dg_snapshot_read_text, p, want);
  dg_snapshot_free(&s);
}

/* ---- text ---- */

static const char *const base_text[] = {
    "dgrid-text 1",             /* 1 */
    "# a comment line",         /* 2 */
    "dim 2",                    /* 3 */
    "cells 2 2",                /* 4 */
    "box 0 1 0 1",              /* 5 */
    "nvar 1",                   /* 6 */
    "q 3",                      /* 7 */
    "time 0.5",                 /* 8 */
    "step 10",                  /* 9 */
    "model advection-constant", /* 10 */
    "elements 4",               /* 11 */
    "e 0 0 1",                  /* 12 */
    "1 2",                      /* 13 */
    "3 4",                      /* 14 */
    "e 1 0 0",                  /* 15 */
    "5",                        /* 16 */
    "e 0 1 2",                  /* 17 */
    "1 2 3",                    /* 18 */
    "4 5 6",                    /* 19 */
    "7 8 9",                    /* 20 */
    "e 1 1 1",                  /* 21 */
    "1 2 3 4",                  /* 22 */
};
#define BASE_LINES ((int)(sizeof base_text / sizeof base_text[0]))

/* Write the base text with line `line` (1-based, 0 = none) replaced and
 * only the first `keep` lines kept. */
static const char *make_text(char *path, size_t len, const char *name, int line, const char *repl,
                             int keep) {
  in_dir(path, len, name);
  FILE *f = fopen(path, "w");
  if (!f) return path;
  for (int i = 1; i <= keep && i <= BASE_LINES; ++i)
    fprintf(f, "%s\n", i == line ? repl : base_text[i - 1]);
  fclose(f);
  return path;
}

static void expect_text(const char *name, int line, const char *repl, int keep, const char *tail) {
  char p[600], want[1400];
  make_text(p, sizeof p, name, line, repl, keep);
  snprintf(want, sizeof want, "%s:%s", p, tail);
  expect_fail(dg_snapshot_read_text, p, want);
  expect_fail(dg_snapshot_read_any, p, want);
}

static void bad_text(void) {
  char p[600];
  dg_snapshot s;
  /* The base must be fine, or every case below tests nothing. */
  int rc = dg_snapshot_read_text(make_text(p, sizeof p, "base.txt", 0, "", BASE_LINES), &s);
  CHECK(rc == 0, "base.txt: %s", dg_error_message());
  if (rc == 0) {
    CHECK(s.nelem == 4 && s.degree[0] == 1 && s.degree[1] == 0 && s.degree[2] == 2 &&
              s.degree[3] == 1,
          "base.txt degrees");
    CHECK(s.coeff_offset[4] == 18 && s.coeff[4] == 5.0 && s.coeff[13] == 9.0 && s.time == 0.5 &&
              s.step == 10 && strcmp(s.model, "advection-constant") == 0,
          "base.txt values");
    dg_snapshot_free(&s);
  }

  expect_text("bad_value.txt", 19, "4 x5 6", BASE_LINES,
              "19: non-numeric coefficient value 'x5' for element (0,1)");
  expect_text("truncated.txt", 0, "", 19,
              "17: expected 9 coefficient values for element (0,1), found 6 before end of file");
  expect_text("short.txt", 16, "", BASE_LINES,
              "15: expected 1 coefficient value for element (1,0), found 0 before the next "
              "element record");
  expect_text("extra.txt", 16, "5 6", BASE_LINES,
              "16: expected 'e' (element record 3 of 4), found '6' (too many values in the "
              "previous element?)");
  expect_text("missing.txt", 0, "", 20,
              "20: expected 4 element records, found 3 before end of file");
  expect_text("bad_key.txt", 4, "cels 2 2", BASE_LINES, "4: expected 'cells', found 'cels'");
  expect_text("bad_index.txt", 15, "e 2 0 0", BASE_LINES,
              "15: element index i=2 is out of range [0, 1]");
  expect_text("dup.txt", 21, "e 0 0 1", BASE_LINES,
              "21: element (0,0) appears twice (first at line 12)");
  expect_text("bad_degree.txt", 21, "e 1 1 11", BASE_LINES,
              "21: element (1,1) has degree 11, must be in [0, 10]");
  expect_text("bad_nvar.txt", 6, "nvar one", BASE_LINES, "6: 'nvar' value 'one' is not an integer");
  expect_text("bad_time.txt", 8, "time 0.5x", BASE_LINES, "8: 'time' value '0.5x' is not a number");
  expect_text("bad_count.txt", 11, "elements 5", BASE_LINES,
              "11: 'elements' is 5 but the cells give 4");
  expect_text("extra_header.txt", 8, "time 0.5 0.7", BASE_LINES,
              "8: unexpected '0.7' after the values of 'time'");
  expect_text("few.txt", 4, "cells 2", BASE_LINES, "4: 'cells' needs 2 values, found 1");
  expect_text("version.txt", 1, "dgrid-text 2", BASE_LINES,
              "1: unsupported dgrid-text version 2 (this reader knows 1)");
  expect_text("box.txt", 5, "box 0 1 1 0", BASE_LINES, "5: 'box' side 1 is [1, 0], need lo < hi");
  expect_text("empty.txt", 0, "", 0, "1: expected 'dgrid-text', found end of file");
  expect_text("trailing.txt", 22, "1 2 3 4 5", BASE_LINES,
              "22: unexpected '5' after the last element record");
}

/* Writers refuse inconsistent snapshots and create nothing. */
static void bad_writes(void) {
  char p[600], want[1400];
  gen_opts o = gen_defaults(2, 1);
  o.fixed_degree = 1;
  dg_snapshot s;
  gen_snapshot(&s, &o);
  in_dir(p, sizeof p, "refused.h5");
  s.degree[3] = 11;
  int rc = dg_snapshot_write(p, &s);
  snprintf(want, sizeof want, "%s: cannot write snapshot: element 3 (3,0) has degree 11 > 10", p);
  CHECK_ERR(rc, DG_ERR_ARG, want);
  s.degree[3] = 2;
  rc = dg_snapshot_write(p, &s);
  snprintf(want, sizeof want,
           "%s: cannot write snapshot: coeff_offset of element 3 (3,0) spans 4 values, degree 2 "
           "with nvar 1 needs 9",
           p);
  CHECK_ERR(rc, DG_ERR_ARG, want);
  s.degree[3] = 1;
  s.dim = 4;
  rc = dg_snapshot_write(p, &s);
  snprintf(want, sizeof want, "%s: cannot write snapshot: dim is 4, must be 2 or 3", p);
  CHECK_ERR(rc, DG_ERR_ARG, want);
  s.dim = 2;
  rc = dg_snapshot_write_text(p, &s);
  CHECK(rc == 0, "text write of the repaired snapshot: %s", dg_error_message());
  remove(p);
  snprintf(s.model, sizeof s.model, "has blank");
  rc = dg_snapshot_write_text(p, &s);
  snprintf(want, sizeof want,
           "%s: cannot write text snapshot: model name 'has blank' contains a blank or '#'", p);
  CHECK_ERR(rc, DG_ERR_ARG, want);
  CHECK(access(p, F_OK) != 0, "%s was created by a refused write", p);
  CHECK(count_temporaries(g_dir) == 0, "temporaries left by refused writes");
  dg_snapshot_free(&s);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  snprintf(g_dir, sizeof g_dir, "%s", argv[1]);
  if (fresh_dir(g_dir) != 0) return 2;
  /* The corruption helpers call HDF5 directly and check every status. */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  bad_hdf5();
  bad_text();
  bad_writes();
  if (g_failures) {
    fprintf(stderr, "io.bad_input: %d check(s) failed\n", g_failures);
    return 1;
  }
  printf("io.bad_input: all checks passed\n");
  return 0;
}
