/* dg_io_h5read.c - the HDF5 snapshot reader.
 *
 * It parses a file image in memory that dg_io.c loaded (a bounded read of a
 * regular file) and verified (checksum block, dg_io_seal.c): HDF5 never
 * opens the path itself.  Every attribute and dataset is checked for
 * presence, class and exact shape, and nothing is allocated for a dataset
 * whose declared size exceeds the file. */
#include "dg_io.h"

#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_internal.h"

#include <hdf5.h>

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- reading ---- */

typedef struct {
  const char *path; /* the file's label (escaped) for messages */
  hid_t file;
  uint64_t fsize; /* bytes in the file: no dataset can hold more */
} h5r;

/* Refuse `count` values of `tsize` bytes each (a dataset or attribute of
 * the file) when they cannot fit in the file: checked before allocating. */
static int r_fits(const h5r *r, const char *what, const char *name, uint64_t count, size_t tsize) {
  if (tsize == 0 || count <= r->fsize / tsize) return 0;
  if (count > UINT64_MAX / tsize)
    return dg_error(DG_ERR_IO, "%s: %s %s declares %llu values of %zu bytes, more than 2^64 bytes",
                    r->path, what, name, (unsigned long long)count, tsize);
  return dg_error(DG_ERR_IO,
                  "%s: %s %s declares %llu values of %zu bytes (%llu bytes), more than the whole "
                  "file (%llu bytes)",
                  r->path, what, name, (unsigned long long)count, tsize,
                  (unsigned long long)(count * tsize), (unsigned long long)r->fsize);
}

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
    if (ex < 0) return dg_error(DG_ERR_IO, "%s: cannot look up %s%s", r->path, buf, dg_io_h5_why());
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
                    dg_io_h5_why());
  if (ex == 0)
    return dg_error(DG_ERR_IO, "%s: attribute '%s' of %s is missing", r->path, name, obj);
  int rc = 0;
  hid_t at = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
  H5T_class_t cls = H5T_NO_CLASS;
  hssize_t npts = -1;
  if ((at = H5Aopen(loc, name, H5P_DEFAULT)) < 0 || (sp = H5Aget_space(at)) < 0 ||
      (npts = H5Sget_simple_extent_npoints(sp)) < 0 || (ft = H5Aget_type(at)) < 0 ||
      (cls = H5Tget_class(ft)) == H5T_NO_CLASS) {
    rc = dg_error(DG_ERR_IO, "%s: cannot open attribute '%s' of %s%s", r->path, name, obj,
                  dg_io_h5_why());
  } else if (npts != 1) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s has %lld values, expected 1", r->path, name,
                  obj, (long long)npts);
  } else if (cls != want && !(want == H5T_FLOAT && cls == H5T_INTEGER)) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s is %s, expected %s", r->path, name, obj,
                  class_name(cls), class_name(want));
  } else if (H5Aread(at, mtype, out) < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot read attribute '%s' of %s%s", r->path, name, obj,
                  dg_io_h5_why());
  }
  rc = dg_io_h5_close(&ft, H5Tclose, rc, r->path, "attribute type");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, r->path, "attribute dataspace");
  rc = dg_io_h5_close(&at, H5Aclose, rc, r->path, "attribute");
  return rc;
}

/* An optional one-dimensional float attribute of exactly n finite values into
 * a new malloc'd array (*out NULL when the file has none). */
static int r_attr_vec(const h5r *r, hid_t loc, const char *obj, const char *name, int n,
                      double **out) {
  *out = NULL;
  htri_t ex = H5Aexists(loc, name);
  if (ex < 0)
    return dg_error(DG_ERR_IO, "%s: cannot look up attribute '%s' of %s%s", r->path, name, obj,
                    dg_io_h5_why());
  if (ex == 0) return 0;
  int rc = 0;
  hid_t at = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
  H5T_class_t cls = H5T_NO_CLASS;
  hssize_t npts = -1;
  double *v = NULL;
  if ((at = H5Aopen(loc, name, H5P_DEFAULT)) < 0 || (sp = H5Aget_space(at)) < 0 ||
      (npts = H5Sget_simple_extent_npoints(sp)) < 0 || (ft = H5Aget_type(at)) < 0 ||
      (cls = H5Tget_class(ft)) == H5T_NO_CLASS) {
    rc = dg_error(DG_ERR_IO, "%s: cannot open attribute '%s' of %s%s", r->path, name, obj,
                  dg_io_h5_why());
  } else if (npts != n || H5Sget_simple_extent_ndims(sp) != 1) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s has %lld values, expected %d (nvar)",
                  r->path, name, obj, (long long)npts, n);
  } else if (cls != H5T_FLOAT) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s is %s, expected %s", r->path, name, obj,
                  class_name(cls), class_name(H5T_FLOAT));
  } else if (!(v = malloc((size_t)n * sizeof *v))) {
    rc = dg_error(DG_ERR_MEM, "%s: out of memory for attribute '%s'", r->path, name);
  } else if (H5Aread(at, H5T_NATIVE_DOUBLE, v) < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot read attribute '%s' of %s%s", r->path, name, obj,
                  dg_io_h5_why());
  }
  for (int i = 0; rc == 0 && i < n; ++i)
    if (!isfinite(v[i]))
      rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s: value %d is not finite", r->path, name,
                    obj, i);
  rc = dg_io_h5_close(&ft, H5Tclose, rc, r->path, "attribute type");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, r->path, "attribute dataspace");
  rc = dg_io_h5_close(&at, H5Aclose, rc, r->path, "attribute");
  if (rc)
    free(v);
  else
    *out = v;
  return rc;
}

/* Read a scalar string attribute (fixed- or variable-length) into a new
 * malloc'd string; Fortran-style space padding is stripped. */
static int r_attr_str(const h5r *r, hid_t loc, const char *obj, const char *raw_name, char **out) {
  char name[128]; /* the name may come from the file: escaped for messages */
  dg_escape(name, sizeof name, raw_name);
  *out = NULL;
  htri_t ex = H5Aexists(loc, raw_name);
  if (ex < 0)
    return dg_error(DG_ERR_IO, "%s: cannot look up attribute '%s' of %s%s", r->path, name, obj,
                    dg_io_h5_why());
  if (ex == 0)
    return dg_error(DG_ERR_IO, "%s: attribute '%s' of %s is missing", r->path, name, obj);
  int rc = 0;
  hid_t at = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
  hid_t mt = H5I_INVALID_HID;
  H5T_class_t cls = H5T_NO_CLASS;
  hssize_t npts = -1;
  htri_t vl = -1;
  if ((at = H5Aopen(loc, raw_name, H5P_DEFAULT)) < 0 || (sp = H5Aget_space(at)) < 0 ||
      (npts = H5Sget_simple_extent_npoints(sp)) < 0 || (ft = H5Aget_type(at)) < 0 ||
      (cls = H5Tget_class(ft)) == H5T_NO_CLASS) {
    rc = dg_error(DG_ERR_IO, "%s: cannot open attribute '%s' of %s%s", r->path, name, obj,
                  dg_io_h5_why());
    goto done;
  }
  if (npts != 1 || cls != H5T_STRING) {
    rc = dg_error(DG_ERR_IO, "%s: attribute '%s' of %s must be one string, found %lld %s value(s)",
                  r->path, name, obj, (long long)npts, class_name(cls));
    goto done;
  }
  if ((vl = H5Tis_variable_str(ft)) < 0 || (mt = H5Tcopy(ft)) < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot inspect attribute '%s' of %s%s", r->path, name, obj,
                  dg_io_h5_why());
    goto done;
  }
  if (vl) {
    char *p = NULL;
    if (H5Aread(at, mt, &p) < 0) {
      rc = dg_error(DG_ERR_IO, "%s: cannot read attribute '%s' of %s%s", r->path, name, obj,
                    dg_io_h5_why());
      goto done;
    }
    *out = dg_io_strdup(p ? p : "");
    if (p && H5free_memory(p) < 0)
      rc = dg_error(DG_ERR_LIB, "%s: cannot free attribute '%s' of %s%s", r->path, name, obj,
                    dg_io_h5_why());
  } else {
    size_t sz = H5Tget_size(ft);
    if (sz == 0) {
      rc = dg_error(DG_ERR_IO, "%s: cannot size attribute '%s' of %s%s", r->path, name, obj,
                    dg_io_h5_why());
      goto done;
    }
    char what[160];
    snprintf(what, sizeof what, "'%s' of %s", name, obj);
    if ((rc = r_fits(r, "attribute", what, 1, sz)) != 0) goto done;
    char *p = calloc(sz + 1, 1);
    if (!p) {
      rc = dg_error(DG_ERR_MEM, "%s: out of memory reading attribute '%s'", r->path, name);
      goto done;
    }
    if (H5Aread(at, mt, p) < 0) {
      free(p);
      rc = dg_error(DG_ERR_IO, "%s: cannot read attribute '%s' of %s%s", r->path, name, obj,
                    dg_io_h5_why());
      goto done;
    }
    size_t n = strlen(p);
    while (n > 0 && p[n - 1] == ' ') p[--n] = '\0';
    *out = p;
  }
  if (rc == 0 && !*out)
    rc = dg_error(DG_ERR_MEM, "%s: out of memory reading attribute '%s'", r->path, name);
done:
  rc = dg_io_h5_close(&mt, H5Tclose, rc, r->path, "string type");
  rc = dg_io_h5_close(&ft, H5Tclose, rc, r->path, "attribute type");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, r->path, "attribute dataspace");
  rc = dg_io_h5_close(&at, H5Aclose, rc, r->path, "attribute");
  if (rc != 0) {
    free(*out);
    *out = NULL;
  }
  return rc;
}

/* Shape of dataset `name` (which must exist): rank and dims[<=4]. */
static int r_shape(const h5r *r, const char *name, int *rank, hsize_t dims[4], H5T_class_t *cls,
                   size_t *tsize) {
  int ex;
  DG_CALL(r_exists(r, name, &ex));
  if (!ex) return dg_error(DG_ERR_IO, "%s: dataset %s is missing", r->path, name);
  int rc = 0, nd = -1;
  hid_t ds = H5I_INVALID_HID, sp = H5I_INVALID_HID, ft = H5I_INVALID_HID;
  if ((ds = H5Dopen2(r->file, name, H5P_DEFAULT)) < 0 || (sp = H5Dget_space(ds)) < 0 ||
      (nd = H5Sget_simple_extent_ndims(sp)) < 0 || (ft = H5Dget_type(ds)) < 0 ||
      (*cls = H5Tget_class(ft)) == H5T_NO_CLASS || (*tsize = H5Tget_size(ft)) == 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot open dataset %s%s", r->path, name, dg_io_h5_why());
  } else if (nd > 4) {
    rc = dg_error(DG_ERR_IO, "%s: dataset %s has rank %d, at most 4 expected", r->path, name, nd);
  } else if (H5Sget_simple_extent_dims(sp, dims, NULL) < 0) {
    rc = dg_error(DG_ERR_IO, "%s: cannot read the shape of dataset %s%s", r->path, name,
                  dg_io_h5_why());
  } else {
    *rank = nd;
  }
  rc = dg_io_h5_close(&ft, H5Tclose, rc, r->path, "datatype");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, r->path, "dataspace");
  rc = dg_io_h5_close(&ds, H5Dclose, rc, r->path, name);
  return rc;
}

/* Read dataset `name`, checking presence, type class and exact shape, into
 * a new malloc'd buffer of `esize`-byte elements. */
static int r_dset(const h5r *r, const char *name, H5T_class_t want, hid_t mtype, size_t esize,
                  int rank, const hsize_t *dims, void **out) {
  int nd = 0;
  hsize_t have[4];
  H5T_class_t cls = H5T_NO_CLASS;
  size_t tsize = 0;
  char a[96], b[96];
  *out = NULL;
  DG_CALL(r_shape(r, name, &nd, have, &cls, &tsize));
  if (cls != want)
    return dg_error(DG_ERR_IO, "%s: dataset %s holds %s values, expected %s", r->path, name,
                    class_name(cls), class_name(want));
  int same = nd == rank;
  for (int i = 0; same && i < rank; ++i) same = have[i] == dims[i];
  if (!same)
    return dg_error(DG_ERR_IO, "%s: dataset %s has shape %s, expected %s", r->path, name,
                    dg_io_dims_label(a, sizeof a, nd, have),
                    dg_io_dims_label(b, sizeof b, rank, dims));
  uint64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    if (dims[i] != 0 && count > UINT64_MAX / dims[i]) {
      char d[96];
      return dg_error(DG_ERR_IO, "%s: dataset %s declares shape %s, more than 2^64 values", r->path,
                      name, dg_io_dims_label(d, sizeof d, rank, dims));
    }
    count *= dims[i];
  }
  /* Nothing is allocated for data the file cannot hold: at most esize/tsize
   * (<= 8) times the file size when a narrower stored type is converted. */
  DG_CALL(r_fits(r, "dataset", name, count, tsize));
  if (count > (uint64_t)SIZE_MAX / esize)
    return dg_error(DG_ERR_MEM, "%s: dataset %s is too large for memory", r->path, name);
  void *buf = malloc(count ? (size_t)count * esize : 1);
  if (!buf)
    return dg_error(DG_ERR_MEM, "%s: out of memory reading dataset %s: needs %llu bytes", r->path,
                    name, (unsigned long long)(count * esize));
  int rc = 0;
  hid_t ds = H5Dopen2(r->file, name, H5P_DEFAULT);
  if (ds < 0 || (count > 0 && H5Dread(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0))
    rc = dg_error(DG_ERR_IO, "%s: cannot read dataset %s%s", r->path, name, dg_io_h5_why());
  rc = dg_io_h5_close(&ds, H5Dclose, rc, r->path, name);
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
  char *val = NULL, *key = dg_io_strdup(name);
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
    rc = dg_error(DG_ERR_IO, "%s: cannot open group /parameters%s", r->path, dg_io_h5_why());
  } else {
    param_iter it = {r, s, 0, 0};
    hsize_t idx = 0;
    H5_index_t by = (flags & H5P_CRT_ORDER_INDEXED) ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME;
    if (H5Aiterate2(g, by, H5_ITER_INC, &idx, param_cb, &it) < 0)
      rc = it.rc ? it.rc
                 : dg_error(DG_ERR_IO, "%s: cannot list attributes of /parameters%s", r->path,
                            dg_io_h5_why());
  }
  rc = dg_io_h5_close(&gcpl, H5Pclose, rc, r->path, "group property list");
  rc = dg_io_h5_close(&g, H5Gclose, rc, r->path, "group /parameters");
  return rc;
}

static int r_root_attrs(const h5r *r, dg_snapshot *s) {
  char *fmt = NULL, *model = NULL;
  int version = 0;
  DG_CALL(r_attr_str(r, r->file, "/", "format", &fmt));
  int bad = strcmp(fmt, DG_IO_FORMAT_NAME) != 0;
  char esc[96];
  if (bad)
    dg_error(DG_ERR_IO, "%s: not a dgrid snapshot (attribute 'format' of / is '%s', expected '%s')",
             r->path, dg_escape(esc, sizeof esc, fmt), DG_IO_FORMAT_NAME);
  free(fmt);
  if (bad) return DG_ERR_IO;
  DG_CALL(r_attr_num(r, r->file, "/", "format_version", H5T_INTEGER, H5T_NATIVE_INT, &version));
  if (version != DG_IO_FORMAT_VERSION)
    return dg_error(DG_ERR_IO, "%s: unsupported format_version %d (this reader knows %d)", r->path,
                    version, DG_IO_FORMAT_VERSION);
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
  { /* optional: the sphere's radius (a latitude-longitude grid) */
    const htri_t ex = H5Aexists(r->file, "sphere_radius");
    if (ex < 0)
      return dg_error(DG_ERR_IO, "%s: cannot look up attribute 'sphere_radius' of /%s", r->path,
                      dg_io_h5_why());
    if (ex > 0) {
      DG_CALL(
          r_attr_num(r, r->file, "/", "sphere_radius", H5T_FLOAT, H5T_NATIVE_DOUBLE, &s->radius));
      if (!(s->radius > 0) || !isfinite(s->radius))
        return dg_error(DG_ERR_IO, "%s: attribute 'sphere_radius' of / is %g, must be positive",
                        r->path, s->radius);
    }
  }
  { /* optional: the variables' names (files before it lack them) */
    const htri_t ex = H5Aexists(r->file, "variables");
    if (ex < 0)
      return dg_error(DG_ERR_IO, "%s: cannot look up attribute 'variables' of /%s", r->path,
                      dg_io_h5_why());
    if (ex > 0) {
      char *vars = NULL;
      DG_CALL(r_attr_str(r, r->file, "/", "variables", &vars));
      const size_t nv = strlen(vars);
      if (nv >= sizeof s->variables) {
        free(vars);
        return dg_error(DG_ERR_IO, "%s: attribute 'variables' of / is %zu characters, at most %zu",
                        r->path, nv, sizeof s->variables - 1);
      }
      memcpy(s->variables, vars, nv + 1);
      free(vars);
    }
  }
  { /* optional: the run's time step and configuration (files before them lack them) */
    htri_t ex = H5Aexists(r->file, "dt");
    if (ex < 0)
      return dg_error(DG_ERR_IO, "%s: cannot look up attribute 'dt' of /%s", r->path,
                      dg_io_h5_why());
    if (ex > 0) DG_CALL(r_attr_num(r, r->file, "/", "dt", H5T_FLOAT, H5T_NATIVE_DOUBLE, &s->dt));
    ex = H5Aexists(r->file, "config");
    if (ex < 0)
      return dg_error(DG_ERR_IO, "%s: cannot look up attribute 'config' of /%s", r->path,
                      dg_io_h5_why());
    if (ex > 0) {
      DG_CALL(r_attr_str(r, r->file, "/", "config", &s->config));
      const size_t nc = strlen(s->config);
      if (nc > DG_IO_MAX_CONFIG)
        return dg_error(DG_ERR_IO, "%s: attribute 'config' of / is %zu bytes, at most %d", r->path,
                        nc, DG_IO_MAX_CONFIG);
    }
  }
  if (s->dim != 2 && s->dim != 3)
    return dg_error(DG_ERR_IO, "%s: attribute 'dim' of / is %d, must be 2 or 3", r->path, s->dim);
  if (s->nvar < 1 || s->nvar > 1000000)
    return dg_error(DG_ERR_IO, "%s: attribute 'nvar' of / is %d, must be >= 1", r->path, s->nvar);
  if (s->q < 1 || s->q > 1000)
    return dg_error(DG_ERR_IO, "%s: attribute 'q' of / is %d, must be in [1, 1000]", r->path, s->q);
  /* optional: the mass at t = 0 and its scale (files before them lack them) */
  DG_CALL(r_attr_vec(r, r->file, "/", "mass0", s->nvar, &s->mass0));
  DG_CALL(r_attr_vec(r, r->file, "/", "mass_scale", s->nvar, &s->mass_scale));
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
    if (cells[d] < 1 || cells[d] > DG_IO_MAX_CELLS_PER_DIM) {
      rc = dg_error(DG_ERR_IO, "%s: dataset /grid/cells: entry %d is %d, must be in [1, %lld]",
                    r->path, d, (int)cells[d], DG_IO_MAX_CELLS_PER_DIM);
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
  if (rc == 0 && s->nelem > DG_IO_MAX_NELEM)
    rc = dg_error(DG_ERR_IO, "%s: dataset /grid/cells gives %" PRId64 " elements, too many",
                  r->path, s->nelem);
  free(cells);
  free(lo);
  free(hi);
  free(h);
  return rc;
}

/* /degree and /coeff_offset, each checked against the other. */
static int r_map(const h5r *r, dg_snapshot *s) {
  hsize_t dims[3];
  char lab[64];
  dg_io_grid_dims(s, 1, dims);
  DG_CALL(
      r_dset(r, "/degree", H5T_INTEGER, H5T_NATIVE_UINT8, 1, s->dim, dims, (void **)&s->degree));
  for (int64_t e = 0; e < s->nelem; ++e)
    if (s->degree[e] > DG_MAX_DEGREE)
      return dg_error(DG_ERR_IO, "%s: dataset /degree: element %" PRId64 " %s has degree %d > %d",
                      r->path, e, dg_io_elem_label(lab, sizeof lab, s->dim, s->cells, e),
                      s->degree[e], DG_MAX_DEGREE);
  hsize_t n = (hsize_t)s->nelem + 1;
  DG_CALL(r_dset(r, "/coeff_offset", H5T_INTEGER, H5T_NATIVE_INT64, sizeof(int64_t), 1, &n,
                 (void **)&s->coeff_offset));
  const int64_t *off = s->coeff_offset;
  if (off[0] != 0)
    return dg_error(DG_ERR_IO, "%s: dataset /coeff_offset starts at %" PRId64 ", must start at 0",
                    r->path, off[0]);
  for (int64_t e = 0; e < s->nelem; ++e) {
    int64_t want = dg_io_elem_len(s->dim, s->nvar, s->degree[e]), span = 0;
    /* Checked: file values may be anything (INT64_MIN included). */
    if (__builtin_sub_overflow(off[e + 1], off[e], &span) || span != want) {
      char sp[48];
      if (__builtin_sub_overflow(off[e + 1], off[e], &span))
        snprintf(sp, sizeof sp, "overflow");
      else
        snprintf(sp, sizeof sp, "%" PRId64 " values", span);
      return dg_error(DG_ERR_IO,
                      "%s: dataset /coeff_offset is inconsistent with /degree at element %" PRId64
                      " %s: offsets %" PRId64 "..%" PRId64 " span %s, degree %d with nvar %d "
                      "needs %" PRId64,
                      r->path, e, dg_io_elem_label(lab, sizeof lab, s->dim, s->cells, e), off[e],
                      off[e + 1], sp, s->degree[e], s->nvar, want);
    }
  }
  return 0;
}

static int r_coeff(const h5r *r, dg_snapshot *s) {
  DG_CALL(r_map(r, s));
  hsize_t n = (hsize_t)s->coeff_offset[s->nelem];
  return r_dset(r, "/coeff", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), 1, &n,
                (void **)&s->coeff);
}

/* The coefficients of the elements of block [lo, hi) into s->coeff, in
 * element order: its runs of /coeff (s->coeff_offset read and checked). */
static int r_coeff_block(const h5r *r, dg_snapshot *s, const int *lo, const int *hi) {
  int nd = 0;
  hsize_t have[4];
  H5T_class_t cls = H5T_NO_CLASS;
  size_t tsize = 0;
  char a[96];
  const hsize_t n = (hsize_t)s->coeff_offset[s->nelem];
  DG_CALL(r_shape(r, "/coeff", &nd, have, &cls, &tsize));
  if (cls != H5T_FLOAT || nd != 1 || have[0] != n)
    return dg_error(
        DG_ERR_IO, "%s: dataset /coeff holds %s values of shape %s, expected float [%llu]", r->path,
        class_name(cls), dg_io_dims_label(a, sizeof a, nd, have), (unsigned long long)n);
  DG_CALL(r_fits(r, "dataset", "/coeff", n, tsize));
  const int64_t nline = (int64_t)(hi[1] - lo[1]) * (s->dim == 3 ? hi[2] - lo[2] : 1);
  hsize_t *start = calloc((size_t)nline + 1, sizeof *start);
  hsize_t *count = calloc((size_t)nline + 1, sizeof *count);
  int rc = start && count ? 0 : dg_error(DG_ERR_MEM, "%s: out of memory for a selection", r->path);
  const int64_t nrun = rc ? 0 : dg_io_block_runs(s, lo, hi, 1, start, count);
  hsize_t total = 0;
  for (int64_t i = 0; i < nrun; ++i) total += count[i];
  if (rc == 0 && !(s->coeff = malloc((size_t)(total ? total : 1) * sizeof(double))))
    rc = dg_error(DG_ERR_MEM, "%s: out of memory reading dataset /coeff", r->path);
  hid_t ds = H5I_INVALID_HID, sp = H5I_INVALID_HID, ms = H5I_INVALID_HID;
  if (rc == 0 &&
      ((ds = H5Dopen2(r->file, "/coeff", H5P_DEFAULT)) < 0 || (sp = H5Dget_space(ds)) < 0 ||
       H5Sselect_none(sp) < 0 || (ms = H5Screate_simple(1, &total, NULL)) < 0))
    rc = dg_error(DG_ERR_IO, "%s: cannot open dataset /coeff%s", r->path, dg_io_h5_why());
  for (int64_t i = 0; rc == 0 && i < nrun; ++i)
    if (H5Sselect_hyperslab(sp, H5S_SELECT_OR, &start[i], NULL, &count[i], NULL) < 0)
      rc = dg_error(DG_ERR_IO, "%s: cannot select in dataset /coeff%s", r->path, dg_io_h5_why());
  if (rc == 0 && total > 0 && H5Dread(ds, H5T_NATIVE_DOUBLE, ms, sp, H5P_DEFAULT, s->coeff) < 0)
    rc = dg_error(DG_ERR_IO, "%s: cannot read dataset /coeff%s", r->path, dg_io_h5_why());
  rc = dg_io_h5_close(&ms, H5Sclose, rc, r->path, "dataspace");
  rc = dg_io_h5_close(&sp, H5Sclose, rc, r->path, "dataspace");
  rc = dg_io_h5_close(&ds, H5Dclose, rc, r->path, "/coeff");
  free(start);
  free(count);
  return rc;
}

/* /gauss_values and the view, where the file has them. */
static int r_views(const h5r *r, dg_snapshot *s) {
  int ex;
  DG_CALL(r_exists(r, "/gauss_values", &ex));
  if (ex) {
    int64_t qd = dg_io_ipow64(s->q, s->dim), total;
    if (dg_io_mul64(s->nelem, qd, &total) != 0 || dg_io_mul64(total, s->nvar, &total) != 0)
      return dg_error(DG_ERR_IO, "%s: dataset /gauss_values would be too large", r->path);
    hsize_t dims[3] = {(hsize_t)s->nelem, (hsize_t)qd, (hsize_t)s->nvar};
    DG_CALL(r_dset(r, "/gauss_values", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), 3, dims,
                   (void **)&s->gauss_values));
  }

  DG_CALL(r_exists(r, "/view", &ex));
  if (ex) {
    int vs = 0, rc = 0;
    hid_t g = H5Gopen2(r->file, "/view", H5P_DEFAULT);
    if (g < 0) return dg_error(DG_ERR_IO, "%s: cannot open group /view%s", r->path, dg_io_h5_why());
    rc = r_attr_num(r, g, "/view", "samples_per_element", H5T_INTEGER, H5T_NATIVE_INT, &vs);
    rc = dg_io_h5_close(&g, H5Gclose, rc, r->path, "group /view");
    if (rc) return rc;
    if (vs < 1 || vs > 64)
      return dg_error(DG_ERR_IO,
                      "%s: attribute 'samples_per_element' of /view is %d, must be in [1, 64]",
                      r->path, vs);
    hsize_t dims[4];
    dims[0] = (hsize_t)s->nvar;
    dg_io_grid_dims(s, vs, dims + 1);
    DG_CALL(r_dset(r, "/view/values", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), s->dim + 1,
                   dims, (void **)&s->view_values));
    s->view_s = vs;
    DG_CALL(r_exists(r, "/view/error", &ex));
    if (ex)
      DG_CALL(r_dset(r, "/view/error", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), s->dim + 1,
                     dims, (void **)&s->view_error));
    /* /view/degree is derived from /degree; readers ignore it. */
  }
  return 0;
}

/* /parameters and /history. */
static int r_rest(const h5r *r, dg_snapshot *s) {
  int ex;
  DG_CALL(r_params(r, s));

  DG_CALL(r_exists(r, "/history", &ex));
  if (ex) {
    int rank = 0;
    hsize_t dims[4];
    H5T_class_t cls;
    size_t tsize;
    DG_CALL(r_shape(r, "/history", &rank, dims, &cls, &tsize));
    char lab[96];
    if (rank != 2 || dims[1] != 4)
      return dg_error(DG_ERR_IO, "%s: dataset /history has shape %s, expected [n][4]", r->path,
                      dg_io_dims_label(lab, sizeof lab, rank, dims));
    DG_CALL(r_dset(r, "/history", H5T_FLOAT, H5T_NATIVE_DOUBLE, sizeof(double), 2, dims,
                   (void **)&s->history));
    s->nhist = (int64_t)dims[0];
  }
  return 0;
}

int dg_io_h5_read_image(const char *label, const unsigned char *buf, size_t len, dg_snapshot *s) {
  dg_io_h5_quiet q;
  DG_CALL(dg_io_h5_quiet_begin(&q, label));
  int rc = 0;
  h5r r = {label, H5I_INVALID_HID, (uint64_t)len};
  /* The verified bytes themselves: HDF5 never opens the path again. */
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0 || H5Pset_fapl_core(fapl, 1 << 16, 0) < 0 ||
      H5Pset_fclose_degree(fapl, H5F_CLOSE_SEMI) < 0 ||
      H5Pset_file_image(fapl, (void *)(uintptr_t)buf, len) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot set up the HDF5 file access%s", label, dg_io_h5_why());
  /* With a file image, the core driver refuses a name that exists on disk:
   * the name only labels the image in HDF5's list of open files. */
  if (rc == 0 && (r.file = H5Fopen("/nonexistent/dgrid-file-image", H5F_ACC_RDONLY, fapl)) < 0)
    rc = dg_error(DG_ERR_IO, "%s: cannot open HDF5 file%s", label, dg_io_h5_why());
  rc = dg_io_h5_close(&fapl, H5Pclose, rc, label, "file access list");
  if (rc == 0) rc = r_root_attrs(&r, s);
  if (rc == 0) rc = r_grid(&r, s);
  if (rc == 0) rc = r_coeff(&r, s);
  if (rc == 0) rc = r_views(&r, s);
  if (rc == 0) rc = r_rest(&r, s);
  if (r.file >= 0) {
    /* Semi close degree: fails if any object was left open. */
    herr_t st = H5Fclose(r.file);
    if (st < 0 && rc == 0)
      rc = dg_error(DG_ERR_LIB, "%s: cannot close file%s", label, dg_io_h5_why());
  }
  return dg_io_h5_quiet_end(&q, rc, label);
}

int dg_io_h5_read_part(const char *label, const char *path, dg_snapshot *s, const int *lo,
                       const int *hi) {
  struct stat st;
  memset(s, 0, sizeof *s);
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return dg_error(DG_ERR_IO, "%s: not a regular file; only regular files are read", label);
  dg_io_h5_quiet q;
  DG_CALL(dg_io_h5_quiet_begin(&q, label));
  h5r r = {label, H5I_INVALID_HID, (uint64_t)st.st_size};
  int rc = 0;
  /* HDF5 finds the superblock after the user block */
  if ((r.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
    rc = dg_error(DG_ERR_IO, "%s: cannot open HDF5 file%s", label, dg_io_h5_why());
  if (rc == 0) rc = r_root_attrs(&r, s);
  if (rc == 0) rc = r_grid(&r, s);
  if (rc == 0) rc = r_map(&r, s);
  if (rc == 0 && lo && hi) rc = r_coeff_block(&r, s, lo, hi);
  if (rc == 0) rc = r_rest(&r, s);
  rc = dg_io_h5_close(&r.file, H5Fclose, rc, label, "file");
  rc = dg_io_h5_quiet_end(&q, rc, label);
  if (rc) dg_snapshot_free(s);
  return rc;
}
