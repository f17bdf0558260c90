/* dg_sop_omp_t.h - the OpenMP driver, written once: dg_sop_omp.c defines
 * DG_SR, DG_SN(name), DG_SSFX (the suffix alone) and DG_SBV/DG_SBL (the
 * block inverses of that precision) and includes it per precision.  No
 * include guard. */

#define DG_SOP_XCAT(a, b) a##b
#define DG_SOP_CAT(a, b)  DG_SOP_XCAT(a, b)

/* The lane plan: runs of DG_SLW consecutive elements of one row of
 * direction 0 (i0 = 0, DG_SLW, ...) go through the lane functions
 * (dg_sipg_lane_t.h) when they and their face neighbours share one degree
 * (every run of a uniform level, the runs inside a band of a band map) and
 * an element fits (DG_SLMAX modes); the rest, and the tail of a row shorter
 * than DG_SLW, through the element functions. */
static int DG_SN(sop_lane_run)(const dg_sop *op, long e0, int r) {
  const int dim = op->g.dim;
  if (!dg_sop_lane_fits(dim, r)) return 0;
  if (op->runi >= 0) return 1;
  const DG_SN(dg_sargs) *A = &op->DG_SOP_CAT(args_, DG_SSFX);
  for (int l = 0; l < DG_SLW; ++l)
    if (op->deg[e0 + l] != r) return 0;
  for (int s = 0; s < 2; ++s) {
    const long nx = DG_SN(dg_snbr)(A, e0 + (s ? DG_SLW - 1 : 0), 0, s);
    if (nx >= 0 && op->deg[nx] != r) return 0;
    for (int d = 1; d < dim; ++d) {
      const long nb = DG_SN(dg_snbr)(A, e0, d, s);
      if (nb >= 0)
        for (int l = 0; l < DG_SLW; ++l)
          if (op->deg[nb + l] != r) return 0;
    }
  }
  return 1;
}

int DG_SN(dg_omp_sop_apply)(const dg_sop *op, const DG_SR *x, DG_SR *y) {
  const long ne = op->g.nelem, n0 = op->g.n[0], nrow = ne / n0;
  const DG_SN(dg_sargs) *A = &op->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_stab) *T = &op->DG_SOP_CAT(tab_, DG_SSFX);
  /* the lane function of each degree (dg_sop_omp.c): loaded before the loop */
  DG_CALL(lanes_need(op, sizeof(DG_SR) == sizeof(float)));
  const DG_SN(dg_sipg_lane_fn) *L = lanes.DG_SOP_CAT(sipg_, DG_SSFX);
#pragma omp parallel for schedule(static)
  for (long row = 0; row < nrow; ++row) {
    long i = 0;
    for (; i + DG_SLW <= n0; i += DG_SLW) {
      const long e0 = row * n0 + i;
      const int r = op->deg[e0];
      if (DG_SN(sop_lane_run)(op, e0, r))
        L[r](A, T, e0, x, y);
      else
        for (long e = e0; e < e0 + DG_SLW; ++e) {
          DG_SOP_DISPATCH(DG_SN(dg_sipg_elem_r), A, T, e, x, y, op->deg[e])
        }
    }
    /* the row's tail: one more run that ends with the row (the elements it
       shares with the run before are computed again and stored again), as
       an element costs several lanes' work by itself */
    if (i < n0 && n0 >= DG_SLW) {
      const long e0 = row * n0 + n0 - DG_SLW;
      const int r = op->deg[e0];
      if (DG_SN(sop_lane_run)(op, e0, r)) {
        L[r](A, T, e0, x, y);
        i = n0;
      }
    }
    for (; i < n0; ++i) {
      const long e = row * n0 + i;
      DG_SOP_DISPATCH(DG_SN(dg_sipg_elem_r), A, T, e, x, y, op->deg[e])
    }
  }
  return 0;
}

int DG_SN(dg_omp_sop_diag)(const dg_sop *op, DG_SR *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e)
    DG_SN(dg_sipg_diag)(&op->DG_SOP_CAT(args_, DG_SSFX), &op->DG_SOP_CAT(tab_, DG_SSFX), e, y);
  return 0;
}

/* The 1D factors of element e. */
static inline void DG_SN(sblock_factors)(const dg_sblock *bj, int dim, long e, const DG_SR *V[3],
                                         const DG_SR *lam[3]) {
  for (int d = 0; d < 3; ++d) V[d] = lam[d] = 0;
  for (int d = 0; d < dim; ++d) {
    V[d] = DG_SBV(bj) + (long)bj->key[3 * e + d] * DG_SNR * DG_SNR;
    lam[d] = DG_SBL(bj) + (long)bj->key[3 * e + d] * DG_SNR;
  }
}

/* Element-block Jacobi.  The lane plan: runs of DG_SLW consecutive elements
 * of one degree (no neighbours involved) are solved together with the 1D
 * factors of their middle element; an element of the run whose factors
 * differ (a boundary element, a neighbour of another penalty degree) is
 * solved again by the element function afterwards. */
int DG_SN(dg_omp_sblock_apply)(const dg_sblock *bj, const DG_SR *r, DG_SR *z) {
  const dg_sop *op = bj->op;
  const int dim = op->g.dim;
  const long ne = op->g.nelem, nrun = (ne + DG_SLW - 1) / DG_SLW;
  const DG_SR shift = (DG_SR)bj->shift;
  DG_CALL(lanes_need(op, sizeof(DG_SR) == sizeof(float)));
  const DG_SN(dg_sblock_lane_fn) *L = lanes.DG_SOP_CAT(sblock_, DG_SSFX);
#pragma omp parallel for schedule(static)
  for (long k = 0; k < nrun; ++k) {
    const long e0 = k * DG_SLW, e1 = e0 + DG_SLW < ne ? e0 + DG_SLW : ne;
    const int r0 = op->deg[e0];
    int lane = e1 - e0 == DG_SLW && dg_sop_lane_fits(dim, r0);
    for (long e = e0; lane && e < e1; ++e) lane = op->deg[e] == r0;
    /* the run's middle element, unless its factors are the odd ones out
       (a row that starts mid-run: the middle is a boundary element) and the
       run's first and last element share theirs */
    long em = e0 + DG_SLW / 2;
    if (lane) {
      int mf = 1, mz = 1, fz = 1;
      for (int d = 0; d < dim; ++d) {
        const int km = bj->key[3 * em + d], kf = bj->key[3 * e0 + d],
                  kl = bj->key[3 * (e1 - 1) + d];
        mf = mf && km == kf;
        mz = mz && km == kl;
        fz = fz && kf == kl;
      }
      if (!mf && !mz && fz) em = e0;
    }
    if (lane) {
      const DG_SR *V[3], *lam[3];
      DG_SN(sblock_factors)(bj, dim, em, V, lam);
      L[r0](dim, V, lam, shift, r + op->off[e0], z + op->off[e0]);
    }
    for (long e = e0; e < e1; ++e) {
      int same = lane;
      for (int d = 0; same && d < dim; ++d) same = bj->key[3 * e + d] == bj->key[3 * em + d];
      if (same) continue;
      const DG_SR *V[3], *lam[3];
      DG_SN(sblock_factors)(bj, dim, e, V, lam);
      DG_SN(dg_sblock_solve)(dim, op->deg[e], V, lam, shift, r + op->off[e], z + op->off[e]);
    }
  }
  return 0;
}

int DG_SN(dg_omp_sop_restrict)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *r,
                               DG_SR *bc) {
  const DG_SN(dg_sargs) *Af = &F->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_sargs) *Ac = &C->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_stab) *T = &F->DG_SOP_CAT(tab_, DG_SSFX);
  const long nc = C->g.nelem;
  if (by_degree) {
#pragma omp parallel for schedule(static)
    for (long e = 0; e < nc; ++e) DG_SN(dg_sp_restrict_elem)(Af, Ac, e, r, bc);
  } else {
    /* by rows over the owned coarse elements (all of them on one process;
       a rank's children are owned or ghosts, received with the corners:
       dg_sop_run.c); no index division per element */
    const long n0 = Ac->n[0], n1 = Ac->n[1];
    long f0[3]; /* the first child of coarse box element 0, in the fine box */
    for (int d = 0; d < 3; ++d) f0[d] = 2L * C->xorg[d] - F->xorg[d];
#pragma omp parallel for collapse(2) schedule(static)
    for (long k = C->xlo[2]; k < C->xhi[2]; ++k)
      for (long j = C->xlo[1]; j < C->xhi[1]; ++j)
        for (long i = C->xlo[0]; i < C->xhi[0]; ++i) DG_SN(dg_sh_restrict_at)
    (Af, Ac, T, i + n0 * (j + n1 * k), f0[0] + 2 * i, f0[1] + 2 * j, f0[2] + 2 * k, r, bc);
  }
  return 0;
}

int DG_SN(dg_omp_sop_prolong_add)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *xc,
                                  DG_SR *x) {
  const DG_SN(dg_sargs) *Af = &F->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_sargs) *Ac = &C->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_stab) *T = &F->DG_SOP_CAT(tab_, DG_SSFX);
  if (by_degree) {
    const long nc = C->g.nelem;
#pragma omp parallel for schedule(static)
    for (long e = 0; e < nc; ++e) DG_SN(dg_sp_prolong_elem)(Af, Ac, e, xc, x);
  } else {
    /* by rows over the owned fine elements (a rank's parents are owned or
       ghosts); the whole grid's index g of a fine element gives its parent
       g / 2 and its position g % 2 (box origins may be odd or -1) */
    const long n0 = Af->n[0], n1 = Af->n[1], c0 = Ac->n[0], c1 = Ac->n[1];
#pragma omp parallel for collapse(2) schedule(static)
    for (long k = F->xlo[2]; k < F->xhi[2]; ++k)
      for (long j = F->xlo[1]; j < F->xhi[1]; ++j)
        for (long i = F->xlo[0]; i < F->xhi[0]; ++i) {
          const long g[3] = {i + F->xorg[0], j + F->xorg[1], k + F->xorg[2]};
          const int c[3] = {(int)(g[0] & 1), (int)(g[1] & 1), (int)(g[2] & 1)};
          const long ec = (g[0] / 2 - C->xorg[0]) +
                          c0 * ((g[1] / 2 - C->xorg[1]) + c1 * (g[2] / 2 - C->xorg[2]));
          DG_SN(dg_sh_prolong_at)(Af, Ac, T, i + n0 * (j + n1 * k), ec, c, xc, x);
        }
  }
  return 0;
}

#undef DG_SOP_XCAT
#undef DG_SOP_CAT
