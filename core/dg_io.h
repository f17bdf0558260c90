/* dg_io.h - snapshots on disk: HDF5 (docs/FILE_FORMAT.md), XDMF sidecar,
 * and the plain-text modal format shared with the Fortran baseline.
 *
 * A dg_snapshot is a plain host-side description of one solution: it knows
 * nothing of backends or layouts, so apps/compare and tools can use it alone.
 * Element e = i + d1*(j + d2*k); its coefficients are stored var-major, and
 * within one variable mode (a,b,c) of P_a(xi)P_b(eta)P_c(zeta) sits at
 * a + n*(b + n*c), n = degree+1 (x-mode fastest).  */
#ifndef DG_IO_H
#define DG_IO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int dim;               /* 2 or 3 */
  int nvar;              /* components of u */
  int cells[3];          /* d1, d2, d3 (d3 = 1 in 2D) */
  double lo[3];          /* box lower corner */
  double hi[3];          /* box upper corner */
  double radius;         /* > 0: the latitude-longitude sphere of this radius, lo/hi
                            in (lambda, theta) (attribute /sphere_radius; the view
                            then carries the nodes' Cartesian coordinates) */
  int q;                 /* solver's Gauss points per direction */
  double time;           /* simulated time of the snapshot */
  int64_t step;          /* step count of the snapshot */
  char model[64];        /* e.g. "advection-constant", "advection-rotation" */
  char variables[256];   /* the variables' names, comma-separated ("p,u,v"), or "" */
  int64_t nelem;         /* d1*d2*d3 */
  uint8_t *degree;       /* [nelem] */
  int64_t *coeff_offset; /* [nelem+1]; element e owns coeff[off[e] .. off[e+1]) */
  double *coeff;         /* [coeff_offset[nelem]] */
  /* Optional (NULL when absent): values at the solver's Gauss points,
   * [nelem][q^dim][nvar], points x-fastest, in element order. */
  double *gauss_values;
  /* Optional viewing sub-grid: s samples per element and direction at the
   * centres of an s^dim sub-cell split; one global cell-centred array
   * [nvar][d3*s][d2*s][d1*s] (x fastest); 0/NULL when absent. */
  int view_s;
  double *view_values;
  double *view_error; /* same shape as view_values, pointwise error vs exact, or NULL */
  /* Run parameters as key/value strings (stored as attributes of /parameters). */
  int nparams;
  char **param_keys;
  char **param_values;
  /* History rows [nhist][4]: step, time, mass, l2_error (NaN when not known). */
  int64_t nhist;
  double *history;
  /* Optional (attribute `config` of /): the run's effective configuration
   * in the configuration-file format (core/dg_config.h), NUL-terminated, at
   * most DG_IO_MAX_CONFIG bytes; NULL when absent. */
  char *config;
  /* Optional (attribute `dt` of /): the run's time step (fixed-step runs:
   * every step's; others: the last one's); 0 when absent (not written). */
  double dt;
  /* Optional (attributes `mass0` and `mass_scale` of /, nvar values each): each
   * variable's mass at t = 0 and the sum of |cell mean| x volume then, so that
   * a restarted run measures its mass drift from the start; NULL when absent. */
  double *mass0;
  double *mass_scale;
} dg_snapshot;

#define DG_IO_MAX_CONFIG 32768

/* Write `s` to `path` atomically: the data goes to a temporary file
 * ".<name>.tmp.<pid>" in the same folder which is renamed over `path` only
 * after a complete, closed write.  The file carries a checksum of its
 * content in its HDF5 user block.  On failure the previous file at `path` is
 * untouched and the temporary is removed; a `path` that exists and is not a
 * regular file (symlink, device, FIFO, folder) is refused.  Returns 0 or
 * DG_ERR_IO/DG_ERR_LIB/DG_ERR_MEM with a one-line message. */
int dg_snapshot_write(const char *path, const dg_snapshot *s);

/* Read a snapshot written by dg_snapshot_write into `s` (allocating its
 * arrays).  Only regular files are read; the checksum block is verified
 * before HDF5 sees a byte (files without one are refused); every dataset is
 * checked for presence, type and shape, and against the file's size before
 * anything is allocated.  An error names the file and the dataset.  On
 * failure `s` holds nothing to free. */
int dg_snapshot_read(const char *path, dg_snapshot *s);

/* Read the plain-text modal format (docs/FILE_FORMAT.md, "text format")
 * written by the Fortran baseline; errors name the file and line. */
int dg_snapshot_read_text(const char *path, dg_snapshot *s);

/* Write the plain-text modal format (17 significant digits). */
int dg_snapshot_write_text(const char *path, const dg_snapshot *s);

/* Read either format, chosen by content (checksum block, HDF5 signature or
 * text header), with the checks of dg_snapshot_read and _read_text. */
int dg_snapshot_read_any(const char *path, dg_snapshot *s);

/* Like dg_snapshot_read_any, but an HDF5 file without a checksum block (one
 * written before dgrid had checksums) is parsed too, with every other check
 * in place.  HDF5 then parses unverified bytes, so use it only for files you
 * trust.  A file with a checksum block is still verified. */
int dg_snapshot_read_unverified(const char *path, dg_snapshot *s);

/* Fault injection for tests: writes of kind `what` ("snapshot", "text" or
 * "xdmf") fail on purpose after a partial write of their temporary file (the
 * apps set it from the environment variable DGRID_IO_FAIL); "ranks": in a
 * snapshot written by several ranks (dg_io_ranks.h) the last rank fails
 * after its part is written; NULL or "": none. */
void dg_io_set_fail(const char *what);

/* Free the arrays of `s` and zero it. */
void dg_snapshot_free(dg_snapshot *s);

/* Write an XDMF sidecar at `xdmf_path` describing a time series of `n`
 * snapshots (HDF5 files at `h5_paths`, simulated times `times`), all with the
 * grid and view sub-grid of `shape`.  Paths inside the XDMF are written
 * relative to the XDMF's folder.  Atomic like dg_snapshot_write. */
int dg_xdmf_write(const char *xdmf_path, int n, const char *const *h5_paths, const double *times,
                  const dg_snapshot *shape);

#ifdef __cplusplus
}
#endif
#endif
