/* io.roundtrip: HDF5 and text snapshots read back bit-identical, for 2D and
 * 3D, nvar 1 and 2, random degree maps, optional arrays present and absent.
 * Usage: test_io_roundtrip DIR */
#include "io_test_util.h"

static char g_dir[512];

static const char *path_in(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", g_dir, name);
  return buf;
}

/* One configuration through every writer/reader pair. */
static void roundtrip(const char *tag, const gen_opts *o) {
  char h5[600], txt[600], txt2[600], why[256];
  dg_snapshot s, back, tb, any;
  gen_snapshot(&s, o);
  snprintf(h5, sizeof h5, "%s/%s.h5", g_dir, tag);
  snprintf(txt, sizeof txt, "%s/%s.txt", g_dir, tag);
  snprintf(txt2, sizeof txt2, "%s/%s.again.txt", g_dir, tag);

  int rc = dg_snapshot_write(h5, &s);
  CHECK(rc == 0, "%s: write: %s", tag, dg_error_message());
  CHECK_NO_H5_LEAK();
  rc = dg_snapshot_read(h5, &back);
  CHECK(rc == 0, "%s: read: %s", tag, dg_error_message());
  CHECK_NO_H5_LEAK();
  if (rc == 0) {
    CHECK(snap_equal(&s, &back, 1, why, sizeof why), "%s: HDF5 round trip: %s", tag, why);
    /* Absent optional arrays stay absent. */
    CHECK(!back.gauss_values == !o->with_gauss, "%s: gauss presence", tag);
    CHECK(back.view_s == o->view_s, "%s: view_s %d", tag, back.view_s);
    CHECK(back.nparams == o->nparams && back.nhist == o->nhist, "%s: params/history", tag);
  }
  dg_snapshot_free(&back);

  rc = dg_snapshot_read_any(h5, &any);
  CHECK(rc == 0, "%s: read_any(h5): %s", tag, dg_error_message());
  if (rc == 0) CHECK(snap_equal(&s, &any, 1, why, sizeof why), "%s: read_any h5: %s", tag, why);
  dg_snapshot_free(&any);

  rc = dg_snapshot_write_text(txt, &s);
  CHECK(rc == 0, "%s: write_text: %s", tag, dg_error_message());
  rc = dg_snapshot_read_text(txt, &tb);
  CHECK(rc == 0, "%s: read_text: %s", tag, dg_error_message());
  if (rc == 0) {
    CHECK(snap_equal(&s, &tb, 0, why, sizeof why), "%s: text round trip: %s", tag, why);
    CHECK(tb.gauss_values == NULL && tb.view_s == 0 && tb.nparams == 0 && tb.nhist == 0,
          "%s: text carries no optional arrays", tag);
    /* Writing what was read gives the same bytes. */
    CHECK(dg_snapshot_write_text(txt2, &tb) == 0, "%s: rewrite: %s", tag, dg_error_message());
    size_t n1 = 0, n2 = 0;
    char *b1 = file_bytes(txt, &n1), *b2 = file_bytes(txt2, &n2);
    CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0, "%s: text rewrite differs", tag);
    free(b1);
    free(b2);
  }
  dg_snapshot_free(&tb);

  rc = dg_snapshot_read_any(txt, &any);
  CHECK(rc == 0, "%s: read_any(txt): %s", tag, dg_error_message());
  if (rc == 0) CHECK(snap_equal(&s, &any, 0, why, sizeof why), "%s: read_any txt: %s", tag, why);
  dg_snapshot_free(&any);
  dg_snapshot_free(&s);
}

/* A hand-written text file: elements in reverse order, comments, blank
 * lines, a Fortran 'D' exponent, CRLF line ends.  Must read back exactly. */
static void text_any_order(void) {
  gen_opts o = gen_defaults(3, 2);
  o.cells[0] = 3;
  o.cells[1] = 2;
  o.cells[2] = 2;
  o.wild = 1;
  o.seed = 99;
  dg_snapshot s, back;
  char path[600], why[256];
  gen_snapshot(&s, &o);
  path_in(path, sizeof path, "reversed.txt");
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "cannot create %s", path);
  if (!f) {
    dg_snapshot_free(&s);
    return;
  }
  fprintf(
      f,
      "# written by hand, elements reversed\r\ndgrid-text 1\r\n\r\ndim 3   # trailing comment\n");
  fprintf(f, "cells 3 2 2\nbox %.17g %.17g %.17g %.17g %.17g %.17g\n", s.lo[0], s.hi[0], s.lo[1],
          s.hi[1], s.lo[2], s.hi[2]);
  fprintf(f, "nvar 2\nq %d\ntime %.17g\nstep %" PRId64 "\nmodel %s\nelements %" PRId64 "\n", s.q,
          s.time, s.step, s.model, s.nelem);
  for (int64_t e = s.nelem - 1; e >= 0; --e) {
    int64_t i = e % 3, j = (e / 3) % 2, k = e / 6;
    fprintf(f, "  # element %" PRId64 "\n e %" PRId64 " %" PRId64 " %" PRId64 " %d\n", e, i, j, k,
            s.degree[e]);
    for (int64_t m = s.coeff_offset[e]; m < s.coeff_offset[e + 1]; ++m) {
      char num[64];
      snprintf(num, sizeof num, "%.16e", s.coeff[m]);
      if (m % 3 == 0) { /* Fortran style exponent on some values */
        char *x = strchr(num, 'e');
        if (x) *x = 'D';
      }
      fprintf(f, "%s%s", num, m % 4 == 3 ? "\n" : "\t");
    }
    fputc('\n', f);
  }
  fclose(f);
  int rc = dg_snapshot_read_text(path, &back);
  CHECK(rc == 0, "reversed.txt: %s", dg_error_message());
  if (rc == 0) CHECK(snap_equal(&s, &back, 0, why, sizeof why), "reversed.txt: %s", why);
  dg_snapshot_free(&back);
  dg_snapshot_free(&s);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  snprintf(g_dir, sizeof g_dir, "%s", argv[1]);
  if (fresh_dir(g_dir) != 0) return 2;

  gen_opts o = gen_defaults(2, 1);
  o.wild = 1;
  o.view_s = 3;
  o.with_error = 1;
  o.with_gauss = 1;
  o.nparams = 12; /* > 8: HDF5 moves them to dense storage; order must survive */
  o.nhist = 5;
  roundtrip("d2_nvar1_all", &o);

  o = gen_defaults(2, 2);
  o.max_degree = 10;
  o.wild = 1;
  o.seed = 7;
  roundtrip("d2_nvar2_none", &o);

  o = gen_defaults(3, 1);
  o.view_s = 2;
  o.nparams = 3;
  o.wild = 1;
  o.seed = 3;
  roundtrip("d3_nvar1_view", &o);

  o = gen_defaults(3, 2);
  o.with_gauss = 1;
  o.nhist = 1;
  o.seed = 11;
  o.max_degree = 4;
  roundtrip("d3_nvar2_gauss", &o);

  o = gen_defaults(2, 1);
  o.fixed_degree = 0; /* finite-volume cells */
  o.cells[0] = 1;
  o.cells[1] = 1;
  o.view_s = 1;
  roundtrip("d2_single_r0", &o);

  text_any_order();

  if (g_failures) {
    fprintf(stderr, "io.roundtrip: %d check(s) failed\n", g_failures);
    return 1;
  }
  printf("io.roundtrip: all checks passed\n");
  return 0;
}
