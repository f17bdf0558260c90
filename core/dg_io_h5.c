/* dg_io_h5.c - HDF5 plumbing shared by the snapshot reader and writer, and
 * the writer (dg_snapshot_write).
 *
 * Every HDF5 call is checked.  HDF5's own error printing is switched off
 * while a dg_ function runs (and the caller's handler restored afterwards);
 * instead one message names the file and the dataset/attribute, with the
 * innermost HDF5 reason appended (escaped: one line).
 *
 * The writer builds the file in memory (HDF5 core driver, no backing store)
 * with a DG_IO_USERBLOCK-byte user block, fills the user block with the
 * checksum of the rest (dg_io_seal.c), and writes the bytes through the
 * atomic writer of dg_io_file.c. */
#include "dg_io.h"

#include "dg_arg.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_internal.h"

#include <hdf5.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* HDF5 plumbing                                                            */
/* ------------------------------------------------------------------------ */

/* Silence HDF5's printing for the duration of one dg_ call. */
int dg_io_h5_quiet_begin(dg_io_h5_quiet *q, const char *path) {
  q->func = NULL;
  q->data = NULL;
  if (H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data) < 0 ||
      H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0)
    return dg_error(DG_ERR_LIB, "%s: cannot initialise the HDF5 library (error handler)", path);
  return 0;
}

/* Give the caller's HDF5 error handler back. */
int dg_io_h5_quiet_end(dg_io_h5_quiet *q, int rc, const char *path) {
  if (H5Eset_auto2(H5E_DEFAULT, q->func, q->data) < 0 && rc == 0)
    return dg_error(DG_ERR_LIB, "%s: cannot restore the HDF5 error handler", path);
  return rc;
}

static herr_t why_walk(unsigned n, const H5E_error2_t *err, void *data) {
  char *out = data;
  if (n == 0 && err && err->desc) snprintf(out, 256, "%s", err->desc);
  return 0;
}

/* " (HDF5: <innermost reason>)" for the HDF5 error just raised, or "";
 * escaped, so HDF5's text never adds a line.  Must be called before the
 * next HDF5 call clears the error stack. */
const char *dg_io_h5_why(void) {
  static _Thread_local char buf[300];
  char desc[256], esc[280];
  desc[0] = '\0';
  buf[0] = '\0';
  if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, why_walk, desc) >= 0 && desc[0] != '\0')
    snprintf(buf, sizeof buf, " (HDF5: %s)", dg_escape(esc, sizeof esc, desc));
  return buf;
}

/* Close an id if open.  A failed close turns a so-far successful `rc` into
 * an error (a failing H5Fclose can mean data never reached the disk). */
int dg_io_h5_close(hid_t *id, herr_t (*fn)(hid_t), int rc, const char *path, const char *what) {
  if (*id < 0) return rc;
  herr_t st = fn(*id);
  *id = H5I_INVALID_HID;
  if (st < 0 && rc == 0)
    return dg_error(DG_ERR_LIB, "%s: cannot close %s%s", path, what, dg_io_h5_why());
  return rc;
}

int dg_io_h5_check(const char *path, const dg_snapshot *s) {
  const char *what = "write snapshot";
  DG_CALL(dg_io_check_grid(path, s, what));
  DG_CALL(dg_io_check_coeff(path, s, what));
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
      if (strcmp(s->param_keys[i], s->param_keys[j]) == 0) {
        char k[128];
        return dg_error(DG_ERR_ARG, "%s: cannot %s: parameter '%s' given twice", path, what,
                        dg_escape(k, sizeof k, s->param_keys[i]));
      }
  }
  if (s->config && strlen(s->config) > DG_IO_MAX_CONFIG)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: the configuration has %zu bytes, at most %d", path,
                    what, strlen(s->config), DG_IO_MAX_CONFIG);
  if (s->nhist < 0 || (s->nhist > 0 && !s->history))
    return dg_error(DG_ERR_ARG, "%s: cannot %s: nhist is %" PRId64 " with history NULL", path, what,
                    s->nhist);
  return 0;
}

/* ---- writing ---- */

typedef dg_io_h5w h5w;

static int w_attr(const h5w *w, hid_t loc, const char *obj, const char *name, hid_t ftype,
                  hid_t mtype, const void *val) {
  int rc = 0;
  hid_t sp = H5I_INVALID_HID, at = H5I_INVALID_HID;
  if ((sp = H5Screate(H5S_SCALAR)) < 0 ||
      (at = H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
      H5Awrite(at, mtype, val) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot write attribute '%s' of %s%s", w->path, name, obj,
                  dg_io_h5_why());
  rc = dg_io_h5_close(&at, H5Aclose, rc, w->path, "attribute");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, w->path, "dataspace");
  return rc;
}

/* Fixed-length, NUL-terminated UTF-8 string attribute. */
/* A one-dimensional float64 attribute of n values. */
static int w_attr_vec(const h5w *w, hid_t loc, const char *obj, const char *name, int n,
                      const double *val) {
  int rc = 0;
  const hsize_t dims[1] = {(hsize_t)n};
  hid_t sp = H5I_INVALID_HID, at = H5I_INVALID_HID;
  if ((sp = H5Screate_simple(1, dims, NULL)) < 0 ||
      (at = H5Acreate2(loc, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
      H5Awrite(at, H5T_NATIVE_DOUBLE, val) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot write attribute '%s' of %s%s", w->path, name, obj,
                  dg_io_h5_why());
  rc = dg_io_h5_close(&at, H5Aclose, rc, w->path, "attribute");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, w->path, "dataspace");
  return rc;
}

static int w_attr_str(const h5w *w, hid_t loc, const char *obj, const char *name, const char *val) {
  int rc = 0;
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0 || H5Tset_size(t, strlen(val) + 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0 ||
      H5Tset_cset(t, H5T_CSET_UTF8) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot make string type for attribute '%s' of %s%s", w->path,
                  name, obj, dg_io_h5_why());
  if (rc == 0) rc = w_attr(w, loc, obj, name, t, t, val);
  return dg_io_h5_close(&t, H5Tclose, rc, w->path, "string type");
}

/* Dataset `name` of shape dims, of which this rank writes the union of n
 * boxes (start[i * rank ..], count[i * rank ..]) from buf, which holds them
 * one after the other: they must come in the file's order (C order, not
 * overlapping), the order in which HDF5 walks a union.  n = 0: nothing from
 * here, but the write is still made (collective across ranks). */
static int w_dset_part(const h5w *w, const char *name, hid_t ftype, hid_t mtype, int rank,
                       const hsize_t *dims, int64_t n, const hsize_t *start, const hsize_t *count,
                       const void *buf) {
  int rc = 0;
  static const double none = 0;
  hsize_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    hsize_t c = 1;
    for (int r = 0; r < rank; ++r) c *= count[i * rank + r];
    total += c;
  }
  const hsize_t mdim = total ? total : 1;
  hid_t sp = H5I_INVALID_HID, ms = H5I_INVALID_HID, ds = H5I_INVALID_HID;
  if ((sp = H5Screate_simple(rank, dims, NULL)) < 0 ||
      (ms = H5Screate_simple(1, &mdim, NULL)) < 0 ||
      (ds = H5Dcreate2(w->file, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot create dataset %s%s", w->path, name, dg_io_h5_why());
  if (rc == 0 && (H5Sselect_none(sp) < 0 || (total == 0 && H5Sselect_none(ms) < 0)))
    rc = dg_error(DG_ERR_LIB, "%s: cannot select in dataset %s%s", w->path, name, dg_io_h5_why());
  for (int64_t i = 0; i < n && rc == 0; ++i)
    if (H5Sselect_hyperslab(sp, H5S_SELECT_OR, start + i * rank, NULL, count + i * rank, NULL) < 0)
      rc = dg_error(DG_ERR_LIB, "%s: cannot select in dataset %s%s", w->path, name, dg_io_h5_why());
  if (rc == 0 && H5Dwrite(ds, mtype, ms, sp, w->dxpl, buf ? buf : (const void *)&none) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot write dataset %s%s", w->path, name, dg_io_h5_why());
  rc = dg_io_h5_close(&ds, H5Dclose, rc, w->path, name);
  rc = dg_io_h5_close(&ms, H5Sclose, rc, w->path, "dataspace");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, w->path, "dataspace");
  return rc;
}

/* A dataset every rank holds whole: written by one of them. */
static int w_dset(const h5w *w, const char *name, hid_t ftype, hid_t mtype, int rank,
                  const hsize_t *dims, const void *buf) {
  const hsize_t zero[4] = {0, 0, 0, 0};
  return w_dset_part(w, name, ftype, mtype, rank, dims, w->writer, zero, dims, buf);
}

/* A dataset of the grid's shape times `scale` (slowest first), with `lead`
 * leading values per cell (0: none, else a first dimension of lead): this
 * rank's block, buf in the block's C order. */
static int w_dset_box(const h5w *w, const dg_snapshot *s, const char *name, hid_t ftype,
                      hid_t mtype, int64_t scale, int lead, const void *buf) {
  hsize_t dims[4], start[4], count[4];
  const int o = lead ? 1 : 0;
  if (lead) {
    dims[0] = count[0] = (hsize_t)lead;
    start[0] = 0;
  }
  dg_io_grid_dims(s, scale, dims + o);
  for (int r = 0; r < s->dim; ++r) {
    const int d = s->dim - 1 - r;
    start[o + r] = (hsize_t)((int64_t)w->lo[d] * scale);
    count[o + r] = (hsize_t)((int64_t)(w->hi[d] - w->lo[d]) * scale);
  }
  return w_dset_part(w, name, ftype, mtype, s->dim + o, dims, 1, start, count, buf);
}

/* A dataset of nelem rows in element order (rank > 1: rows of dims[1..]
 * values), or /coeff (rank 1, at the offsets of /coeff_offset): the rows of
 * this rank's block, a run per line of it along x. */
static int w_dset_rows(const h5w *w, const dg_snapshot *s, const char *name, int rank,
                       const hsize_t *dims, const void *buf) {
  const int64_t nline = (int64_t)(w->hi[1] - w->lo[1]) * (s->dim == 3 ? w->hi[2] - w->lo[2] : 1);
  hsize_t *start = calloc((size_t)(nline + 1) * 3, sizeof *start);
  hsize_t *count = calloc((size_t)(nline + 1) * 3, sizeof *count);
  hsize_t *rs = calloc((size_t)(nline + 1), sizeof *rs),
          *rn = calloc((size_t)(nline + 1), sizeof *rn);
  int rc = 0;
  if (!start || !count || !rs || !rn)
    rc = dg_error(DG_ERR_MEM, "%s: out of memory for the selection of %s", w->path, name);
  const int64_t n = rc ? 0 : dg_io_block_runs(s, w->lo, w->hi, rank == 1, rs, rn);
  for (int64_t i = 0; i < n; ++i)
    for (int r = 0; r < rank; ++r) {
      start[i * rank + r] = r == 0 ? rs[i] : 0;
      count[i * rank + r] = r == 0 ? rn[i] : dims[r];
    }
  if (rc == 0)
    rc = w_dset_part(w, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, rank, dims, n, start, count, buf);
  free(start);
  free(count);
  free(rs);
  free(rn);
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
      rc = dg_error(DG_ERR_LIB, "%s: cannot set up group %s%s", w->path, name, dg_io_h5_why());
  }
  if (rc == 0 && (*out = H5Gcreate2(w->file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT)) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot create group %s%s", w->path, name, dg_io_h5_why());
  if (ordered) rc = dg_io_h5_close(&gcpl, H5Pclose, rc, w->path, "group property list");
  return rc;
}

static int w_grid_and_attrs(const h5w *w, const dg_snapshot *s) {
  int version = DG_IO_FORMAT_VERSION;
  DG_CALL(w_attr_str(w, w->file, "/", "format", DG_IO_FORMAT_NAME));
  DG_CALL(w_attr(w, w->file, "/", "format_version", H5T_STD_I32LE, H5T_NATIVE_INT, &version));
  DG_CALL(w_attr(w, w->file, "/", "dim", H5T_STD_I32LE, H5T_NATIVE_INT, &s->dim));
  DG_CALL(w_attr(w, w->file, "/", "nvar", H5T_STD_I32LE, H5T_NATIVE_INT, &s->nvar));
  DG_CALL(w_attr(w, w->file, "/", "q", H5T_STD_I32LE, H5T_NATIVE_INT, &s->q));
  DG_CALL(w_attr(w, w->file, "/", "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &s->time));
  DG_CALL(w_attr(w, w->file, "/", "step", H5T_STD_I64LE, H5T_NATIVE_INT64, &s->step));
  DG_CALL(w_attr_str(w, w->file, "/", "model", s->model));
  if (s->variables[0]) DG_CALL(w_attr_str(w, w->file, "/", "variables", s->variables));
  if (s->dt != 0) DG_CALL(w_attr(w, w->file, "/", "dt", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &s->dt));
  if (s->config) DG_CALL(w_attr_str(w, w->file, "/", "config", s->config));
  if (s->mass0) DG_CALL(w_attr_vec(w, w->file, "/", "mass0", s->nvar, s->mass0));
  if (s->mass_scale) DG_CALL(w_attr_vec(w, w->file, "/", "mass_scale", s->nvar, s->mass_scale));
  if (s->radius > 0)
    DG_CALL(
        w_attr(w, w->file, "/", "sphere_radius", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &s->radius));

  hid_t g;
  DG_CALL(w_group(w, "/grid", 0, &g));
  int rc = dg_io_h5_close(&g, H5Gclose, 0, w->path, "group /grid");
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

/* The sphere: the view nodes' Cartesian coordinates /view/xyz
 * [n2 vs + 1][n1 vs + 1][3], a (cos th cos lam, cos th sin lam, sin th), so
 * that a viewer shows a globe (the XDMF sidecar's 2DSMesh).  Each rank
 * writes the nodes of its block's lower corners, and the last row or
 * column of nodes where its block ends the grid: no node twice. */
static int w_sphere_nodes(const h5w *w, const dg_snapshot *s) {
  const int vs = s->view_s;
  const int64_t n1 = (int64_t)s->cells[0] * vs + 1, n2 = (int64_t)s->cells[1] * vs + 1;
  const int64_t i0 = (int64_t)w->lo[0] * vs, j0 = (int64_t)w->lo[1] * vs;
  const int64_t i1 = (int64_t)w->hi[0] * vs + (w->hi[0] == s->cells[0]);
  const int64_t j1 = (int64_t)w->hi[1] * vs + (w->hi[1] == s->cells[1]);
  const int64_t m1 = i1 - i0, m2 = j1 - j0;
  if ((uint64_t)(m1 * m2) > SIZE_MAX / 3 / sizeof(double))
    return dg_error(DG_ERR_ARG, "%s: view sub-grid is too large", w->path);
  double *xyz = malloc((size_t)(m1 * m2 * 3 + 1) * sizeof *xyz);
  if (!xyz) return dg_error(DG_ERR_MEM, "%s: out of memory for /view/xyz", w->path);
  const double dl = (s->hi[0] - s->lo[0]) / (double)(n1 - 1);
  const double dt = (s->hi[1] - s->lo[1]) / (double)(n2 - 1);
  for (int64_t j = j0; j < j1; ++j)
    for (int64_t i = i0; i < i1; ++i) {
      const double lam = s->lo[0] + (double)i * dl, th = s->lo[1] + (double)j * dt;
      double *p = xyz + 3 * ((i - i0) + m1 * (j - j0));
      p[0] = s->radius * cos(th) * cos(lam);
      p[1] = s->radius * cos(th) * sin(lam);
      p[2] = s->radius * sin(th);
    }
  const hsize_t dims[3] = {(hsize_t)n2, (hsize_t)n1, 3};
  const hsize_t start[3] = {(hsize_t)j0, (hsize_t)i0, 0}, count[3] = {(hsize_t)m2, (hsize_t)m1, 3};
  const int rc =
      w_dset_part(w, "/view/xyz", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, dims, 1, start, count, xyz);
  free(xyz);
  return rc;
}

/* The degree of each cell of this rank's block, each repeated on scale^dim
 * cells, in the block's C order, into *out (malloc'd). */
static int box_degree(const h5w *w, const dg_snapshot *s, int scale, uint8_t **out) {
  const int64_t n1 = (int64_t)(w->hi[0] - w->lo[0]) * scale;
  const int64_t n2 = (int64_t)(w->hi[1] - w->lo[1]) * scale;
  const int64_t n3 = s->dim == 3 ? (int64_t)(w->hi[2] - w->lo[2]) * scale : 1;
  int64_t nv;
  *out = NULL;
  if (dg_io_mul64(n1 * n2, n3, &nv) != 0 || (uint64_t)nv >= SIZE_MAX)
    return dg_error(DG_ERR_ARG, "%s: view sub-grid is too large", w->path);
  uint8_t *vd = malloc((size_t)nv + 1);
  if (!vd) return dg_error(DG_ERR_MEM, "%s: out of memory for the degrees", w->path);
  for (int64_t k = 0; k < n3; ++k)
    for (int64_t j = 0; j < n2; ++j)
      for (int64_t i = 0; i < n1; ++i) {
        const int64_t kk = s->dim == 3 ? w->lo[2] + k / scale : 0;
        const int64_t e =
            w->lo[0] + i / scale + s->cells[0] * (w->lo[1] + j / scale + s->cells[1] * kk);
        vd[i + n1 * (j + n2 * k)] = s->degree[e];
      }
  *out = vd;
  return 0;
}

static int w_view(const h5w *w, const dg_snapshot *s) {
  int vs = s->view_s;
  hid_t g;
  DG_CALL(w_group(w, "/view", 0, &g));
  int rc = w_attr(w, g, "/view", "samples_per_element", H5T_STD_I32LE, H5T_NATIVE_INT, &vs);
  rc = dg_io_h5_close(&g, H5Gclose, rc, w->path, "group /view");
  if (rc) return rc;
  DG_CALL(w_dset_box(w, s, "/view/values", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, vs, s->nvar,
                     s->view_values));
  if (s->view_error)
    DG_CALL(w_dset_box(w, s, "/view/error", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, vs, s->nvar,
                       s->view_error));

  /* The degree repeated on the view cells, so viewers can colour by it. */
  uint8_t *vd;
  DG_CALL(box_degree(w, s, vs, &vd));
  rc = w_dset_box(w, s, "/view/degree", H5T_STD_U8LE, H5T_NATIVE_UINT8, vs, 0, vd);
  free(vd);
  if (rc == 0 && s->radius > 0) rc = w_sphere_nodes(w, s);
  return rc;
}

static int w_params(const h5w *w, const dg_snapshot *s) {
  hid_t g;
  DG_CALL(w_group(w, "/parameters", 1, &g));
  int rc = 0;
  for (int i = 0; i < s->nparams && rc == 0; ++i)
    rc = w_attr_str(w, g, "/parameters", s->param_keys[i], s->param_values[i]);
  return dg_io_h5_close(&g, H5Gclose, rc, w->path, "group /parameters");
}

int dg_io_h5_write_body(const h5w *w, const dg_snapshot *s) {
  DG_CALL(w_grid_and_attrs(w, s));
  {
    uint8_t *deg;
    DG_CALL(box_degree(w, s, 1, &deg));
    const int rc = w_dset_box(w, s, "/degree", H5T_STD_U8LE, H5T_NATIVE_UINT8, 1, 0, deg);
    free(deg);
    DG_CALL(rc);
  }
  {
    hsize_t n = (hsize_t)s->nelem + 1;
    DG_CALL(w_dset(w, "/coeff_offset", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, &n, s->coeff_offset));
  }
  {
    hsize_t n = (hsize_t)s->coeff_offset[s->nelem];
    DG_CALL(w_dset_rows(w, s, "/coeff", 1, &n, s->coeff));
  }
  if (s->gauss_values) {
    hsize_t dims[3] = {(hsize_t)s->nelem, (hsize_t)dg_io_ipow64(s->q, s->dim), (hsize_t)s->nvar};
    DG_CALL(w_dset_rows(w, s, "/gauss_values", 3, dims, s->gauss_values));
  }
  if (s->view_s > 0) DG_CALL(w_view(w, s));
  DG_CALL(w_params(w, s));
  if (s->nhist > 0) {
    hsize_t dims[2] = {(hsize_t)s->nhist, 4};
    DG_CALL(w_dset(w, "/history", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, s->history));
  }
  return 0;
}

/* The body of dg_snapshot_write: the whole file in memory, sealed, into
 * *image (malloc'd, *len bytes). */
static int build_h5(const char *path, const dg_snapshot *s, unsigned char **image, size_t *len) {
  int rc = 0;
  hid_t fapl = H5I_INVALID_HID, fcpl = H5I_INVALID_HID;
  const int lo[3] = {0, 0, 0};
  h5w w = {path, H5I_INVALID_HID, H5P_DEFAULT, 1, lo, s->cells};
  *image = NULL;
  *len = 0;
  if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 || H5Pset_fapl_core(fapl, 1 << 20, 0) < 0 ||
      H5Pset_fclose_degree(fapl, H5F_CLOSE_SEMI) < 0 || (fcpl = H5Pcreate(H5P_FILE_CREATE)) < 0 ||
      H5Pset_userblock(fcpl, DG_IO_USERBLOCK) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot set up the HDF5 file properties%s", path, dg_io_h5_why());
  /* In memory only (no backing store): the name just labels it for HDF5. */
  if (rc == 0 &&
      (w.file = H5Fcreate("/nonexistent/dgrid-new-image", H5F_ACC_TRUNC, fcpl, fapl)) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot create the HDF5 file in memory%s", path, dg_io_h5_why());
  rc = dg_io_h5_close(&fcpl, H5Pclose, rc, path, "file creation list");
  rc = dg_io_h5_close(&fapl, H5Pclose, rc, path, "file access list");

  if (rc == 0) rc = dg_io_h5_write_body(&w, s);
  /* The image starts at the superblock; the user block is ours to add. */
  ssize_t n = -1;
  if (rc == 0 &&
      (H5Fflush(w.file, H5F_SCOPE_GLOBAL) < 0 || (n = H5Fget_file_image(w.file, NULL, 0)) <= 0))
    rc = dg_error(DG_ERR_LIB, "%s: cannot take the HDF5 file image%s", path, dg_io_h5_why());
  unsigned char *buf = NULL;
  if (rc == 0 && !(buf = malloc((size_t)n + DG_IO_USERBLOCK)))
    rc = dg_error(DG_ERR_MEM, "%s: out of memory: the file image needs %zd bytes", path,
                  n + DG_IO_USERBLOCK);
  if (rc == 0 && H5Fget_file_image(w.file, buf + DG_IO_USERBLOCK, (size_t)n) != n)
    rc = dg_error(DG_ERR_LIB, "%s: cannot take the HDF5 file image%s", path, dg_io_h5_why());
  rc = dg_io_h5_close(&w.file, H5Fclose, rc, path, "the HDF5 file");
  if (rc != 0) {
    free(buf);
    return rc;
  }
  *len = (size_t)n + DG_IO_USERBLOCK;
  dg_io_seal(buf, *len);
  *image = buf;
  return 0;
}

int dg_snapshot_write(const char *path, const dg_snapshot *s) {
  DG_ARG_NONNULL("dg_snapshot_write", path);
  DG_ARG_NONNULL("dg_snapshot_write", s);
  if (!path || !s) return dg_error(DG_ERR_ARG, "dg_snapshot_write: NULL path or snapshot");
  char *label = dg_escape_dup(path);
  if (!label) return dg_error(DG_ERR_MEM, "dg_snapshot_write: out of memory");
  unsigned char *image = NULL;
  size_t len = 0;
  dg_io_h5_quiet q;
  int rc = dg_io_h5_check(label, s);
  if (rc == 0) rc = dg_io_h5_quiet_begin(&q, label);
  if (rc == 0) {
    rc = build_h5(label, s, &image, &len);
    rc = dg_io_h5_quiet_end(&q, rc, label);
  }
  dg_io_out o;
  if (rc == 0) rc = dg_io_out_open(&o, path, label);
  if (rc == 0) {
    dg_io_out_write(&o, image, len);
    rc = dg_io_out_commit(&o, "snapshot");
  }
  free(image);
  free(label);
  return rc;
}
