/* compare - difference of two dgrid solutions, each an HDF5 snapshot or a
 * text modal file (docs/FILE_FORMAT.md).  Coefficients are compared on the
 * modes both sides have; the L2 norm uses the diagonal Legendre mass matrix.
 * Exit status: 0 compared (and within --tol), 1 beyond --tol, 2 error. */
#include "dg_app_check.h"
#include "dg_app.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io.h"

#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_TOL 1
#define EXIT_ERR 2

static void usage(FILE *f) {
  fputs("usage: compare [--tol T] [--quiet] [--unverified] A B\n"
        "\n"
        "Compare two dgrid solutions on the same grid.  A and B are each a dgrid\n"
        "HDF5 snapshot or a dgrid text modal file (detected by content).  B is the\n"
        "reference.  Both must have the same dim, cells, box (to 1e-12 relative)\n"
        "and nvar.  Per element the modal coefficients are compared on the modes\n"
        "both sides have (every mode index <= min(degree A, degree B)); modes only\n"
        "one side has are counted and reported, not compared.\n"
        "\n"
        "options:\n"
        "  --tol T    exit with status 1 when rel_l2_diff > T (T >= 0); without\n"
        "             --tol the comparison never fails on size of the difference\n"
        "  --quiet    print only the machine-readable line (and a FAIL line)\n"
        "  --unverified  also read HDF5 snapshots that have no dgrid checksum\n"
        "             block (written before dgrid had checksums); HDF5 then parses\n"
        "             unverified bytes: use it only for files you trust\n"
        "  --help     print this help and exit\n"
        "  --         end of options (for file names starting with '-')\n"
        "\n"
        "output (one line, then a human summary unless --quiet):\n"
        "  compare: dofs=N max_abs_diff=X max_at_element=(i,j[,k])\n"
        "           max_at_mode=(a,b[,c]) l2_diff=X l2_ref=X rel_l2_diff=X\n"
        "           coeff_rel_l2=X degree_mismatch=N\n"
        "  dofs            coefficient values compared (common modes x nvar)\n"
        "  max_abs_diff    largest |A-B| over compared coefficients, at element\n"
        "                  (0-based indices) and mode (x,y[,z] Legendre degrees)\n"
        "  l2_diff         L2 norm over the box of the A-B function on common modes:\n"
        "                  sum_e prod_d(h_d/2) sum_modes prod_d(2/(2a_d+1)) (A-B)^2\n"
        "  l2_ref          the same norm of B (all of B's modes)\n"
        "  rel_l2_diff     l2_diff / l2_ref (l2_diff when l2_ref is 0)\n"
        "  coeff_rel_l2    ||cA-cB||_2 / ||cB||_2 of the plain coefficient vectors\n"
        "                  on common modes (||cA-cB||_2 when ||cB||_2 is 0)\n"
        "  degree_mismatch elements whose degrees differ\n"
        "\n"
        "exit status: 0 compared (within --tol), 1 rel_l2_diff > tol (or NaN),\n"
        "             2 bad usage, unreadable or malformed file, different grids\n"
        "Only regular files are read; messages are one line, with file names and\n"
        "strings from files escaped (\\n, \\xHH, ...).\n",
        f);
}

typedef struct {
  int64_t dofs;
  double max_abs;
  int64_t max_e;
  int max_v, max_mode[3];
  double l2_diff2, l2_ref2, c_diff2, c_ref2;
  int64_t deg_mismatch, uncompared;
  double uncompared_max;
} result;

/* HDF5 (with or without the dgrid checksum block) or text, by content. */
static int is_hdf5(const char *path) {
  static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  unsigned char head[15];
  /* Non-blocking: the file was read already, but may have been swapped. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t got = read(fd, head, sizeof head);
  close(fd);
  size_t n = got > 0 ? (size_t)got : 0;
  return (n >= sizeof sig && memcmp(head, sig, sizeof sig) == 0) ||
         (n == sizeof head && memcmp(head, "dgrid-checksum ", sizeof head) == 0);
}

static void fmt_cells(char *buf, size_t len, const dg_snapshot *s) {
  if (s->dim == 3)
    snprintf(buf, len, "%dx%dx%d", s->cells[0], s->cells[1], s->cells[2]);
  else
    snprintf(buf, len, "%dx%d", s->cells[0], s->cells[1]);
}

static void fmt_box(char *buf, size_t len, const dg_snapshot *s) {
  size_t u = 0;
  buf[0] = '\0';
  for (int d = 0; d < s->dim && u < len; ++d) {
    int n = snprintf(buf + u, len - u, "%s[%.17g,%.17g]", d ? "x" : "", s->lo[d], s->hi[d]);
    if (n < 0) break;
    u += (size_t)n;
  }
}

static void fmt_elem(char *buf, size_t len, const dg_snapshot *s, int64_t e) {
  int64_t i = e % s->cells[0], j = (e / s->cells[0]) % s->cells[1];
  int64_t k = e / ((int64_t)s->cells[0] * s->cells[1]);
  if (s->dim == 3)
    snprintf(buf, len, "(%" PRId64 ",%" PRId64 ",%" PRId64 ")", i, j, k);
  else
    snprintf(buf, len, "(%" PRId64 ",%" PRId64 ")", i, j);
}

static void fmt_mode(char *buf, size_t len, int dim, const int m[3]) {
  if (dim == 3)
    snprintf(buf, len, "(%d,%d,%d)", m[0], m[1], m[2]);
  else
    snprintf(buf, len, "(%d,%d)", m[0], m[1]);
}

/* Same dim, cells, box and nvar, else one message and status 2; with
 * `radii` (both files HDF5, whose format says whether a grid is the sphere;
 * the text format does not) also the same kind of grid. */
static int check_same_grid(const dg_snapshot *a, const dg_snapshot *b, int radii) {
  char x[256], y[256];
  if (a->dim != b->dim) {
    fprintf(stderr, "compare: grids differ: A has dim %d, B has dim %d\n", a->dim, b->dim);
    return EXIT_ERR;
  }
  for (int d = 0; d < a->dim; ++d)
    if (a->cells[d] != b->cells[d]) {
      fmt_cells(x, sizeof x, a);
      fmt_cells(y, sizeof y, b);
      fprintf(stderr, "compare: grids differ: A has cells %s, B has %s\n", x, y);
      return EXIT_ERR;
    }
  for (int d = 0; d < a->dim; ++d) {
    /* relative to the coordinates and to the box size (lo may be 0) */
    double scale = fmax(fmax(fabs(a->lo[d]), fabs(b->lo[d])), fmax(fabs(a->hi[d]), fabs(b->hi[d])));
    scale = fmax(scale, b->hi[d] - b->lo[d]);
    if (!(fabs(a->lo[d] - b->lo[d]) <= 1e-12 * scale) ||
        !(fabs(a->hi[d] - b->hi[d]) <= 1e-12 * scale)) {
      fmt_box(x, sizeof x, a);
      fmt_box(y, sizeof y, b);
      fprintf(stderr, "compare: grids differ: A has box %s, B has %s\n", x, y);
      return EXIT_ERR;
    }
  }
  if (radii && a->radius != b->radius) { /* a sphere's (lambda, theta) box is not a plane's */
    if (a->radius > 0 && b->radius > 0)
      fprintf(stderr, "compare: grids differ: A is a sphere of radius %.17g, B of radius %.17g\n",
              a->radius, b->radius);
    else
      fprintf(stderr,
              "compare: grids differ: %s is a latitude-longitude sphere (radius %.17g), %s "
              "a planar box\n",
              a->radius > 0 ? "A" : "B", a->radius > 0 ? a->radius : b->radius,
              a->radius > 0 ? "B" : "A");
    return EXIT_ERR;
  }
  if (a->nvar != b->nvar) {
    fprintf(stderr, "compare: variables differ: A has nvar %d, B has nvar %d\n", a->nvar, b->nvar);
    return EXIT_ERR;
  }
  return 0;
}

static void compare(const dg_snapshot *a, const dg_snapshot *b, result *res) {
  int dim = a->dim, nvar = a->nvar;
  double jac = 1.0, wt[16]; /* degrees are <= 10 (checked by the readers) */
  for (int d = 0; d < dim; ++d) jac *= 0.5 * (b->hi[d] - b->lo[d]) / b->cells[d];
  memset(res, 0, sizeof *res);
  int maxdeg = (int)(sizeof wt / sizeof wt[0]);
  for (int m = 0; m < maxdeg; ++m) wt[m] = 2.0 / (2.0 * m + 1.0);

  for (int64_t e = 0; e < a->nelem; ++e) {
    int ra = a->degree[e], rb = b->degree[e], rc = ra < rb ? ra : rb;
    int na = ra + 1, nb = rb + 1, nc3 = dim == 3 ? 1 : 0;
    int64_t la = na * na * (dim == 3 ? na : 1), lb = nb * nb * (dim == 3 ? nb : 1);
    if (ra != rb) res->deg_mismatch++;
    for (int v = 0; v < nvar; ++v) {
      const double *ca = a->coeff + a->coeff_offset[e] + v * la;
      const double *cb = b->coeff + b->coeff_offset[e] + v * lb;
      /* The reference norm uses every mode of B. */
      for (int c = 0; c <= rb * nc3; ++c)
        for (int bb = 0; bb <= rb; ++bb)
          for (int aa = 0; aa <= rb; ++aa) {
            double y = cb[aa + nb * (bb + nb * c)];
            double w = wt[aa] * wt[bb] * (dim == 3 ? wt[c] : 1.0);
            res->l2_ref2 += jac * w * y * y;
          }
      for (int c = 0; c <= rc * nc3; ++c)
        for (int bb = 0; bb <= rc; ++bb)
          for (int aa = 0; aa <= rc; ++aa) {
            double x = ca[aa + na * (bb + na * c)], y = cb[aa + nb * (bb + nb * c)];
            double dlt = x - y, ad = fabs(dlt);
            double w = wt[aa] * wt[bb] * (dim == 3 ? wt[c] : 1.0);
            res->dofs++;
            /* first largest difference wins; a NaN beats every number */
            if (ad > res->max_abs || (isnan(ad) && !isnan(res->max_abs))) {
              res->max_abs = ad;
              res->max_e = e;
              res->max_v = v;
              res->max_mode[0] = aa;
              res->max_mode[1] = bb;
              res->max_mode[2] = c;
            }
            res->l2_diff2 += jac * w * dlt * dlt;
            res->c_diff2 += dlt * dlt;
            res->c_ref2 += y * y;
          }
      if (ra != rb) {
        const double *cu = ra > rb ? ca : cb;
        int ru = ra > rb ? ra : rb, nu = ru + 1;
        for (int c = 0; c <= ru * nc3; ++c)
          for (int bb = 0; bb <= ru; ++bb)
            for (int aa = 0; aa <= ru; ++aa) {
              if (aa <= rc && bb <= rc && c <= rc) continue;
              double z = fabs(cu[aa + nu * (bb + nu * c)]);
              res->uncompared++;
              if (z > res->uncompared_max || isnan(z)) res->uncompared_max = z;
            }
      }
    }
  }
}

int main(int argc, char **argv) {
  dg_io_set_fail(getenv("DGRID_IO_FAIL")); /* fault injection for tests (dg_io.h) */
  const char *files[2] = {NULL, NULL};
  int nfiles = 0, quiet = 0, have_tol = 0, opts_done = 0, unverified = 0;
  char esc[512]; /* option values and file names are echoed escaped */
  double tol = 0.0;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (!opts_done && arg[0] == '-' && arg[1] != '\0') {
      const char *val = NULL;
      if (strcmp(arg, "--") == 0) {
        opts_done = 1;
      } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        usage(stdout);
        return dg_app_stdout_status("compare", 0);
      } else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
        quiet = 1;
      } else if (strcmp(arg, "--unverified") == 0) {
        unverified = 1;
      } else if (strcmp(arg, "--tol") == 0 || strncmp(arg, "--tol=", 6) == 0) {
        if (arg[5] == '=') {
          val = arg + 6;
        } else if (i + 1 < argc) {
          val = argv[++i];
        } else {
          fprintf(stderr, "compare: --tol needs a value (see compare --help)\n");
          return EXIT_ERR;
        }
        /* the apps' one strict number parser (decimal only: no hex, inf, blanks) */
        if (dg_app_parse_real("--tol", val, 0, HUGE_VAL, &tol)) {
          fprintf(stderr, "compare: --tol needs a non-negative number, got '%s'\n",
                  dg_escape(esc, sizeof esc, val));
          return EXIT_ERR;
        }
        have_tol = 1;
      } else {
        fprintf(stderr, "compare: unknown option '%s' (see compare --help)\n",
                dg_escape(esc, sizeof esc, arg));
        return EXIT_ERR;
      }
      continue;
    }
    if (nfiles == 2) {
      fprintf(stderr, "compare: expected two files A and B, got more ('%s'); see compare --help\n",
              dg_escape(esc, sizeof esc, arg));
      return EXIT_ERR;
    }
    files[nfiles++] = arg;
  }
  if (nfiles != 2) {
    fprintf(stderr, "compare: expected two files A and B, got %d (see compare --help)\n", nfiles);
    return EXIT_ERR;
  }

  /* The library's messages are one line, names escaped (dg_escape.h). */
  char line[4200];
  int (*read)(const char *, dg_snapshot *) =
      unverified ? dg_snapshot_read_unverified : dg_snapshot_read_any;
  dg_snapshot a, b;
  if (read(files[0], &a) != 0) {
    fprintf(stderr, "compare: %s\n", dg_escape_message(line, sizeof line, dg_error_message()));
    return EXIT_ERR;
  }
  if (read(files[1], &b) != 0) {
    fprintf(stderr, "compare: %s\n", dg_escape_message(line, sizeof line, dg_error_message()));
    dg_snapshot_free(&a);
    return EXIT_ERR;
  }
  int status = check_same_grid(&a, &b, is_hdf5(files[0]) && is_hdf5(files[1]));
  if (status != 0) {
    dg_snapshot_free(&a);
    dg_snapshot_free(&b);
    return status;
  }

  result res;
  compare(&a, &b, &res);
  double l2_diff = sqrt(res.l2_diff2), l2_ref = sqrt(res.l2_ref2);
  double rel = l2_ref > 0 ? l2_diff / l2_ref : l2_diff;
  double c_ref = sqrt(res.c_ref2), c_diff = sqrt(res.c_diff2);
  double crel = c_ref > 0 ? c_diff / c_ref : c_diff;
  char elem[96], mode[64];
  fmt_elem(elem, sizeof elem, &b, res.max_e);
  fmt_mode(mode, sizeof mode, a.dim, res.max_mode);
  printf("compare: dofs=%" PRId64 " max_abs_diff=%.17g max_at_element=%s max_at_mode=%s "
         "l2_diff=%.17g l2_ref=%.17g rel_l2_diff=%.17g coeff_rel_l2=%.17g degree_mismatch=%" PRId64
         "\n",
         res.dofs, res.max_abs, elem, mode, l2_diff, l2_ref, rel, crel, res.deg_mismatch);

  if (!quiet) {
    char cells[64], box[256];
    fmt_cells(cells, sizeof cells, &b);
    fmt_box(box, sizeof box, &b);
    for (int f = 0; f < 2; ++f) {
      const dg_snapshot *s = f ? &b : &a;
      char model[256];
      printf("  %s: %s (%s, model %s, time %.17g, step %" PRId64 ")\n", f ? "B" : "A",
             dg_escape(esc, sizeof esc, files[f]), is_hdf5(files[f]) ? "HDF5" : "text",
             dg_escape(model, sizeof model, s->model), s->time, s->step);
    }
    printf("  grid: %dD, cells %s, box %s, nvar %d\n", b.dim, cells, box, b.nvar);
    printf("  compared %" PRId64 " coefficients on common modes\n", res.dofs);
    printf("  largest |A-B| = %.6e at element %s, variable %d, mode %s\n", res.max_abs, elem,
           res.max_v, mode);
    printf("  L2 norm of A-B = %.6e, of B = %.6e, relative = %.6e\n", l2_diff, l2_ref, rel);
    printf("  coefficient vectors: ||cA-cB|| / ||cB|| = %.6e\n", crel);
    printf("  elements with different degrees: %" PRId64 "; uncompared modes: %" PRId64
           ", largest |coefficient| among them: %.6e\n",
           res.deg_mismatch, res.uncompared, res.uncompared_max);
    if (a.time != b.time) printf("  note: A is at time %.17g, B at %.17g\n", a.time, b.time);
  }
  if (have_tol) {
    if (!(rel <= tol)) {
      printf("compare: FAIL: rel_l2_diff=%.17g exceeds tol=%.17g\n", rel, tol);
      status = EXIT_TOL;
    } else if (!quiet) {
      printf("compare: PASS: rel_l2_diff=%.17g <= tol=%.17g\n", rel, tol);
    }
  }
  dg_snapshot_free(&a);
  dg_snapshot_free(&b);
  return dg_app_stdout_status("compare", status);
}
