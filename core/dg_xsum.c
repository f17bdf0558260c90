/* dg_xsum.c - exact sums of doubles (dg_xsum.h). */
#include "dg_xsum.h"

#include <math.h>
#include <string.h>

#define LIMB_BITS 32
#define LIMB_MASK 0xffffffffULL
#define UNIT_EXP  (-1088) /* limb 0 counts 2^-1088; 2^-1074 is its bit 14 */
/* additions between carry propagations: each adds less than 2^33 to a limb */
#define PENDING_MAX (1LL << 29)

void dg_xsum_init(dg_xsum *s) { memset(s, 0, sizeof *s); }

void dg_xsum_normalize(dg_xsum *s) {
  for (int i = 0; i < DG_XSUM_LIMBS - 1; ++i) {
    const int64_t low = (int64_t)((uint64_t)s->limb[i] & LIMB_MASK);
    const int64_t carry = (s->limb[i] - low) / (int64_t)(LIMB_MASK + 1); /* exact: floor */
    s->limb[i] = low;
    s->limb[i + 1] += carry;
  }
  s->pending = 0;
}

void dg_xsum_add(dg_xsum *s, double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  const int neg = (int)(bits >> 63);
  const int ex = (int)(bits >> 52 & 0x7ff);
  uint64_t m = bits & ((1ULL << 52) - 1);
  if (ex == 0x7ff) { /* infinity or NaN */
    if (m)
      s->nan++;
    else if (neg)
      s->ninf++;
    else
      s->pinf++;
    return;
  }
  if (m == 0 && ex == 0) return; /* +-0 */
  int e;                         /* x = m 2^e, m an integer below 2^53 */
  if (ex == 0) {
    e = -1074;
  } else {
    m |= 1ULL << 52;
    e = ex - 1075;
  }
  const int off = e - UNIT_EXP; /* >= 14 */
  const int k = off / LIMB_BITS, sh = off % LIMB_BITS;
  const uint64_t a = (m & LIMB_MASK) << sh, b = (m >> LIMB_BITS) << sh; /* < 2^63, < 2^52 */
  const int64_t p0 = (int64_t)(a & LIMB_MASK);
  const int64_t p1 = (int64_t)((a >> LIMB_BITS) + (b & LIMB_MASK));
  const int64_t p2 = (int64_t)(b >> LIMB_BITS);
  if (neg) {
    s->limb[k] -= p0;
    s->limb[k + 1] -= p1;
    s->limb[k + 2] -= p2;
  } else {
    s->limb[k] += p0;
    s->limb[k + 1] += p1;
    s->limb[k + 2] += p2;
  }
  if (++s->pending >= PENDING_MAX) dg_xsum_normalize(s);
}

void dg_xsum_add_n(dg_xsum *s, const double *x, long n, long stride) {
  for (long i = 0; i < n; ++i) dg_xsum_add(s, x[i * stride]);
}

void dg_xsum_merge(dg_xsum *s, const dg_xsum *t) {
  dg_xsum u = *t;
  dg_xsum_normalize(&u);
  dg_xsum_normalize(s);
  for (int i = 0; i < DG_XSUM_LIMBS; ++i) s->limb[i] += u.limb[i];
  s->nan += u.nan;
  s->pinf += u.pinf;
  s->ninf += u.ninf;
  dg_xsum_normalize(s);
}

double dg_xsum_value(const dg_xsum *s) {
  if (s->nan || (s->pinf && s->ninf)) return NAN;
  if (s->pinf) return INFINITY;
  if (s->ninf) return -INFINITY;
  dg_xsum u = *s;
  dg_xsum_normalize(&u);
  const int neg = u.limb[DG_XSUM_LIMBS - 1] < 0;
  if (neg) { /* the magnitude: negate every limb and propagate again */
    for (int i = 0; i < DG_XSUM_LIMBS; ++i) u.limb[i] = -u.limb[i];
    dg_xsum_normalize(&u);
  }
  int h = DG_XSUM_LIMBS - 1;
  while (h >= 0 && u.limb[h] == 0) --h;
  if (h < 0) return 0.0;
  /* the leading 64 bits into top (its bit 63 the leading bit), the rest sticky */
  const uint64_t lh = (uint64_t)u.limb[h];
  const uint64_t l1 = h >= 1 ? (uint64_t)u.limb[h - 1] : 0,
                 l2 = h >= 2 ? (uint64_t)u.limb[h - 2] : 0;
  int nb = 0; /* bits of the leading limb: 1..32 (it may exceed 2^32 only if it is the last) */
  while (nb < 64 && (lh >> nb)) ++nb;
  double result;
  if (nb > LIMB_BITS) { /* only the top limb can: it holds the overflow of 2^1120 */
    result = INFINITY;
  } else {
    const uint64_t top = (lh << (64 - nb)) | (l1 << (LIMB_BITS - nb)) | (l2 >> nb);
    int sticky = nb < 64 && (l2 & ((1ULL << nb) - 1)) != 0;
    for (int i = h - 3; i >= 0 && !sticky; --i) sticky = u.limb[i] != 0;
    uint64_t m53 = top >> 11;
    const uint64_t rem = top & 0x7ff, half = 0x400;
    /* the leading bit counts 2^(32 h + nb - 1 + UNIT_EXP); m53's unit is 2^52 below it */
    int e = LIMB_BITS * h + nb - 1 + UNIT_EXP - 52;
    if (rem > half || (rem == half && (sticky || (m53 & 1)))) {
      if (++m53 == 1ULL << 53) {
        m53 >>= 1;
        ++e;
      }
    }
    result = ldexp((double)m53, e);
  }
  return neg ? -result : result;
}
