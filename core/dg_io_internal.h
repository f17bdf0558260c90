/* dg_io_internal.h - private to the dg_io_*.c files (not installed, not for
 * apps): shared helpers of the snapshot readers and writers.
 *
 * Every message names the file by its escaped "label" (dg_escape.h), never
 * by the raw path, so a message is always one printable line.  */
#ifndef DG_IO_INTERNAL_H
#define DG_IO_INTERNAL_H

#include "dg_io.h"

#include <hdf5.h>

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifndef DG_MAX_DEGREE
#define DG_MAX_DEGREE 10
#endif

#define DG_IO_FORMAT_NAME    "dgrid-snapshot"
#define DG_IO_FORMAT_VERSION 1
#define DG_IO_TEXT_MAGIC     "dgrid-text"
#define DG_IO_TEXT_VERSION   1

/* Guards against absurd sizes from corrupt files before we allocate. */
#define DG_IO_MAX_CELLS_PER_DIM 1073741824LL    /* 2^30 */
#define DG_IO_MAX_NELEM         1099511627776LL /* 2^40 */

/* The HDF5 user block that carries the checksum (docs/FILE_FORMAT.md). */
#define DG_IO_USERBLOCK 512

/* ---- dg_io.c: small helpers and the snapshot invariants ---- */

/* a*b for non-negative operands into *out; -1 on overflow or a negative. */
int dg_io_mul64(int64_t a, int64_t b, int64_t *out);
/* nvar*(r+1)^dim: the values one element owns (small: r <= DG_MAX_DEGREE). */
int64_t dg_io_elem_len(int dim, int nvar, int r);
/* b^e for small e. */
int64_t dg_io_ipow64(int64_t b, int e);
/* "(i,j)" or "(i,j,k)" for element e into buf; returns buf. */
const char *dg_io_elem_label(char *buf, size_t len, int dim, const int cells[3], int64_t e);
/* "[a][b][c]" for messages about shapes; returns buf. */
const char *dg_io_dims_label(char *buf, size_t len, int rank, const hsize_t *dims);
/* malloc'd copy of s, or NULL. */
char *dg_io_strdup(const char *s);
/* Element grid sizes slowest first (HDF5/C order), times `scale`. */
void dg_io_grid_dims(const dg_snapshot *s, int64_t scale, hsize_t *dims);
/* Is the testing hook DGRID_IO_FAIL set to `what`? */
int dg_io_fail_injected(const char *what);
/* Writers' checks of a dg_snapshot; `label` names the target in messages. */
int dg_io_check_grid(const char *label, const dg_snapshot *s, const char *what);
int dg_io_check_coeff(const char *label, const dg_snapshot *s, const char *what);

/* The refusal of a file that has no checksum block (kind DG_IO_KIND_HDF5 or
 * _TEXT where a sealed snapshot is wanted): DG_ERR_IO with its message. */
int dg_io_refuse_unsealed(const char *label, int kind);
/* The block [lo, hi) of elements as runs of consecutive elements, one per
 * line of it along x, runs that touch merged: start[i], count[i] in
 * elements, or with by_offset in values of /coeff (s->coeff_offset).  Room
 * for one run per line (the block's extent in y times z); returns the
 * number of runs, in increasing order. */
int64_t dg_io_block_runs(const dg_snapshot *s, const int *lo, const int *hi, int by_offset,
                         hsize_t *start, hsize_t *count);

/* ---- dg_io_file.c: bounded input, atomic output ---- */

/* Read the whole regular file `path` into a new buffer (NUL-terminated,
 * *len bytes without the NUL).  FIFOs, devices, folders and sockets are
 * refused without reading; exactly the size fstat reports is read. */
int dg_io_load(const char *path, const char *label, char **buf, size_t *len);

/* An atomic writer: bytes go to the temporary ".<name>.tmp.<pid>" next to
 * the target, which replaces the target only in dg_io_out_commit. */
typedef struct {
  const char *path;  /* the target */
  const char *label; /* the target, escaped, for messages */
  char *tmp;         /* temporary path */
  char *tmp_label;   /* temporary, escaped */
  int fd;
  int err;          /* errno of the first failed write (0: none) */
  char *buf;        /* pending formatted output */
  size_t used, cap; /* bytes in buf, its size */
  struct sigaction old_xfsz;
  int xfsz_saved;
} dg_io_out;

/* Refuse a target that exists and is not a regular file, remove stale
 * temporaries of dead processes next to it, create the temporary and
 * ignore SIGXFSZ until commit/abort (so a file size limit is an EFBIG
 * error, not a silent death). */
int dg_io_out_open(dg_io_out *o, const char *path, const char *label);
/* Append bytes; a failure is remembered and reported by commit. */
void dg_io_out_write(dg_io_out *o, const void *p, size_t n);
/* Append printf-formatted text (buffered). */
void dg_io_out_printf(dg_io_out *o, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Flush, fsync, close and rename the temporary over the target (checking
 * again that the target is not something else than a regular file).
 * `hook` is the DGRID_IO_FAIL name of this writer.  On failure the
 * temporary is removed.  Always releases `o`. */
int dg_io_out_commit(dg_io_out *o, const char *hook);
/* Remove the temporary and release `o` (after an error elsewhere). */
void dg_io_out_abort(dg_io_out *o);

/* ---- dg_io_seal.c: the checksum block ---- */

/* CRC-64/XZ (ECMA-182 polynomial, reflected, init and xorout all ones). */
uint64_t dg_io_crc64(const void *p, size_t n);
/* The CRC-64/XZ of the bytes whose CRC so far is crc (0 for none) followed
 * by p[0..n): a file's checksum read in pieces. */
uint64_t dg_io_crc64_more(uint64_t crc, const void *p, size_t n);
/* The DG_IO_USERBLOCK bytes of the checksum block of n data bytes of CRC crc. */
void dg_io_seal_block(unsigned char *block, uint64_t crc, size_t n);
/* Fill the DG_IO_USERBLOCK bytes at the start of `image` (len bytes in all,
 * len > DG_IO_USERBLOCK) with the checksum block of the rest. */
void dg_io_seal(unsigned char *image, size_t len);
/* Kinds of file by their first bytes. */
enum { DG_IO_KIND_TEXT = 0, DG_IO_KIND_SEALED = 1, DG_IO_KIND_HDF5 = 2 };
int dg_io_kind(const unsigned char *buf, size_t len);
/* Check the checksum block of a sealed file (the whole file in buf). */
int dg_io_verify(const char *label, const unsigned char *buf, size_t len);
/* The same for the regular file at path, read in pieces (never whole in
 * memory). */
int dg_io_verify_file(const char *label, const char *path);

/* ---- dg_io_h5.c: HDF5 plumbing shared by reader and writer ---- */

typedef struct {
  H5E_auto2_t func;
  void *data;
} dg_io_h5_quiet;

/* Silence HDF5's own printing for one dg_ call, and give it back. */
int dg_io_h5_quiet_begin(dg_io_h5_quiet *q, const char *label);
int dg_io_h5_quiet_end(dg_io_h5_quiet *q, int rc, const char *label);
/* " (HDF5: <innermost reason, escaped>)" of the error just raised, or "". */
const char *dg_io_h5_why(void);
/* Close *id if open; a failed close turns a successful rc into an error. */
int dg_io_h5_close(hid_t *id, herr_t (*fn)(hid_t), int rc, const char *label, const char *what);

/* The writers' checks of a snapshot (every field but the data's values). */
int dg_io_h5_check(const char *label, const dg_snapshot *s);
/* The writer's state: the open file and which part of the data this rank
 * writes (one process: all of it). */
typedef struct {
  const char *path; /* the target's name, used in messages */
  hid_t file;
  hid_t dxpl;    /* transfer list: H5P_DEFAULT, or collective across ranks */
  int writer;    /* this rank writes the datasets every rank holds whole */
  const int *lo; /* the block of elements whose data this rank holds, */
  const int *hi; /* [lo, hi) per direction: the whole grid in one process */
} dg_io_h5w;
/* Every attribute, group and dataset of snapshot s into the open file:
 * the attributes by every rank alike, the per-element datasets by each
 * rank for its block (s->coeff, gauss_values and the view arrays hold the
 * block's, in element order or the block's C order), the others by the
 * writer (docs/FILE_FORMAT.md; collective across ranks). */
int dg_io_h5_write_body(const dg_io_h5w *w, const dg_snapshot *s);

/* ---- dg_io_h5read.c ---- */

/* Read a snapshot from the whole file image `buf` (a sealed file whose
 * checksum was verified, or with `unverified`, a plain HDF5 file). */
int dg_io_h5_read_image(const char *label, const unsigned char *buf, size_t len, dg_snapshot *s);

/* Read the snapshot at path (a regular file, its checksum verified
 * beforehand: dg_io_verify_file) from disk without the per-element data
 * (gauss_values and the view stay NULL); with lo and hi, s->coeff holds
 * the coefficients of the elements of the block [lo, hi) in element
 * order, read as its hyperslabs of /coeff; without, NULL. */
int dg_io_h5_read_part(const char *label, const char *path, dg_snapshot *s, const int *lo,
                       const int *hi);

/* ---- dg_io_text.c ---- */

/* Parse the text format from buf[0..len) (buf[len] == '\0'). */
int dg_io_text_parse(const char *label, const char *buf, size_t len, dg_snapshot *s);

#endif
