/* nvrtc_check.c - gpu.nvrtc_compile: NVRTC compiles the CUDA backend's
 * stage units for a few (model, dim, r, q, grid) for sm_90 through the backend's
 * own code (backends/cuda/dg_cuda_nvrtc.c), without a device and without
 * the kernel cache, and checks each unit's kernels and facts; then a
 * modeller's header read from disk, and one with an error, which must come
 * back as DG_ERR_ARG naming the header's file:line.  Prints NVRTC's time
 * per unit; fails with NVRTC's log.
 *
 *   nvrtc_check [sm_XY]   (default sm_90) */
#include "dg_cuda_nvrtc.h"
#include "dg_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  const char *header;
  int dim, r, q;
  int flows; /* DG_MODEL_X_FLOWS of the model */
  int grid;  /* DG_CUDA_GRID_*: the plane's kinds, the walls', the sphere's of variant v */
} unit_case;

static const unit_case cases[] = {
    {"advection.h", 2, 3, 4, 0, 0},        {"advection.h", 3, 2, 3, 0, 0},
    {"advection.h", 3, 2, 3, 0, 1},        {"sphere_advection.h", 2, 3, 4, 2, 0},
    {"sphere_advection.h", 2, 3, 4, 2, 2}, {"sphere_advection.h", 2, 2, 4, 2, 3},
    {"acoustics.h", 2, 4, 5, 0, 0},        {"acoustics.h", 2, 4, 5, 0, 1},
};

static int failures;

static void fail(const char *what, const char *msg) {
  fprintf(stderr, "FAIL %s: %s\n", what, msg);
  ++failures;
}

/* Whether unit (dim, r, q) of grid `grid` of a model with `flows`
 * variants must have kernel kind k (dg_cuda.h): the plane's kinds 0..6,
 * the walls' kind 7, the sphere's trace, rate and its variant's updates. */
static int expect_kind(int k, int dim, int r, int q, int flows, int grid) {
  const int coef = q == r + 1, two = dim == 2;
  static const int flow_of[DG_CUDA_KINDS] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                             0,  0,  1,  1,  0,  0,  1,  1};
  if (flow_of[k] >= flows) return 0;
  if (grid == DG_CUDA_GRID_PLANE   ? flow_of[k] >= 0 || k == 7
      : grid == DG_CUDA_GRID_WALLS ? k != 7
                                   : k != 0 && k != 6 && flow_of[k] != grid - DG_CUDA_GRID_SPHERE)
    return 0;
  switch (k) {
  case 2:
  case 9:
  case 11:
    return coef;
  case 3:
  case 4:
  case 5:
  case 12:
  case 13:
  case 14:
  case 15:
    return two;
  default:
    return 1;
  }
}

/* Compile one unit; 0, or the build's status (its message recorded). */
static int build(const char *arch, const char *header, int user, int dim, int r, int q, int grid,
                 dg_cuda_unit *unit, void **bytes, double *seconds) {
  char src[8192], what[256];
  int rc = dg_cuda_nvrtc_source(header, dim, r, q, grid, src, sizeof src);
  if (rc) return rc;
  snprintf(what, sizeof what, "cuda %s %dD r=%d q=%d grid %d", header, dim, r, q, grid);
  const dg_jit_unit u = {what, src, user ? header : NULL, user, 0};
  dg_cuda_nvrtc_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  snprintf(ctx.arch, sizeof ctx.arch, "%s", arch);
  ctx.dim = dim;
  ctx.r = r;
  ctx.q = q;
  ctx.grid = grid;
  size_t len = 0;
  if ((rc = dg_cuda_nvrtc_build(&ctx, &u, bytes, &len))) return rc;
  *seconds = ctx.seconds;
  return dg_cuda_unit_parse(*bytes, len, unit);
}

static void check_unit(const char *arch, const unit_case *c) {
  char what[128];
  snprintf(what, sizeof what, "%s %dD r=%d q=%d grid %d", c->header, c->dim, c->r, c->q, c->grid);
  dg_cuda_unit unit;
  void *bytes = NULL;
  double sec = 0;
  if (build(arch, c->header, 0, c->dim, c->r, c->q, c->grid, &unit, &bytes, &sec)) {
    fail(what, dg_error_message());
    free(bytes);
    return;
  }
  int nk = 0;
  for (int k = 0; k < DG_CUDA_KINDS; ++k) {
    const int want = expect_kind(k, c->dim, c->r, c->q, c->flows, c->grid);
    nk += unit.name[k] != NULL;
    if (want != (unit.name[k] != NULL)) {
      char msg[128];
      snprintf(msg, sizeof msg, "kernel kind %d %s", k, want ? "missing" : "unexpected");
      fail(what, msg);
    }
  }
  if (unit.flows != c->flows) fail(what, "wrong count of flux variants");
  if (c->dim == 2 && (unit.team < 1 || unit.team > c->q || unit.smem <= 0))
    fail(what, "implausible team size or shared memory");
  if (unit.cubin_len < 4 || memcmp(unit.cubin, "\177ELF", 4)) fail(what, "no CUBIN (ELF)");
  printf("%-36s %5.2f s NVRTC, %2d kernels, CUBIN %7zu bytes, team %d x %d B\n", what, sec, nk,
         unit.cubin_len, unit.team, unit.smem);
  free(bytes);
}

/* A modeller's header: advection.h's text in a folder of its own, as is
 * (NVRTC reads it from disk) and with an error on a known line. */
static void check_user(const char *arch) {
  const dg_jit_source *adv = NULL;
  for (int i = 0; i < dg_jit_nsources; ++i)
    if (!strcmp(dg_jit_sources[i].path, "models/advection.h")) adv = &dg_jit_sources[i];
  if (!adv) {
    fail("user header", "models/advection.h is not among the embedded sources");
    return;
  }
  char dir[] = "/tmp/dgrid-nvrtc-check-XXXXXX";
  if (!mkdtemp(dir)) {
    fail("user header", "cannot create a temporary folder");
    return;
  }
  char good[256], bad[256];
  snprintf(good, sizeof good, "%s/mine.h", dir);
  snprintf(bad, sizeof bad, "%s/broken.h", dir);
  FILE *f = fopen(good, "w");
  if (f) {
    fwrite(adv->data, 1, adv->len, f);
    fclose(f);
  }
  /* line 3 of broken.h is not C */
  f = fopen(bad, "w");
  if (f) {
    fprintf(f, "/* broken.h */\n#include \"dg_lane.h\"\nthis is not a model;\n");
    fwrite(adv->data, 1, adv->len, f);
    fclose(f);
  }
  dg_cuda_unit unit;
  void *bytes = NULL;
  double sec = 0;
  if (build(arch, good, 1, 2, 2, 3, 0, &unit, &bytes, &sec))
    fail("user header mine.h", dg_error_message());
  else
    printf("%-28s %5.2f s NVRTC, CUBIN %7zu bytes\n", "mine.h (from disk) 2D r=2 q=3", sec,
           unit.cubin_len);
  free(bytes);
  bytes = NULL;
  const int rc = build(arch, bad, 1, 2, 2, 3, 0, &unit, &bytes, &sec);
  free(bytes);
  char where[300];
  snprintf(where, sizeof where, "%s(3)", bad);
  if (rc != DG_ERR_ARG)
    fail("user header broken.h", "a compile error must return DG_ERR_ARG");
  else if (!strstr(dg_error_message(), where))
    fail("user header broken.h", "the message does not name broken.h(3)");
  else
    printf("broken.h: DG_ERR_ARG, as expected:\n%s\n", dg_error_message());
  unlink(good);
  unlink(bad);
  rmdir(dir);
}

int main(int argc, char **argv) {
  const char *arch = argc > 1 ? argv[1] : "sm_90";
  char tool[2048];
  if (dg_cuda_nvrtc_tool(arch, tool, sizeof tool)) {
    fprintf(stderr, "FAIL: %s\n", dg_error_message());
    return 1;
  }
  printf("%s\n", tool);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) check_unit(arch, &cases[i]);
  check_user(arch);
  if (failures) fprintf(stderr, "%d failure%s\n", failures, failures == 1 ? "" : "s");
  return failures != 0;
}
