/* io_test_util.h - shared by the tests/io programs: deterministic snapshot
 * generator, bit-exact comparison, file helpers and a CHECK macro. */
#ifndef IO_TEST_UTIL_H
#define IO_TEST_UTIL_H

#include "dg_error.h"
#include "dg_io.h"

#include <hdf5.h>

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_failures __attribute__((unused)) = 0;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                     \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      g_failures++;                                                                                \
    }                                                                                              \
  } while (0)

/* An exact error message check: status and text. */
#define CHECK_ERR(rc, want_rc, want_msg)                                                           \
  do {                                                                                             \
    CHECK((rc) == (want_rc), "status %d, expected %d (message: %s)", (rc), (want_rc),              \
          dg_error_message());                                                                     \
    CHECK(strcmp(dg_error_message(), (want_msg)) == 0, "message\n   got: %s\n  want: %s",          \
          dg_error_message(), (want_msg));                                                         \
  } while (0)

/* No HDF5 object of any file may stay open after a dg_ call returns. */
#define CHECK_NO_H5_LEAK()                                                                         \
  do {                                                                                             \
    ssize_t n_open_ = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);                                  \
    CHECK(n_open_ == 0, "%zd HDF5 objects still open", n_open_);                                   \
  } while (0)

/* xorshift64*: the same numbers on every machine. */
typedef struct {
  uint64_t s;
} rng_t;

static inline uint64_t rng_next(rng_t *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ULL;
}

static inline double rng_unit(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* Values that stress a text round trip: every magnitude, -0, subnormals,
 * and 17-digit mantissas. */
static inline double rng_wild(rng_t *r) {
  uint64_t k = rng_next(r) % 16;
  if (k == 0) return -0.0;
  if (k == 1) return 4.9406564584124654e-324 * (double)(1 + rng_next(r) % 1000);
  if (k == 2) return 1.7976931348623157e308 * rng_unit(r);
  double m = 2.0 * rng_unit(r) - 1.0;
  int ex = (int)(rng_next(r) % 600) - 300;
  return ldexp(m, ex);
}

typedef struct {
  int dim, nvar, cells[3];
  double lo[3], hi[3];
  int q;
  int max_degree;   /* degrees uniform in [0, max_degree] ... */
  int fixed_degree; /* ... unless >= 0 */
  int wild;         /* rng_wild values instead of smooth decaying ones */
  int view_s;       /* 0: no view */
  int with_error;   /* /view/error */
  int with_gauss;   /* /gauss_values */
  int nparams;      /* parameters key0..: value strings */
  int nhist;        /* history rows */
  uint64_t seed;
} gen_opts;

static inline gen_opts gen_defaults(int dim, int nvar) {
  gen_opts o;
  memset(&o, 0, sizeof o);
  o.dim = dim;
  o.nvar = nvar;
  o.cells[0] = 5;
  o.cells[1] = 4;
  o.cells[2] = dim == 3 ? 3 : 1;
  for (int d = 0; d < 3; ++d) {
    o.lo[d] = d == 1 ? -1.0 : 0.0;
    o.hi[d] = 1.0 + d;
  }
  o.q = 4;
  o.max_degree = 3;
  o.fixed_degree = -1;
  o.seed = 12345;
  return o;
}

static inline char *util_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* Fill `s` (all arrays malloc'd, so dg_snapshot_free releases them). */
static inline void gen_snapshot(dg_snapshot *s, const gen_opts *o) {
  rng_t r = {o->seed * 2654435761ULL + 88172645463325252ULL};
  memset(s, 0, sizeof *s);
  s->dim = o->dim;
  s->nvar = o->nvar;
  s->nelem = 1;
  for (int d = 0; d < 3; ++d) {
    s->cells[d] = d < o->dim ? o->cells[d] : 1;
    s->lo[d] = d < o->dim ? o->lo[d] : 0.0;
    s->hi[d] = d < o->dim ? o->hi[d] : 0.0;
    s->nelem *= s->cells[d];
  }
  s->q = o->q;
  s->time = 0.1 * (double)(o->seed % 7) + 1.0 / 3.0;
  s->step = (int64_t)(o->seed % 1000) + 3000000000LL; /* needs 64 bits */
  snprintf(s->model, sizeof s->model, "advection-test-%d", (int)(o->seed % 100));
  s->degree = malloc((size_t)s->nelem);
  s->coeff_offset = malloc(((size_t)s->nelem + 1) * sizeof(int64_t));
  s->coeff_offset[0] = 0;
  for (int64_t e = 0; e < s->nelem; ++e) {
    int deg = o->fixed_degree >= 0 ? o->fixed_degree
                                   : (int)(rng_next(&r) % (uint64_t)(o->max_degree + 1));
    s->degree[e] = (uint8_t)deg;
    int64_t len = s->nvar;
    for (int d = 0; d < s->dim; ++d) len *= deg + 1;
    s->coeff_offset[e + 1] = s->coeff_offset[e] + len;
  }
  s->coeff = malloc((size_t)s->coeff_offset[s->nelem] * sizeof(double));
  for (int64_t m = 0; m < s->coeff_offset[s->nelem]; ++m)
    s->coeff[m] = o->wild ? rng_wild(&r) : (2.0 * rng_unit(&r) - 1.0) * 0.5;
  int64_t qd = 1;
  for (int d = 0; d < s->dim; ++d) qd *= o->q;
  if (o->with_gauss) {
    int64_t n = s->nelem * qd * s->nvar;
    s->gauss_values = malloc((size_t)n * sizeof(double));
    for (int64_t m = 0; m < n; ++m) s->gauss_values[m] = rng_wild(&r);
  }
  if (o->view_s > 0) {
    s->view_s = o->view_s;
    int64_t n = s->nvar;
    for (int d = 0; d < s->dim; ++d) n *= (int64_t)s->cells[d] * o->view_s;
    s->view_values = malloc((size_t)n * sizeof(double));
    for (int64_t m = 0; m < n; ++m) s->view_values[m] = rng_wild(&r);
    if (o->with_error) {
      s->view_error = malloc((size_t)n * sizeof(double));
      for (int64_t m = 0; m < n; ++m) s->view_error[m] = rng_unit(&r) * 1e-6;
    }
  }
  if (o->nparams > 0) {
    s->nparams = o->nparams;
    s->param_keys = malloc((size_t)o->nparams * sizeof(char *));
    s->param_values = malloc((size_t)o->nparams * sizeof(char *));
    for (int i = 0; i < o->nparams; ++i) {
      char k[64], v[128];
      /* keys deliberately not in name order: the reader must keep ours */
      snprintf(k, sizeof k, "%c_key%d", 'z' - i % 26, i);
      if (i == 1)
        snprintf(v, sizeof v, "%s", "");
      else if (i == 2)
        snprintf(v, sizeof v, "%s", "degr\xc3\xa9 \"quoted\" <x> & 'y'");
      else
        snprintf(v, sizeof v, "value %d = %.17g", i, rng_unit(&r));
      s->param_keys[i] = util_strdup(k);
      s->param_values[i] = util_strdup(v);
    }
  }
  if (o->nhist > 0) {
    s->nhist = o->nhist;
    s->history = malloc((size_t)o->nhist * 4 * sizeof(double));
    for (int i = 0; i < o->nhist; ++i) {
      s->history[4 * i + 0] = 10.0 * i;
      s->history[4 * i + 1] = 0.01 * i;
      s->history[4 * i + 2] = 1.0 + rng_unit(&r);
      s->history[4 * i + 3] = i == 0 ? NAN : rng_unit(&r);
    }
  }
}

static inline int bits_equal(const void *a, const void *b, size_t n) {
  if (!a || !b) return a == b && n == 0;
  return memcmp(a, b, n) == 0;
}

/* Bit-exact comparison.  `full`: also the HDF5-only fields (gauss values,
 * view, parameters, history).  Returns 1 when equal, else 0 with a reason. */
static inline int snap_equal(const dg_snapshot *a, const dg_snapshot *b, int full, char *why,
                             size_t len) {
#define DIFF(...)                                                                                  \
  do {                                                                                             \
    snprintf(why, len, __VA_ARGS__);                                                               \
    return 0;                                                                                      \
  } while (0)
  if (a->dim != b->dim || a->nvar != b->nvar || a->q != b->q) DIFF("dim/nvar/q differ");
  for (int d = 0; d < 3; ++d)
    if (a->cells[d] != b->cells[d]) DIFF("cells[%d] differ", d);
  for (int d = 0; d < a->dim; ++d)
    if (!bits_equal(&a->lo[d], &b->lo[d], sizeof(double)) ||
        !bits_equal(&a->hi[d], &b->hi[d], sizeof(double)))
      DIFF("box side %d differs", d);
  if (!bits_equal(&a->time, &b->time, sizeof(double))) DIFF("time differs");
  if (a->step != b->step) DIFF("step differs");
  if (strcmp(a->model, b->model) != 0) DIFF("model '%s' vs '%s'", a->model, b->model);
  if (a->nelem != b->nelem) DIFF("nelem differs");
  if (!bits_equal(a->degree, b->degree, (size_t)a->nelem)) DIFF("degree differs");
  if (!bits_equal(a->coeff_offset, b->coeff_offset, ((size_t)a->nelem + 1) * sizeof(int64_t)))
    DIFF("coeff_offset differs");
  size_t nc = (size_t)a->coeff_offset[a->nelem];
  for (size_t m = 0; m < nc; ++m)
    if (!bits_equal(&a->coeff[m], &b->coeff[m], sizeof(double)))
      DIFF("coeff[%zu] differs: %.17g vs %.17g", m, a->coeff[m], b->coeff[m]);
  if (!full) return 1;
  int64_t qd = 1;
  for (int d = 0; d < a->dim; ++d) qd *= a->q;
  if (!a->gauss_values != !b->gauss_values) DIFF("gauss_values presence differs");
  if (a->gauss_values &&
      !bits_equal(a->gauss_values, b->gauss_values, (size_t)(a->nelem * qd * a->nvar) * 8))
    DIFF("gauss_values differ");
  if (a->view_s != b->view_s) DIFF("view_s %d vs %d", a->view_s, b->view_s);
  int64_t nv = a->nvar;
  for (int d = 0; d < a->dim; ++d) nv *= (int64_t)a->cells[d] * a->view_s;
  if (!a->view_values != !b->view_values) DIFF("view_values presence differs");
  if (a->view_values && !bits_equal(a->view_values, b->view_values, (size_t)nv * 8))
    DIFF("view_values differ");
  if (!a->view_error != !b->view_error) DIFF("view_error presence differs");
  if (a->view_error && !bits_equal(a->view_error, b->view_error, (size_t)nv * 8))
    DIFF("view_error differs");
  if (a->nparams != b->nparams) DIFF("nparams %d vs %d", a->nparams, b->nparams);
  for (int i = 0; i < a->nparams; ++i)
    if (strcmp(a->param_keys[i], b->param_keys[i]) != 0 ||
        strcmp(a->param_values[i], b->param_values[i]) != 0)
      DIFF("parameter %d: '%s'='%s' vs '%s'='%s'", i, a->param_keys[i], a->param_values[i],
           b->param_keys[i], b->param_values[i]);
  if (a->nhist != b->nhist) DIFF("nhist differs");
  if (a->nhist && !bits_equal(a->history, b->history, (size_t)a->nhist * 4 * 8))
    DIFF("history differs");
  return 1;
#undef DIFF
}

/* Whole file into memory, NUL-terminated; NULL if unreadable. */
static inline char *file_bytes(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *b = malloc(cap + 1);
  for (;;) {
    if (n == cap) b = realloc(b, (cap *= 2) + 1);
    size_t got = fread(b + n, 1, cap - n, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  b[n] = '\0';
  *len = n;
  return b;
}

static inline int file_write(const char *path, const void *buf, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t put = fwrite(buf, 1, len, f);
  return (fclose(f) == 0 && put == len) ? 0 : -1;
}

static inline int file_copy(const char *from, const char *to) {
  size_t n;
  char *b = file_bytes(from, &n);
  if (!b) return -1;
  int rc = file_write(to, b, n);
  free(b);
  return rc;
}

/* CRC-64/XZ, bit by bit: an implementation independent of the library's
 * table-driven one, so the tests also check docs/FILE_FORMAT.md. */
static inline uint64_t util_crc64(const unsigned char *p, size_t n) {
  uint64_t crc = ~0ULL;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xc96c5795d7870f42ULL & (0 - (crc & 1)));
  }
  return ~crc;
}

/* Rewrite the checksum block of `path` (a snapshot edited with the HDF5
 * API keeps its user block but no longer matches it).  0 on success. */
static inline int reseal(const char *path) {
  size_t n = 0;
  char *b = file_bytes(path, &n);
  if (!b || n <= 512) {
    free(b);
    return -1;
  }
  char line[512];
  memset(line, 0, sizeof line);
  snprintf(line, sizeof line, "dgrid-checksum 1 crc64 %016" PRIx64 " %zu\n",
           util_crc64((const unsigned char *)b + 512, n - 512), n - 512);
  memcpy(b, line, 512);
  int rc = file_write(path, b, n);
  free(b);
  return rc;
}

/* Number of entries in `dir` whose name contains ".tmp." (leftover temporaries). */
static inline int count_temporaries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d) return -1;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (strstr(e->d_name, ".tmp.")) n++;
  closedir(d);
  return n;
}

/* Remove `path` and everything below it (no symlinks followed). */
static inline int remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      size_t n = strlen(path) + strlen(e->d_name) + 2;
      char *sub = malloc(n);
      if (sub) snprintf(sub, n, "%s/%s", path, e->d_name);
      int rc = sub ? remove_tree(sub) : -1;
      free(sub);
      if (rc != 0) {
        closedir(d);
        return -1;
      }
    }
    closedir(d);
  }
  return remove(path);
}

/* A fresh, empty test folder: results never depend on an earlier run. */
static inline int fresh_dir(const char *dir) {
  if (remove_tree(dir) != 0 || mkdir(dir, 0777) != 0) {
    fprintf(stderr, "cannot recreate folder %s: %s\n", dir, strerror(errno));
    return -1;
  }
  return 0;
}

/* mkdir that accepts an existing folder (tests make their own). */
static inline int ensure_dir(const char *dir) {
  if (mkdir(dir, 0777) == 0 || errno == EEXIST) return 0;
  fprintf(stderr, "cannot create folder %s: %s\n", dir, strerror(errno));
  return -1;
}

#endif
