/* dg_io_text.c - the plain-text modal format shared with the Fortran
 * baseline (docs/FILE_FORMAT.md, "Text modal format"): parser and writer.
 *
 * The parser works on bytes dg_io.c loaded (a bounded read of a regular
 * file); every error names the file and the line.  Memory follows what the
 * file holds: the element count is checked against the bytes left before
 * per-element arrays are allocated, and coefficient storage grows as values
 * arrive. */
#include "dg_io.h"

#include "dg_arg.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *path; /* label (escaped) for messages */
  const char *buf;
  size_t len, pos;
  long line;
} txt;

typedef struct {
  const char *p;
  size_t n; /* 0: end of file */
  long line;
} tok;

/* Next whitespace-separated token; '#' starts a comment to end of line. */
static void tok_next(txt *t, tok *k) {
  for (;;) {
    while (t->pos < t->len && isspace((unsigned char)t->buf[t->pos])) {
      if (t->buf[t->pos] == '\n') t->line++;
      t->pos++;
    }
    if (t->pos < t->len && t->buf[t->pos] == '#') {
      while (t->pos < t->len && t->buf[t->pos] != '\n') t->pos++;
      continue;
    }
    break;
  }
  k->line = t->line;
  k->p = t->buf + t->pos;
  k->n = 0;
  while (t->pos < t->len && !isspace((unsigned char)t->buf[t->pos])) {
    t->pos++;
    k->n++;
  }
  /* End of file is reported on the last line, not the one after it. */
  if (k->n == 0 && t->len > 0 && t->buf[t->len - 1] == '\n') k->line = t->line - 1;
}

static void tok_peek(const txt *t, tok *k) {
  txt copy = *t;
  tok_next(&copy, k);
}

static int tok_is(const tok *k, const char *word) {
  return k->n == strlen(word) && memcmp(k->p, word, k->n) == 0;
}

/* A printable, bounded copy of a token for messages. */
static const char *tok_show(const tok *k, char *buf, size_t len) {
  return dg_escape_n(buf, len, k->p, k->n);
}

/* Full-consumption conversions; 0 on success. */
static int tok_long(const tok *k, long long *out) {
  char b[32];
  if (k->n == 0 || k->n >= sizeof b) return -1;
  memcpy(b, k->p, k->n);
  b[k->n] = '\0';
  char *end;
  errno = 0;
  long long v = strtoll(b, &end, 10);
  if (errno != 0 || *end != '\0' || end == b) return -1;
  *out = v;
  return 0;
}

/* Accepts C and Fortran ("1.0D+00") exponents; overflow is an error,
 * gradual underflow (subnormals) is not. */
static int tok_double(const tok *k, double *out) {
  char b[64];
  if (k->n == 0 || k->n >= sizeof b) return -1;
  for (size_t i = 0; i < k->n; ++i) b[i] = (k->p[i] == 'd' || k->p[i] == 'D') ? 'e' : k->p[i];
  b[k->n] = '\0';
  char *end;
  errno = 0;
  double v = strtod(b, &end);
  if (*end != '\0' || end == b) return -1;
  if (errno == ERANGE && isinf(v)) return -1;
  *out = v;
  return 0;
}

/* Expect header keyword `key` as the first token of a line. */
static int hdr_key(txt *t, const char *key, tok *k) {
  char sh[48];
  tok_next(t, k);
  if (k->n == 0)
    return dg_error(DG_ERR_IO, "%s:%ld: expected '%s', found end of file", t->path, k->line, key);
  if (!tok_is(k, key))
    return dg_error(DG_ERR_IO, "%s:%ld: expected '%s', found '%s'", t->path, k->line, key,
                    tok_show(k, sh, sizeof sh));
  return 0;
}

/* Value `idx` (0-based) of `count` following header keyword `key`, on its line. */
static int hdr_val(txt *t, const tok *key, int idx, int count, tok *v) {
  tok peek;
  tok_peek(t, &peek);
  if (peek.n == 0 || peek.line != key->line)
    return dg_error(DG_ERR_IO, "%s:%ld: '%.*s' needs %d value%s, found %d", t->path, key->line,
                    (int)key->n, key->p, count, count == 1 ? "" : "s", idx);
  tok_next(t, v);
  return 0;
}

/* Nothing else may follow a header line's values. */
static int hdr_end(txt *t, const tok *key) {
  tok peek;
  char sh[48];
  tok_peek(t, &peek);
  if (peek.n != 0 && peek.line == key->line)
    return dg_error(DG_ERR_IO, "%s:%ld: unexpected '%s' after the values of '%.*s'", t->path,
                    key->line, tok_show(&peek, sh, sizeof sh), (int)key->n, key->p);
  return 0;
}

static int val_long(txt *t, const tok *key, const tok *v, long long lo, long long hi,
                    long long *out) {
  char sh[48];
  if (tok_long(v, out) != 0)
    return dg_error(DG_ERR_IO, "%s:%ld: '%.*s' value '%s' is not an integer", t->path, v->line,
                    (int)key->n, key->p, tok_show(v, sh, sizeof sh));
  if (*out < lo || *out > hi)
    return dg_error(DG_ERR_IO, "%s:%ld: '%.*s' value %lld is out of range [%lld, %lld]", t->path,
                    v->line, (int)key->n, key->p, *out, lo, hi);
  return 0;
}

static int val_double(txt *t, const tok *key, const tok *v, double *out) {
  char sh[48];
  if (tok_double(v, out) != 0)
    return dg_error(DG_ERR_IO, "%s:%ld: '%.*s' value '%s' is not a number", t->path, v->line,
                    (int)key->n, key->p, tok_show(v, sh, sizeof sh));
  return 0;
}

/* A header line "key N" with one integer. */
static int hdr_long(txt *t, const char *key, long long lo, long long hi, long long *out) {
  tok k, v;
  DG_CALL(hdr_key(t, key, &k));
  DG_CALL(hdr_val(t, &k, 0, 1, &v));
  DG_CALL(val_long(t, &k, &v, lo, hi, out));
  return hdr_end(t, &k);
}

static int text_header(txt *t, dg_snapshot *s, long long *nrec) {
  tok k, v;
  long long x;
  DG_CALL(hdr_long(t, DG_IO_TEXT_MAGIC, 0, INT32_MAX, &x));
  if (x != DG_IO_TEXT_VERSION)
    return dg_error(DG_ERR_IO, "%s:%ld: unsupported %s version %lld (this reader knows %d)",
                    t->path, t->line, DG_IO_TEXT_MAGIC, x, DG_IO_TEXT_VERSION);
  DG_CALL(hdr_long(t, "dim", 2, 3, &x));
  s->dim = (int)x;
  s->cells[0] = s->cells[1] = s->cells[2] = 1;
  s->nelem = 1;
  DG_CALL(hdr_key(t, "cells", &k));
  for (int d = 0; d < s->dim; ++d) {
    DG_CALL(hdr_val(t, &k, d, s->dim, &v));
    DG_CALL(val_long(t, &k, &v, 1, DG_IO_MAX_CELLS_PER_DIM, &x));
    s->cells[d] = (int)x;
    s->nelem *= x;
  }
  DG_CALL(hdr_end(t, &k));
  if (s->nelem > DG_IO_MAX_NELEM)
    return dg_error(DG_ERR_IO, "%s:%ld: 'cells' give %" PRId64 " elements, too many", t->path,
                    k.line, s->nelem);
  DG_CALL(hdr_key(t, "box", &k));
  for (int d = 0; d < s->dim; ++d) {
    DG_CALL(hdr_val(t, &k, 2 * d, 2 * s->dim, &v));
    DG_CALL(val_double(t, &k, &v, &s->lo[d]));
    DG_CALL(hdr_val(t, &k, 2 * d + 1, 2 * s->dim, &v));
    DG_CALL(val_double(t, &k, &v, &s->hi[d]));
    if (!isfinite(s->lo[d]) || !isfinite(s->hi[d]) || !(s->lo[d] < s->hi[d]))
      return dg_error(DG_ERR_IO, "%s:%ld: 'box' side %d is [%.17g, %.17g], need lo < hi", t->path,
                      k.line, d, s->lo[d], s->hi[d]);
  }
  DG_CALL(hdr_end(t, &k));
  DG_CALL(hdr_long(t, "nvar", 1, 1000000, &x));
  s->nvar = (int)x;
  DG_CALL(hdr_long(t, "q", 1, 1000, &x));
  s->q = (int)x;
  DG_CALL(hdr_key(t, "time", &k));
  DG_CALL(hdr_val(t, &k, 0, 1, &v));
  DG_CALL(val_double(t, &k, &v, &s->time));
  DG_CALL(hdr_end(t, &k));
  DG_CALL(hdr_long(t, "step", INT64_MIN, INT64_MAX, &x));
  s->step = x;
  DG_CALL(hdr_key(t, "model", &k));
  DG_CALL(hdr_val(t, &k, 0, 1, &v));
  if (v.n >= sizeof s->model)
    return dg_error(DG_ERR_IO, "%s:%ld: 'model' name is %zu characters, at most %zu", t->path,
                    v.line, v.n, sizeof s->model - 1);
  memcpy(s->model, v.p, v.n);
  s->model[v.n] = '\0';
  DG_CALL(hdr_end(t, &k));
  DG_CALL(hdr_key(t, "elements", &k));
  DG_CALL(hdr_val(t, &k, 0, 1, &v));
  DG_CALL(val_long(t, &k, &v, 0, INT64_MAX, nrec));
  DG_CALL(hdr_end(t, &k));
  if (*nrec != s->nelem)
    return dg_error(DG_ERR_IO, "%s:%ld: 'elements' is %lld but the cells give %" PRId64, t->path,
                    k.line, *nrec, s->nelem);
  /* Each record is at least dim+2+nvar tokens, each with a separator: the
   * rest of the file bounds the element count before anything is
   * allocated for it. */
  int64_t per = 2 * ((int64_t)s->dim + 2 + s->nvar), need;
  uint64_t left = t->len - t->pos;
  if (dg_io_mul64(s->nelem, per, &need) != 0 || (uint64_t)need > left)
    return dg_error(DG_ERR_IO,
                    "%s:%ld: %" PRId64 " element records need at least %" PRId64 " bytes (%" PRId64
                    " each), the rest of the file has %llu",
                    t->path, k.line, s->nelem, need < 0 ? INT64_MAX : need, per,
                    (unsigned long long)left);
  return 0;
}

/* Element records in any order; values gathered in file order into `vals`
 * then placed by element. */
static int text_elements(txt *t, dg_snapshot *s, long long nrec) {
  char sh[48], lab[64];
  int rc = 0;
  size_t cap = 1024, used = 0;
  double *vals = malloc(cap * sizeof *vals);
  int64_t *where = malloc((size_t)s->nelem * sizeof *where); /* start in vals */
  long *seen = calloc((size_t)s->nelem, sizeof *seen);       /* line of record, 0 = none */
  s->degree = calloc((size_t)s->nelem, 1);
  s->coeff_offset = malloc(((size_t)s->nelem + 1) * sizeof *s->coeff_offset);
  if (!vals || !where || !seen || !s->degree || !s->coeff_offset) {
    rc = dg_error(DG_ERR_MEM, "%s: out of memory for %" PRId64 " elements", t->path, s->nelem);
    goto done;
  }
  for (long long rec = 0; rec < nrec; ++rec) {
    tok k, v;
    long long idx[3] = {0, 0, 0}, r;
    tok_next(t, &k);
    if (k.n == 0) {
      rc = dg_error(DG_ERR_IO,
                    "%s:%ld: expected %lld element records, found %lld before end of file", t->path,
                    k.line, nrec, rec);
      goto done;
    }
    if (!tok_is(&k, "e")) {
      double dummy;
      rc = dg_error(DG_ERR_IO, "%s:%ld: expected 'e' (element record %lld of %lld), found '%s'%s",
                    t->path, k.line, rec + 1, nrec, tok_show(&k, sh, sizeof sh),
                    tok_double(&k, &dummy) == 0 ? " (too many values in the previous element?)"
                                                : "");
      goto done;
    }
    static const char *const names[3] = {"i", "j", "k"};
    for (int d = 0; d < s->dim; ++d) {
      if ((rc = hdr_val(t, &k, d, s->dim + 1, &v)) != 0) goto done;
      if (tok_long(&v, &idx[d]) != 0) {
        rc = dg_error(DG_ERR_IO, "%s:%ld: element index %s '%s' is not an integer", t->path, v.line,
                      names[d], tok_show(&v, sh, sizeof sh));
        goto done;
      }
      if (idx[d] < 0 || idx[d] >= s->cells[d]) {
        rc = dg_error(DG_ERR_IO, "%s:%ld: element index %s=%lld is out of range [0, %d]", t->path,
                      v.line, names[d], idx[d], s->cells[d] - 1);
        goto done;
      }
    }
    int64_t e = idx[0] + s->cells[0] * (idx[1] + (int64_t)s->cells[1] * idx[2]);
    dg_io_elem_label(lab, sizeof lab, s->dim, s->cells, e);
    if ((rc = hdr_val(t, &k, s->dim, s->dim + 1, &v)) != 0) goto done;
    if (tok_long(&v, &r) != 0) {
      rc = dg_error(DG_ERR_IO, "%s:%ld: degree '%s' of element %s is not an integer", t->path,
                    v.line, tok_show(&v, sh, sizeof sh), lab);
      goto done;
    }
    if (r < 0 || r > DG_MAX_DEGREE) {
      rc = dg_error(DG_ERR_IO, "%s:%ld: element %s has degree %lld, must be in [0, %d]", t->path,
                    v.line, lab, r, DG_MAX_DEGREE);
      goto done;
    }
    if ((rc = hdr_end(t, &k)) != 0) goto done;
    if (seen[e]) {
      rc = dg_error(DG_ERR_IO, "%s:%ld: element %s appears twice (first at line %ld)", t->path,
                    k.line, lab, seen[e]);
      goto done;
    }
    seen[e] = k.line;
    s->degree[e] = (uint8_t)r;
    int64_t want = dg_io_elem_len(s->dim, s->nvar, (int)r);
    where[e] = (int64_t)used;
    for (int64_t got = 0; got < want; ++got) {
      tok_next(t, &v);
      if (v.n == 0 || tok_is(&v, "e")) {
        rc = dg_error(DG_ERR_IO,
                      "%s:%ld: expected %" PRId64
                      " coefficient value%s for element %s, found %" PRId64 " before %s",
                      t->path, k.line, want, want == 1 ? "" : "s", lab, got,
                      v.n == 0 ? "end of file" : "the next element record");
        goto done;
      }
      if (used == cap) {
        /* Grown as values arrive: memory follows the file, not its claims. */
        double *nv = realloc(vals, 2 * cap * sizeof *nv);
        if (!nv) {
          rc = dg_error(DG_ERR_MEM, "%s: out of memory for coefficients (%zu values)", t->path,
                        2 * cap);
          goto done;
        }
        vals = nv;
        cap *= 2;
      }
      if (tok_double(&v, &vals[used]) != 0) {
        rc = dg_error(DG_ERR_IO, "%s:%ld: non-numeric coefficient value '%s' for element %s",
                      t->path, v.line, tok_show(&v, sh, sizeof sh), lab);
        goto done;
      }
      used++;
    }
  }
  {
    tok k;
    tok_next(t, &k);
    if (k.n != 0) {
      rc = dg_error(DG_ERR_IO, "%s:%ld: unexpected '%s' after the last element record", t->path,
                    k.line, tok_show(&k, sh, sizeof sh));
      goto done;
    }
  }
  /* nrec == nelem records without duplicates: every element was seen. */
  s->coeff_offset[0] = 0;
  for (int64_t e = 0; e < s->nelem; ++e)
    s->coeff_offset[e + 1] = s->coeff_offset[e] + dg_io_elem_len(s->dim, s->nvar, s->degree[e]);
  s->coeff = malloc((size_t)(s->coeff_offset[s->nelem] ? s->coeff_offset[s->nelem] : 1) *
                    sizeof *s->coeff);
  if (!s->coeff) {
    rc = dg_error(DG_ERR_MEM, "%s: out of memory for coefficients", t->path);
    goto done;
  }
  for (int64_t e = 0; e < s->nelem; ++e)
    memcpy(s->coeff + s->coeff_offset[e], vals + where[e],
           (size_t)(s->coeff_offset[e + 1] - s->coeff_offset[e]) * sizeof *vals);
done:
  free(vals);
  free(where);
  free(seen);
  return rc;
}

int dg_io_text_parse(const char *label, const char *buf, size_t len, dg_snapshot *s) {
  memset(s, 0, sizeof *s);
  /* A NUL byte would silently end a token: refuse it, naming its line. */
  const char *nul = memchr(buf, '\0', len);
  if (nul) {
    long line = 1;
    for (const char *c = buf; c < nul; ++c) line += *c == '\n';
    return dg_error(DG_ERR_IO, "%s:%ld: NUL byte at offset %zu (not a text file?)", label, line,
                    (size_t)(nul - buf));
  }
  txt t = {label, buf, len, 0, 1};
  long long nrec = 0;
  int rc = text_header(&t, s, &nrec);
  if (rc == 0) rc = text_elements(&t, s, nrec);
  if (rc != 0) dg_snapshot_free(s);
  return rc;
}

int dg_snapshot_write_text(const char *path, const dg_snapshot *s) {
  DG_ARG_NONNULL("dg_snapshot_write_text", path);
  DG_ARG_NONNULL("dg_snapshot_write_text", s);
  if (!path || !s) return dg_error(DG_ERR_ARG, "dg_snapshot_write_text: NULL path or snapshot");
  const char *what = "write text snapshot";
  char *label = dg_escape_dup(path);
  if (!label) return dg_error(DG_ERR_MEM, "dg_snapshot_write_text: out of memory");
  int rc = dg_io_check_grid(label, s, what);
  if (rc == 0) rc = dg_io_check_coeff(label, s, what);
  if (rc == 0 && s->q < 1) rc = dg_error(DG_ERR_ARG, "%s: cannot %s: q is %d", label, what, s->q);
  size_t mlen = strnlen(s->model, sizeof s->model);
  if (rc == 0 && (mlen == 0 || mlen == sizeof s->model))
    rc = dg_error(DG_ERR_ARG, "%s: cannot %s: model name is empty or not NUL-terminated", label,
                  what);
  for (size_t i = 0; rc == 0 && i < mlen; ++i)
    if (isspace((unsigned char)s->model[i]) || s->model[i] == '#') {
      char m[160];
      rc = dg_error(DG_ERR_ARG, "%s: cannot %s: model name '%s' contains a blank or '#'", label,
                    what, dg_escape(m, sizeof m, s->model));
    }
  dg_io_out o;
  if (rc == 0) rc = dg_io_out_open(&o, path, label);
  if (rc != 0) {
    free(label);
    return rc;
  }
  int dim = s->dim;
  dg_io_out_printf(&o, "%s %d\n", DG_IO_TEXT_MAGIC, DG_IO_TEXT_VERSION);
  dg_io_out_printf(&o, "dim %d\n", dim);
  dg_io_out_printf(&o, "cells");
  for (int d = 0; d < dim; ++d) dg_io_out_printf(&o, " %d", s->cells[d]);
  dg_io_out_printf(&o, "\nbox");
  for (int d = 0; d < dim; ++d) dg_io_out_printf(&o, " %.17g %.17g", s->lo[d], s->hi[d]);
  dg_io_out_printf(
      &o, "\nnvar %d\nq %d\ntime %.17g\nstep %" PRId64 "\nmodel %s\nelements %" PRId64 "\n",
      s->nvar, s->q, s->time, s->step, s->model, s->nelem);
  for (int64_t e = 0; e < s->nelem && o.err == 0; ++e) {
    int64_t i = e % s->cells[0], j = (e / s->cells[0]) % s->cells[1];
    int64_t k = e / ((int64_t)s->cells[0] * s->cells[1]);
    int n = s->degree[e] + 1;
    if (dim == 3)
      dg_io_out_printf(&o, "e %" PRId64 " %" PRId64 " %" PRId64 " %d\n", i, j, k, n - 1);
    else
      dg_io_out_printf(&o, "e %" PRId64 " %" PRId64 " %d\n", i, j, n - 1);
    /* One line per x-row of modes: n values. */
    const double *c = s->coeff + s->coeff_offset[e];
    int64_t len = s->coeff_offset[e + 1] - s->coeff_offset[e];
    for (int64_t m = 0; m < len; ++m)
      dg_io_out_printf(&o, "%.17g%c", c[m], (m + 1) % n == 0 ? '\n' : ' ');
  }
  rc = dg_io_out_commit(&o, "text");
  free(label);
  return rc;
}
