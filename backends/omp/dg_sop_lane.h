/* dg_sop_lane.h - what the OpenMP solver driver (dg_sop_omp.c) and its lane
 * units (dg_sop_lane.inc, compiled when a run first needs a (precision,
 * degree): docs/ARCHITECTURE.md, "Kernels on demand") agree on: the SIMD
 * run length, the largest element a run takes, and the two functions a
 * unit exports. */
#ifndef DG_SOP_LANE_H
#define DG_SOP_LANE_H

#include "dg_sipg_elem.h"

/* SIMD register width of the build: the lane functions' run length is one
 * register of the precision's reals (8 doubles or 16 floats with AVX-512).
 * A unit is compiled with the library's flags, so both see the same. */
#if defined(__AVX512F__)
#define DG_SLBYTES 64
#elif defined(__AVX__)
#define DG_SLBYTES 32
#else
#define DG_SLBYTES 16
#endif

/* The largest degree and element (modes) a lane run takes: every degree in
 * 2D (DG_MAX_DEGREE), up to 343 modes (degree 6) in 3D, since the apply's
 * three stack arrays hold DG_SLMAX registers each (66 KB in double with
 * AVX-512; 3D degree 10 would need 255 KB); larger elements go through the
 * element functions. */
#define DG_SLRMAX DG_MAX_DEGREE
#define DG_SLMAX  343

/* 1 where a run of degree r in dimension dim goes through the lanes. */
static inline int dg_sop_lane_fits(int dim, int r) {
  long m = r + 1;
  for (int d = 1; d < dim; ++d) m *= r + 1;
  return r <= DG_SLRMAX && m <= DG_SLMAX;
}

/* A unit's exports ("dg_omp_sipg_lane", "dg_omp_sblock_lane"): the operator
 * apply on the run from e0 and the element-block solve of a run that shares
 * the 1D factors V, lam, at the unit's degree. */
typedef void (*dg_sipg_lane_fn_d)(const dg_sargs_d *A, const dg_stab_d *T, long e0, const double *u,
                                  double *y);
typedef void (*dg_sipg_lane_fn_f)(const dg_sargs_f *A, const dg_stab_f *T, long e0, const float *u,
                                  float *y);
typedef void (*dg_sblock_lane_fn_d)(int dim, const double *const V[3], const double *const lam[3],
                                    double shift, const double *rv, double *z);
typedef void (*dg_sblock_lane_fn_f)(int dim, const float *const V[3], const float *const lam[3],
                                    float shift, const float *rv, float *z);

#endif
