/* dg_io_xdmf.c - the XDMF sidecar that describes a time series of snapshot
 * files for ParaView/VisIt (docs/FILE_FORMAT.md, "XDMF sidecar"); written
 * through the atomic writer of dg_io_file.c. */
#include "dg_io.h"

#include "dg_arg.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int xdmf_body(const char *xdmf_path, const char *label, int n, const char *const *h5_paths,
                     const double *times, const dg_snapshot *s, const char *what);

/* Absolute, lexically normalised path ("." and ".." and "//" removed). */
static char *abs_norm(const char *p) {
  char *full;
  if (p[0] == '/') {
    full = dg_io_strdup(p);
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
static void put_xml(dg_io_out *o, const char *s) {
  for (; *s; ++s) {
    switch (*s) {
    case '&':
      dg_io_out_printf(o, "&amp;");
      break;
    case '<':
      dg_io_out_printf(o, "&lt;");
      break;
    case '>':
      dg_io_out_printf(o, "&gt;");
      break;
    case '"':
      dg_io_out_printf(o, "&quot;");
      break;
    default:
      dg_io_out_printf(o, "%c", *s);
    }
  }
}

/* Variable v's name from s->variables ("p,u,v") into out, escaped for XML
 * by the caller's put; 0 when there is none (or it is empty or too long). */
static int var_name(const dg_snapshot *s, int v, char *out, size_t cap) {
  const char *p = s->variables;
  for (int i = 0; i < v && p; ++i) {
    p = strchr(p, ',');
    if (p) ++p;
  }
  if (!p || !*p) return 0;
  const char *e = strchr(p, ',');
  const size_t n = e ? (size_t)(e - p) : strlen(p);
  if (n == 0 || n >= cap) return 0;
  for (size_t i = 0; i < n; ++i)
    if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
          (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
      return 0; /* names go into XML attributes unquoted: plain identifiers only */
  memcpy(out, p, n);
  out[n] = '\0';
  return 1;
}

/* One cell attribute: variable `v` of an [nvar][...] dataset, through a
 * HyperSlab when nvar > 1. */
static void xdmf_attr(dg_io_out *o, const char *name, const char *h5rel, const char *dset, int nvar,
                      int v, int dim, const hsize_t *vd) {
  char shape[96] = "", full[128];
  size_t u = 0;
  for (int r = 0; r < dim; ++r)
    u += (size_t)snprintf(shape + u, sizeof shape - u, "%s%llu", r ? " " : "",
                          (unsigned long long)vd[r]);
  snprintf(full, sizeof full, "%d %s", nvar, shape);
  dg_io_out_printf(o, "        <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Cell\">\n",
                   name);
  if (nvar > 1) {
    dg_io_out_printf(
        o, "          <DataItem ItemType=\"HyperSlab\" Type=\"HyperSlab\" Dimensions=\"1 %s\">\n",
        shape);
    dg_io_out_printf(
        o, "            <DataItem Dimensions=\"3 %d\" NumberType=\"Int\" Format=\"XML\">", dim + 1);
    dg_io_out_printf(o, "%d", v);
    for (int r = 0; r < dim; ++r) dg_io_out_printf(o, " 0");
    for (int r = 0; r <= dim; ++r) dg_io_out_printf(o, " 1");
    dg_io_out_printf(o, " 1 %s</DataItem>\n", shape);
    dg_io_out_printf(o, "  ");
  }
  dg_io_out_printf(o,
                   "          <DataItem Dimensions=\"%s\" NumberType=\"Float\" Precision=\"8\" "
                   "Format=\"HDF\">",
                   full);
  put_xml(o, h5rel);
  dg_io_out_printf(o, ":%s</DataItem>\n", dset);
  if (nvar > 1) dg_io_out_printf(o, "          </DataItem>\n");
  dg_io_out_printf(o, "        </Attribute>\n");
}

int dg_xdmf_write(const char *xdmf_path, int n, const char *const *h5_paths, const double *times,
                  const dg_snapshot *shape) {
  DG_ARG_NONNULL("dg_xdmf_write", xdmf_path);
  if (!xdmf_path || !h5_paths || !times || !shape || n < 1)
    return dg_error(DG_ERR_ARG, "dg_xdmf_write: NULL argument or no snapshots (n = %d)", n);
  const char *what = "write XDMF";
  const dg_snapshot *s = shape;
  char *label = dg_escape_dup(xdmf_path);
  if (!label) return dg_error(DG_ERR_MEM, "dg_xdmf_write: out of memory");
  int rc = xdmf_body(xdmf_path, label, n, h5_paths, times, s, what);
  free(label);
  return rc;
}

static int xdmf_body(const char *xdmf_path, const char *label, int n, const char *const *h5_paths,
                     const double *times, const dg_snapshot *s, const char *what) {
  DG_CALL(dg_io_check_grid(label, s, what));
  if (s->view_s < 1)
    return dg_error(DG_ERR_ARG, "%s: cannot %s: the snapshots have no view sub-grid (view_s = %d)",
                    label, what, s->view_s);
  for (int i = 0; i < n; ++i) {
    int ctl = 0;
    for (const char *c = h5_paths[i] ? h5_paths[i] : ""; *c; ++c) ctl |= (unsigned char)*c < 0x20;
    if (!h5_paths[i] || h5_paths[i][0] == '\0' || strchr(h5_paths[i], ':') || ctl)
      return dg_error(DG_ERR_ARG,
                      "%s: cannot %s: snapshot path %d is empty or contains ':' or a control "
                      "character",
                      label, what, i);
    if (!isfinite(times[i]))
      return dg_error(DG_ERR_ARG, "%s: cannot %s: time of snapshot %d is not finite", label, what,
                      i);
  }
  char *xabs = abs_norm(xdmf_path);
  if (!xabs) return dg_error(DG_ERR_IO, "%s: cannot resolve the path: %s", label, strerror(errno));
  char *slash = strrchr(xabs, '/');
  if (slash == xabs)
    slash[1] = '\0';
  else
    *slash = '\0';

  dg_io_out o;
  int rc = dg_io_out_open(&o, xdmf_path, label);
  if (rc != 0) {
    free(xabs);
    return rc;
  }
  int dim = s->dim, vs = s->view_s;
  hsize_t vd[3]; /* view cells, slowest first */
  dg_io_grid_dims(s, vs, vd);
  char nodes[96] = "", cellshape[96] = "";
  size_t u = 0, uc = 0;
  for (int r = 0; r < dim; ++r) {
    u += (size_t)snprintf(nodes + u, sizeof nodes - u, "%s%llu", r ? " " : "",
                          (unsigned long long)vd[r] + 1);
    uc += (size_t)snprintf(cellshape + uc, sizeof cellshape - uc, "%s%llu", r ? " " : "",
                           (unsigned long long)vd[r]);
  }
  dg_io_out_printf(&o, "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n");
  dg_io_out_printf(&o, "<Xdmf Version=\"3.0\">\n  <Domain>\n");
  dg_io_out_printf(
      &o, "    <Grid Name=\"dgrid\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (int i = 0; i < n && rc == 0; ++i) {
    char *habs = abs_norm(h5_paths[i]);
    char *hrel = habs ? rel_path(xabs, habs) : NULL;
    free(habs);
    if (!hrel) {
      char hp[256];
      rc = dg_error(DG_ERR_MEM, "%s: cannot resolve snapshot path %s", label,
                    dg_escape(hp, sizeof hp, h5_paths[i]));
      break;
    }
    dg_io_out_printf(&o, "      <Grid Name=\"snapshot_%d\" GridType=\"Uniform\">\n", i);
    dg_io_out_printf(&o, "        <Time Value=\"%.17g\"/>\n", times[i]);
    if (s->radius > 0) { /* the sphere: a curvilinear mesh on the globe (/view/xyz) */
      dg_io_out_printf(&o, "        <Topology TopologyType=\"2DSMesh\" Dimensions=\"%s\"/>\n",
                       nodes);
      dg_io_out_printf(&o, "        <Geometry GeometryType=\"XYZ\">\n");
      dg_io_out_printf(&o,
                       "          <DataItem Dimensions=\"%s 3\" NumberType=\"Float\" "
                       "Precision=\"8\" Format=\"HDF\">",
                       nodes);
      put_xml(&o, hrel);
      dg_io_out_printf(&o, ":/view/xyz</DataItem>\n        </Geometry>\n");
    } else {
      dg_io_out_printf(&o, "        <Topology TopologyType=\"%dDCoRectMesh\" Dimensions=\"%s\"/>\n",
                       dim, nodes);
      /* Origin and spacing slowest axis first, like Dimensions. */
      dg_io_out_printf(&o, "        <Geometry GeometryType=\"%s\">\n",
                       dim == 3 ? "ORIGIN_DXDYDZ" : "ORIGIN_DXDY");
      dg_io_out_printf(&o,
                       "          <DataItem Name=\"Origin\" Dimensions=\"%d\" NumberType=\"Float\" "
                       "Precision=\"8\" Format=\"XML\">",
                       dim);
      for (int d = dim - 1; d >= 0; --d) dg_io_out_printf(&o, "%.17g%s", s->lo[d], d ? " " : "");
      dg_io_out_printf(&o, "</DataItem>\n");
      dg_io_out_printf(
          &o,
          "          <DataItem Name=\"Spacing\" Dimensions=\"%d\" NumberType=\"Float\" "
          "Precision=\"8\" Format=\"XML\">",
          dim);
      for (int d = dim - 1; d >= 0; --d)
        dg_io_out_printf(&o, "%.17g%s", (s->hi[d] - s->lo[d]) / s->cells[d] / vs, d ? " " : "");
      dg_io_out_printf(&o, "</DataItem>\n        </Geometry>\n");
    }
    char name[80];
    for (int v = 0; v < s->nvar; ++v) {
      if (var_name(s, v, name, sizeof name))
        ; /* the model's name for it */
      else if (s->nvar == 1)
        snprintf(name, sizeof name, "u");
      else
        snprintf(name, sizeof name, "u%d", v);
      xdmf_attr(&o, name, hrel, "/view/values", s->nvar, v, dim, vd);
    }
    if (s->view_error)
      for (int v = 0; v < s->nvar; ++v) {
        char vn[64];
        if (s->nvar > 1 && var_name(s, v, vn, sizeof vn))
          snprintf(name, sizeof name, "error_%s", vn);
        else if (s->nvar == 1)
          snprintf(name, sizeof name, "error");
        else
          snprintf(name, sizeof name, "error%d", v);
        xdmf_attr(&o, name, hrel, "/view/error", s->nvar, v, dim, vd);
      }
    dg_io_out_printf(
        &o, "        <Attribute Name=\"degree\" AttributeType=\"Scalar\" Center=\"Cell\">\n");
    dg_io_out_printf(&o,
                     "          <DataItem Dimensions=\"%s\" NumberType=\"UChar\" Precision=\"1\" "
                     "Format=\"HDF\">",
                     cellshape);
    put_xml(&o, hrel);
    dg_io_out_printf(&o, ":/view/degree</DataItem>\n        </Attribute>\n      </Grid>\n");
    free(hrel);
  }
  dg_io_out_printf(&o, "    </Grid>\n  </Domain>\n</Xdmf>\n");
  free(xabs);
  if (rc != 0)
    dg_io_out_abort(&o);
  else
    rc = dg_io_out_commit(&o, "xdmf");
  return rc;
}
