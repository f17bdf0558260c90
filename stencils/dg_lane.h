/* dg_lane.h - the SIMD lane abstraction that lets one stage body serve both
 * backends.
 *
 * Storage is in "microblocks" of DG_W elements of one degree: entry i of a
 * block sits at block + i*DG_W + lane.  A stage is written on the type
 * dg_lane, which holds DG_VL of those lanes:
 *  - CPU (OpenMP): dg_lane is a GCC vector of DG_W reals; one call of a stage
 *    computes a whole microblock, one element per SIMD lane (the deal.II idea
 *    of vectorising across elements), so every inner loop is SIMD by
 *    construction.
 *  - CUDA: dg_lane is one real; one thread computes one element and the
 *    DG_W = 32 elements of a block are one warp, so every load is coalesced.
 * Stage bodies use only +,-,* and the helpers below. */
#ifndef DG_LANE_H
#define DG_LANE_H

#include "dg_types.h"
#include <math.h>

#ifdef __CUDACC__

#define DG_W  32 /* layout lanes: one warp */
#define DG_VL 1  /* lanes per thread */
typedef dg_real dg_lane;
typedef dg_real dg_tab; /* a basis-table entry as the stages read it */

DG_HD static inline dg_lane dg_lane_set(dg_real s) { return s; }
DG_HD static inline dg_lane dg_lane_load(const dg_real *p) { return *p; }
DG_HD static inline void dg_lane_store(dg_real *p, dg_lane v) { *p = v; }
DG_HD static inline dg_lane dg_lane_abs(dg_lane v) { return v < 0 ? -v : v; }
DG_HD static inline dg_lane dg_lane_max(dg_lane a, dg_lane b) { return a > b ? a : b; }
/* Math on lanes for model code (models/): one call per lane. */
DG_HD static inline dg_lane dg_lane_sin(dg_lane a) { return sin(a); }
DG_HD static inline dg_lane dg_lane_cos(dg_lane a) { return cos(a); }
DG_HD static inline dg_lane dg_lane_exp(dg_lane a) { return exp(a); }
DG_HD static inline dg_lane dg_lane_sqrt(dg_lane a) { return sqrt(a); }
DG_HD static inline dg_lane dg_lane_floor(dg_lane a) { return floor(a); }
/* sin(pi a), cos(pi a): no large-argument reduction path (no local memory) */
DG_HD static inline dg_lane dg_lane_sinpi(dg_lane a) { return sinpi(a); }
DG_HD static inline dg_lane dg_lane_cospi(dg_lane a) { return cospi(a); }
/* Neighbour data: lane l reads base[off[l] + i*DG_W].  dg_lane_nbr_kind
 * classifies the offsets once per face, dg_lane_nbr_load reads with it; on
 * the GPU each thread simply loads its own (adjacent threads: coalesced). */
DG_HD static inline int dg_lane_nbr_kind(const int *off) {
  (void)off;
  return 0;
}
DG_HD static inline dg_lane dg_lane_nbr_load(const dg_real *base, const int *off, int kind,
                                             long i) {
  (void)kind;
  return base[off[0] + i * DG_W];
}
/* dst[i] = dg_lane_nbr_load(base, off, kind, i0 + i) for i < n. */
DG_HD static inline void dg_lane_nbr_load_n(const dg_real *base, const int *off, int kind, long i0,
                                            const int n, dg_lane *dst) {
  (void)kind;
  DG_UNROLL
  for (int i = 0; i < n; ++i) dst[i] = base[off[0] + (i0 + i) * DG_W];
}
/* Where the neighbour is a face trace (offset < 0: -1 - the offset of its
 * facing trace, dg_stage_args.nbr_traces), its value base[-1 - off + i*DG_W];
 * elsewhere v. */
DG_HD static inline dg_lane dg_lane_trace_pick(dg_lane v, const dg_real *base, const int *off,
                                               long i) {
  return off[0] < 0 ? base[-1 - off[0] + i * DG_W] : v;
}
DG_HD static inline dg_real dg_lane_get(dg_lane v, int l) {
  (void)l;
  return v;
}
/* Lane l reads base[off[l] + i] (off: whole numbers held as reals). */
DG_HD static inline dg_lane dg_lane_gather(const dg_real *base, dg_lane off, long i) {
  return base[(long)off + i];
}
/* Whether the lanes hold one value (dg_lane_gather's offsets: then a table
 * entry is one load and a broadcast on the CPU); a thread is one lane here. */
DG_HD static inline int dg_lane_uniform(dg_lane v) {
  (void)v;
  return 1;
}
/* dg_lane_gather where uni says the offsets are one (dg_lane_uniform). */
DG_HD static inline dg_lane dg_lane_gather_u(const dg_real *base, dg_lane off, int uni, long i) {
  (void)uni;
  return base[(long)off + i];
}
/* No software prefetch on the GPU: other warps hide the latency. */
#define DG_PREFETCH 0
/* One copy of the RK update per element (dg_stage_update). */
#define DG_RK_UNSWITCH 0
/* The sphere's cos and sin at each point, not kept per element
 * (dg_sphere_trig): 4Q lanes more per thread would be local memory. */
#define DG_TRIG_ONCE 0
DG_HD static inline void dg_prefetch(const dg_real *p, long bytes, int l2) {
  (void)p;
  (void)bytes;
  (void)l2;
}

#else /* CPU: GCC vector extensions */

#include <string.h>
#if defined(__AVX__)
#include <immintrin.h> /* dg_lane_sqrt */
#endif

#if defined(__AVX512F__)
#define DG_VBYTES 64
#else
#define DG_VBYTES 32
#endif
#ifdef DG_REAL_FLOAT
#define DG_REAL_BYTES 4
#else
#define DG_REAL_BYTES 8
#endif
#define DG_W  ((int)(DG_VBYTES / sizeof(dg_real)))
#define DG_VL DG_W
typedef dg_real dg_lane __attribute__((vector_size(DG_VBYTES)));
/* Table entries are stored pre-broadcast, so a contraction step is one FMA
 * with a memory operand instead of a broadcast and an FMA. */
typedef dg_lane dg_tab;
#ifdef DG_REAL_FLOAT
typedef int dg_ilane __attribute__((vector_size(DG_VBYTES)));
#else
typedef long long dg_ilane __attribute__((vector_size(DG_VBYTES)));
#endif

/* A broadcast (0 + s would turn -0 into +0).  Spelt as an initialiser: gcc
 * makes one vbroadcastsd of it, but two shuffles of a loop over the lanes. */
#define DG_NLANES (DG_VBYTES / DG_REAL_BYTES)
static inline dg_lane dg_lane_set(dg_real s) {
#if DG_NLANES == 4
  const dg_lane v = {s, s, s, s};
#elif DG_NLANES == 8
  const dg_lane v = {s, s, s, s, s, s, s, s};
#else
  const dg_lane v = {s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s};
#endif
  return v;
}
static inline dg_lane dg_lane_load(const dg_real *p) {
  dg_lane v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline void dg_lane_store(dg_real *p, dg_lane v) { memcpy(p, &v, sizeof v); }
static inline dg_lane dg_lane_abs(dg_lane v) {
  const dg_ilane sign = (dg_ilane)dg_lane_set((dg_real)-0.0); /* only the sign bits */
  return (dg_lane)((dg_ilane)v & ~sign);
}
static inline dg_lane dg_lane_max(dg_lane a, dg_lane b) {
  dg_ilane m = a > b; /* all ones where a wins */
  return (dg_lane)(((dg_ilane)a & m) | ((dg_ilane)b & ~m));
}
/* Math on lanes for model code (models/): the C library's function on each
 * lane (a model that calls them pays it per point; linear models need none). */
#ifdef DG_REAL_FLOAT
#define DG_LANE_MATH(name, fn)                                                                     \
  static inline dg_lane name(dg_lane a) {                                                          \
    dg_lane r = a; /* every lane overwritten (initialised for -Wmaybe-uninitialized) */            \
    for (int l = 0; l < DG_NLANES; ++l) r[l] = fn##f(a[l]);                                        \
    return r;                                                                                      \
  }
#else
#define DG_LANE_MATH(name, fn)                                                                     \
  static inline dg_lane name(dg_lane a) {                                                          \
    dg_lane r = a; /* every lane overwritten (initialised for -Wmaybe-uninitialized) */            \
    for (int l = 0; l < DG_NLANES; ++l) r[l] = fn(a[l]);                                           \
    return r;                                                                                      \
  }
#endif
DG_LANE_MATH(dg_lane_sin, sin)
DG_LANE_MATH(dg_lane_cos, cos)
DG_LANE_MATH(dg_lane_exp, exp)
DG_LANE_MATH(dg_lane_floor, floor)
/* The square root as one vector instruction where the vector is one
 * register: the C library's sqrt per lane keeps its errno path (a compare
 * and a branch per lane around a scalar root, with the lane shuffles), which
 * gcc cannot vectorise; shallow water's wave speed takes one at every face
 * point (BENCHMARKS.md).  Correctly rounded either way: the same bits. */
#if DG_VBYTES == 64 && defined(__AVX512F__)
#ifdef DG_REAL_FLOAT
static inline dg_lane dg_lane_sqrt(dg_lane a) { return (dg_lane)_mm512_sqrt_ps((__m512)a); }
#else
static inline dg_lane dg_lane_sqrt(dg_lane a) { return (dg_lane)_mm512_sqrt_pd((__m512d)a); }
#endif
#elif DG_VBYTES == 32 && defined(__AVX__)
#ifdef DG_REAL_FLOAT
static inline dg_lane dg_lane_sqrt(dg_lane a) { return (dg_lane)_mm256_sqrt_ps((__m256)a); }
#else
static inline dg_lane dg_lane_sqrt(dg_lane a) { return (dg_lane)_mm256_sqrt_pd((__m256d)a); }
#endif
#else
DG_LANE_MATH(dg_lane_sqrt, sqrt)
#endif
/* sin(pi a) (as CUDA's sinpi) on whole vectors, no library call per lane:
 * a = n + r with n the nearest integer and |r| <= 1/2 (exact, by the
 * 1.5 2^52 rounding trick, for |a| < 2^51), sin(pi a) = (-1)^n sin(pi r), and
 * sin(pi r) by its Taylor series in (pi r)^2 to the term whose size at
 * |pi r| = pi/2 is below the precision (within 2 ulp of libm's sin). */
static inline dg_lane dg_lane_sinpi(dg_lane a) {
#ifdef DG_REAL_FLOAT
  const dg_real big = 12582912.0f; /* 1.5 2^23 */
  enum { nterms = 7 };
#else
  const dg_real big = 6755399441055744.0; /* 1.5 2^52 */
  enum { nterms = 12 };
#endif
  const dg_lane n = (a + big) - big, r = a - n;
  const dg_lane half = (n * (dg_real)0.5 + big) - big; /* n/2 rounded: n even iff 2 half == n */
  const dg_lane sign = (dg_real)1 - (dg_real)2 * dg_lane_abs(n - half * (dg_real)2);
  const dg_lane x = r * (dg_real)3.14159265358979323846, x2 = x * x;
  /* Horner on (-1)^k x^(2k+1) / (2k+1)!, highest term first; the
     coefficients are constants (computing them here cost a division per
     term and call: the sphere's update spent most of its time there) */
  static const double coef[12] = {1.0,
                                  -1.0 / 6.0,
                                  1.0 / 120.0,
                                  -1.0 / 5040.0,
                                  1.0 / 362880.0,
                                  -1.0 / 39916800.0,
                                  1.0 / 6227020800.0,
                                  -1.0 / 1307674368000.0,
                                  1.0 / 355687428096000.0,
                                  -1.0 / 121645100408832000.0,
                                  1.0 / 51090942171709440000.0,
                                  -1.0 / 25852016738884976640000.0};
  dg_lane p = dg_lane_set(0);
#pragma GCC unroll 16
  for (int k = nterms - 1; k >= 0; --k) p = p * x2 + (dg_real)coef[k];
  return sign * (p * x);
}
/* cos(pi a) = sin(pi (a + 1/2)) */
static inline dg_lane dg_lane_cospi(dg_lane a) { return dg_lane_sinpi(a + (dg_real)0.5); }
/* Lanes j..W-1 of a followed by lanes 0..j-1 of b (0 < j < W), with
 * constant shuffles (a variable two-source shuffle costs a dozen
 * instructions on AVX2). */
static inline dg_lane dg_lane_shift(dg_lane a, dg_lane b, int j) {
#if DG_NLANES == 4
  switch (j) {
  case 1:
    return __builtin_shufflevector(a, b, 1, 2, 3, 4);
  case 2:
    return __builtin_shufflevector(a, b, 2, 3, 4, 5);
  default:
    return __builtin_shufflevector(a, b, 3, 4, 5, 6);
  }
#elif DG_NLANES == 8
  switch (j) {
  case 1:
    return __builtin_shufflevector(a, b, 1, 2, 3, 4, 5, 6, 7, 8);
  case 2:
    return __builtin_shufflevector(a, b, 2, 3, 4, 5, 6, 7, 8, 9);
  case 3:
    return __builtin_shufflevector(a, b, 3, 4, 5, 6, 7, 8, 9, 10);
  case 4:
    return __builtin_shufflevector(a, b, 4, 5, 6, 7, 8, 9, 10, 11);
  case 5:
    return __builtin_shufflevector(a, b, 5, 6, 7, 8, 9, 10, 11, 12);
  case 6:
    return __builtin_shufflevector(a, b, 6, 7, 8, 9, 10, 11, 12, 13);
  default:
    return __builtin_shufflevector(a, b, 7, 8, 9, 10, 11, 12, 13, 14);
  }
#else
  dg_lane v;
  for (int l = 0; l < DG_W; ++l) v[l] = l + j < DG_W ? a[l + j] : b[l + j - DG_W];
  return v;
#endif
}

/* Neighbour data: lane l reads base[off[l] + i*DG_W].  The offsets of a
 * microblock's neighbours across one face take one of three shapes:
 *   kind 0      : one whole microblock (off[l] = off[0] + l, off[0] aligned);
 *                 one vector load;
 *   kind j > 0  : consecutive slots starting at lane j of one microblock and
 *                 running on into lane 0 of another (the neighbours along
 *                 the direction the microblock runs in); two aligned loads
 *                 and a lane shift;
 *   kind -1     : anything else (a grid boundary, a degree change): a gather. */
typedef int dg_ivec __attribute__((vector_size(DG_NLANES * 4)));
static inline int dg_lane_nbr_kind(const int *off) {
  /* whole lanes at once: with e[l] = off[l] - l, the lanes before the
     break at s = W - j must all hold e[0], those from s on e[W-1] (and
     off[s] = e[W-1] + s must start a microblock): fewer instructions than
     classifying lane by lane, in the update where faces cost most (2D
     degree 1). */
  // clang-format off
  static const dg_ivec iota = {
#if DG_NLANES == 4
      0, 1, 2, 3
#elif DG_NLANES == 8
      0, 1, 2, 3, 4, 5, 6, 7
#else
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#endif
  };
  // clang-format on
  const int j = off[0] % DG_W;
  if (off[0] < 0) return -1;
  dg_ivec e;
  memcpy(&e, off, sizeof e);
  e -= iota;
  const int e0 = e[0], e1 = e[DG_NLANES - 1];
  const dg_ivec first = iota < DG_W - j;
  const dg_ivec bad = (first & (e ^ e0)) | (~first & (e ^ e1));
  int any = 0;
  for (int l = 0; l < DG_NLANES; ++l) any |= bad[l];
  if (any) return -1;
  return j == 0 || (e1 + DG_W - j) % DG_W == 0 ? j : -1;
}
static inline dg_lane dg_lane_nbr_load(const dg_real *base, const int *off, int kind, long i) {
  dg_lane v;
  if (kind == 0) return dg_lane_load(base + off[0] + i * DG_W);
  if (kind > 0) {
    const dg_lane a = dg_lane_load(base + off[0] - kind + i * DG_W);
    const dg_lane b = dg_lane_load(base + off[DG_W - kind] + i * DG_W);
    return dg_lane_shift(a, b, kind);
  }
  for (int l = 0; l < DG_W; ++l) v[l] = base[off[l] + i * DG_W];
  return v;
}
/* dst[i] = dg_lane_nbr_load(base, off, kind, i0 + i) for i < n: the kind
 * (and a shift's lane count) is tested once, not per load. */
#if DG_NLANES == 4
#define DG_SHIFT_CASES(X) X(1) X(2) X(3)
#elif DG_NLANES == 8
#define DG_SHIFT_CASES(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#else
#define DG_SHIFT_CASES(X)
#endif
static inline void dg_lane_nbr_load_n(const dg_real *base, const int *off, int kind, long i0,
                                      const int n, dg_lane *dst) {
  if (kind == 0) {
    const dg_real *p = base + off[0] + i0 * DG_W;
    for (int i = 0; i < n; ++i) dst[i] = dg_lane_load(p + i * DG_W);
    return;
  }
  if (kind < 0) {
    for (int i = 0; i < n; ++i) dst[i] = dg_lane_nbr_load(base, off, kind, i0 + i);
    return;
  }
  const dg_real *pa = base + off[0] - kind + i0 * DG_W, *pb = base + off[DG_W - kind] + i0 * DG_W;
#define DG_SHIFT_CASE(J)                                                                           \
  case J:                                                                                          \
    for (int i = 0; i < n; ++i)                                                                    \
      dst[i] = dg_lane_shift(dg_lane_load(pa + i * DG_W), dg_lane_load(pb + i * DG_W), J);         \
    return;
  switch (kind) {
    DG_SHIFT_CASES(DG_SHIFT_CASE)
  default:
    for (int i = 0; i < n; ++i)
      dst[i] = dg_lane_shift(dg_lane_load(pa + i * DG_W), dg_lane_load(pb + i * DG_W), kind);
  }
#undef DG_SHIFT_CASE
}
static inline dg_lane dg_lane_trace_pick(dg_lane v, const dg_real *base, const int *off, long i) {
  for (int l = 0; l < DG_W; ++l)
    if (off[l] < 0) v[l] = base[-1 - off[l] + i * DG_W];
  return v;
}
static inline dg_real dg_lane_get(dg_lane v, int l) { return v[l]; }
/* Lane l reads base[off[l] + i] (off: whole numbers held as reals). */
static inline dg_lane dg_lane_gather(const dg_real *base, dg_lane off, long i) {
  dg_lane v;
  for (int l = 0; l < DG_W; ++l) v[l] = base[(long)off[l] + i];
  return v;
}
/* Whether all lanes hold one value (the sphere's microblocks in one row:
 * dg_lane_gather_u then loads one table entry and broadcasts it). */
static inline int dg_lane_uniform(dg_lane v) {
  const dg_ilane ne = v != dg_lane_set(v[0]);
  int any = 0;
  for (int l = 0; l < DG_W; ++l) any |= ne[l] != 0;
  return !any;
}
/* dg_lane_gather where uni says whether the offsets are one
 * (dg_lane_uniform); a caller passes a constant, so each copy has one path. */
static inline dg_lane dg_lane_gather_u(const dg_real *base, dg_lane off, int uni, long i) {
  return uni ? dg_lane_set(base[(long)off[0] + i]) : dg_lane_gather(base, off, i);
}
/* Hint that `bytes` from p will be read soon: one prefetch per cache line,
 * into L1, or with l2 into L2 only (prefetcht2).  One core of these machines
 * cannot keep enough misses in flight for the update's streams by the
 * hardware prefetcher alone. */
#define DG_PREFETCH    1
/* A copy of the RK update for each common scheme shape (dg_stage_update). */
#define DG_RK_UNSWITCH 1
/* The sphere's cos and sin at the element's points formed once per element
 * and stage (dg_sphere_trig), not at every point and direction. */
#define DG_TRIG_ONCE   1
static inline void dg_prefetch(const dg_real *p, long bytes, int l2) {
  /* bytes and l2 are constants of the stage: unrolled, no loop is left */
  DG_UNROLL
  for (long b = 0; b < bytes; b += 64) {
    if (l2)
      __builtin_prefetch((const char *)p + b, 0, 1);
    else
      __builtin_prefetch((const char *)p + b, 0, 3);
  }
}

#endif
#endif
