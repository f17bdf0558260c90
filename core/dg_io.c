/* dg_io.c - snapshots on disk: HDF5 layout, XDMF sidecar, text modal format.
 *
 * The layouts are specified in docs/FILE_FORMAT.md; keep the two in step.
 * Every HDF5 call is checked.  HDF5's own error printing is switched off while
 * a dg_ function runs (and the caller's handler restored afterwards); instead
 * one message names the file and the dataset/attribute, with the innermost
 * HDF5 reason appended.  Writers go through a temporary file that is renamed
 * over the target only after a complete, closed write. */
#include "dg_io.h"

#include "dg_error.h"

#include <hdf5.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DG_MAX_DEGREE
#define DG_MAX_DEGREE 10
#endif

#define FORMAT_NAME    "dgrid-snapshot"
#define FORMAT_VERSION 1
#define TEXT_MAGIC     "dgrid-text"
#define TEXT_VERSION   1

/* Guards against absurd sizes from corrupt files before we allocate. */
#define MAX_CELLS_PER_DIM 1073741824LL    /* 2^30 */
#define MAX_NELEM         1099511627776LL /* 2^40 */

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */

/* a*b for non-negative operands; -1 on overflow (sizes come from files). */
static int mul64(int64_t a, int64_t b, int64_t *out) {
  if (a < 0 || b < 0) return -1;
  if (a != 0 && b > INT64_MAX / a) return -1;
  *out = a * b;
  return 0;
}

/* (r+1)^dim * nvar: the values one element owns.  Small: r <= DG_MAX_DEGREE. */
static int64_t elem_len(int dim, int nvar, int r) {
  int64_t n = nvar;
  for (int d = 0; d < dim; ++d) n *= (int64_t)(r + 1);
  return n;
}

static int64_t ipow64(int64_t b, int e) {
  int64_t p = 1;
  for (int i = 0; i < e; ++i) p *= b;
  return p;
}

/* "(i,j)" or "(i,j,k)" for element e. */
static const char *elem_label(char *buf, size_t len, int dim, const int cells[3], int64_t e) {
  int64_t i = e % cells[0], j = (e / cells[0]) % cells[1];
  int64_t k = e / ((int64_t)cells[0] * cells[1]);
  if (dim == 3)
    snprintf(buf, len, "(%" PRId64 ",%" PRId64 ",%" PRId64 ")", i, j, k);
  else
    snprintf(buf, len, "(%" PRId64 ",%" PRId64 ")", i, j);
  return buf;
}

/* "[a][b][c]" for messages about shapes. */
static const char *dims_label(char *buf, size_t len, int rank, const hsize_t *dims) {
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

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* Dimension sizes of the element grid, slowest first (HDF5/C order). */
static void grid_dims(const dg_snapshot *s, int64_t scale, hsize_t *dims) {
  for (int r = 0; r < s->dim; ++r) dims[r] = (hsize_t)((int64_t)s->cells[s->dim - 1 - r] * scale);
}

/* The injected failure of a writer (testing hook, docs/FILE_FORMAT.md). */
static int fail_injected(const char *what) {
  const char *v = getenv("DGRID_IO_FAIL");
  return v && strcmp(v, what) == 0;
}

/* Temporary name ".<base>.tmp.<pid>" in the folder of `path`. */
static int tmp_name(const char *path, char **out) {
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = path + dirlen;
  *out = NULL;
  if (base[0] == '\0')
    return dg_error(DG_ERR_ARG, "%s: output path names a folder, not a file", path);
  size_t len = dirlen + strlen(base) + 64;
  char *t = malloc(len);
  if (!t) return dg_error(DG_ERR_MEM, "%s: out of memory", path);
  snprintf(t, len, "%.*s.%s.tmp.%ld", (int)dirlen, path, base, (long)getpid());
  *out = t;
  return 0;
}

/* Remove a failed temporary.  If even that fails, the write's own error
 * stays the recorded one: it is the cause. */
static void tmp_discard(const char *tmp) { (void)remove(tmp); }

/* Move the complete temporary over the target. */
static int tmp_commit(const char *tmp, const char *path) {
  if (rename(tmp, path) != 0)
    return dg_error(DG_ERR_IO, "%s: cannot rename temporary %s into place: %s", path, tmp,
                    strerror(errno));
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Snapshot validation (shared by the HDF5 and text writers)                */
/* ------------------------------------------------------------------------ */

static int check_grid(const char *path, const dg_snapshot *s, const char *what) {
  if (s->dim != 2 && s->dim != 3)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: dim is %d, must be 2 or 3", path, what, s->dim);
  if (s->nvar < 1)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: nvar is %d, must be >= 1", path, what, s->nvar);
  int64_t nelem = 1;
  for (int d = 0; d < s->dim; ++d) {
    if (s->cells[d] < 1 || s->cells[d] > MAX_CELLS_PER_DIM)
      return dg_error(DG_ERR_ARG, "%s: cannot %s: cells[%d] is %d, must be in [1, %lld]", path,
                      what, d, s->cells[d], MAX_CELLS_PER_DIM);
    if (!isfinite(s->lo[d]) || !isfinite(s->hi[d]) || !(s->lo[d] < s->hi[d]))
      return dg_error(DG_ERR_ARG, "%s: cannot %s: box side %d is [%.17g, %.17g], need lo < hi",
                      path, what, d, s->lo[d], s->hi[d]);
    nelem *= s->cells[d];
  }
  if (s->dim == 2 && s->cells[2] != 1)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: cells[2] is %d in 2D, must be 1", path, what,
                    s->cells[2]);
  if (nelem > MAX_NELEM)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: %lld elements is too many", path, what,
                    (long long)nelem);
  if (s->nelem != nelem)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: nelem is %" PRId64 ", cells give %" PRId64, path,
                    what, s->nelem, nelem);
  return 0;
}

/* The degree map and the offsets agree (the invariant readers check). */
static int check_coeff(const char *path, const dg_snapshot *s, const char *what) {
  char lab[64];
  if (!s->degree || !s->coeff_offset || !s->coeff)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: degree, coeff_offset or coeff is NULL", path, what);
  if (s->coeff_offset[0] != 0)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: coeff_offset[0] is %" PRId64 ", must be 0", path,
                    what, s->coeff_offset[0]);
  for (int64_t e = 0; e < s->nelem; ++e) {
    int r = s->degree[e];
    if (r > DG_MAX_DEGREE)
      return dg_error(DG_ERR_ARG, "%s: cannot %s: element %" PRId64 " %s has degree %d > %d", path,
                      what, e, elem_label(lab, sizeof lab, s->dim, s->cells, e), r, DG_MAX_DEGREE);
    int64_t want = elem_len(s->dim, s->nvar, r);
    if (s->coeff_offset[e + 1] - s->coeff_offset[e] != want)
      return dg_error(DG_ERR_ARG,
                      "%s: cannot %s: coeff_offset of element %" PRId64 " %s spans %" PRId64
                      " values, degree %d with nvar %d needs %" PRId64,
                      path, what, e, elem_label(lab, sizeof lab, s->dim, s->cells, e),
                      s->coeff_offset[e + 1] - s->coeff_offset[e], r, s->nvar, want);
  }
  return 0;
}

static int check_snapshot(const char *path, const dg_snapshot *s) {
  const char *what = "write snapshot";
  DG_CALL(check_grid(path, s, what));
  DG_CALL(check_coeff(path, s, what));
  if (s->q < 1)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: q is %d, must be >= 1", path, what, s->q);
  if (!memchr(s->model, '\0', sizeof s->model))
    return dg_error(DG_ERR_ARG, "%s: cannot %s: model name is not NUL-terminated", path, what);
  if (s->view_s < 0 || (s->view_s > 0 && !s->view_values))
    return dg_error(DG_ERR_ARG, "%s: cannot %s: view_s is %d with view_values %s", path, what,
                    s->view_s, s->view_values ? "set" : "NULL");
  if (s->view_s == 0 && (s->view_values || s->view_error))
    return dg_error(DG_ERR_ARG, "%s: cannot %s: view arrays given but view_s is 0", path, what);
  if (s->view_s > 64)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: view_s is %d, at most 64", path, what, s->view_s);
  if (s->nparams < 0 || (s->nparams > 0 && (!s->param_keys || !s->param_values)))
    return dg_error(DG_ERR_ARG, "%s: cannot %s: nparams is %d without key/value arrays", path, what,
                    s->nparams);
  for (int i = 0; i < s->nparams; ++i) {
    if (!s->param_keys[i] || !s->param_values[i] || s->param_keys[i][0] == '\0' ||
        strcmp(s->param_keys[i], ".") == 0)
      return dg_error(DG_ERR_ARG, "%s: cannot %s: parameter %d has an empty or NULL key/value",
                      path, what, i);
    for (int j = 0; j < i; ++j)
      if (strcmp(s->param_keys[i], s->param_keys[j]) == 0)
        return dg_error(DG_ERR_ARG, "%s: cannot %s: parameter '%s' given twice", path, what,
                        s->param_keys[i]);
  }
  if (s->nhist < 0 || (s->nhist > 0 && !s->history))
    return dg_error(DG_ERR_ARG, "%s: cannot %s: nhist is %" PRId64 " with history NULL", path, what,
                    s->nhist);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* HDF5 plumbing                                                            */
/* ------------------------------------------------------------------------ */

typedef struct {
  H5E_auto2_t func;
  void *data;
} h5_quiet;

/* Silence HDF5's printing for the duration of one dg_ call. */
static int quiet_begin(h5_quiet *q, const char *path) {
  q->func = NULL;
  q->data = NULL;
  if (H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data) < 0 ||
      H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0)
    return dg_error(DG_ERR_LIB, "%s: cannot initialise the HDF5 library (error handler)", path);
  return 0;
}

/* Give the caller's HDF5 error handler back. */
static int quiet_end(h5_quiet *q, int rc, const char *path) {
  if (H5Eset_auto2(H5E_DEFAULT, q->func, q->data) < 0 && rc == 0)
    return dg_error(DG_ERR_LIB, "%s: cannot restore the HDF5 error handler", path);
  return rc;
}

static herr_t why_walk(unsigned n, const H5E_error2_t *err, void *data) {
  char *out = data;
  if (n == 0 && err && err->desc) snprintf(out, 256, "%s", err->desc);
  return 0;
}

/* " (HDF5: <innermost reason>)" for the HDF5 error just raised, or "".
 * Must be called before the next HDF5 call clears the error stack. */
static const char *h5_why(void) {
  static _Thread_local char buf[300];
  char desc[256];
  desc[0] = '\0';
  buf[0] = '\0';
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, why_walk, desc) >= 0 && desc[0] != '\0')
    snprintf(buf, sizeof buf, " (HDF5: %s)", desc);
  return buf;
}

/* Close an id if open.  A failed close turns a so-far successful `rc` into
 * an error (a failing H5Fclose can mean data never reached the disk). */
static int h5_close(hid_t *id, herr_t (*fn)(hid_t), int rc, const char *path, const char *what) {
  if (*id < 0) return rc;
  herr_t st = fn(*id);
  *id = H5I_INVALID_HID;
  if (st < 0 && rc == 0) return dg_error(DG_ERR_LIB, "%s: cannot close %s%s", path, what, h5_why());
  return rc;
}

/* File access: refuse to close a file with objects still open (turns handle
 * leaks into errors), and tolerate file systems without locking. */
static hid_t make_fapl(const char *path, int *rc) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0) {
    *rc = dg_error(DG_ERR_LIB, "%s: cannot create file access list%s", path, h5_why());
    return H5I_INVALID_HID;
  }
  int bad = H5Pset_fclose_degree(fapl, H5F_CLOSE_SEMI) < 0;
#if (H5_VERS_MAJOR == 1 && H5_VERS_MINOR == 10 && H5_VERS_RELEASE >= 7) || H5_VERSION_GE(1, 12, 1)
  if (!bad) bad = H5Pset_file_locking(fapl, 1, 1) < 0;
#endif
  if (bad) {
    *rc = dg_error(DG_ERR_LIB, "%s: cannot set file access properties%s", path, h5_why());
    *rc = h5_close(&fapl, H5Pclose, *rc, path, "file access list");
    return H5I_INVALID_HID;
  }
  return fapl;
}

/* ---- writing ---- */

typedef struct {
  const char *path; /* the target's name, used in messages */
  hid_t file;
} h5w;

static int w_attr(const h5w *w, hid_t loc, const char *obj, const char *name, hid_t ftype,
                  hid_t mtype, const void *val) {
  int rc = 0;
  hid_t sp = H5I_INVALID_HID, at = H5I_INVALID_HID;
  if ((sp = H5Screate(H5S_SCALAR)) < 0 ||
      (at = H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
      H5Awrite(at, mtype, val) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot write attribute '%s' of %s%s", w->path, name, obj,
                  h5_why());
  rc = h5_close(&at, H5Aclose, rc, w->path, "attribute");
  rc = h5_close(&sp, H5Sclose, rc, w->path, "dataspace");
  return rc;
}

/* Fixed-length, NUL-terminated UTF-8 string attribute. */
static int w_attr_str(const h5w *w, hid_t loc, const char *obj, const char *name, const char *val) {
  int rc = 0;
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0 || H5Tset_size(t, strlen(val) + 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0 ||
      H5Tset_cset(t, H5T_CSET_UTF8) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot make string type for attribute '%s' of %s%s", w->path,
                  name, obj, h5_why());
  if (rc == 0) rc = w_attr(w, loc, obj, name, t, t, val);
  return h5_close(&t, H5Tclose, rc, w->path, "string type");
}

static int w_dset(const h5w *w, const char *name, hid_t ftype, hid_t mtype, int rank,
                  const hsize_t *dims, const void *buf) {
  int rc = 0;
  hid_t sp = H5I_INVALID_HID, ds = H5I_INVALID_HID;
  if ((sp = H5Screate_simple(rank, dims, NULL)) < 0 ||
      (ds = H5Dcreate2(w->file, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
      H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot write dataset %s%s", w->path, name, h5_why());
  rc = h5_close(&ds, H5Dclose, rc, w->path, name);
  rc = h5_close(&sp, H5Sclose, rc, w->path, "dataspace");
  return rc;
}

/* Create a group; with `ordered`, attributes keep their creation order. */
static int w_group(const h5w *w, const char *name, int ordered, hid_t *out) {
  int rc = 0;
  hid_t gcpl = H5P_DEFAULT;
  *out = H5I_INVALID_HID;
  if (ordered) {
    if ((gcpl = H5Pcreate(H5P_GROUP_CREATE)) < 0 ||
        H5Pset_attr_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0)
      rc = dg_error(DG_ERR_LIB, "%s: cannot set up group %s%s", w->path, name, h5_why());
  }
  if (rc == 0 && (*out = H5Gcreate2(w->file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT)) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot create group %s%s", w->path, name, h5_why());
  if (ordered) rc = h5_close(&gcpl, H5Pclose, rc, w->path, "group property list");
  return rc;
}

static int w_grid_and_attrs(const h5w *w, const dg_snapshot *s) {
  int version = FORMAT_VERSION;
  DG_CALL(w_attr_str(w, w->file, "/", "format", FORMAT_NAME));
  DG_CALL(w_attr(w, w->file, "/", "format_version", H5T_STD_I32LE, H5T_NATIVE_INT, &version));
  DG_CALL(w_attr(w, w->file, "/", "dim", H5T_STD_I32LE, H5T_NATIVE_INT, &s->dim));
  DG_CALL(w_attr(w, w->file, "/", "nvar", H5T_STD_I32LE, H5T_NATIVE_INT, &s->nvar));
  DG_CALL(w_attr(w, w->file, "/", "q", H5T_STD_I32LE, H5T_NATIVE_INT, &s->q));
  DG_CALL(w_attr(w, w->file, "/", "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &s->time));
  DG_CALL(w_attr(w, w->file, "/", "step", H5T_STD_I64LE, H5T_NATIVE_INT64, &s->step));
  DG_CALL(w_attr_str(w, w->file, "/", "model", s->model));

  hid_t g;
  DG_CALL(w_group(w, "/grid", 0, &g));
  int rc = h5_close(&g, H5Gclose, 0, w->path, "group /grid");
  if (rc) return rc;
  hsize_t n = (hsize_t)s->dim;
  int32_t cells[3];
  double h[3];
  for (int d = 0; d < s->dim; ++d) {
    cells[d] = s->cells[d];
    h[d] = (s->hi[d] - s->lo[d]) / s->cells[d];
  }
  DG_CALL(w_dset(w, "/grid/cells", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, &n, cells));
  DG_CALL(w_dset(w, "/grid/lo", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &n, s->lo));
  DG_CALL(w_dset(w, "/grid/hi", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &n, s->hi));
  DG_CALL(w_dset(w, "/grid/h", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &n, h));
  return 0;
}

static int w_view(const h5w *w, const dg_snapshot *s) {
  int vs = s->view_s;
  hid_t g;
  DG_CALL(w_group(w, "/view", 0, &g));
  int rc = w_attr(w, g, "/view", "samples_per_element", H5T_STD_I32LE, H5T_NATIVE_INT, &vs);
  rc = h5_close(&g, H5Gclose, rc, w->path, "group /view");
  if (rc) return rc;

  hsize_t dims[4];
  dims[0] = (hsize_t)s->nvar;
  grid_dims(s, vs, dims + 1);
  DG_CALL(w_dset(w, "/view/values", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s->dim + 1, dims,
                 s->view_values));
  if (s->view_error)
    DG_CALL(w_dset(w, "/view/error", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s->dim + 1, dims,
                   s->view_error));

  /* The degree repeated on the view cells, so viewers can colour by it. */
  int64_t n1 = (int64_t)s->cells[0] * vs, n2 = (int64_t)s->cells[1] * vs;
  int64_t n3 = (int64_t)s->cells[2] * (s->dim == 3 ? vs : 1);
  int64_t nv;
  if (mul64(n1 * n2, n3, &nv) != 0 || (uint64_t)nv > SIZE_MAX)
    return dg_error(DG_ERR_ARG, "%s: view sub-grid is too large", w->path);
  uint8_t *vd = malloc((size_t)nv);
  if (!vd) return dg_error(DG_ERR_MEM, "%s: out of memory for /view/degree", w->path);
  for (int64_t k = 0; k < n3; ++k)
    for (int64_t j = 0; j < n2; ++j)
      for (int64_t i = 0; i < n1; ++i) {
        int64_t kk = s->dim == 3 ? k / vs : 0;
        int64_t e = i / vs + s->cells[0] * (j / vs + s->cells[1] * kk);
        vd[i + n1 * (j + n2 * k)] = s->degree[e];
      }
  rc = w_dset(w, "/view/degree", H5T_STD_U8LE, H5T_NATIVE_UINT8, s->dim, dims + 1, vd);
  free(vd);
  return rc;
}

static int w_params(const h5w *w, const dg_snapshot *s) {
  hid_t g;
  DG_CALL(w_group(w, "/parameters", 1, &g));
  int rc = 0;
  for (int i = 0; i < s->nparams && rc == 0; ++i)
    rc = w_attr_str(w, g, "/parameters", s->param_keys[i], s->param_values[i]);
  return h5_close(&g, H5Gclose, rc, w->path, "group /parameters");
}

/* The body of dg_snapshot_write: everything into `tmp`, closed. */
static int write_h5(const char *path, const char *tmp, const dg_snapshot *s) {
  int rc = 0;
  hid_t fapl = make_fapl(path, &rc);
  if (fapl < 0) return rc;
  h5w w = {path, H5I_INVALID_HID};
  w.file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (w.file < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot create temporary file %s%s", path, tmp, h5_why());
    return h5_close(&fapl, H5Pclose, rc, path, "file access list");
  }
  rc = h5_close(&fapl, H5Pclose, rc, path, "file access list");

  if (rc == 0) rc = w_grid_and_attrs(&w, s);
  if (rc == 0) {
    hsize_t dims[3];
    grid_dims(s, 1, dims);
    rc = w_dset(&w, "/degree", H5T_STD_U8LE, H5T_NATIVE_UINT8, s->dim, dims, s->degree);
  }
  if (rc == 0) {
    hsize_t n = (hsize_t)s->nelem + 1;
    rc = w_dset(&w, "/coeff_offset", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, &n, s->coeff_offset);
  }
  if (rc == 0) {
    hsize_t n = (hsize_t)s->coeff_offset[s->nelem];
    rc = w_dset(&w, "/coeff", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &n, s->coeff);
  }
  if (rc == 0 && fail_injected("snapshot")) {
    /* Make the partial temporary real on disk before failing. */
    if (H5Fflush(w.file, H5F_SCOPE_LOCAL) < 0)
      rc = dg_error(DG_ERR_LIB, "%s: cannot flush %s%s", path, tmp, h5_why());
    else
      rc = dg_error(DG_ERR_IO,
                    "%s: injected failure (DGRID_IO_FAIL=snapshot) after a partial write of %s",
                    path, tmp);
  }
  if (rc == 0 && s->gauss_values) {
    hsize_t dims[3] = {(hsize_t)s->nelem, (hsize_t)ipow64(s->q, s->dim), (hsize_t)s->nvar};
    rc = w_dset(&w, "/gauss_values", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, dims, s->gauss_values);
  }
  if (rc == 0 && s->view_s > 0) rc = w_view(&w, s);
  if (rc == 0) rc = w_params(&w, s);
  if (rc == 0 && s->nhist > 0) {
    hsize_t dims[2] = {(hsize_t)s->nhist, 4};
    rc = w_dset(&w, "/history", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, s->history);
  }
  if (w.file >= 0) {
    herr_t st = H5Fclose(w.file);
    if (st < 0 && rc == 0)
      rc = dg_error(DG_ERR_IO, "%s: cannot finish writing temporary %s%s", path, tmp, h5_why());
  }
  return rc;
}

int dg_snapshot_write(const char *path, const dg_snapshot *s) {
  if (!path || !s) return dg_error(DG_ERR_ARG, "dg_snapshot_write: NULL path or snapshot");
  DG_CALL(check_snapshot(path, s));
  char *tmp;
  DG_CALL(tmp_name(path, &tmp));
  h5_quiet q;
  int rc = quiet_begin(&q, path);
  if (rc == 0) {
    rc = write_h5(path, tmp, s);
    if (rc == 0) rc = tmp_commit(tmp, path);
    if (rc != 0) tmp_discard(tmp);
    rc = quiet_end(&q, rc, path);
  }
  free(tmp);
  return rc;
}

/* ---- reading ---- */

typedef struct {
  const char *path;
  hid_t file;
} h5r;

/* Does the object `name` ("/a/b") exist?  Walks the components because
 * H5Lexists fails when an intermediate group is missing. */
static int r_exists(const h5r *r, const char *name, int *exists) {
  char buf[256];
  size_t n = strlen(name);
  *exists = 0;
  if (n >= sizeof buf) return dg_error(DG_ERR_ARG, "%s: object name too long", r->path);
  memcpy(buf, name, n + 1);
  for (size_t i = 1; i <= n; ++i) {
    if (buf[i] != '/' && buf[i] != '\0') continue;
    char c = buf[i];
    buf[i] = '\0';
    htri_t ex = H5Lexists(r->file, buf, H5P_DEFAULT);
    if (ex < 0) return dg_error(DG_ERR_IO, "%s: cannot look up %s%s", r->path, buf, h5_why());
    buf[i] = c;
    if (ex == 0) return 0;
  }
  *exists = 1;
  return 0;
}

static const char *class_name(H5T_class_t c) {
  switch (c) {
  case H5T_INTEGER:
    return "integer";
  case H5T_FLOAT:
    return "floating-point";
  case H5T_STRING:
    return "string";
  default:
    return "non-numeric";
  }
}

/* Read one scalar numeric attribute; `want` is H5T_INTEGER or H5T_FLOAT
 * (a float attribute also accepts integer storage). */
static int r_attr_num(const h5r *r, hid_t loc, const char *obj, const char *name, H5T_class_t want,
                      hid_t mtype, void *out) {
  htri_t ex = H5Aexists(loc, name);
  if (ex < 0)
    return dg_error(DG_ERR_IO, "%s: cannot look up attribute '%s' of %s%s", r->path, name, obj,
                    h5_why());
  if (ex == 0)
    return dg_error(DG_ERR_IO, "%s: attribute '%s' of %s is missing", r->path, name, obj);
  int rc = 0;
  hid_t at = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
  H5T_class_t cls = H5T_NO_CLASS;
  hssize_t npts = -1;
  if ((at = H5Aopen(loc, name, H5P_DEFAULT)) < 0 || (sp = H5Aget_space(at)) < 0 ||
      (npts = H5Sget_simple_extent_npoints(sp)) < 0 || (ft = H5Aget_type(at)) < 0 ||
      (cls = H5Tget_class(ft)) == H5T_NO_CLASS) {
    rc =
        dg_error(DG_ERR_IO, "%s: cannot open attribute '%s' of %s%s", r->path, name, obj, h5_why());
  } else if (npts != 1) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s has %lld values, expected 1", r->path, name,
                  obj, (long long)npts);
  } else if (cls != want && !(want == H5T_FLOAT && cls == H5T_INTEGER)) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s is %s, expected %s", r->path, name, obj,
                  class_name(cls), class_name(want));
  } else if (H5Aread(at, mtype, out) < 0) {
    rc =
        dg_error(DG_ERR_IO, "%s: cannot read attribute '%s' of %s%s", r->path, name, obj, h5_why());
  }
  rc = h5_close(&ft, H5Tclose, rc, r->path, "attribute type");
  rc = h5_close(&sp, H5Sclose, rc, r->path, "attribute dataspace");
  rc = h5_close(&at, H5Aclose, rc, r->path, "attribute");
  return rc;
}

/* Read a scalar string attribute (fixed- or variable-length) into a new
 * malloc'd string; Fortran-style space padding is stripped. */
static int r_attr_str(const h5r *r, hid_t loc, const char *obj, const char *name, char **out) {
  *out = NULL;
  htri_t ex = H5Aexists(loc, name);
  if (ex < 0)
    return dg_error(DG_ERR_IO, "%s: cannot look up attribute '%s' of %s%s", r->path, name, obj,
                    h5_why());
  if (ex == 0)
    return dg_error(DG_ERR_IO, "%s: attribute '%s' of %s is missing", r->path, name, obj);
  int rc = 0;
  hid_t at = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
  hid_t mt = H5I_INVALID_HID;
  H5T_class_t cls = H5T_NO_CLASS;
  hssize_t npts = -1;
  htri_t vl = -1;
  if ((at = H5Aopen(loc, name, H5P_DEFAULT)) < 0 || (sp = H5Aget_space(at)) < 0 ||
      (npts = H5Sget_simple_extent_npoints(sp)) < 0 || (ft = H5Aget_type(at)) < 0 ||
      (cls = H5Tget_class(ft)) == H5T_NO_CLASS) {
    rc =
        dg_error(DG_ERR_IO, "%s: cannot open attribute '%s' of %s%s", r->path, name, obj, h5_why());
    goto done;
  }
  if (npts != 1 || cls != H5T_STRING) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s must be one string, found %lld %s value(s)",
                  r->path, name, obj, (long long)npts, class_name(cls));
    goto done;
  }
  if ((vl = H5Tis_variable_str(ft)) < 0 || (mt = H5Tcopy(ft)) < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot inspect attribute '%s' of %s%s", r->path, name, obj,
                  h5_why());
    goto done;
  }
  if (vl) {
    char *p = NULL;
    if (H5Aread(at, mt, &p) < 0) {
      rc = dg_error(DG_ERR_IO, "%s: cannot read attribute '%s' of %s%s", r->path, name, obj,
                    h5_why());
      goto done;
    }
    *out = dup_str(p ? p : "");
    if (p && H5free_memory(p) < 0)
      rc = dg_error(DG_ERR_LIB, "%s: cannot free attribute '%s' of %s%s", r->path, name, obj,
                    h5_why());
  } else {
    size_t sz = H5Tget_size(ft);
    if (sz == 0) {
      rc = dg_error(DG_ERR_IO, "%s: cannot size attribute '%s' of %s%s", r->path, name, obj,
                    h5_why());
      goto done;
    }
    char *p = calloc(sz + 1, 1);
    if (!p) {
      rc = dg_error(DG_ERR_MEM, "%s: out of memory reading attribute '%s'", r->path, name);
      goto done;
    }
    if (H5Aread(at, mt, p) < 0) {
      free(p);
      rc = dg_error(DG_ERR_IO, "%s: cannot read attribute '%s' of %s%s", r->path, name, obj,
                    h5_why());
      goto done;
    }
    size_t n = strlen(p);
    while (n > 0 && p[n - 1] == ' ') p[--n] = '\0';
    *out = p;
  }
  if (rc == 0 && !*out)
    rc = dg_error(DG_ERR_MEM, "%s: out of memory reading attribute '%s'", r->path, name);
done:
  rc = h5_close(&mt, H5Tclose, rc, r->path, "string type");
  rc = h5_close(&ft, H5Tclose, rc, r->path, "attribute type");
  rc = h5_close(&sp, H5Sclose, rc, r->path, "attribute dataspace");
  rc = h5_close(&at, H5Aclose, rc, r->path, "attribute");
  if (rc != 0) {
    free(*out);
    *out = NULL;
  }
  return rc;
}

/* Shape of dataset `name` (which must exist): rank and dims[<=4]. */
static int r_shape(const h5r *r, const char *name, int *rank, hsize_t dims[4], H5T_class_t *cls) {
  int ex;
  DG_CALL(r_exists(r, name, &ex));
  if (!ex) return dg_error(DG_ERR_IO, "%s: dataset %s is missing", r->path, name);
  int rc = 0, nd = -1;
  hid_t ds = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
  if ((ds = H5Dopen2(r->file, name, H5P_DEFAULT)) < 0 || (sp = H5Dget_space(ds)) < 0 ||
      (nd = H5Sget_simple_extent_ndims(sp)) < 0 || (ft = H5Dget_type(ds)) < 0 ||
      (*cls = H5Tget_class(ft)) == H5T_NO_CLASS) {
    rc = dg_error(DG_ERR_IO, "%s: cannot open dataset %s%s", r->path, name, h5_why());
  } else if (nd > 4) {
    rc = dg_error(DG_ERR_IO, "%s: dataset %s has rank %d, at most 4 expected", r->path, name, nd);
  } else if (H5Sget_simple_extent_dims(sp, dims, NULL) < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot read the shape of dataset %s%s", r->path, name, h5_why());
  } else {
    *rank = nd;
  }
  rc = h5_close(&ft, H5Tclose, rc, r->path, "datatype");
  rc = h5_close(&sp, H5Sclose, rc, r->path, "dataspace");
  rc = h5_close(&ds, H5Dclose, rc, r->path, name);
  return rc;
}

/* Read dataset `name`, checking presence, type class and exact shape, into
 * a new malloc'd buffer of `esize`-byte elements. */
static int r_dset(const h5r *r, const char *name, H5T_class_t want, hid_t mtype, size_t esize,
                  int rank, const hsize_t *dims, void **out) {
  int nd = 0;
  hsize_t have[4];
  H5T_class_t cls = H5T_NO_CLASS;
  char a[96], b[96];
  *out = NULL;
  DG_CALL(r_shape(r, name, &nd, have, &cls));
  if (cls != want)
    return dg_error(DG_ERR_IO, "%s: dataset %s holds %s values, expected %s", r->path, name,
                    class_name(cls), class_name(want));
  int same = nd == rank;
  for (int i = 0; same && i < rank; ++i) same = have[i] == dims[i];
  if (!same)
    return dg_error(DG_ERR_IO, "%s: dataset %s has shape %s, expected %s", r->path, name,
                    dims_label(a, sizeof a, nd, have), dims_label(b, sizeof b, rank, dims));
  uint64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    if (dims[i] != 0 && count > (uint64_t)SIZE_MAX / esize / dims[i])
      return dg_error(DG_ERR_IO, "%s: dataset %s is too large", r->path, name);
    count *= dims[i];
  }
  void *buf = malloc(count ? (size_t)count * esize : 1);
  if (!buf)
    return dg_error(DG_ERR_MEM, "%s: out of memory reading dataset %s (%llu values)", r->path, name,
                    (unsigned long long)count);
  int rc = 0;
  hid_t ds = H5Dopen2(r->file, name, H5P_DEFAULT);
  if (ds < 0 || (count > 0 && H5Dread(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0))
    rc = dg_error(DG_ERR_IO, "%s: cannot read dataset %s%s", r->path, name, h5_why());
  rc = h5_close(&ds, H5Dclose, rc, r->path, name);
  if (rc != 0) {
    free(buf);
    return rc;
  }
  *out = buf;
  return 0;
}

typedef struct {
  const h5r *r;
  dg_snapshot *s;
  int cap;
  int rc;
} param_iter;

static herr_t param_cb(hid_t loc, const char *name, const H5A_info_t *info, void *data) {
  param_iter *it = data;
  dg_snapshot *s = it->s;
  (void)info;
  if (s->nparams == it->cap) {
    int cap = it->cap ? 2 * it->cap : 16;
    char **k = realloc(s->param_keys, (size_t)cap * sizeof *k);
    if (k) s->param_keys = k;
    char **v = realloc(s->param_values, (size_t)cap * sizeof *v);
    if (v) s->param_values = v;
    if (!k || !v) {
      it->rc = dg_error(DG_ERR_MEM, "%s: out of memory reading /parameters", it->r->path);
      return -1;
    }
    it->cap = cap;
  }
  char *val = NULL, *key = dup_str(name);
  if (!key) {
    it->rc = dg_error(DG_ERR_MEM, "%s: out of memory reading /parameters", it->r->path);
    return -1;
  }
  int rc = r_attr_str(it->r, loc, "/parameters", name, &val);
  if (rc != 0) {
    free(key);
    it->rc = rc;
    return -1;
  }
  s->param_keys[s->nparams] = key;
  s->param_values[s->nparams] = val;
  s->nparams++;
  return 0;
}

/* /parameters: every attribute is one key/value string, in creation order
 * when the file tracks it (ours does), else in name order. */
static int r_params(const h5r *r, dg_snapshot *s) {
  int ex;
  DG_CALL(r_exists(r, "/parameters", &ex));
  if (!ex) return 0;
  int rc = 0;
  unsigned flags = 0;
  hid_t g = H5I_INVALID_HID, gcpl = H5I_INVALID_HID;
  if ((g = H5Gopen2(r->file, "/parameters", H5P_DEFAULT)) < 0 ||
      (gcpl = H5Gget_create_plist(g)) < 0 || H5Pget_attr_creation_order(gcpl, &flags) < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot open group /parameters%s", r->path, h5_why());
  } else {
    param_iter it = {r, s, 0, 0};
    hsize_t idx = 0;
    H5_index_t by = (flags & H5P_CRT_ORDER_INDEXED) ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME;
    if (H5Aiterate2(g, by, H5_ITER_INC, &idx, param_cb, &it) < 0)
      rc = it.rc ? it.rc
                 : dg_error(DG_ERR_IO, "%s: cannot list attributes of /parameters%s", r->path,
                            h5_why());
  }
  rc = h5_close(&gcpl, H5Pclose, rc, r->path, "group property list");
  rc = h5_close(&g, H5Gclose, rc, r->path, "group /parameters");
  return rc;
}

static int r_root_attrs(const h5r *r, dg_snapshot *s) {
  char *fmt = NULL, *model = NULL;
  int version = 0;
  DG_CALL(r_attr_str(r, r->file, "/", "format", &fmt));
  int bad = strcmp(fmt, FORMAT_NAME) != 0;
  if (bad)
    dg_error(DG_ERR_IO,
             "%s: not a dgrid snapshot (attribute 'format' of / is '%.64s', expected '%s')",
             r->path, fmt, FORMAT_NAME);
  free(fmt);
  if (bad) return DG_ERR_IO;
  DG_CALL(r_attr_num(r, r->file, "/", "format_version", H5T_INTEGER, H5T_NATIVE_INT, &version));
  if (version != FORMAT_VERSION)
    return dg_error(DG_ERR_IO, "%s: unsupported format_version %d (this reader knows %d)", r->path,
                    version, FORMAT_VERSION);
  DG_CALL(r_attr_num(r, r->file, "/", "dim", H5T_INTEGER, H5T_NATIVE_INT, &s->dim));
  DG_CALL(r_attr_num(r, r->file, "/", "nvar", H5T_INTEGER, H5T_NATIVE_INT, &s->nvar));
  DG_CALL(r_attr_num(r, r->file, "/", "q", H5T_INTEGER, H5T_NATIVE_INT, &s->q));
  DG_CALL(r_attr_num(r, r->file, "/", "time", H5T_FLOAT, H5T_NATIVE_DOUBLE, &s->time));
  DG_CALL(r_attr_num(r, r->file, "/", "step", H5T_INTEGER, H5T_NATIVE_INT64, &s->step));
  DG_CALL(r_attr_str(r, r->file, "/", "model", &model));
  size_t n = strlen(model);
  if (n >= sizeof s->model) {
    free(model);
    return dg_error(DG_ERR_IO, "%s: attribute 'model' of / is %zu characters, at most %zu", r->path,
                    n, sizeof s->model - 1);
  }
  memcpy(s->model, model, n + 1);
  free(model);
  if (s->dim != 2 && s->dim != 3)
    return dg_error(DG_ERR_IO, "%s: attribute 'dim' of / is %d, must be 2 or 3", r->path, s->dim);
  if (s->nvar < 1 || s->nvar > 1000000)
    return dg_error(DG_ERR_IO, "%s: attribute 'nvar' of / is %d, must be >= 1", r->path, s->nvar);
  if (s->q < 1 || s->q > 1000)
    return dg_error(DG_ERR_IO, "%s: attribute 'q' of / is %d, must be in [1, 1000]", r->path, s->q);
  return 0;
}

static int r_grid(const h5r *r, dg_snapshot *s) {
  hsize_t n = (hsize_t)s->dim;
  int32_t *cells = NULL;
  double *lo = NULL, *hi = NULL, *h = NULL;
  int rc = r_dset(r, "/grid/cells", H5T_INTEGER, H5T_NATIVE_INT32, sizeof *cells, 1, &n,
                  (void **)&cells);
  if (rc == 0)
    rc = r_dset(r, "/grid/lo", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof *lo, 1, &n, (void **)&lo);
  if (rc == 0)
    rc = r_dset(r, "/grid/hi", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof *hi, 1, &n, (void **)&hi);
  if (rc == 0)
    rc = r_dset(r, "/grid/h", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof *h, 1, &n, (void **)&h);
  s->cells[0] = s->cells[1] = s->cells[2] = 1;
  s->nelem = 1;
  for (int d = 0; rc == 0 && d < s->dim; ++d) {
    if (cells[d] < 1 || cells[d] > MAX_CELLS_PER_DIM) {
      rc = dg_error(DG_ERR_IO, "%s: dataset /grid/cells: entry %d is %d, must be in [1, %lld]",
                    r->path, d, (int)cells[d], MAX_CELLS_PER_DIM);
    } else if (!isfinite(lo[d]) || !isfinite(hi[d]) || !(lo[d] < hi[d])) {
      rc = dg_error(DG_ERR_IO,
                    "%s: datasets /grid/lo, /grid/hi: side %d is [%.17g, %.17g], need lo < hi",
                    r->path, d, lo[d], hi[d]);
    } else {
      double want = (hi[d] - lo[d]) / cells[d];
      if (!(fabs(h[d] - want) <= 1e-12 * fabs(want)))
        rc = dg_error(DG_ERR_IO, "%s: dataset /grid/h: entry %d is %.17g, (hi-lo)/cells is %.17g",
                      r->path, d, h[d], want);
    }
    if (rc == 0) {
      s->cells[d] = cells[d];
      s->lo[d] = lo[d];
      s->hi[d] = hi[d];
      s->nelem *= cells[d];
    }
  }
  if (rc == 0 && s->nelem > MAX_NELEM)
    rc = dg_error(DG_ERR_IO, "%s: dataset /grid/cells gives %" PRId64 " elements, too many",
                  r->path, s->nelem);
  free(cells);
  free(lo);
  free(hi);
  free(h);
  return rc;
}

static int r_coeff(const h5r *r, dg_snapshot *s) {
  hsize_t dims[3];
  char lab[64];
  grid_dims(s, 1, dims);
  DG_CALL(
      r_dset(r, "/degree", H5T_INTEGER, H5T_NATIVE_UINT8, 1, s->dim, dims, (void **)&s->degree));
  for (int64_t e = 0; e < s->nelem; ++e)
    if (s->degree[e] > DG_MAX_DEGREE)
      return dg_error(DG_ERR_IO, "%s: dataset /degree: element %" PRId64 " %s has degree %d > %d",
                      r->path, e, elem_label(lab, sizeof lab, s->dim, s->cells, e), s->degree[e],
                      DG_MAX_DEGREE);
  hsize_t n = (hsize_t)s->nelem + 1;
  DG_CALL(r_dset(r, "/coeff_offset", H5T_INTEGER, H5T_NATIVE_INT64, sizeof(int64_t), 1, &n,
                 (void **)&s->coeff_offset));
  const int64_t *off = s->coeff_offset;
  if (off[0] != 0)
    return dg_error(DG_ERR_IO, "%s: dataset /coeff_offset starts at %" PRId64 ", must start at 0",
                    r->path, off[0]);
  for (int64_t e = 0; e < s->nelem; ++e) {
    int64_t want = elem_len(s->dim, s->nvar, s->degree[e]);
    if (off[e + 1] - off[e] != want || off[e + 1] < off[e])
      return dg_error(DG_ERR_IO,
                      "%s: dataset /coeff_offset is inconsistent with /degree at element %" PRId64
                      " %s: offsets %" PRId64 "..%" PRId64 " span %" PRId64
                      " values, degree %d with nvar %d needs %" PRId64,
                      r->path, e, elem_label(lab, sizeof lab, s->dim, s->cells, e), off[e],
                      off[e + 1], off[e + 1] - off[e], s->degree[e], s->nvar, want);
  }
  n = (hsize_t)off[s->nelem];
  return r_dset(r, "/coeff", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), 1, &n,
                (void **)&s->coeff);
}

static int r_optional(const h5r *r, dg_snapshot *s) {
  int ex;
  DG_CALL(r_exists(r, "/gauss_values", &ex));
  if (ex) {
    int64_t qd = ipow64(s->q, s->dim), total;
    if (mul64(s->nelem, qd, &total) != 0 || mul64(total, s->nvar, &total) != 0)
      return dg_error(DG_ERR_IO, "%s: dataset /gauss_values would be too large", r->path);
    hsize_t dims[3] = {(hsize_t)s->nelem, (hsize_t)qd, (hsize_t)s->nvar};
    DG_CALL(r_dset(r, "/gauss_values", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), 3, dims,
                   (void **)&s->gauss_values));
  }

  DG_CALL(r_exists(r, "/view", &ex));
  if (ex) {
    int vs = 0, rc = 0;
    hid_t g = H5Gopen2(r->file, "/view", H5P_DEFAULT);
    if (g < 0) return dg_error(DG_ERR_IO, "%s: cannot open group /view%s", r->path, h5_why());
    rc = r_attr_num(r, g, "/view", "samples_per_element", H5T_INTEGER, H5T_NATIVE_INT, &vs);
    rc = h5_close(&g, H5Gclose, rc, r->path, "group /view");
    if (rc) return rc;
    if (vs < 1 || vs > 64)
      return dg_error(DG_ERR_IO,
                      "%s: attribute 'samples_per_element' of /view is %d, must be in [1, 64]",
                      r->path, vs);
    hsize_t dims[4];
    dims[0] = (hsize_t)s->nvar;
    grid_dims(s, vs, dims + 1);
    DG_CALL(r_dset(r, "/view/values", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), s->dim + 1,
                   dims, (void **)&s->view_values));
    s->view_s = vs;
    DG_CALL(r_exists(r, "/view/error", &ex));
    if (ex)
      DG_CALL(r_dset(r, "/view/error", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), s->dim + 1,
                     dims, (void **)&s->view_error));
    /* /view/degree is derived from /degree; readers ignore it. */
  }

  DG_CALL(r_params(r, s));

  DG_CALL(r_exists(r, "/history", &ex));
  if (ex) {
    int rank = 0;
    hsize_t dims[4];
    H5T_class_t cls;
    DG_CALL(r_shape(r, "/history", &rank, dims, &cls));
    char lab[96];
    if (rank != 2 || dims[1] != 4)
      return dg_error(DG_ERR_IO, "%s: dataset /history has shape %s, expected [n][4]", r->path,
                      dims_label(lab, sizeof lab, rank, dims));
    DG_CALL(r_dset(r, "/history", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), 2, dims,
                   (void **)&s->history));
    s->nhist = (int64_t)dims[0];
  }
  return 0;
}

static int read_h5(const char *path, dg_snapshot *s) {
  int rc = 0;
  hid_t fapl = make_fapl(path, &rc);
  if (fapl < 0) return rc;
  h5r r = {path, H5I_INVALID_HID};
  r.file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
  if (r.file < 0) rc = dg_error(DG_ERR_IO, "%s: cannot open HDF5 file%s", path, h5_why());
  rc = h5_close(&fapl, H5Pclose, rc, path, "file access list");
  if (rc == 0) rc = r_root_attrs(&r, s);
  if (rc == 0) rc = r_grid(&r, s);
  if (rc == 0) rc = r_coeff(&r, s);
  if (rc == 0) rc = r_optional(&r, s);
  if (r.file >= 0) {
    /* Semi close degree: fails if any object was left open. */
    herr_t st = H5Fclose(r.file);
    if (st < 0 && rc == 0) rc = dg_error(DG_ERR_LIB, "%s: cannot close file%s", path, h5_why());
  }
  return rc;
}

int dg_snapshot_read(const char *path, dg_snapshot *s) {
  if (!path || !s) return dg_error(DG_ERR_ARG, "dg_snapshot_read: NULL path or snapshot");
  memset(s, 0, sizeof *s);
  /* A plain open first: a clear errno reason for missing/unreadable files. */
  FILE *f = fopen(path, "rb");
  if (!f) return dg_error(DG_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  fclose(f);
  h5_quiet q;
  DG_CALL(quiet_begin(&q, path));
  int rc = read_h5(path, s);
  rc = quiet_end(&q, rc, path);
  if (rc != 0) dg_snapshot_free(s);
  return rc;
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
  memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------------------ */
/* Text format                                                              */
/* ------------------------------------------------------------------------ */

typedef struct {
  const char *path;
  char *buf;
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
  size_t n = k->n < len - 4 ? k->n : len - 4, i;
  for (i = 0; i < n; ++i) buf[i] = isprint((unsigned char)k->p[i]) ? k->p[i] : '?';
  if (n < k->n) buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
  buf[i] = '\0';
  return buf;
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
  DG_CALL(hdr_long(t, TEXT_MAGIC, 0, INT32_MAX, &x));
  if (x != TEXT_VERSION)
    return dg_error(DG_ERR_IO, "%s:%ld: unsupported %s version %lld (this reader knows %d)",
                    t->path, t->line, TEXT_MAGIC, x, TEXT_VERSION);
  DG_CALL(hdr_long(t, "dim", 2, 3, &x));
  s->dim = (int)x;
  s->cells[0] = s->cells[1] = s->cells[2] = 1;
  s->nelem = 1;
  DG_CALL(hdr_key(t, "cells", &k));
  for (int d = 0; d < s->dim; ++d) {
    DG_CALL(hdr_val(t, &k, d, s->dim, &v));
    DG_CALL(val_long(t, &k, &v, 1, MAX_CELLS_PER_DIM, &x));
    s->cells[d] = (int)x;
    s->nelem *= x;
  }
  DG_CALL(hdr_end(t, &k));
  if (s->nelem > MAX_NELEM)
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
    elem_label(lab, sizeof lab, s->dim, s->cells, e);
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
    int64_t want = elem_len(s->dim, s->nvar, (int)r);
    if (used + (size_t)want > cap) {
      while (used + (size_t)want > cap) cap *= 2;
      double *nv = realloc(vals, cap * sizeof *nv);
      if (!nv) {
        rc = dg_error(DG_ERR_MEM, "%s: out of memory for coefficients", t->path);
        goto done;
      }
      vals = nv;
    }
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
    s->coeff_offset[e + 1] = s->coeff_offset[e] + elem_len(s->dim, s->nvar, s->degree[e]);
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

/* Whole file into memory (text snapshots are read once, front to back). */
static int slurp(const char *path, char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return dg_error(DG_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  int rc = 0;
  while (b) {
    if (n == cap) {
      char *nb = cap < SIZE_MAX / 2 ? realloc(b, cap * 2) : NULL;
      if (!nb) {
        free(b);
        b = NULL;
        break;
      }
      b = nb;
      cap *= 2;
    }
    size_t got = fread(b + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  if (!b)
    rc = dg_error(DG_ERR_MEM, "%s: out of memory reading the file", path);
  else if (ferror(f))
    rc = dg_error(DG_ERR_IO, "%s: read error: %s", path, strerror(errno));
  fclose(f);
  if (rc != 0) {
    free(b);
    return rc;
  }
  *buf = b;
  *len = n;
  return 0;
}

int dg_snapshot_read_text(const char *path, dg_snapshot *s) {
  if (!path || !s) return dg_error(DG_ERR_ARG, "dg_snapshot_read_text: NULL path or snapshot");
  memset(s, 0, sizeof *s);
  txt t = {path, NULL, 0, 0, 1};
  DG_CALL(slurp(path, &t.buf, &t.len));
  long long nrec = 0;
  int rc = text_header(&t, s, &nrec);
  if (rc == 0) rc = text_elements(&t, s, nrec);
  free(t.buf);
  if (rc != 0) dg_snapshot_free(s);
  return rc;
}

/* printf into a FILE, remembering the first failure. */
static void put(FILE *f, int *bad, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void put(FILE *f, int *bad, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (vfprintf(f, fmt, ap) < 0) *bad = 1;
  va_end(ap);
}

/* Close a temporary text file and move it into place; on any failure the
 * temporary goes away and the recorded error names the target. */
static int finish_text(FILE *f, int bad, const char *path, const char *tmp, const char *hook) {
  int rc = 0;
  if (bad || ferror(f))
    rc = dg_error(DG_ERR_IO, "%s: write error on temporary %s: %s", path, tmp, strerror(errno));
  if (rc == 0 && fail_injected(hook)) {
    if (fflush(f) != 0)
      rc = dg_error(DG_ERR_IO, "%s: write error on temporary %s: %s", path, tmp, strerror(errno));
    else
      rc =
          dg_error(DG_ERR_IO, "%s: injected failure (DGRID_IO_FAIL=%s) after a partial write of %s",
                   path, hook, tmp);
  }
  if (fclose(f) != 0 && rc == 0)
    rc = dg_error(DG_ERR_IO, "%s: cannot finish writing temporary %s: %s", path, tmp,
                  strerror(errno));
  if (rc == 0) rc = tmp_commit(tmp, path);
  if (rc != 0) tmp_discard(tmp);
  return rc;
}

int dg_snapshot_write_text(const char *path, const dg_snapshot *s) {
  if (!path || !s) return dg_error(DG_ERR_ARG, "dg_snapshot_write_text: NULL path or snapshot");
  const char *what = "write text snapshot";
  DG_CALL(check_grid(path, s, what));
  DG_CALL(check_coeff(path, s, what));
  if (s->q < 1) return dg_error(DG_ERR_ARG, "%s: cannot %s: q is %d", path, what, s->q);
  size_t mlen = strnlen(s->model, sizeof s->model);
  if (mlen == 0 || mlen == sizeof s->model)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: model name is empty or not NUL-terminated", path,
                    what);
  for (size_t i = 0; i < mlen; ++i)
    if (isspace((unsigned char)s->model[i]) || s->model[i] == '#')
      return dg_error(DG_ERR_ARG, "%s: cannot %s: model name '%s' contains a blank or '#'", path,
                      what, s->model);
  char *tmp;
  DG_CALL(tmp_name(path, &tmp));
  FILE *f = fopen(tmp, "w");
  if (!f) {
    int rc = dg_error(DG_ERR_IO, "%s: cannot create temporary %s: %s", path, tmp, strerror(errno));
    free(tmp);
    return rc;
  }
  int bad = 0, dim = s->dim;
  put(f, &bad, "%s %d\n", TEXT_MAGIC, TEXT_VERSION);
  put(f, &bad, "dim %d\n", dim);
  put(f, &bad, "cells");
  for (int d = 0; d < dim; ++d) put(f, &bad, " %d", s->cells[d]);
  put(f, &bad, "\nbox");
  for (int d = 0; d < dim; ++d) put(f, &bad, " %.17g %.17g", s->lo[d], s->hi[d]);
  put(f, &bad, "\nnvar %d\nq %d\ntime %.17g\nstep %" PRId64 "\nmodel %s\nelements %" PRId64 "\n",
      s->nvar, s->q, s->time, s->step, s->model, s->nelem);
  for (int64_t e = 0; e < s->nelem && !bad; ++e) {
    int64_t i = e % s->cells[0], j = (e / s->cells[0]) % s->cells[1];
    int64_t k = e / ((int64_t)s->cells[0] * s->cells[1]);
    int n = s->degree[e] + 1;
    if (dim == 3)
      put(f, &bad, "e %" PRId64 " %" PRId64 " %" PRId64 " %d\n", i, j, k, n - 1);
    else
      put(f, &bad, "e %" PRId64 " %" PRId64 " %d\n", i, j, n - 1);
    /* One line per x-row of modes: n values. */
    const double *c = s->coeff + s->coeff_offset[e];
    int64_t len = s->coeff_offset[e + 1] - s->coeff_offset[e];
    for (int64_t m = 0; m < len; ++m) put(f, &bad, "%.17g%c", c[m], (m + 1) % n == 0 ? '\n' : ' ');
  }
  int rc = finish_text(f, bad, path, tmp, "text");
  free(tmp);
  return rc;
}

int dg_snapshot_read_any(const char *path, dg_snapshot *s) {
  static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (!path || !s) return dg_error(DG_ERR_ARG, "dg_snapshot_read_any: NULL path or snapshot");
  memset(s, 0, sizeof *s);
  FILE *f = fopen(path, "rb");
  if (!f) return dg_error(DG_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  unsigned char head[8];
  size_t n = fread(head, 1, sizeof head, f);
  int err = ferror(f);
  fclose(f);
  if (err) return dg_error(DG_ERR_IO, "%s: read error: %s", path, strerror(errno));
  if (n == sizeof head && memcmp(head, sig, sizeof sig) == 0) return dg_snapshot_read(path, s);
  return dg_snapshot_read_text(path, s);
}

/* ------------------------------------------------------------------------ */
/* XDMF sidecar                                                             */
/* ------------------------------------------------------------------------ */

/* Absolute, lexically normalised path ("." and ".." and "//" removed). */
static char *abs_norm(const char *p) {
  char *full;
  if (p[0] == '/') {
    full = dup_str(p);
  } else {
    char *cwd = getcwd(NULL, 0);
    if (!cwd) return NULL;
    size_t len = strlen(cwd) + strlen(p) + 2;
    full = malloc(len);
    if (full) snprintf(full, len, "%s/%s", cwd, p);
    free(cwd);
  }
  if (!full) return NULL;
  size_t len = strlen(full);
  char *out = malloc(len + 2);
  if (!out) {
    free(full);
    return NULL;
  }
  size_t o = 0;
  for (char *c = full; *c;) {
    while (*c == '/') c++;
    char *end = c;
    while (*end && *end != '/') end++;
    size_t n = (size_t)(end - c);
    if (n == 0 || (n == 1 && c[0] == '.')) {
      /* skip */
    } else if (n == 2 && c[0] == '.' && c[1] == '.') {
      while (o > 0 && out[o - 1] != '/') o--;
      if (o > 0) o--; /* drop the slash too */
    } else {
      out[o++] = '/';
      memcpy(out + o, c, n);
      o += n;
    }
    c = end;
  }
  if (o == 0) out[o++] = '/';
  out[o] = '\0';
  free(full);
  return out;
}

/* Path of file `to` relative to folder `dir` (both from abs_norm). */
static char *rel_path(const char *dir, const char *to) {
  if (strcmp(dir, "/") == 0) dir = "";
  /* `common`: end of the longest shared prefix that ends at a component
   * boundary of both paths. */
  size_t common = 0, i = 0;
  for (;;) {
    if ((dir[i] == '/' || dir[i] == '\0') && (to[i] == '/' || to[i] == '\0')) common = i;
    if (dir[i] == '\0' || to[i] == '\0' || dir[i] != to[i]) break;
    i++;
  }
  size_t ups = 0;
  for (const char *c = dir + common; *c; ++c)
    if (*c == '/') ups++;
  const char *rest = to + common + (to[common] == '/' ? 1 : 0);
  size_t len = ups * 3 + strlen(rest) + 1;
  char *out = malloc(len);
  if (!out) return NULL;
  out[0] = '\0';
  for (size_t u = 0; u < ups; ++u) strcat(out, "../");
  strcat(out, rest);
  return out;
}

/* XML-escaped copy for element text and attribute values. */
static void put_xml(FILE *f, int *bad, const char *s) {
  for (; *s; ++s) {
    switch (*s) {
    case '&':
      put(f, bad, "&amp;");
      break;
    case '<':
      put(f, bad, "&lt;");
      break;
    case '>':
      put(f, bad, "&gt;");
      break;
    case '"':
      put(f, bad, "&quot;");
      break;
    default:
      if (fputc(*s, f) == EOF) *bad = 1;
    }
  }
}

/* One cell attribute: variable `v` of an [nvar][...] dataset, through a
 * HyperSlab when nvar > 1. */
static void xdmf_attr(FILE *f, int *bad, const char *name, const char *h5rel, const char *dset,
                      int nvar, int v, int dim, const hsize_t *vd) {
  char shape[96] = "", full[128];
  size_t u = 0;
  for (int r = 0; r < dim; ++r)
    u += (size_t)snprintf(shape + u, sizeof shape - u, "%s%llu", r ? " " : "",
                          (unsigned long long)vd[r]);
  snprintf(full, sizeof full, "%d %s", nvar, shape);
  put(f, bad, "        <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Cell\">\n", name);
  if (nvar > 1) {
    put(f, bad,
        "          <DataItem ItemType=\"HyperSlab\" Type=\"HyperSlab\" Dimensions=\"1 %s\">\n",
        shape);
    put(f, bad, "            <DataItem Dimensions=\"3 %d\" NumberType=\"Int\" Format=\"XML\">",
        dim + 1);
    put(f, bad, "%d", v);
    for (int r = 0; r < dim; ++r) put(f, bad, " 0");
    for (int r = 0; r <= dim; ++r) put(f, bad, " 1");
    put(f, bad, " 1 %s</DataItem>\n", shape);
    put(f, bad, "  ");
  }
  put(f, bad,
      "          <DataItem Dimensions=\"%s\" NumberType=\"Float\" Precision=\"8\" "
      "Format=\"HDF\">",
      full);
  put_xml(f, bad, h5rel);
  put(f, bad, ":%s</DataItem>\n", dset);
  if (nvar > 1) put(f, bad, "          </DataItem>\n");
  put(f, bad, "        </Attribute>\n");
}

int dg_xdmf_write(const char *xdmf_path, int n, const char *const *h5_paths, const double *times,
                  const dg_snapshot *shape) {
  if (!xdmf_path || !h5_paths || !times || !shape || n < 1)
    return dg_error(DG_ERR_ARG, "dg_xdmf_write: NULL argument or no snapshots (n = %d)", n);
  const char *what = "write XDMF";
  const dg_snapshot *s = shape;
  DG_CALL(check_grid(xdmf_path, s, what));
  if (s->view_s < 1)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: the snapshots have no view sub-grid (view_s = %d)",
                    xdmf_path, what, s->view_s);
  for (int i = 0; i < n; ++i) {
    if (!h5_paths[i] || h5_paths[i][0] == '\0' || strchr(h5_paths[i], ':'))
      return dg_error(DG_ERR_ARG, "%s: cannot %s: snapshot path %d is empty or contains ':'",
                      xdmf_path, what, i);
    if (!isfinite(times[i]))
      return dg_error(DG_ERR_ARG, "%s: cannot %s: time of snapshot %d is not finite", xdmf_path,
                      what, i);
  }
  char *xabs = abs_norm(xdmf_path);
  if (!xabs)
    return dg_error(DG_ERR_IO, "%s: cannot resolve the path: %s", xdmf_path, strerror(errno));
  char *slash = strrchr(xabs, '/');
  if (slash == xabs)
    slash[1] = '\0';
  else
    *slash = '\0';

  char *tmp;
  int rc = tmp_name(xdmf_path, &tmp);
  if (rc != 0) {
    free(xabs);
    return rc;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) {
    rc = dg_error(DG_ERR_IO, "%s: cannot create temporary %s: %s", xdmf_path, tmp, strerror(errno));
    free(tmp);
    free(xabs);
    return rc;
  }
  int bad = 0, dim = s->dim, vs = s->view_s;
  hsize_t vd[3]; /* view cells, slowest first */
  grid_dims(s, vs, vd);
  char nodes[96] = "", cellshape[96] = "";
  size_t u = 0, uc = 0;
  for (int r = 0; r < dim; ++r) {
    u += (size_t)snprintf(nodes + u, sizeof nodes - u, "%s%llu", r ? " " : "",
                          (unsigned long long)vd[r] + 1);
    uc += (size_t)snprintf(cellshape + uc, sizeof cellshape - uc, "%s%llu", r ? " " : "",
                           (unsigned long long)vd[r]);
  }
  put(f, &bad, "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n");
  put(f, &bad, "<Xdmf Version=\"3.0\">\n  <Domain>\n");
  put(f, &bad, "    <Grid Name=\"dgrid\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (int i = 0; i < n && rc == 0; ++i) {
    char *habs = abs_norm(h5_paths[i]);
    char *hrel = habs ? rel_path(xabs, habs) : NULL;
    free(habs);
    if (!hrel) {
      rc = dg_error(DG_ERR_MEM, "%s: cannot resolve snapshot path %s", xdmf_path, h5_paths[i]);
      break;
    }
    put(f, &bad, "      <Grid Name=\"snapshot_%d\" GridType=\"Uniform\">\n", i);
    put(f, &bad, "        <Time Value=\"%.17g\"/>\n", times[i]);
    put(f, &bad, "        <Topology TopologyType=\"%dDCoRectMesh\" Dimensions=\"%s\"/>\n", dim,
        nodes);
    /* Origin and spacing slowest axis first, like Dimensions. */
    put(f, &bad, "        <Geometry GeometryType=\"%s\">\n",
        dim == 3 ? "ORIGIN_DXDYDZ" : "ORIGIN_DXDY");
    put(f, &bad,
        "          <DataItem Name=\"Origin\" Dimensions=\"%d\" NumberType=\"Float\" "
        "Precision=\"8\" Format=\"XML\">",
        dim);
    for (int d = dim - 1; d >= 0; --d) put(f, &bad, "%.17g%s", s->lo[d], d ? " " : "");
    put(f, &bad, "</DataItem>\n");
    put(f, &bad,
        "          <DataItem Name=\"Spacing\" Dimensions=\"%d\" NumberType=\"Float\" "
        "Precision=\"8\" Format=\"XML\">",
        dim);
    for (int d = dim - 1; d >= 0; --d)
      put(f, &bad, "%.17g%s", (s->hi[d] - s->lo[d]) / s->cells[d] / vs, d ? " " : "");
    put(f, &bad, "</DataItem>\n        </Geometry>\n");
    char name[32];
    for (int v = 0; v < s->nvar; ++v) {
      if (s->nvar == 1)
        snprintf(name, sizeof name, "u");
      else
        snprintf(name, sizeof name, "u%d", v);
      xdmf_attr(f, &bad, name, hrel, "/view/values", s->nvar, v, dim, vd);
    }
    if (s->view_error)
      for (int v = 0; v < s->nvar; ++v) {
        if (s->nvar == 1)
          snprintf(name, sizeof name, "error");
        else
          snprintf(name, sizeof name, "error%d", v);
        xdmf_attr(f, &bad, name, hrel, "/view/error", s->nvar, v, dim, vd);
      }
    put(f, &bad, "        <Attribute Name=\"degree\" AttributeType=\"Scalar\" Center=\"Cell\">\n");
    put(f, &bad,
        "          <DataItem Dimensions=\"%s\" NumberType=\"UChar\" Precision=\"1\" "
        "Format=\"HDF\">",
        cellshape);
    put_xml(f, &bad, hrel);
    put(f, &bad, ":/view/degree</DataItem>\n        </Attribute>\n      </Grid>\n");
    free(hrel);
  }
  put(f, &bad, "    </Grid>\n  </Domain>\n</Xdmf>\n");
  free(xabs);
  if (rc != 0) {
    fclose(f);
    tmp_discard(tmp);
  } else {
    rc = finish_text(f, bad, xdmf_path, tmp, "xdmf");
  }
  free(tmp);
  return rc;
}
