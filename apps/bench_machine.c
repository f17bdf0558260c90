/* bench_machine.c - what apps/bench measures of the machine: clock, quantiles,
 * memory and cache sizes, CPU and SIMD names, the STREAM triad and the peak
 * multiply-add rate (bench.h). */
#include "bench.h"
#include "dg_app.h"
#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_lane.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* machine                                                                   */

double bench_wall(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return NAN;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int bench_cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Quantile q of sorted v[0..n-1], linear interpolation. */
double bench_quantile(const double *v, int n, double q) {
  if (n <= 0) return NAN;
  const double pos = q * (n - 1);
  const int i = (int)floor(pos);
  if (i + 1 >= n) return v[n - 1];
  return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

double bench_median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return bench_quantile(v, n, 0.5);
}

/* Bytes of memory the process may still use (MemAvailable). */
double bench_mem_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f)) {
      long kb;
      if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1) {
        fclose(f);
        return 1024.0 * (double)kb;
      }
    }
    fclose(f);
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  return pages > 0 && psz > 0 ? (double)pages * (double)psz : INFINITY;
}

/* Last-level cache: sysfs first (sysconf reports the host's L3 in some VMs). */
double bench_llc_bytes(void) {
  double best = 0;
  for (int i = 0; i < 8; ++i) {
    char path[128], buf[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    FILE *f = fopen(path, "r");
    if (!f) break;
    const int ok = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    char unit = 0;
    double v;
    if (ok && sscanf(buf, "%lf%c", &v, &unit) >= 1) {
      v *= unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 : unit == 'G' ? 1073741824.0 : 1.0;
      if (v > best) best = v;
    }
  }
  if (best > 0) return best;
  long b = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
  b = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (b <= 0) b = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return b > 0 ? (double)b : 0;
}

void bench_cpu_model(char *out, size_t cap) {
  snprintf(out, cap, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "model name", 10)) {
      const char *c = strchr(line, ':');
      if (c) {
        c++;
        while (*c == ' ' || *c == '\t') c++;
        snprintf(out, cap, "%s", c);
        out[strcspn(out, "\n")] = '\0';
      }
      break;
    }
  }
  fclose(f);
}

const char *bench_simd_name(void) {
#if defined(__AVX512F__)
  return "avx512";
#elif defined(__AVX2__) && defined(__FMA__)
  return "avx2+fma";
#elif defined(__AVX2__)
  return "avx2";
#elif defined(__AVX__)
  return "avx";
#else
  return "generic";
#endif
}

/* STREAM triad a = b + s c of the backend over 3 arrays of `mib` MiB:
 * 3 x sizeof(dg_real) bytes per element (no write-allocate counted). */
int bench_measure_stream(const dg_backend_ops *be, double mib, int reps, stream_result *res) {
  const size_t n = (size_t)(mib * 1048576.0 / sizeof(dg_real));
  const size_t bytes = n * sizeof(dg_real);
  void *a = NULL, *b = NULL, *c = NULL;
  dg_real *h = malloc(bytes);
  double *t = malloc((size_t)reps * sizeof *t);
  int rc = 0;
  if (!h || !t) {
    rc = dg_error(DG_ERR_MEM, "stream triad: out of memory for %zu bytes", bytes);
    goto done;
  }
  if ((rc = be->alloc(&a, bytes)) || (rc = be->alloc(&b, bytes)) || (rc = be->alloc(&c, bytes)))
    goto done;
  for (size_t i = 0; i < n; ++i) h[i] = (dg_real)(1 + (i & 7));
  if ((rc = be->to_device(b, h, bytes))) goto done;
  for (size_t i = 0; i < n; ++i) h[i] = (dg_real)(2 + (i & 3));
  if ((rc = be->to_device(c, h, bytes))) goto done;
  const dg_real s = (dg_real)0.5;
  for (int w = 0; w < 2; ++w)
    if ((rc = be->triad(a, b, c, s, n)) || (rc = be->sync())) goto done;
  for (int k = 0; k < reps; ++k) {
    const double t0 = bench_wall();
    if ((rc = be->triad(a, b, c, s, n)) || (rc = be->sync())) goto done;
    t[k] = bench_wall() - t0;
  }
  /* every element written, with the right value */
  if ((rc = be->to_host(h, a, bytes))) goto done;
  for (size_t i = 0; i < n; ++i) {
    const dg_real want = (dg_real)(1 + (i & 7)) + s * (dg_real)(2 + (i & 3));
    if (h[i] != want) {
      rc = dg_error(DG_ERR_BACKEND, "stream triad: element %zu is %g, expected %g", i, (double)h[i],
                    (double)want);
      goto done;
    }
  }
  qsort(t, (size_t)reps, sizeof *t, bench_cmp_double);
  res->gbs_median = 3.0 * (double)bytes / bench_quantile(t, reps, 0.5) / 1e9;
  res->gbs_best = 3.0 * (double)bytes / t[0] / 1e9;
  res->mib = (double)bytes / 1048576.0;
  res->reps = reps;
done:
  if (a) be->free(a);
  if (b) be->free(b);
  if (c) be->free(c);
  free(h);
  free(t);
  return rc;
}

/* Peak of fused multiply-adds on the host: PEAK_CHAINS independent chains
 * of dg_lane FMAs per thread, all OpenMP threads (CPU backends only). */
#define PEAK_CHAINS 12
static volatile double peak_sink;
static double peak_kernel(long iters) {
  dg_lane acc[PEAK_CHAINS];
  const dg_lane m = dg_lane_set((dg_real)0.999999), a = dg_lane_set((dg_real)1e-3);
  for (int c = 0; c < PEAK_CHAINS; ++c) acc[c] = dg_lane_set((dg_real)c);
  for (long i = 0; i < iters; ++i)
    for (int c = 0; c < PEAK_CHAINS; ++c) acc[c] = acc[c] * m + a;
  double sink = 0;
  for (int c = 0; c < PEAK_CHAINS; ++c)
    for (int l = 0; l < DG_VL; ++l) sink += (double)dg_lane_get(acc[c], l);
  return sink;
}

static double peak_run(long iters, int *nthr_out) {
  double sink = 0;
  int nthr = 0;
#ifdef _OPENMP
#pragma omp parallel reduction(+ : sink, nthr)
#endif
  {
    sink += peak_kernel(iters);
    nthr += 1;
  }
  peak_sink = sink;
  *nthr_out = nthr;
  return 2.0 * PEAK_CHAINS * DG_VL * (double)iters * nthr; /* flops */
}

/* Iterations are sized on one thread (no parallel region, whose start-up
 * on a shared machine can take a scheduler slice) to ~50 ms; the best of
 * 10 parallel trials is the peak. */
double bench_measure_peak(void) {
  long iters = 1L << 12;
  double best1 = INFINITY;
  for (int k = 0; k < 40 && iters < (1L << 40); ++k) {
    const double t0 = bench_wall();
    peak_sink = peak_kernel(iters);
    const double dt = bench_wall() - t0;
    if (dt / (double)iters < best1) best1 = dt / (double)iters;
    if (dt < 0.005) iters *= 2;
  }
  iters = (long)(0.05 / (best1 > 0 ? best1 : 1e-9)) + 1;
  double best = 0;
  for (int k = 0; k < 10; ++k) {
    int nthr;
    const double t0 = bench_wall();
    const double fl = peak_run(iters, &nthr);
    const double dt = bench_wall() - t0;
    if (dt > 0 && fl / dt > best) best = fl / dt;
  }
  return best / 1e9;
}
