/* dg_cuda_nvrtc.c - the stage kernels of one (model, dim, R, Q) compiled
 * by NVRTC (dg_cuda_nvrtc.h).
 *
 * The unit's text is a few lines around dg_cuda_stages.cuh; its kernels are
 * the template instantiations asked for by name expression, the same set
 * the ahead-of-time build compiled per (DIM, R, Q): trace, update, update
 * on the neighbours' coefficients where Q = R + 1, CFL rate, update with
 * boundaries, in 2D the team updates, and the flux-variant copies.  Every
 * header comes from memory: the library's sources (dg_jit_sources[]) and
 * small stand-ins for the C headers the device path includes (NVRTC has no
 * C library); a modeller's header, named by its absolute path, NVRTC reads
 * from disk.  The options are nvcc's device defaults (fmad on, no fast
 * math), so the kernels are those the ahead-of-time build made. */
#include "dg_cuda_nvrtc.h"

#include "dg_error.h"

#include <nvrtc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DG_CUDA_MIN_BLOCKS
#define DG_CUDA_MIN_BLOCKS -1
#endif
#ifndef DG_CUDA_REUSE_TRACES
#define DG_CUDA_REUSE_TRACES 0
#endif
/* 1 (CMake DGRID_WERROR): a warning in a unit of the library's own models
 * fails it, as nvcc's --Werror all-warnings failed the build */
#ifndef DG_CUDA_NVRTC_WERROR
#define DG_CUDA_NVRTC_WERROR 0
#endif
/* 1 (CMake DGRID_CUDA_RESOURCE_USAGE): ptxas reports registers, stack and
 * spills of every kernel it compiles, printed on stderr */
#ifndef DG_CUDA_RESOURCE_USAGE
#define DG_CUDA_RESOURCE_USAGE 0
#endif
/* more options for every unit (CMake DGRID_CUDA_NVRTC_OPTIONS) */
#ifndef DG_CUDA_NVRTC_OPTIONS
#define DG_CUDA_NVRTC_OPTIONS ""
#endif

#define DG_STR_(x) #x
#define DG_STR(x)  DG_STR_(x)

/* The format of a unit's bytes (joins the cache key). */
#define DG_CUDA_UNIT_MAGIC "dgrid-cuda-unit 1"

/* ---- the C headers the device path includes, for NVRTC ---- */

/* The math functions are NVRTC built-ins; the macros are not. */
static const char stand_in_math[] = "#ifndef DG_NVRTC_MATH_H\n#define DG_NVRTC_MATH_H\n"
                                    "#define INFINITY __int_as_float(0x7f800000)\n"
                                    "#define NAN __int_as_float(0x7fffffff)\n"
                                    "#define HUGE_VALF INFINITY\n"
                                    "#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)\n"
                                    "#define M_E 2.7182818284590452354\n"
                                    "#define M_PI 3.14159265358979323846\n"
                                    "#define M_PI_2 1.57079632679489661923\n"
                                    "#define M_SQRT2 1.41421356237309504880\n"
                                    "#endif\n";
/* memcpy and memset are built-ins */
static const char stand_in_string[] = "/* memcpy, memset: NVRTC built-ins */\n";
/* size_t and ptrdiff_t are built-ins */
static const char stand_in_stddef[] = "#ifndef DG_NVRTC_STDDEF_H\n#define DG_NVRTC_STDDEF_H\n"
                                      "#ifndef NULL\n#define NULL 0\n#endif\n"
                                      "#define offsetof(t, m) __builtin_offsetof(t, m)\n"
                                      "#endif\n";
static const char stand_in_stdint[] =
    "#ifndef DG_NVRTC_STDINT_H\n#define DG_NVRTC_STDINT_H\n"
    "typedef signed char int8_t;\ntypedef short int16_t;\ntypedef int int32_t;\n"
    "typedef long long int64_t;\ntypedef unsigned char uint8_t;\n"
    "typedef unsigned short uint16_t;\ntypedef unsigned int uint32_t;\n"
    "typedef unsigned long long uint64_t;\ntypedef long intptr_t;\n"
    "typedef unsigned long uintptr_t;\n#endif\n";

enum { MAX_HEADERS = 128 };

/* The in-memory headers: the embedded sources under stencils/, models/ and
 * backends/cuda/ by their file name (how the sources include them), and
 * the stand-ins.  Returns the count. */
static int unit_headers(const char **text, const char **name) {
  int n = 0;
  for (int i = 0; i < dg_jit_nsources && n < MAX_HEADERS - 4; ++i) {
    const char *p = dg_jit_sources[i].path;
    if (strncmp(p, "stencils/", 9) && strncmp(p, "models/", 7) && strncmp(p, "backends/cuda/", 14))
      continue;
    text[n] = (const char *)dg_jit_sources[i].data; /* NUL-terminated (dgrid_embed.cmake) */
    name[n++] = strrchr(p, '/') + 1;
  }
  text[n] = stand_in_math;
  name[n++] = "math.h";
  text[n] = stand_in_string;
  name[n++] = "string.h";
  text[n] = stand_in_stddef;
  name[n++] = "stddef.h";
  text[n] = stand_in_stdint;
  name[n++] = "stdint.h";
  return n;
}

/* ---- options ---- */

enum { MAX_OPTIONS = 48 };

/* The options of every unit for `arch`, as words in store (cap bytes);
 * opt[] points into it.  Returns the count, or -1 where they do not fit. */
static int unit_options(const char *arch, char *store, size_t cap, const char **opt) {
  const char *env = getenv("DGRID_CUDA_NVRTC_OPTIONS"); /* experiments: -DDG_CUDA_TEAM_T=4 */
#ifdef DG_REAL_FLOAT
  const char *real = " -DDG_REAL_FLOAT";
#else
  const char *real = "";
#endif
  int len = snprintf(store, cap,
                     "--gpu-architecture=%s -std=c++17 -fmad=true -DDG_CUDA_MIN_BLOCKS=%s "
                     "-DDG_CUDA_REUSE_TRACES=%s%s%s %s %s",
                     arch, DG_STR(DG_CUDA_MIN_BLOCKS), DG_STR(DG_CUDA_REUSE_TRACES), real,
                     DG_CUDA_RESOURCE_USAGE ? " --ptxas-options=-v" : "", DG_CUDA_NVRTC_OPTIONS,
                     env ? env : "");
  if (len < 0 || (size_t)len >= cap) return -1;
  int n = 0;
  char *save = NULL;
  for (char *w = strtok_r(store, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    if (n == MAX_OPTIONS) return -1;
    opt[n++] = w;
  }
  return n;
}

int dg_cuda_nvrtc_arch(int major, int minor, char *arch, size_t cap) {
  int n = 0, want = 10 * major + minor;
  nvrtcResult e = nvrtcGetNumSupportedArchs(&n);
  int *list = e == NVRTC_SUCCESS && n > 0 ? (int *)malloc((size_t)n * sizeof *list) : NULL;
  if (list) e = nvrtcGetSupportedArchs(list);
  int ok = 0, newest = 0;
  for (int i = 0; list && e == NVRTC_SUCCESS && i < n; ++i) {
    ok |= list[i] == want;
    if (list[i] > newest) newest = list[i];
  }
  free(list);
  if (e != NVRTC_SUCCESS)
    return dg_error(DG_ERR_BACKEND, "cuda backend: nvrtcGetSupportedArchs failed: %s",
                    nvrtcGetErrorString(e));
  if (!ok) {
    int ma = 0, mi = 0;
    nvrtcVersion(&ma, &mi);
    return dg_error(DG_ERR_BACKEND,
                    "cuda backend: NVRTC %d.%d cannot compile for this device (compute capability "
                    "%d.%d; its newest target is sm_%d): a newer CUDA toolkit's NVRTC is needed",
                    ma, mi, major, minor, newest);
  }
  snprintf(arch, cap, "sm_%d", want);
  return 0;
}

int dg_cuda_nvrtc_tool(const char *arch, char *buf, size_t cap) {
  int major = 0, minor = 0;
  nvrtcResult e = nvrtcVersion(&major, &minor);
  if (e != NVRTC_SUCCESS)
    return dg_error(DG_ERR_BACKEND, "cuda backend: nvrtcVersion failed: %s",
                    nvrtcGetErrorString(e));
  char store[2048];
  const char *opt[MAX_OPTIONS];
  const int n = unit_options(arch, store, sizeof store, opt);
  if (n < 0) return dg_error(DG_ERR_ARG, "cuda backend: too many or too long NVRTC options");
  int len = snprintf(buf, cap, "nvrtc %d.%d %s", major, minor, DG_CUDA_UNIT_MAGIC);
  for (int i = 0; i < n && len >= 0 && (size_t)len < cap; ++i)
    len += snprintf(buf + len, cap - (size_t)len, " %s", opt[i]);
  if (len < 0 || (size_t)len >= cap)
    return dg_error(DG_ERR_ARG, "cuda backend: NVRTC options too long");
  return 0;
}

/* ---- the unit ---- */

void dg_cuda_grid_what(int grid, char *buf, size_t cap) {
  if (grid == DG_CUDA_GRID_WALLS)
    snprintf(buf, cap, " walls");
  else if (grid >= DG_CUDA_GRID_SPHERE)
    snprintf(buf, cap, " sphere flow %d", grid - DG_CUDA_GRID_SPHERE);
  else if (cap)
    buf[0] = '\0';
}

int dg_cuda_nvrtc_source(const char *header, int dim, int r, int q, int grid, char *buf,
                         size_t cap) {
  const char *base = strrchr(header, '/');
  base = base ? base + 1 : header;
  if (strchr(header, '"') || strchr(header, '\n'))
    return dg_error(DG_ERR_ARG, "model header '%s': not a usable file name", header);
  if (grid < 0 || grid >= DG_CUDA_GRIDS || (grid >= DG_CUDA_GRID_SPHERE && dim != 2))
    return dg_error(DG_ERR_ARG, "cuda backend: no unit of grid %d in %dD", grid, dim);
  /* DG_CUDA_UNIT_GRID: the kinds differ by grid (kind_expr), so does the
     text and with it the cache key */
  char gwhat[32];
  dg_cuda_grid_what(grid, gwhat, sizeof gwhat);
  int len = snprintf(buf, cap,
                     "/* dgrid kernel: cuda %.*s %dD r=%d q=%d%s */\n#define DG_CUDA_DIM %d\n"
                     "#define DG_CUDA_UNIT_GRID %d\n#define DG_CUDA_MODEL_HEADER \"%s\"\n"
                     "#include \"dg_cuda_stages.cuh\"\n",
                     (int)strcspn(base, "."), base, dim, r, q, gwhat, dim, grid, header);
  if (len < 0 || (size_t)len >= cap)
    return dg_error(DG_ERR_ARG, "model header '%s': path too long", header);
  return 0;
}

/* The flux variant of kind k, -1 for kinds 0..7. */
static int kind_flow(int k) { return k < 8 ? -1 : (k < 12 ? (k - 8) / 2 : (k - 12) / 2); }

/* The name expression of kernel kind k (dg_cuda.h) of unit (dim, r, q) of
 * grid `grid` (dg_cuda_nvrtc_ctx), into buf; 0 where the unit has no kernel
 * of that kind.  The sphere's unit of variant v is asked for its kinds
 * whatever the model's flux variants: a variant the model lacks gives empty
 * kernels (dg_cuda_stages.cuh), which the host never asks for. */
static int kind_expr(int k, int dim, int r, int q, int grid, char *buf, size_t cap) {
  if (grid == DG_CUDA_GRID_PLANE   ? k >= 7
      : grid == DG_CUDA_GRID_WALLS ? k != 7
                                   : k != 0 && k != 6 && kind_flow(k) != grid - DG_CUDA_GRID_SPHERE)
    return 0;
  const int two = dim == 2, coef = q == r + 1;
  static const char *const upd = "dg_cuda_update<%d, %d, %d, %s%s>";
  static const char *const team = "dg_cuda_update_team<%d, %d, %s, %s%s>";
  switch (k) {
  case 0:
    return snprintf(buf, cap, "dg_cuda_trace<%d, %d, %d>", dim, r, q);
  case 1:
    return snprintf(buf, cap, upd, dim, r, q, "false", "");
  case 2:
    return coef ? snprintf(buf, cap, upd, dim, r, q, "true", "") : 0;
  case 3:
    return two ? snprintf(buf, cap, team, r, q, "false", "true", "") : 0;
  case 4:
    return two ? snprintf(buf, cap, team, r, q, "true", "true", "") : 0;
  case 5:
    return two ? snprintf(buf, cap, team, r, q, "true", "false", "") : 0;
  case 6:
    return snprintf(buf, cap, "dg_cuda_rate<%d, %d, %d>", dim, r, q);
  case 7:
    return snprintf(buf, cap, "dg_cuda_update_bc<%d, %d, %d>", dim, r, q);
  case 8:
  case 10:
    return snprintf(buf, cap, upd, dim, r, q, "false", k == 8 ? ", 0" : ", 1");
  case 9:
  case 11:
    return coef ? snprintf(buf, cap, upd, dim, r, q, "true", k == 9 ? ", 0" : ", 1") : 0;
  case 12:
  case 14:
    return two ? snprintf(buf, cap, team, r, q, "false", "true", k == 12 ? ", 0" : ", 1") : 0;
  case 13:
  case 15:
    return two ? snprintf(buf, cap, team, r, q, "true", "true", k == 13 ? ", 0" : ", 1") : 0;
  default:
    return 0;
  }
}

/* The unit's facts (dg_cuda_stages.cuh, dg_cuda_info). */
static void info_expr(int r, int q, char *buf, size_t cap) {
  snprintf(
      buf, cap,
      "dg_cuda_info<DG_MODEL_X_FLOWS, dg_cuda_team_threads(%d, %d), dg_cuda_team_bytes(%d, %d)>", r,
      q, r, q);
}

/* The template arguments of dg_cuda_info's lowered name
 * (_Z12dg_cuda_infoILi2ELi5ELi8224EEvv: "L i <digits> E" each, n for a
 * minus sign): 0, or -1 where the name is not of that shape. */
static int parse_info(const char *low, int v[3]) {
  const char *p = strstr(low, "dg_cuda_info");
  if (!p || *(p += 12) != 'I') return -1;
  ++p;
  for (int i = 0; i < 3; ++i) {
    if (p[0] != 'L' || p[1] != 'i') return -1;
    p += 2;
    const int neg = *p == 'n';
    p += neg;
    char *end;
    const long x = strtol(p, &end, 10);
    if (end == p || *end != 'E') return -1;
    v[i] = (int)(neg ? -x : x);
    p = end + 1;
  }
  return 0;
}

/* The first lines of NVRTC's log, indented, into out. */
static void log_lines(const char *log, char *out, size_t cap) {
  size_t n = 0;
  out[0] = '\0';
  for (int k = 0; k < 12 && *log && n + 1 < cap; ++k) {
    const size_t len = strcspn(log, "\n");
    const int w = snprintf(out + n, cap - n, "  %.*s\n", (int)len, log);
    if (w < 0) break;
    n += (size_t)w;
    log += len + (log[len] == '\n');
  }
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define NVRTC_CHECK(call)                                                                          \
  do {                                                                                             \
    nvrtcResult e_ = (call);                                                                       \
    if (e_ != NVRTC_SUCCESS) {                                                                     \
      rc = dg_error(DG_ERR_BACKEND, "cuda backend: %s for %s failed: %s", #call, u->what,          \
                    nvrtcGetErrorString(e_));                                                      \
      goto out;                                                                                    \
    }                                                                                              \
  } while (0)

int dg_cuda_nvrtc_build(void *vctx, const dg_jit_unit *u, void **bytes, size_t *len) {
  dg_cuda_nvrtc_ctx *ctx = (dg_cuda_nvrtc_ctx *)vctx;
  *bytes = NULL;
  *len = 0;
  const char *htext[MAX_HEADERS], *hname[MAX_HEADERS];
  const int nh = unit_headers(htext, hname);
  char store[2048];
  const char *opt[MAX_OPTIONS];
  const int nopt = unit_options(ctx->arch, store, sizeof store, opt);
  if (nopt < 0) return dg_error(DG_ERR_ARG, "cuda backend: too many or too long NVRTC options");
  char expr[DG_CUDA_KINDS][96], iexpr[128];
  for (int k = 0; k < DG_CUDA_KINDS; ++k)
    if (kind_expr(k, ctx->dim, ctx->r, ctx->q, ctx->grid, expr[k], sizeof expr[k]) <= 0)
      expr[k][0] = '\0';
  info_expr(ctx->r, ctx->q, iexpr, sizeof iexpr);

  nvrtcProgram prog = NULL;
  char *log = NULL, *out = NULL;
  int rc = 0;
  NVRTC_CHECK(nvrtcCreateProgram(&prog, u->source, "dgrid_unit.cu", nh, htext, hname));
  for (int k = 0; k < DG_CUDA_KINDS; ++k)
    if (expr[k][0]) NVRTC_CHECK(nvrtcAddNameExpression(prog, expr[k]));
  NVRTC_CHECK(nvrtcAddNameExpression(prog, iexpr));
  const double t0 = now_s();
  const nvrtcResult ce = nvrtcCompileProgram(prog, nopt, opt);
  ctx->seconds = now_s() - t0;
  size_t log_len = 0;
  NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &log_len));
  if (!(log = (char *)malloc(log_len + 1))) {
    rc = dg_error(DG_ERR_MEM, "out of memory");
    goto out;
  }
  NVRTC_CHECK(nvrtcGetProgramLog(prog, log));
  log[log_len] = '\0';
  const int warned = strstr(log, "warning") != NULL;
  if (ce != NVRTC_SUCCESS || (DG_CUDA_NVRTC_WERROR && !u->user && warned)) {
    char lines[4096];
    log_lines(log, lines, sizeof lines);
    rc = dg_error(DG_ERR_ARG, "compiling %s failed (NVRTC, %s%s):\n%s", u->what, ctx->arch,
                  ce == NVRTC_SUCCESS ? ", warnings are errors" : "", lines);
    goto out;
  }
  if (DG_CUDA_RESOURCE_USAGE || (warned && u->user))
    fprintf(stderr, "dgrid: NVRTC on %s:\n%s", u->what, log);

  /* the lowered names and the unit's facts */
  const char *low[DG_CUDA_KINDS] = {NULL}, *info_low = NULL;
  for (int k = 0; k < DG_CUDA_KINDS; ++k)
    if (expr[k][0]) NVRTC_CHECK(nvrtcGetLoweredName(prog, expr[k], &low[k]));
  NVRTC_CHECK(nvrtcGetLoweredName(prog, iexpr, &info_low));
  int info[3];
  if (parse_info(info_low, info) || info[0] < 0 || info[0] > DG_CUDA_XF_MAX) {
    rc =
        dg_error(DG_ERR_BACKEND, "cuda backend: %s: unexpected unit facts '%s'", u->what, info_low);
    goto out;
  }
  size_t cubin_len = 0;
  NVRTC_CHECK(nvrtcGetCUBINSize(prog, &cubin_len));
  size_t head_cap = 256 + DG_CUDA_KINDS * 256;
  if (!(out = (char *)malloc(head_cap + cubin_len))) {
    rc = dg_error(DG_ERR_MEM, "out of memory");
    goto out;
  }
  int n =
      snprintf(out, head_cap, "%s\ninfo %d %d %d\n", DG_CUDA_UNIT_MAGIC, info[0], info[1], info[2]);
  for (int k = 0; k < DG_CUDA_KINDS && n > 0 && (size_t)n < head_cap; ++k)
    if (low[k] && kind_flow(k) < info[0]) /* a variant the model has */
      n += snprintf(out + n, head_cap - (size_t)n, "kernel %d %s\n", k, low[k]);
  if (n > 0 && (size_t)n < head_cap)
    n += snprintf(out + n, head_cap - (size_t)n, "cubin %zu\n", cubin_len);
  if (n <= 0 || (size_t)n >= head_cap) {
    rc = dg_error(DG_ERR_BACKEND, "cuda backend: %s: kernel names too long", u->what);
    goto out;
  }
  NVRTC_CHECK(nvrtcGetCUBIN(prog, out + n));
  *bytes = out;
  *len = (size_t)n + cubin_len;
  out = NULL;
out:
  free(out);
  free(log);
  if (prog) nvrtcDestroyProgram(&prog);
  return rc;
}

int dg_cuda_unit_parse(void *bytes, size_t len, dg_cuda_unit *u) {
  memset(u, 0, sizeof *u);
  char *p = (char *)bytes, *end = p + len;
  int magic = 0, info = 0;
  while (p < end) {
    char *nl = (char *)memchr(p, '\n', (size_t)(end - p));
    if (!nl) break;
    *nl = '\0';
    int k;
    size_t clen;
    char *name;
    if (!strcmp(p, DG_CUDA_UNIT_MAGIC)) {
      magic = 1;
    } else if (sscanf(p, "info %d %d %d", &u->flows, &u->team, &u->smem) == 3) {
      info = 1;
    } else if (!strncmp(p, "kernel ", 7) && (k = (int)strtol(p + 7, &name, 10)) >= 0 &&
               k < DG_CUDA_KINDS && *name == ' ' && name[1]) {
      u->name[k] = name + 1;
    } else if (sscanf(p, "cubin %zu", &clen) == 1) {
      if (!magic || !info || clen != (size_t)(end - nl - 1)) break;
      u->cubin = nl + 1;
      u->cubin_len = clen;
      return 0;
    } else {
      break;
    }
    p = nl + 1;
  }
  return dg_error(DG_ERR_BACKEND, "cuda backend: a kernel unit of the cache is malformed");
}
