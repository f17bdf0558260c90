/* io_gen - writes the files that the shell/Python tests in tests/io check
 * with outside readers (h5ls, h5dump, an XML parser) and with `compare`.
 * Expected numbers go to DIR/expect.sh (sourceable by sh).
 *
 *   io_gen h5dump  DIR   two snapshots with known shapes and values
 *   io_gen xdmf    DIR   two time series of 3 snapshots + XDMF sidecars
 *   io_gen compare DIR   pairs of files for the compare.* tests
 *   io_gen edit IN OUT EDIT...   a snapshot written by dgrid, changed and
 *                        sealed again (tests of the restart's checks); EDIT is
 *                        time=X, step=N, dt=X (X as strtod reads it: nan, inf
 *                        and negatives too), hist=I,STEP,T (row I of /history),
 *                        config:KEY=VALUE (the value of KEY in the stored
 *                        configuration), rename:OLD=NEW (a key of it), or
 *                        noconfig (drop it) */
#include "io_test_util.h"

static char g_dir[512];

static int write_or_die(const char *name, const dg_snapshot *s, int text) {
  char p[700];
  snprintf(p, sizeof p, "%s/%s", g_dir, name);
  int rc = text ? dg_snapshot_write_text(p, s) : dg_snapshot_write(p, s);
  if (rc != 0) fprintf(stderr, "io_gen: %s\n", dg_error_message());
  return rc;
}

static FILE *open_expect(void) {
  char p[700];
  snprintf(p, sizeof p, "%s/expect.sh", g_dir);
  FILE *f = fopen(p, "w");
  if (!f) fprintf(stderr, "io_gen: cannot create %s\n", p);
  return f;
}

/* 2D: cells 6x4, nvar 2, degree (i+j)%4, view s=3 with error, gauss values
 * (q=4), parameters, 3 history rows.  3D: cells 3x2x2, nvar 1, nothing optional. */
static int gen_h5dump(void) {
  gen_opts o = gen_defaults(2, 2);
  o.cells[0] = 6;
  o.cells[1] = 4;
  o.view_s = 3;
  o.with_error = 1;
  o.with_gauss = 1;
  o.nhist = 3;
  dg_snapshot s;
  gen_snapshot(&s, &o);
  /* A known degree map: (i + j) % 4. */
  s.coeff_offset[0] = 0;
  for (int64_t e = 0; e < s.nelem; ++e) {
    int deg = (int)((e % 6 + e / 6) % 4);
    s.degree[e] = (uint8_t)deg;
    s.coeff_offset[e + 1] = s.coeff_offset[e] + 2 * (deg + 1) * (deg + 1);
  }
  s.coeff = realloc(s.coeff, (size_t)s.coeff_offset[s.nelem] * sizeof(double));
  for (int64_t m = 0; m < s.coeff_offset[s.nelem]; ++m) s.coeff[m] = 0.5;
  s.nparams = 2;
  s.param_keys = malloc(2 * sizeof(char *));
  s.param_values = malloc(2 * sizeof(char *));
  s.param_keys[0] = util_strdup("cfl");
  s.param_values[0] = util_strdup("0.4");
  s.param_keys[1] = util_strdup("scheme");
  s.param_values[1] = util_strdup("ssprk3");
  int rc = write_or_die("s2.h5", &s, 0);
  FILE *f = open_expect();
  if (!f) rc = 1;
  if (f) fprintf(f, "NCOEFF2=%" PRId64 "\n", s.coeff_offset[s.nelem]);
  dg_snapshot_free(&s);

  o = gen_defaults(3, 1);
  o.cells[0] = 3;
  o.cells[1] = 2;
  o.cells[2] = 2;
  gen_snapshot(&s, &o);
  if (rc == 0) rc = write_or_die("s3.h5", &s, 0);
  if (f) {
    fprintf(f, "NCOEFF3=%" PRId64 "\n", s.coeff_offset[s.nelem]);
    if (fclose(f) != 0) rc = 1;
  }
  dg_snapshot_free(&s);
  return rc;
}

/* A series of 3 snapshots in DIR/data and an XDMF at `xmf` (relative to DIR). */
static int series(const gen_opts *base, const char *stem, const char *xmf) {
  char h5[3][700], xp[700];
  const char *paths[3];
  double times[3] = {0.0, 0.25, 0.5};
  dg_snapshot s;
  int rc = 0;
  for (int i = 0; i < 3 && rc == 0; ++i) {
    gen_opts o = *base;
    o.seed = base->seed + (uint64_t)i;
    gen_snapshot(&s, &o);
    s.time = times[i];
    s.step = 10 * i;
    snprintf(h5[i], sizeof h5[i], "%s/data/%s_%04d.h5", g_dir, stem, i);
    paths[i] = h5[i];
    rc = dg_snapshot_write(h5[i], &s);
    if (rc == 0 && i == 2) {
      snprintf(xp, sizeof xp, "%s/%s", g_dir, xmf);
      rc = dg_xdmf_write(xp, 3, paths, times, &s);
    }
    if (rc != 0) fprintf(stderr, "io_gen: %s\n", dg_error_message());
    dg_snapshot_free(&s);
  }
  return rc;
}

static int gen_xdmf(void) {
  char sub[700];
  snprintf(sub, sizeof sub, "%s/data", g_dir);
  if (ensure_dir(sub) != 0) return 1;
  snprintf(sub, sizeof sub, "%s/sub", g_dir);
  if (ensure_dir(sub) != 0) return 1;
  /* 2D, nvar 1, with error; box [0,2]x[-1,1], 8x4 cells, s = 2 */
  gen_opts o = gen_defaults(2, 1);
  o.cells[0] = 8;
  o.cells[1] = 4;
  o.lo[0] = 0.0;
  o.hi[0] = 2.0;
  o.lo[1] = -1.0;
  o.hi[1] = 1.0;
  o.view_s = 2;
  o.with_error = 1;
  int rc = series(&o, "run2d", "run2d.xmf");
  /* 3D, nvar 2, no error; box [0,1]x[0,2]x[0,3], 3x2x4 cells, s = 2; the
   * XDMF sits in a sibling folder so its paths start with "../". */
  o = gen_defaults(3, 2);
  o.cells[0] = 3;
  o.cells[1] = 2;
  o.cells[2] = 4;
  o.lo[0] = 0.0;
  o.hi[0] = 1.0;
  o.lo[1] = 0.0;
  o.hi[1] = 2.0;
  o.lo[2] = 0.0;
  o.hi[2] = 3.0;
  o.view_s = 2;
  if (rc == 0) rc = series(&o, "run3d", "sub/run3d.xmf");
  return rc;
}

/* Pairs for compare: base, perturbed, lower degree, other grid, 3D. */
static int gen_compare(void) {
  gen_opts o = gen_defaults(2, 1);
  o.cells[0] = 8;
  o.cells[1] = 6;
  o.lo[0] = 0.0;
  o.hi[0] = 1.0;
  o.lo[1] = 0.0;
  o.hi[1] = 1.0;
  o.fixed_degree = 3;
  dg_snapshot s;
  gen_snapshot(&s, &o);
  /* The perturbed coefficient: element (3,2), mode (1,2) = a + 4*b = 9. */
  int64_t pe = 3 + 8 * 2, pm = 1 + 4 * 2;
  double *pc = &s.coeff[s.coeff_offset[pe] + pm];
  *pc = 3e-8; /* small: c + 1e-9 - c is 1e-9 to ~1e-23 */
  int rc = write_or_die("base.h5", &s, 0);
  if (rc == 0) rc = write_or_die("base.txt", &s, 1);
  FILE *f = open_expect();
  if (!f) return 1;
  double delta = (*pc + 1e-9) - *pc;
  /* ||v||^2 = prod(h/2) * (2/3)(2/5) * delta^2 with h = 1/8, 1/6 */
  double l2 = sqrt((1.0 / 16.0) * (1.0 / 12.0) * (2.0 / 3.0) * (2.0 / 5.0)) * delta;
  double cref = 0.0, lref = 0.0;
  for (int64_t e = 0; e < s.nelem; ++e)
    for (int b = 0; b < 4; ++b)
      for (int a = 0; a < 4; ++a) {
        double c = s.coeff[s.coeff_offset[e] + a + 4 * b];
        cref += c * c;
        lref += (1.0 / 192.0) * (2.0 / (2 * a + 1)) * (2.0 / (2 * b + 1)) * c * c;
      }
  fprintf(f, "PERT_ELEM='(3,2)'\nPERT_MODE='(1,2)'\nDOFS=%" PRId64 "\n", s.nelem * 16);
  fprintf(f, "PERT_DELTA=%.17g\nPERT_L2=%.17g\nPERT_CREL=%.17g\nL2_REF=%.17g\n", delta, l2,
          delta / sqrt(cref), sqrt(lref));
  *pc += 1e-9;
  if (rc == 0) rc = write_or_die("pert.h5", &s, 0);
  *pc -= 1e-9;

  /* Lower degree (1) in the column i == 0: 6 elements, 12 modes each unused. */
  dg_snapshot low;
  gen_opts ol = o;
  gen_snapshot(&low, &ol);
  low.coeff_offset[0] = 0;
  double umax = 0.0;
  int64_t w = 0;
  for (int64_t e = 0; e < low.nelem; ++e) {
    int deg = e % 8 == 0 ? 1 : 3, n = deg + 1;
    low.degree[e] = (uint8_t)deg;
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) low.coeff[w++] = s.coeff[s.coeff_offset[e] + a + 4 * b];
    if (deg == 1)
      for (int b = 0; b < 4; ++b)
        for (int a = 0; a < 4; ++a)
          if (a > 1 || b > 1) umax = fmax(umax, fabs(s.coeff[s.coeff_offset[e] + a + 4 * b]));
    low.coeff_offset[e + 1] = w;
  }
  if (rc == 0) rc = write_or_die("lowdeg.h5", &low, 0);
  fprintf(f, "LOW_MISMATCH=6\nLOW_UNCOMPARED=72\nLOW_UMAX=%.6e\nLOW_DOFS=%d\n", umax,
          6 * 4 + 42 * 16);
  dg_snapshot_free(&low);

  gen_opts og = o;
  og.cells[0] = 16;
  gen_snapshot(&low, &og);
  if (rc == 0) rc = write_or_die("cells16.h5", &low, 0);
  dg_snapshot_free(&low);
  og = o;
  og.hi[0] = 2.0;
  gen_snapshot(&low, &og);
  if (rc == 0) rc = write_or_die("box2.h5", &low, 0);
  dg_snapshot_free(&low);
  og = o;
  og.nvar = 2;
  gen_snapshot(&low, &og);
  if (rc == 0) rc = write_or_die("nvar2.h5", &low, 0);
  dg_snapshot_free(&low);
  og = o;
  og.dim = 3;
  og.cells[2] = 2;
  gen_snapshot(&low, &og);
  if (rc == 0) rc = write_or_die("dim3.h5", &low, 0);
  dg_snapshot_free(&low);

  /* 3D pair: element (1,2,0), mode (2,0,1) = 2 + 3*(0 + 3*1) = 11, degree 2. */
  gen_opts o3 = gen_defaults(3, 1);
  o3.fixed_degree = 2;
  gen_snapshot(&low, &o3);
  if (rc == 0) rc = write_or_die("base3.h5", &low, 0);
  int64_t e3 = 1 + 5 * 2;
  low.coeff[low.coeff_offset[e3] + 11] += 1e-6;
  if (rc == 0) rc = write_or_die("pert3.h5", &low, 0);
  dg_snapshot_free(&low);
  fprintf(f, "PERT3_ELEM='(1,2,0)'\nPERT3_MODE='(2,0,1)'\n");

  /* Malformed inputs for the error paths. */
  char p[700], q[700];
  snprintf(p, sizeof p, "%s/base.h5", g_dir);
  snprintf(q, sizeof q, "%s/nocoeff.h5", g_dir);
  hid_t h = file_copy(p, q) == 0 ? H5Fopen(q, H5F_ACC_RDWR, H5P_DEFAULT) : -1;
  if (h < 0 || H5Ldelete(h, "/coeff", H5P_DEFAULT) < 0 || H5Fclose(h) < 0 || reseal(q) != 0) rc = 1;
  snprintf(p, sizeof p, "%s/truncated.txt", g_dir);
  FILE *t = fopen(p, "w");
  if (t) {
    fprintf(t, "dgrid-text 1\ndim 2\ncells 1 1\nbox 0 1 0 1\nnvar 1\nq 2\ntime 0\nstep 0\n"
               "model m\nelements 1\ne 0 0 1\n1 2 3\n");
    if (fclose(t) != 0) rc = 1;
  } else {
    rc = 1;
  }
  if (fclose(f) != 0) rc = 1;
  dg_snapshot_free(&s);
  return rc;
}

/* The line "KEY = ..." of the configuration text: its start and end. */
static char *config_line(char *cfg, const char *key, char **end) {
  const size_t kn = strlen(key);
  for (char *l = cfg; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, key, kn) == 0 && strncmp(l + kn, " = ", 3) == 0) {
      *end = strchr(l, '\n');
      if (!*end) *end = l + strlen(l);
      return l;
    }
  }
  return NULL;
}

/* cfg with [b, e) replaced by `with`; frees cfg. */
static char *splice(char *cfg, const char *b, const char *e, const char *with) {
  const size_t n = strlen(cfg) - (size_t)(e - b) + strlen(with) + 1;
  char *out = malloc(n);
  if (!out) return NULL;
  snprintf(out, n, "%.*s%s%s", (int)(b - cfg), cfg, with, e);
  free(cfg);
  return out;
}

static int edit(int argc, char **argv) {
  dg_snapshot s;
  if (dg_snapshot_read(argv[2], &s) != 0) {
    fprintf(stderr, "io_gen: %s\n", dg_error_message());
    return 2;
  }
  int rc = 0;
  for (int i = 4; i < argc && rc == 0; ++i) {
    const char *a = argv[i];
    char *end;
    if (!strncmp(a, "time=", 5)) {
      s.time = strtod(a + 5, NULL);
    } else if (!strncmp(a, "step=", 5)) {
      s.step = strtoll(a + 5, NULL, 10);
    } else if (!strncmp(a, "dt=", 3)) {
      s.dt = strtod(a + 3, NULL);
    } else if (!strncmp(a, "hist=", 5)) {
      long row = strtol(a + 5, &end, 10);
      if (row < 0 || row >= s.nhist || *end != ',') {
        rc = 1;
        break;
      }
      s.history[4 * row] = strtod(end + 1, &end);
      if (*end != ',') {
        rc = 1;
        break;
      }
      s.history[4 * row + 1] = strtod(end + 1, NULL);
    } else if (!strcmp(a, "noconfig")) {
      free(s.config);
      s.config = NULL;
    } else if ((!strncmp(a, "config:", 7) || !strncmp(a, "rename:", 7)) && s.config) {
      char key[128];
      const char *eq = strchr(a + 7, '=');
      if (!eq || (size_t)(eq - (a + 7)) >= sizeof key) {
        rc = 1;
        break;
      }
      snprintf(key, sizeof key, "%.*s", (int)(eq - (a + 7)), a + 7);
      char *l = config_line(s.config, key, &end);
      if (!l) {
        fprintf(stderr, "io_gen: the configuration has no key '%s'\n", key);
        rc = 1;
        break;
      }
      char with[1200];
      if (a[0] == 'c')
        snprintf(with, sizeof with, "%s = %s", key, eq + 1);
      else
        snprintf(with, sizeof with, "%s%.*s", eq + 1, (int)(end - (l + strlen(key))),
                 l + strlen(key));
      if (!(s.config = splice(s.config, l, end, with))) rc = 1;
    } else {
      fprintf(stderr, "io_gen: unknown edit '%s'\n", a);
      rc = 1;
    }
  }
  if (rc == 0 && dg_snapshot_write(argv[3], &s) != 0) {
    fprintf(stderr, "io_gen: %s\n", dg_error_message());
    rc = 1;
  }
  dg_snapshot_free(&s);
  return rc;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "edit") == 0) return edit(argc, argv);
  if (argc != 3) {
    fprintf(stderr, "usage: %s h5dump|xdmf|compare DIR | edit IN OUT EDIT...\n", argv[0]);
    return 2;
  }
  snprintf(g_dir, sizeof g_dir, "%s", argv[2]);
  if (ensure_dir(g_dir) != 0) return 2;
  int rc;
  if (strcmp(argv[1], "h5dump") == 0)
    rc = gen_h5dump();
  else if (strcmp(argv[1], "xdmf") == 0)
    rc = gen_xdmf();
  else if (strcmp(argv[1], "compare") == 0)
    rc = gen_compare();
  else {
    fprintf(stderr, "io_gen: unknown mode '%s'\n", argv[1]);
    return 2;
  }
  return rc == 0 ? 0 : 1;
}
