/* dg_xsum.h - exact sums of doubles: an accumulator that holds the sum of
 * every double added to it without rounding, and rounds once when read.
 *
 * Why: a sum across ranks (a norm, the mass) done as partial sums per rank
 * rounds differently for every number of ranks.  Accumulated here, each
 * rank adds its own terms, the accumulators are added (integers: exactly,
 * in any order: dg_comm_allreduce_xsum) and the one rounding at the end
 * gives the correctly rounded sum of all the terms: the same bits on 1 or N
 * ranks, in any order, with or without MPI.
 *
 * How: a double is m 2^e with an integer m < 2^53 and e >= -1074, so every
 * double is an integer multiple of 2^-1074, and so is a sum of them.  The
 * accumulator is that integer in limbs of 32 bits (held in int64_t, so up
 * to 2^31 additions fit before the carries are propagated, which add does
 * by itself), 2^-1088 the unit of limb 0 and enough limbs for any sum of
 * 2^40 finite doubles.  Infinities and NaNs are counted apart: the sum is
 * NaN with any NaN or with both infinities, else the infinity added. */
#ifndef DG_XSUM_H
#define DG_XSUM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DG_XSUM_LIMBS 69 /* 2^-1088 .. 2^1120: |sum| < 2^1024 * 2^40 with room for the sign */

typedef struct {
  int64_t limb[DG_XSUM_LIMBS]; /* the sum in units of 2^-1088, limb i weighing 2^(32 i) */
  int64_t nan, pinf, ninf;     /* NaNs, +infinities and -infinities added */
  int64_t pending;             /* additions since the carries were last propagated */
} dg_xsum;

/* An empty sum (0). */
void dg_xsum_init(dg_xsum *s);

/* Add x exactly. */
void dg_xsum_add(dg_xsum *s, double x);

/* Add n values x[0], x[stride], ... exactly. */
void dg_xsum_add_n(dg_xsum *s, const double *x, long n, long stride);

/* s += t exactly. */
void dg_xsum_merge(dg_xsum *s, const dg_xsum *t);

/* Propagate the carries: limbs 0 .. DG_XSUM_LIMBS - 2 in [0, 2^32), the
 * last one signed (the sign of the sum).  Leaves the value unchanged. */
void dg_xsum_normalize(dg_xsum *s);

/* The sum rounded to the nearest double (ties to even); +-inf where it
 * overflows, NaN as above. */
double dg_xsum_value(const dg_xsum *s);

#ifdef __cplusplus
}
#endif
#endif
