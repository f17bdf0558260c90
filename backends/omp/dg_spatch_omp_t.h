/* dg_spatch_omp_t.h - the OpenMP driver of the vertex patches, written
 * once: dg_spatch_omp.c defines DG_SR, DG_SN(name) and DG_SPV/DG_SPL (the
 * 1D inverses of that precision) and includes it per precision.  No include
 * guard. */

int DG_SN(dg_omp_spatch_apply)(const dg_spatch *sp, const DG_SR *r, DG_SR *z) {
  const dg_sop *op = sp->op;
  const DG_SR shift = (DG_SR)sp->shift;
  DG_SN(dg_omp_svec_zero)(dg_sop_n(op), z);
  /* one colour after the other: a colour's patches share no element */
  for (int col = 0; col < sp->ncol; ++col) {
#pragma omp parallel for schedule(static)
    for (long q = sp->cstart[col]; q < sp->cstart[col + 1]; ++q) {
      long el[8];
      int nc[3], key[3];
      dg_spatch_cells(sp, sp->list[q], el, nc, key);
      const DG_SR *V[3], *lam[3];
      for (int d = 0; d < 3; ++d) {
        V[d] = DG_SPV(sp) + (long)key[d] * 2 * DG_SPATCH_LD * DG_SPATCH_LD;
        lam[d] = DG_SPL(sp) + (long)key[d] * DG_SPATCH_LD;
      }
      if (nc[0] * nc[1] * nc[2] == (1 << sp->dim)) {
        DG_SPATCH_DISPATCH(DG_SN(dg_spatch_solve_r), sp->n, sp->dim, nc, el, op->off, V, lam, shift,
                           r, z)
      } else
        DG_SN(dg_spatch_solve)(sp->dim, sp->n, nc, el, op->off, V, lam, shift, r, z);
    }
  }
  return 0;
}
