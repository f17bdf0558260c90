/* dg_sop_omp_t.h - the OpenMP driver, written once: dg_sop_omp.c defines
 * DG_SR, DG_SN(name), DG_SSFX (the suffix alone) and DG_SBV/DG_SBL (the
 * block inverses of that precision) and includes it per precision.  No
 * include guard. */

#define DG_SOP_XCAT(a, b) a##b
#define DG_SOP_CAT(a, b)  DG_SOP_XCAT(a, b)

int DG_SN(dg_sop_apply)(const dg_sop *op, const DG_SR *x, DG_SR *y) {
  const long ne = op->g.nelem;
  const DG_SN(dg_sargs) *A = &op->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_stab) *T = &op->DG_SOP_CAT(tab_, DG_SSFX);
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e) {
    DG_SOP_DISPATCH(DG_SN(dg_sipg_elem_r), A, T, e, x, y, op->deg[e])
  }
  return 0;
}

int DG_SN(dg_sop_diag)(const dg_sop *op, DG_SR *y) {
  const long ne = op->g.nelem;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < ne; ++e)
    DG_SN(dg_sipg_diag)(&op->DG_SOP_CAT(args_, DG_SSFX), &op->DG_SOP_CAT(tab_, DG_SSFX), e, y);
  return 0;
}

int DG_SN(dg_sblock_apply)(const dg_sblock *bj, const DG_SR *r, DG_SR *z) {
  const dg_sop *op = bj->op;
  const int dim = op->g.dim;
  const DG_SR shift = (DG_SR)bj->shift;
#pragma omp parallel for schedule(static)
  for (long e = 0; e < op->g.nelem; ++e) {
    const DG_SR *V[3] = {0, 0, 0}, *lam[3] = {0, 0, 0};
    for (int d = 0; d < dim; ++d) {
      V[d] = DG_SBV(bj) + (long)bj->key[3 * e + d] * DG_SNR * DG_SNR;
      lam[d] = DG_SBL(bj) + (long)bj->key[3 * e + d] * DG_SNR;
    }
    DG_SN(dg_sblock_solve)(dim, op->deg[e], V, lam, shift, r + op->off[e], z + op->off[e]);
  }
  return 0;
}

int DG_SN(dg_sop_restrict)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *r,
                           DG_SR *bc) {
  const DG_SN(dg_sargs) *Af = &F->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_sargs) *Ac = &C->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_stab) *T = &F->DG_SOP_CAT(tab_, DG_SSFX);
  const long nc = C->g.nelem;
  if (by_degree) {
#pragma omp parallel for schedule(static)
    for (long e = 0; e < nc; ++e) DG_SN(dg_sp_restrict_elem)(Af, Ac, e, r, bc);
  } else {
#pragma omp parallel for schedule(static)
    for (long e = 0; e < nc; ++e) DG_SN(dg_sh_restrict_elem)(Af, Ac, T, e, r, bc);
  }
  return 0;
}

int DG_SN(dg_sop_prolong_add)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *xc,
                              DG_SR *x) {
  const DG_SN(dg_sargs) *Af = &F->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_sargs) *Ac = &C->DG_SOP_CAT(args_, DG_SSFX);
  const DG_SN(dg_stab) *T = &F->DG_SOP_CAT(tab_, DG_SSFX);
  if (by_degree) {
    const long nc = C->g.nelem;
#pragma omp parallel for schedule(static)
    for (long e = 0; e < nc; ++e) DG_SN(dg_sp_prolong_elem)(Af, Ac, e, xc, x);
  } else {
    const long nf = F->g.nelem;
#pragma omp parallel for schedule(static)
    for (long e = 0; e < nf; ++e) DG_SN(dg_sh_prolong_elem)(Af, Ac, T, e, xc, x);
  }
  return 0;
}

#undef DG_SOP_XCAT
#undef DG_SOP_CAT
