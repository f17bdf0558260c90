/* test_lane.c - the CPU lane helpers that read neighbours (stencils/dg_lane.h):
 * dg_lane_nbr_kind against a lane-by-lane statement of its rule, and
 * dg_lane_nbr_load_n against plain per-lane reads, on random offset patterns
 * (whole microblocks, shifted runs, runs broken anywhere, negative offsets).
 * Compiled by the host compiler in every build, so it checks the CPU
 * branch of dg_lane.h whatever the backend. */
#include "dg_lane.h"
#include "dg_test.h"

#include <stdint.h>

/* The rule, lane by lane: kind 0 when the W offsets are one aligned
 * microblock; kind j > 0 when they run on from lane j of one microblock into
 * lane 0 of another; else -1. */
static int ref_kind(const int *off) {
  if (off[0] < 0) return -1;
  const int j = off[0] % DG_W, s = DG_W - j;
  int ok = 1;
  for (int l = 1; l < s; ++l) ok &= off[l] == off[0] + l;
  if (j == 0) return ok ? 0 : -1;
  ok &= off[s] % DG_W == 0;
  for (int l = s + 1; l < DG_W; ++l) ok &= off[l] == off[s] + (l - s);
  return ok ? j : -1;
}

static uint64_t rng = 88172645463325252ull;
static int rnd(int n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (int)(rng % (uint64_t)n);
}

enum { NBLK = 64, NI = 5 };

int main(void) {
  static dg_real base[NBLK * DG_W * NI];
  for (int i = 0; i < NBLK * DG_W * NI; ++i) base[i] = (dg_real)(i * 7 % 1001) + (dg_real)0.25;
  int seen[DG_W + 1] = {0}, cases = 0;
  for (int t = 0; t < 20000; ++t) {
    int off[DG_W];
    /* a run from lane j of microblock b1 into microblock b2 (slot strides of
       NI * W, as a stage's arrays), then maybe one lane broken */
    const int j = rnd(DG_W), b1 = rnd(NBLK / 2), b2 = rnd(4) ? b1 + 1 : rnd(NBLK / 2);
    const int stride = NI * DG_W;
    for (int l = 0; l < DG_W; ++l)
      off[l] = l < DG_W - j ? b1 * stride + j + l : b2 * stride + (l - (DG_W - j));
    if (rnd(3) == 0) off[rnd(DG_W)] += rnd(2) ? 1 : -(1 + rnd(3)) * DG_W; /* a break */
    if (rnd(5) == 0 && j > 0) off[DG_W - j] += rnd(DG_W - 1) + 1;         /* misaligned start */
    if (rnd(50) == 0) off[0] = -1 - rnd(10);                              /* a trace marker */
    int usable = 1;
    for (int l = 0; l < DG_W; ++l)
      usable &= off[l] >= 0 && off[l] + (NI - 1) * DG_W < NBLK * stride;
    const int k = dg_lane_nbr_kind(off), kr = ref_kind(off);
    CHECK(k == kr, "kind %d, rule %d (case %d, j %d)", k, kr, t, j);
    seen[k + 1]++;
    if (!usable || k != kr) continue;
    /* the loads, from element 1 on (i0 = 1), NI - 1 entries */
    dg_lane got[NI];
    dg_lane_nbr_load_n(base, off, k, 1, NI - 1, got);
    for (int i = 0; i < NI - 1; ++i)
      for (int l = 0; l < DG_W; ++l) {
        const dg_real want = base[off[l] + (1 + i) * DG_W];
        CHECK(got[i][l] == want, "kind %d entry %d lane %d: %g, want %g", k, i, l,
              (double)got[i][l], (double)want);
      }
    cases++;
  }
  /* every kind occurred, so each path was compared */
  for (int k = -1; k < DG_W; ++k) CHECK(seen[k + 1] > 100, "kind %d seen %d times", k, seen[k + 1]);
  printf("test_lane: %d patterns loaded; kinds -1..%d seen", cases, DG_W - 1);
  for (int k = -1; k < DG_W; ++k) printf(" %d", seen[k + 1]);
  printf("\n");
  return dg_test_done("test_lane");
}
