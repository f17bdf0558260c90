/* dg_app_check.c - configuration checks before a run allocates anything
 * (dg_app_check.h). */
#include "dg_app_check.h"

#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether option --name was given on the command line (not a default). */
static int given(const dg_app_config *c, const char *name) {
  for (int i = 0; i < c->nparams; ++i)
    if (!strcmp(c->keys[i], name)) return 1;
  return 0;
}

int dg_app_stdout_status(const char *prog, int status) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return status;
  const int e = errno;
  fprintf(stderr, "%s: cannot write to standard output%s%s%s\n", prog, e ? " (" : "",
          e ? strerror(e) : "", e ? ")" : "");
  return 2;
}

int dg_app_refuse_unused(const dg_app_config *c, const char *prog, const char *const (*unused)[2]) {
  for (int i = 0; unused[i][0]; ++i)
    if (given(c, unused[i][0]))
      return dg_error(DG_ERR_ARG, "option --%s: %s %s", unused[i][0], prog, unused[i][1]);
  return 0;
}

static int check_box(const dg_app_config *c) {
  static const char axis[3] = {'x', 'y', 'z'};
  for (int d = 0; d < c->dim; ++d) {
    const double lo = c->box[2 * d], hi = c->box[2 * d + 1], w = hi - lo;
    const int n = c->cells[d];
    /* the width and the cell size must be numbers the grid can use: lo + h
       must differ from lo, or every element's coordinates collapse */
    if (!isfinite(w))
      return dg_error(DG_ERR_ARG,
                      "option --box: %c range [%g, %g] is too wide (its width overflows)", axis[d],
                      lo, hi);
    const double h = w / n;
    if (!(h >= DBL_MIN) || !(lo + h > lo) || !(hi - h < hi))
      return dg_error(DG_ERR_ARG,
                      "option --box: %c range [%.17g, %.17g] over %d cells is below the "
                      "floating-point resolution",
                      axis[d], lo, hi, n);
  }
  /* the integrals over the box and its elements need finite volumes */
  double vol = 1, evol = 1;
  for (int d = 0; d < c->dim; ++d) {
    vol *= c->box[2 * d + 1] - c->box[2 * d];
    evol *= (c->box[2 * d + 1] - c->box[2 * d]) / c->cells[d];
  }
  if (!isfinite(vol)) return dg_error(DG_ERR_ARG, "option --box: the volume of the box overflows");
  if (!(evol >= DBL_MIN))
    return dg_error(DG_ERR_ARG, "option --box: the volume of an element underflows");
  return 0;
}

/* The sphere's areas are R^2 times angles: like a box's volumes they must be
   numbers, or the mass, the metric terms and the stable step that divide by
   them say "not finite" without naming the radius that made them so. */
static int check_sphere(const dg_app_config *c) {
  const double pi = 3.14159265358979323846;
  const double dl = 2 * pi / c->cells[0], dt = pi / c->cells[1];
  const double s = sin(dt / 2);
  const double area = 4 * pi * c->radius * c->radius;
  const double polar = c->radius * c->radius * dl * 2 * s * s; /* R^2 dl (1 - cos dt) */
  if (!isfinite(area))
    return dg_error(DG_ERR_ARG, "option --radius: %g m makes the sphere's area overflow",
                    c->radius);
  if (!(polar >= DBL_MIN))
    return dg_error(DG_ERR_ARG,
                    "option --radius: %g m makes the area of an element at the poles underflow "
                    "(%dx%d cells)",
                    c->radius, c->cells[0], c->cells[1]);
  return 0;
}

int dg_app_check_config(const dg_app_config *c) {
  const int map_given = given(c, "map");
  if (c->map_file[0] && map_given)
    return dg_error(DG_ERR_ARG, "options --map and --map-file exclude each other");
  if (c->map_file[0] && given(c, "degree-min"))
    return dg_error(DG_ERR_ARG,
                    "option --degree-min: has no effect with --map-file (the file gives every "
                    "degree)");
  if (c->map_file[0] && given(c, "degree"))
    return dg_error(DG_ERR_ARG,
                    "option --degree: has no effect with --map-file (the file gives every degree)");
  if (!c->map_file[0] && !strcmp(c->map, "uniform") && given(c, "degree-min"))
    return dg_error(DG_ERR_ARG,
                    "option --degree-min: has no effect with --map uniform (give --map band or "
                    "random)");
  if (!c->model_file[0] && given(c, "model-digest"))
    return dg_error(DG_ERR_ARG,
                    "option --model-digest: has no effect without --model-file (it is the digest "
                    "of that header)");
  if (strcmp(c->grid, "latlon") != 0 && given(c, "radius"))
    return dg_error(DG_ERR_ARG,
                    "option --radius: has no effect on a box grid (it is the sphere's radius: "
                    "--grid latlon)");
  if (!strcmp(c->grid, "latlon")) return check_sphere(c);
  return check_box(c);
}

int dg_app_band_reach(int ny, int rmin, int rmax) {
  /* dg_degree_map_create_band: r = rmin + dist nb / half, dist <= half - 1 */
  const int half = (ny + 1) / 2, nb = rmax - rmin + 1;
  const int r = rmin + (int)((long)(half - 1) * nb / half);
  return r > rmax ? rmax : r;
}

int dg_app_notes(FILE *f, const dg_app_config *c, const char *prog) {
  int n = 0;
  if (!c->map_file[0] && !strcmp(c->map, "band")) {
    const int reach = dg_app_band_reach(c->cells[1], c->degree_min, c->degree);
    if (reach < c->degree) {
      /* half = (ny + 1) / 2 rows must reach nb = degree - degree_min + 1 */
      const int need = 2 * (c->degree - c->degree_min + 1) - 1;
      fprintf(f,
              "%s: note: --map band reaches degree %d, not --degree %d, on %d rows in y (it "
              "needs %d)\n",
              prog, reach, c->degree, c->cells[1], need);
      ++n;
    }
  }
  if (!c->map_file[0] && !strcmp(c->map, "latitude")) {
    /* dg_degree_map_create_latitude: r = rmin + dist, dist <= (ny - 1) / 2 */
    const int far = c->degree_min + (c->cells[1] - 1) / 2;
    if (far < c->degree) {
      fprintf(f,
              "%s: note: --map latitude reaches degree %d, not --degree %d, on %d rows (it "
              "needs %d)\n",
              prog, far, c->degree, c->cells[1], 2 * (c->degree - c->degree_min) + 1);
      ++n;
    }
  }
  return n;
}

/* ---- memory ------------------------------------------------------------ */

static uint64_t sat_add(uint64_t a, uint64_t b) {
  uint64_t s;
  return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static uint64_t sat_mul(uint64_t a, uint64_t b) {
  uint64_t p;
  return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

static uint64_t upow(uint64_t b, int e) {
  uint64_t p = 1;
  for (int i = 0; i < e; ++i) p = sat_mul(p, b);
  return p;
}

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Elements per degree from the options (see dg_app_bytes_needed). */
static void degree_counts(const dg_app_config *c, uint64_t n[DG_MAX_DEGREE + 1]) {
  const int dim = c->dim;
  uint64_t nelem = 1;
  for (int d = 0; d < dim; ++d) nelem = sat_mul(nelem, (uint64_t)c->cells[d]);
  memset(n, 0, sizeof *n * (DG_MAX_DEGREE + 1));
  if (c->map_file[0]) {
    n[0] = nelem;
  } else if (!strcmp(c->map, "band")) {
    /* whole rows of n_x (n_z) elements per degree */
    const int ny = c->cells[1], half = (ny + 1) / 2, nb = c->degree - c->degree_min + 1;
    const uint64_t row = sat_mul((uint64_t)c->cells[0], dim == 3 ? (uint64_t)c->cells[2] : 1);
    for (int j = 0; j < ny; ++j) {
      const int dist = j < ny - 1 - j ? j : ny - 1 - j;
      int r = c->degree_min + (int)((long)dist * nb / half);
      if (r > c->degree) r = c->degree;
      n[r] = sat_add(n[r], row);
    }
  } else if (!strcmp(c->map, "random")) {
    n[c->degree_min] = nelem;
  } else {
    n[c->degree] = nelem;
  }
}

uint64_t dg_app_bytes_needed(const dg_app_config *c, const dg_degree_map *m) {
  const dg_backend_ops *be = c->be->ops;
  const int dim = c->dim, nv = dg_model_nvar(c->model);
  const uint64_t W = (uint64_t)(be->lane_width > 0 ? be->lane_width : 1);
  uint64_t n[DG_MAX_DEGREE + 1];
  if (m) {
    memset(n, 0, sizeof n);
    for (long e = 0; e < m->nelem; ++e) n[m->deg[e]]++;
  } else {
    degree_counts(c, n);
  }
  uint64_t nelem = 0, nslots = 0, len = 0, ndofs = 0;
  int rmin = -1, rmax = 0;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    if (!n[r]) continue;
    if (rmin < 0) rmin = r;
    rmax = r;
    /* padded to whole microblocks, one more where the bucket splits in two
       groups (own q) */
    const uint64_t slots = sat_mul(n[r] / W + 2, W);
    const uint64_t modes = sat_mul((uint64_t)nv, upow((uint64_t)r + 1, dim));
    nelem = sat_add(nelem, n[r]);
    nslots = sat_add(nslots, slots);
    len = sat_add(len, sat_mul(slots, modes));
    ndofs = sat_add(ndofs, sat_mul(n[r], modes));
  }
  const int q = c->q ? c->q : rmax + 1;
  const uint64_t real = sizeof(dg_real), qf = upow((uint64_t)q, dim - 1);
  /* persistent: the app's and the disc's degree maps, element <-> slot
     tables, neighbour offsets, coordinates, CFL weights and rates */
  uint64_t keep = sat_mul(nelem, 2 + sizeof(long));
  keep = sat_add(keep, sat_mul(nslots, sizeof(long) + 2 * (uint64_t)dim * sizeof(int) + 2 * real +
                                           (dg_model_uses_x(c->model) ? 3u * dim * real : 0)));
  /* the neighbours' coefficients (uniform maps) or two trace buffers; a
     variable map may use both */
  const uint64_t spare = sat_mul(len, real);
  const uint64_t traces = sat_mul(sat_mul(nslots, 4 * (uint64_t)dim * (uint64_t)nv), qf * real);
  keep = sat_add(keep, rmin == rmax ? umax(spare, traces) : sat_add(spare, traces));
  /* the solution and the integrator's registers */
  dg_ts_kind ts = DG_TS_SSPRK3;
  if (dg_ts_parse(c->integrator, &ts)) ts = DG_TS_RK4;
  keep = sat_add(keep, sat_mul((uint64_t)(1 + dg_ts_fields(ts)), spare));
  /* transients, one at a time: the error norms sample q+3 points per
     direction; a snapshot holds the coefficients, the values at the Gauss
     points and the view's values and errors, and is written through a
     whole HDF5 file in memory and its image: three copies (measured) */
  const uint64_t per_var = sat_mul(nelem, (uint64_t)nv * real);
  const uint64_t errs = sat_mul(per_var, upow((uint64_t)q + 3, dim));
  uint64_t snap = sat_add(sat_mul(nelem, 1 + sizeof(long)), sat_mul(ndofs, sizeof(double)));
  snap = sat_add(snap, sat_mul(per_var, upow((uint64_t)q, dim)));
  snap = sat_add(snap, sat_mul(2, sat_mul(per_var, upow((uint64_t)c->view_samples, dim))));
  const uint64_t total = sat_add(keep, umax(errs, sat_mul(3, snap)));
  /* the allocator's and the libraries' overhead: 1/4 (measured with the
     peak resident size, app.safety.memory) */
  return sat_add(total, total / 4);
}

/* The value in kB of "Key:" in /proc/meminfo, as bytes; 0 if absent. */
static uint64_t meminfo(const char *key) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  uint64_t v = 0;
  const size_t kl = strlen(key);
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, kl) && line[kl] == ':') {
      v = sat_mul(strtoull(line + kl + 1, NULL, 10), 1024);
      break;
    }
  fclose(f);
  return v;
}

/* A number in a one-line file; 0 if missing or not a number ("max"). */
static uint64_t file_number(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char buf[64] = "";
  const int ok = fgets(buf, sizeof buf, f) != NULL;
  fclose(f);
  char *end;
  const unsigned long long v = ok ? strtoull(buf, &end, 10) : 0;
  return ok && end != buf ? (uint64_t)v : 0;
}

uint64_t dg_app_bytes_available(void) {
  uint64_t avail = meminfo("MemAvailable");
  if (!avail) {
    const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0) avail = sat_mul((uint64_t)pages, (uint64_t)size);
  }
  /* a container's limit: what is left under memory.max (cgroup v2) */
  const uint64_t lim = file_number("/sys/fs/cgroup/memory.max");
  if (lim) {
    const uint64_t cur = file_number("/sys/fs/cgroup/memory.current");
    const uint64_t room = lim > cur ? lim - cur : 0;
    if (!avail || room < avail) avail = room;
  }
  return avail;
}

/* Bytes as GiB with one decimal ("more than 17179869184" when saturated). */
static void gib(char *buf, size_t cap, uint64_t b) {
  if (b == UINT64_MAX)
    snprintf(buf, cap, "more than %.0f", (double)UINT64_MAX / 1073741824.0);
  else
    snprintf(buf, cap, "%.1f", (double)b / 1073741824.0);
}

int dg_app_check_memory(const dg_app_config *c, const dg_degree_map *m) {
  const uint64_t need = dg_app_bytes_needed(c, m), avail = dg_app_bytes_available();
  if (!avail || need <= avail) return 0;
  char cells[96], degs[64], a[64], b[64];
  if (c->dim == 3)
    snprintf(cells, sizeof cells, "%dx%dx%d", c->cells[0], c->cells[1], c->cells[2]);
  else
    snprintf(cells, sizeof cells, "%dx%d", c->cells[0], c->cells[1]);
  if (m)
    snprintf(degs, sizeof degs, "degrees %d..%d", m->rmin, m->rmax);
  else if (c->map_file[0])
    snprintf(degs, sizeof degs, "degree 0 or more (--map-file)");
  else if (!strcmp(c->map, "uniform"))
    snprintf(degs, sizeof degs, "degree %d", c->degree);
  else
    snprintf(degs, sizeof degs, "degrees %d..%d (--map %s)", c->degree_min, c->degree, c->map);
  gib(a, sizeof a, need);
  gib(b, sizeof b, avail);
  return dg_error(DG_ERR_MEM,
                  "not enough memory: --cells %s, %s, %s needs %s GiB, %s GiB available", cells,
                  degs, c->integrator, a, b);
}

/* ---- output paths --------------------------------------------------------- */

/* The folder part of path into dir ("." when none). */
static void folder_of(const char *path, char *dir, size_t cap) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(dir, cap, ".");
  else if (slash == path)
    snprintf(dir, cap, "/");
  else
    snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* An output file the run could not write is reported before the run. */
static int check_path(const char *opt, const char *path) {
  char esc[600], dir[600];
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return dg_error(DG_ERR_IO, "option %s: %s is a folder, not a file", opt,
                    dg_escape(esc, sizeof esc, path));
  folder_of(path, dir, sizeof dir);
  int err = 0;
  if (stat(dir, &st) != 0)
    err = errno;
  else if (!S_ISDIR(st.st_mode))
    err = ENOTDIR;
  else if (access(dir, W_OK | X_OK) != 0)
    err = errno;
  if (err)
    return dg_error(DG_ERR_IO, "option %s: cannot write in folder %s: %s", opt,
                    dg_escape(esc, sizeof esc, dir), strerror(err));
  return 0;
}

/* The file path names, as "<real folder>/<name>" (the folder exists:
 * check_path), so that "a.h5" and "./a.h5" compare equal. */
static void canonical(const char *path, char *out, size_t cap) {
  char dir[600], *real;
  folder_of(path, dir, sizeof dir);
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  real = realpath(dir, NULL);
  snprintf(out, cap, "%s/%s", real ? real : dir, base);
  free(real);
}

int dg_app_xdmf_path(char *buf, size_t cap, const char *output) {
  const char *dot = strrchr(output, '.');
  const char *slash = strrchr(output, '/');
  const int stem = (dot && (!slash || dot > slash)) ? (int)(dot - output) : (int)strlen(output);
  return snprintf(buf, cap, "%.*s.xdmf", stem, output) >= (int)cap
             ? dg_error(DG_ERR_ARG, "option --output: path too long")
             : 0;
}

/* Outputs never replace inputs: each output path (the file itself, through
 * links too: device and inode) against each file the run reads.  The one
 * place of this rule for every program that writes snapshots.  The restart
 * file is not among them: it is read whole before the first step, and a run
 * continued over its own file (its stored --output) is a documented use. */
static int check_not_input(const dg_app_config *c, const char *opt, const char *path) {
  struct stat so, si;
  if (!path[0] || stat(path, &so) != 0) return 0; /* a new file replaces nothing */
  const struct {
    const char *what, *path;
  } in[] = {{"the configuration file", c->config},
            {"--map-file", c->map_file},
            {"--model-file", c->model_file}};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; ++i)
    if (in[i].path[0] && stat(in[i].path, &si) == 0 && si.st_dev == so.st_dev &&
        si.st_ino == so.st_ino) {
      char e1[600], e2[600];
      return dg_error(DG_ERR_ARG, "option %s: %s would replace %s %s, an input of this run", opt,
                      dg_escape(e1, sizeof e1, path), in[i].what,
                      dg_escape(e2, sizeof e2, in[i].path));
    }
  return 0;
}

/* Whether name (a canonical path) is one of the series snapshots of --output
 * (canonical: a): "<stem>_<digits>.h5" in the same folder. */
static int in_series(const char *a, const char *name) {
  const char *dot = strrchr(a, '.'), *slash = strrchr(a, '/');
  const size_t stem = (dot && (!slash || dot > slash)) ? (size_t)(dot - a) : strlen(a);
  if (strncmp(a, name, stem) != 0 || name[stem] != '_') return 0;
  const char *p = name + stem + 1;
  size_t nd = 0;
  while (p[nd] >= '0' && p[nd] <= '9') ++nd;
  return nd >= 6 && !strcmp(p + nd, ".h5");
}

int dg_app_check_outputs(const dg_app_config *c) {
  char esc[600];
  DG_CALL(check_path("--output", c->output));
  if (c->text_output[0]) DG_CALL(check_path("--text-output", c->text_output));
  char xdmf[600] = "";
  if (c->output_every > 0) {
    /* the series names its files as "file.h5:/dataset" (dg_io_xdmf.c) */
    for (const char *p = c->output; *p; ++p)
      if (*p == ':' || (unsigned char)*p < 0x20 || *p == 0x7f)
        return dg_error(DG_ERR_ARG,
                        "option --output: %s cannot be named in the XDMF series of "
                        "--output-every (':' or a control character in the path)",
                        dg_escape(esc, sizeof esc, c->output));
    DG_CALL(dg_app_xdmf_path(xdmf, sizeof xdmf, c->output));
  }
  char a[1300], b[1300], x[1300] = "";
  canonical(c->output, a, sizeof a);
  if (xdmf[0]) {
    canonical(xdmf, x, sizeof x);
    if (!strcmp(a, x))
      return dg_error(DG_ERR_ARG,
                      "option --output: %s is also the XDMF series of --output-every (give a "
                      "name that does not end in .xdmf)",
                      dg_escape(esc, sizeof esc, c->output));
  }
  if (c->text_output[0]) {
    canonical(c->text_output, b, sizeof b);
    if (!strcmp(a, b))
      return dg_error(DG_ERR_ARG, "options --output and --text-output name the same file %s",
                      dg_escape(esc, sizeof esc, c->text_output));
    if (x[0] && !strcmp(b, x))
      return dg_error(DG_ERR_ARG, "option --text-output: %s is the XDMF series of --output-every",
                      dg_escape(esc, sizeof esc, c->text_output));
    if (c->output_every > 0 && in_series(a, b)) {
      char e2[600];
      return dg_error(DG_ERR_ARG,
                      "option --text-output: %s would replace a snapshot of the series of "
                      "--output %s",
                      dg_escape(esc, sizeof esc, c->text_output),
                      dg_escape(e2, sizeof e2, c->output));
    }
  }
  DG_CALL(check_not_input(c, "--output", c->output));
  DG_CALL(check_not_input(c, "--text-output", c->text_output));
  if (xdmf[0]) DG_CALL(check_not_input(c, "--output-every", xdmf));
  return 0;
}

/* ---- the step ------------------------------------------------------------ */

/* The largest --cfl at which constant advection of a sine on an 8x8 grid
 * stayed bounded for 2000 steps, by integrator and degree 0..5 (bisection,
 * rounded down; on a 4x4x4 grid in 3D, degrees 0..3, the same or higher
 * except lsrk4 at degrees 1 and 2, whose 3D values are taken): the stable
 * step of DG shrinks faster with the degree than the (2r+1) of the
 * estimate.  Forward Euler is unstable at every step
 * from degree 1 (its region misses the imaginary axis): 0 there. */
static const double cfl_table[DG_TS_COUNT][DG_APP_CFL_DEGREES] = {
    {0.99, 0, 0, 0, 0, 0},                 /* euler */
    {1.0, 1.0, 0.85, 0.72, 0.65, 0.57},    /* ssprk2 */
    {1.25, 1.22, 1.05, 0.89, 0.8, 0.72},   /* ssprk3 */
    {1.39, 1.39, 1.17, 1.02, 0.89, 0.8},   /* rk4 */
    {2.22, 2.02, 1.74, 1.53, 1.36, 1.23}}; /* lsrk4 */

double dg_app_cfl_limit(dg_ts_kind kind, int degree) {
  if ((int)kind < 0 || kind >= DG_TS_COUNT) return 0;
  if (degree < 0) degree = 0;
  if (degree >= DG_APP_CFL_DEGREES) degree = DG_APP_CFL_DEGREES - 1;
  return cfl_table[kind][degree];
}
