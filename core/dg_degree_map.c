/* dg_degree_map.c - degree maps: uniform, band, random, file, callback. */
#include "dg_degree_map.h"

#include "dg_arg.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_types.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int map_alloc(dg_degree_map **m, const dg_grid *g) {
  *m = NULL;
  dg_degree_map *p = calloc(1, sizeof *p);
  if (!p) return dg_error(DG_ERR_MEM, "degree map: out of memory");
  p->nelem = g->nelem;
  p->deg = malloc((size_t)g->nelem);
  if (!p->deg) {
    free(p);
    return dg_error(DG_ERR_MEM, "degree map: out of memory for %ld elements", g->nelem);
  }
  *m = p;
  return 0;
}

static void map_finish(dg_degree_map *m) {
  m->rmin = DG_MAX_DEGREE;
  m->rmax = 0;
  for (long e = 0; e < m->nelem; ++e) {
    if (m->deg[e] < m->rmin) m->rmin = m->deg[e];
    if (m->deg[e] > m->rmax) m->rmax = m->deg[e];
  }
}

static int check_range(const char *what, int rmin, int rmax) {
  if (rmin < 0 || rmin > DG_MAX_DEGREE)
    return dg_error(DG_ERR_ARG, "%s: minimum degree %d outside 0..%d", what, rmin, DG_MAX_DEGREE);
  if (rmax < 0 || rmax > DG_MAX_DEGREE)
    return dg_error(DG_ERR_ARG, "%s: degree %d outside 0..%d", what, rmax, DG_MAX_DEGREE);
  if (rmin > rmax)
    return dg_error(DG_ERR_ARG, "%s: minimum degree %d above maximum %d", what, rmin, rmax);
  return 0;
}

long dg_degree_map_dofs(const dg_degree_map *m, int dim, int nvar) {
  long n = 0;
  for (long e = 0; m && e < m->nelem; ++e) {
    long k = nvar;
    for (int d = 0; d < dim; ++d) k *= m->deg[e] + 1;
    n += k;
  }
  return n;
}

int dg_degree_map_create_uniform(dg_degree_map **m, const dg_grid *g, int r) {
  DG_ARG_NONNULL("dg_degree_map_create_uniform", m);
  *m = NULL;
  DG_ARG_NONNULL("dg_degree_map_create_uniform", g);
  DG_CALL(check_range("uniform degree map", r, r));
  DG_CALL(map_alloc(m, g));
  memset((*m)->deg, r, (size_t)g->nelem);
  map_finish(*m);
  return 0;
}

int dg_degree_map_create_band(dg_degree_map **m, const dg_grid *g, int rmin, int rmax) {
  DG_ARG_NONNULL("dg_degree_map_create_band", m);
  *m = NULL;
  DG_ARG_NONNULL("dg_degree_map_create_band", g);
  DG_CALL(check_range("band degree map", rmin, rmax));
  DG_CALL(map_alloc(m, g));
  const int ny = g->n[1], half = (ny + 1) / 2, nb = rmax - rmin + 1;
  for (long e = 0; e < g->nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    const int dist = ijk[1] < ny - 1 - ijk[1] ? ijk[1] : ny - 1 - ijk[1];
    int r = rmin + (int)((long)dist * nb / half);
    (*m)->deg[e] = (uint8_t)(r > rmax ? rmax : r);
  }
  map_finish(*m);
  return 0;
}

int dg_degree_map_create_latitude(dg_degree_map **m, const dg_grid *g, int rmin, int rmax) {
  DG_ARG_NONNULL("dg_degree_map_create_latitude", m);
  *m = NULL;
  DG_ARG_NONNULL("dg_degree_map_create_latitude", g);
  DG_CALL(check_range("latitude degree map", rmin, rmax));
  DG_CALL(map_alloc(m, g));
  const int ny = g->n[1];
  for (long e = 0; e < g->nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    const int dist = ijk[1] < ny - 1 - ijk[1] ? ijk[1] : ny - 1 - ijk[1];
    const int r = rmin + dist;
    (*m)->deg[e] = (uint8_t)(r > rmax ? rmax : r);
  }
  map_finish(*m);
  return 0;
}

int dg_degree_map_create_rows(dg_degree_map **m, const dg_grid *g, const int *row_deg) {
  DG_ARG_NONNULL("dg_degree_map_create_rows", m);
  *m = NULL;
  DG_ARG_NONNULL("dg_degree_map_create_rows", g);
  DG_ARG_NONNULL("dg_degree_map_create_rows", row_deg);
  for (int j = 0; j < g->n[1]; ++j)
    if (row_deg[j] < 0 || row_deg[j] > DG_MAX_DEGREE)
      return dg_error(DG_ERR_ARG, "degree map: row %d has degree %d, outside 0..%d", j, row_deg[j],
                      DG_MAX_DEGREE);
  DG_CALL(map_alloc(m, g));
  for (long e = 0; e < g->nelem; ++e) {
    int ijk[3];
    dg_grid_ijk(g, e, ijk);
    (*m)->deg[e] = (uint8_t)row_deg[ijk[1]];
  }
  map_finish(*m);
  return 0;
}

int dg_degree_rows_for_step(int nrow, const double *row_rate, int rmax, int rmin, int *row_deg,
                            double *dt_target, double *dt_reached) {
  if (rmin < 0 || rmax > DG_MAX_DEGREE || rmin > rmax)
    return dg_error(DG_ERR_ARG, "degrees %d..%d: need 0 <= min <= max <= %d", rmin, rmax,
                    DG_MAX_DEGREE);
  /* the speed factor of row j: rate = (2 r + 1) S_j; the target is the step
     of the slowest row near the equator (the middle rows) at rmax */
  double seq = 0;
  for (int j = (nrow - 1) / 2; j <= nrow / 2; ++j)
    if (row_rate[j] > seq) seq = row_rate[j];
  seq /= 2 * rmax + 1;
  *dt_target = seq > 0 ? 1 / ((2 * rmax + 1) * seq) : INFINITY;
  double worst = 0;
  for (int j = 0; j < nrow; ++j) {
    const double sj = row_rate[j] / (2 * rmax + 1);
    int r = rmax;
    while (r > rmin && (2 * r + 1) * sj * *dt_target > 1 + 1e-12) --r;
    row_deg[j] = r;
    if ((2 * r + 1) * sj > worst) worst = (2 * r + 1) * sj;
  }
  *dt_reached = worst > 0 ? 1 / worst : INFINITY;
  return 0;
}

int dg_degree_rows_lts(int nrow, const double *row_rate, int rmax, const int *row_deg,
                       double dt_target, double dt_reached, int *levels, double *work_ratio) {
  if (!(dt_target > 0) || !(dt_reached > 0) || !isfinite(dt_target) || !isfinite(dt_reached))
    return dg_error(DG_ERR_ARG, "local time steps: steps %g and %g are not positive and finite",
                    dt_target, dt_reached);
  double lts = 0, glob = 0;
  for (int j = 0; j < nrow; ++j) {
    const double cfl = (2 * row_deg[j] + 1) * (row_rate[j] / (2 * rmax + 1)) * dt_target;
    int l = 0;
    while (l < 62 && cfl > ldexp(1 + 1e-12, l)) ++l;
    levels[j] = l;
    const double w = (double)(row_deg[j] + 1) * (row_deg[j] + 1);
    lts += w * ldexp(1, l);
    glob += w * dt_target / dt_reached;
  }
  *work_ratio = glob > 0 ? lts / glob : 1;
  return 0;
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int dg_degree_map_create_random(dg_degree_map **m, const dg_grid *g, int rmin, int rmax,
                                uint64_t seed) {
  DG_ARG_NONNULL("dg_degree_map_create_random", m);
  *m = NULL;
  DG_ARG_NONNULL("dg_degree_map_create_random", g);
  DG_CALL(check_range("random degree map", rmin, rmax));
  DG_CALL(map_alloc(m, g));
  uint64_t s = seed;
  for (long e = 0; e < g->nelem; ++e)
    (*m)->deg[e] = (uint8_t)(rmin + (int)(splitmix64(&s) % (uint64_t)(rmax - rmin + 1)));
  map_finish(*m);
  return 0;
}

int dg_degree_map_create_callback(dg_degree_map **m, const dg_grid *g, dg_degree_fn fn, void *ctx) {
  DG_ARG_NONNULL("dg_degree_map_create_callback", m);
  *m = NULL;
  DG_ARG_NONNULL("dg_degree_map_create_callback", g);
  DG_ARG_NONNULL("dg_degree_map_create_callback", fn);
  DG_CALL(map_alloc(m, g));
  for (long e = 0; e < g->nelem; ++e) {
    int ijk[3];
    double xc[3];
    dg_grid_ijk(g, e, ijk);
    for (int d = 0; d < 3; ++d) xc[d] = g->lo[d] + (ijk[d] + 0.5) * g->h[d];
    const int r = fn(ijk, xc, ctx);
    if (r < 0 || r > DG_MAX_DEGREE) {
      dg_degree_map_destroy(m);
      return dg_error(DG_ERR_ARG, "degree callback: element (%d,%d,%d) got degree %d, need 0..%d",
                      ijk[0], ijk[1], ijk[2], r, DG_MAX_DEGREE);
    }
    (*m)->deg[e] = (uint8_t)r;
  }
  map_finish(*m);
  return 0;
}

/* Parse one data line into up to `want` degrees; returns the count or -1 with
 * the message recorded. */
static int parse_row(const char *path, long lineno, char *s, int want, uint8_t *out) {
  int count = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') ++s;
    if (*s == '\0' || *s == '#') break;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || (*end && !isspace((unsigned char)*end) && *end != '#')) {
      size_t n = 0;
      while (s[n] && !isspace((unsigned char)s[n]) && n < 31) ++n;
      char tok[140];
      dg_error(DG_ERR_IO, "degree map %s, line %ld: '%s' is not an integer", path, lineno,
               dg_escape_n(tok, sizeof tok, s, n));
      return -1;
    }
    if (errno || v < 0 || v > DG_MAX_DEGREE) {
      char tok[140];
      size_t n = (size_t)(end - s) < 31 ? (size_t)(end - s) : 31;
      dg_error(DG_ERR_IO, "degree map %s, line %ld: degree %s outside 0..%d", path, lineno,
               dg_escape_n(tok, sizeof tok, s, n), DG_MAX_DEGREE);
      return -1;
    }
    if (count < want) out[count] = (uint8_t)v;
    ++count;
    s = end;
  }
  return count;
}

/* One line into buf (without its '\n', NUL-terminated) from f.  Returns the
 * length, -1 at end of file, -2 for a NUL byte (at column *col), -3 for a
 * line of cap bytes or more, -4 for a read error. */
static long read_line(FILE *f, char *buf, size_t cap, long *col) {
  size_t n = 0;
  int c, any = 0;
  while ((c = getc(f)) != EOF) {
    any = 1;
    if (c == '\n') break;
    if (c == '\0') {
      *col = (long)n + 1;
      return -2;
    }
    if (n + 1 >= cap) return -3;
    buf[n++] = (char)c;
  }
  if (ferror(f)) return -4;
  buf[n] = '\0';
  return any ? (long)n : -1;
}

int dg_degree_map_create_file(dg_degree_map **m, const dg_grid *g, const char *raw_path) {
  DG_ARG_NONNULL("dg_degree_map_create_file", m);
  *m = NULL;
  DG_ARG_NONNULL("dg_degree_map_create_file", g);
  DG_ARG_NONNULL("dg_degree_map_create_file", raw_path);
  char *path = dg_escape_dup(raw_path);
  if (!path) return dg_error(DG_ERR_MEM, "degree map: out of memory");
  /* Without blocking (a FIFO cannot stall us); regular files only. */
  int fd = open(raw_path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc = 0;
  struct stat st;
  FILE *f = NULL;
  if (fd < 0) {
    rc = dg_error(DG_ERR_IO, "degree map %s: cannot open: %s", path, strerror(errno));
  } else if (fstat(fd, &st) != 0) {
    rc = dg_error(DG_ERR_IO, "degree map %s: cannot stat: %s", path, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    rc =
        dg_error(DG_ERR_IO, "degree map %s: not a regular file; only regular files are read", path);
  } else if (!(f = fdopen(fd, "r"))) {
    rc = dg_error(DG_ERR_IO, "degree map %s: cannot open: %s", path, strerror(errno));
  }
  if (rc == 0) fd = -1; /* owned by f now */
  if (rc == 0) rc = map_alloc(m, g);
  if (rc) {
    if (f) fclose(f);
    if (fd >= 0) close(fd);
    free(path);
    return rc;
  }
  const long rows = (long)g->n[1] * g->n[2];
  long row = 0, lineno = 0, len, col = 0;
  char buf[65536];
  while ((len = read_line(f, buf, sizeof buf, &col)) >= 0 || len == -2 || len == -3) {
    ++lineno;
    if (len == -2) {
      rc =
          dg_error(DG_ERR_IO, "degree map %s, line %ld: NUL byte at column %ld", path, lineno, col);
      goto fail;
    }
    if (len == -3) {
      rc = dg_error(DG_ERR_IO, "degree map %s, line %ld: line longer than %zu characters", path,
                    lineno, sizeof buf - 1);
      goto fail;
    }
    char *s = buf;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') ++s;
    if (*s == '\0' || *s == '#') continue;
    if (row >= rows) {
      rc = dg_error(DG_ERR_IO, "degree map %s, line %ld: more than the %ld rows (%s) the grid has",
                    path, lineno, rows, g->dim == 3 ? "N2*N3" : "N2");
      goto fail;
    }
    const int cnt = parse_row(path, lineno, s, g->n[0], (*m)->deg + row * g->n[0]);
    if (cnt < 0) {
      rc = DG_ERR_IO;
      goto fail;
    }
    if (cnt != g->n[0]) {
      rc = dg_error(DG_ERR_IO, "degree map %s, line %ld: %d entries, the grid has %d elements in x",
                    path, lineno, cnt, g->n[0]);
      goto fail;
    }
    ++row;
  }
  if (len == -4) {
    rc = dg_error(DG_ERR_IO, "degree map %s: read error", path);
    goto fail;
  }
  if (lineno == 0) {
    rc = dg_error(DG_ERR_IO, "degree map %s: empty file, the grid needs %ld rows", path, rows);
    goto fail;
  }
  if (row != rows) {
    rc = dg_error(DG_ERR_IO,
                  "degree map %s, line %ld: end of file after %ld rows, the grid needs %ld", path,
                  lineno, row, rows);
    goto fail;
  }
  fclose(f);
  free(path);
  map_finish(*m);
  return 0;
fail:
  fclose(f);
  free(path);
  dg_degree_map_destroy(m);
  return rc;
}

int dg_degree_map_write(const dg_degree_map *m, const dg_grid *g, const char *path) {
  DG_ARG_NONNULL("dg_degree_map_write", m);
  DG_ARG_NONNULL("dg_degree_map_write", g);
  DG_ARG_NONNULL("dg_degree_map_write", path);
  FILE *f = fopen(path, "w");
  if (!f) return dg_error(DG_ERR_IO, "degree map %s: cannot write: %s", path, strerror(errno));
  fprintf(f, "# dgrid degree map: %d rows of %d degrees, first row j=0%s\n", g->n[1] * g->n[2],
          g->n[0], g->dim == 3 ? ", k-blocks in order" : "");
  for (long e = 0; e < m->nelem; ++e)
    fprintf(f, "%d%c", m->deg[e], (e + 1) % g->n[0] == 0 ? '\n' : ' ');
  if (fclose(f) != 0) return dg_error(DG_ERR_IO, "degree map %s: write failed", path);
  return 0;
}

void dg_degree_map_destroy(dg_degree_map **m) {
  if (!m || !*m) return;
  free((*m)->deg);
  free(*m);
  *m = NULL;
}
