/* dg_io.c - snapshots on disk: the shared part.  Small helpers, the
 * invariants every writer checks, dg_snapshot_free and the readers' entry
 * points, which load the file once (bounded, regular files only), verify
 * it and hand the verified bytes to a parser.
 *
 * The layouts are specified in docs/FILE_FORMAT.md; keep the two in step.
 * The rest lives along its seams: dg_io_file.c (bounded input, atomic
 * output), dg_io_seal.c (checksum block), dg_io_h5.c (HDF5 plumbing and
 * writer), dg_io_h5read.c (HDF5 reader), dg_io_text.c (text format),
 * dg_io_xdmf.c (XDMF sidecar). */
#include "dg_io.h"

#include "dg_arg.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */

int dg_io_mul64(int64_t a, int64_t b, int64_t *out) {
  if (a < 0 || b < 0) return -1;
  if (a != 0 && b > INT64_MAX / a) return -1;
  *out = a * b;
  return 0;
}

int64_t dg_io_elem_len(int dim, int nvar, int r) {
  int64_t n = nvar;
  for (int d = 0; d < dim; ++d) n *= (int64_t)(r + 1);
  return n;
}

int64_t dg_io_ipow64(int64_t b, int e) {
  int64_t p = 1;
  for (int i = 0; i < e; ++i) p *= b;
  return p;
}

const char *dg_io_elem_label(char *buf, size_t len, int dim, const int cells[3], int64_t e) {
  int64_t i = e % cells[0], j = (e / cells[0]) % cells[1];
  int64_t k = e / ((int64_t)cells[0] * cells[1]);
  if (dim == 3)
    snprintf(buf, len, "(%" PRId64 ",%" PRId64 ",%" PRId64 ")", i, j, k);
  else
    snprintf(buf, len, "(%" PRId64 ",%" PRId64 ")", i, j);
  return buf;
}

const char *dg_io_dims_label(char *buf, size_t len, int rank, const hsize_t *dims) {
  size_t used = 0;
  buf[0] = '\0';
  for (int r = 0; r < rank && used < len; ++r) {
    int n = snprintf(buf + used, len - used, "[%llu]", (unsigned long long)dims[r]);
    if (n < 0) break;
    used += (size_t)n;
  }
  if (rank == 0) snprintf(buf, len, "(scalar)");
  return buf;
}

char *dg_io_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

void dg_io_grid_dims(const dg_snapshot *s, int64_t scale, hsize_t *dims) {
  for (int r = 0; r < s->dim; ++r) dims[r] = (hsize_t)((int64_t)s->cells[s->dim - 1 - r] * scale);
}

/* The write that fails on purpose (dg_io_set_fail), or "". */
static char fail_what[32];

void dg_io_set_fail(const char *what) {
  snprintf(fail_what, sizeof fail_what, "%s", what ? what : "");
}

int dg_io_fail_injected(const char *what) { return fail_what[0] && strcmp(fail_what, what) == 0; }

/* ------------------------------------------------------------------------ */
/* Snapshot validation (shared by the HDF5 and text writers)                */
/* ------------------------------------------------------------------------ */

int dg_io_check_grid(const char *label, const dg_snapshot *s, const char *what) {
  if (s->dim != 2 && s->dim != 3)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: dim is %d, must be 2 or 3", label, what, s->dim);
  if (s->nvar < 1)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: nvar is %d, must be >= 1", label, what, s->nvar);
  int64_t nelem = 1;
  for (int d = 0; d < s->dim; ++d) {
    if (s->cells[d] < 1 || s->cells[d] > DG_IO_MAX_CELLS_PER_DIM)
      return dg_error(DG_ERR_ARG, "%s: cannot %s: cells[%d] is %d, must be in [1, %lld]", label,
                      what, d, s->cells[d], DG_IO_MAX_CELLS_PER_DIM);
    if (!isfinite(s->lo[d]) || !isfinite(s->hi[d]) || !(s->lo[d] < s->hi[d]))
      return dg_error(DG_ERR_ARG, "%s: cannot %s: box side %d is [%.17g, %.17g], need lo < hi",
                      label, what, d, s->lo[d], s->hi[d]);
    nelem *= s->cells[d];
  }
  if (s->dim == 2 && s->cells[2] != 1)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: cells[2] is %d in 2D, must be 1", label, what,
                    s->cells[2]);
  if (nelem > DG_IO_MAX_NELEM)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: %lld elements is too many", label, what,
                    (long long)nelem);
  if (s->nelem != nelem)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: nelem is %" PRId64 ", cells give %" PRId64, label,
                    what, s->nelem, nelem);
  return 0;
}

/* The degree map and the offsets agree (the invariant readers check). */
int dg_io_check_coeff(const char *label, const dg_snapshot *s, const char *what) {
  char lab[64];
  if (!s->degree || !s->coeff_offset || !s->coeff)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: degree, coeff_offset or coeff is NULL", label,
                    what);
  if (s->coeff_offset[0] != 0)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: coeff_offset[0] is %" PRId64 ", must be 0", label,
                    what, s->coeff_offset[0]);
  for (int64_t e = 0; e < s->nelem; ++e) {
    int r = s->degree[e];
    if (r > DG_MAX_DEGREE)
      return dg_error(DG_ERR_ARG, "%s: cannot %s: element %" PRId64 " %s has degree %d > %d", label,
                      what, e, dg_io_elem_label(lab, sizeof lab, s->dim, s->cells, e), r,
                      DG_MAX_DEGREE);
    int64_t want = dg_io_elem_len(s->dim, s->nvar, r), span;
    /* Checked: the offsets may hold anything (INT64_MIN included). */
    if (__builtin_sub_overflow(s->coeff_offset[e + 1], s->coeff_offset[e], &span))
      return dg_error(DG_ERR_ARG,
                      "%s: cannot %s: coeff_offset of element %" PRId64 " %s is %" PRId64
                      "..%" PRId64 " (the span overflows), degree %d with nvar %d needs %" PRId64,
                      label, what, e, dg_io_elem_label(lab, sizeof lab, s->dim, s->cells, e),
                      s->coeff_offset[e], s->coeff_offset[e + 1], r, s->nvar, want);
    if (span != want)
      return dg_error(DG_ERR_ARG,
                      "%s: cannot %s: coeff_offset of element %" PRId64 " %s spans %" PRId64
                      " values, degree %d with nvar %d needs %" PRId64,
                      label, what, e, dg_io_elem_label(lab, sizeof lab, s->dim, s->cells, e), span,
                      r, s->nvar, want);
  }
  return 0;
}

void dg_snapshot_free(dg_snapshot *s) {
  if (!s) return;
  free(s->degree);
  free(s->coeff_offset);
  free(s->coeff);
  free(s->gauss_values);
  free(s->view_values);
  free(s->view_error);
  for (int i = 0; i < s->nparams; ++i) {
    if (s->param_keys) free(s->param_keys[i]);
    if (s->param_values) free(s->param_values[i]);
  }
  free(s->param_keys);
  free(s->param_values);
  free(s->history);
  free(s->config);
  free(s->mass0);
  free(s->mass_scale);
  memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------------------ */
/* Readers' entry points                                                    */
/* ------------------------------------------------------------------------ */

int dg_io_refuse_unsealed(const char *label, int kind) {
  if (kind == DG_IO_KIND_HDF5)
    return dg_error(DG_ERR_IO,
                    "%s: HDF5 file without a dgrid checksum block (written before checksums, or "
                    "by another program); not parsed unverified",
                    label);
  return dg_error(DG_ERR_IO,
                  "%s: not a dgrid HDF5 snapshot (neither a dgrid checksum block nor an HDF5 "
                  "signature at byte 0)",
                  label);
}

int64_t dg_io_block_runs(const dg_snapshot *s, const int *lo, const int *hi, int by_offset,
                         hsize_t *start, hsize_t *count) {
  const int64_t n1 = s->cells[0], n2 = s->cells[1];
  const int k0 = s->dim == 3 ? lo[2] : 0, k1 = s->dim == 3 ? hi[2] : 1;
  int64_t n = 0;
  for (int k = k0; k < k1; ++k)
    for (int j = lo[1]; j < hi[1]; ++j) {
      /* the row's elements lo[0] .. hi[0]) (e1 may be the next row's first) */
      const int64_t e0 = lo[0] + n1 * (j + n2 * k), e1 = hi[0] + n1 * (j + n2 * k);
      const hsize_t a = by_offset ? (hsize_t)s->coeff_offset[e0] : (hsize_t)e0;
      const hsize_t b = by_offset ? (hsize_t)s->coeff_offset[e1] : (hsize_t)e1;
      if (n > 0 && start[n - 1] + count[n - 1] == a) {
        count[n - 1] += b - a;
      } else {
        start[n] = a;
        count[n++] = b - a;
      }
    }
  return n;
}

enum { WANT_HDF5, WANT_TEXT, WANT_ANY, WANT_ANY_UNVERIFIED };

static int read_file(const char *path, dg_snapshot *s, int want, const char *fn) {
  if (!path || !s) return dg_error(DG_ERR_ARG, "%s: NULL path or snapshot", fn);
  memset(s, 0, sizeof *s);
  char *label = dg_escape_dup(path);
  if (!label) return dg_error(DG_ERR_MEM, "%s: out of memory", fn);
  char *buf = NULL;
  size_t len = 0;
  int rc = dg_io_load(path, label, &buf, &len);
  if (rc == 0) {
    const unsigned char *u = (const unsigned char *)buf;
    int kind = dg_io_kind(u, len);
    if (want == WANT_TEXT || (want != WANT_HDF5 && kind == DG_IO_KIND_TEXT)) {
      rc = dg_io_text_parse(label, buf, len, s);
    } else if (kind == DG_IO_KIND_SEALED) {
      rc = dg_io_verify(label, u, len);
      if (rc == 0) rc = dg_io_h5_read_image(label, u, len, s);
    } else if (kind == DG_IO_KIND_HDF5 && want == WANT_ANY_UNVERIFIED) {
      rc = dg_io_h5_read_image(label, u, len, s);
    } else {
      rc = dg_io_refuse_unsealed(label, kind);
    }
  }
  free(buf);
  free(label);
  if (rc != 0) dg_snapshot_free(s);
  return rc;
}

int dg_snapshot_read(const char *path, dg_snapshot *s) {
  DG_ARG_NONNULL("dg_snapshot_read", path);
  DG_ARG_NONNULL("dg_snapshot_read", s);
  return read_file(path, s, WANT_HDF5, "dg_snapshot_read");
}

int dg_snapshot_read_unverified(const char *path, dg_snapshot *s) {
  DG_ARG_NONNULL("dg_snapshot_read_unverified", path);
  DG_ARG_NONNULL("dg_snapshot_read_unverified", s);
  return read_file(path, s, WANT_ANY_UNVERIFIED, "dg_snapshot_read_unverified");
}

int dg_snapshot_read_text(const char *path, dg_snapshot *s) {
  DG_ARG_NONNULL("dg_snapshot_read_text", path);
  DG_ARG_NONNULL("dg_snapshot_read_text", s);
  return read_file(path, s, WANT_TEXT, "dg_snapshot_read_text");
}

int dg_snapshot_read_any(const char *path, dg_snapshot *s) {
  DG_ARG_NONNULL("dg_snapshot_read_any", path);
  DG_ARG_NONNULL("dg_snapshot_read_any", s);
  return read_file(path, s, WANT_ANY, "dg_snapshot_read_any");
}
