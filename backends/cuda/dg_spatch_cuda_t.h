/* dg_spatch_cuda_t.h - the CUDA driver of the vertex-patch smoother in one
 * precision: a colour's launch of the team kernel (dg_spatch_cuda_team_t.h)
 * or the refusal, and the entry point of dg_solver_cuda.h.  Written once and
 * included by dg_spatch_cuda.cu per precision (DG_SR, DG_SN(name) and
 * DG_SPV(sp), DG_SPL(sp), the patches' tables of that precision; solvers/README.md,
 * "One source, two precisions"), after its DG_PATCH_NS.  No include guard
 * on purpose. */

namespace {

/* One colour's launch for N modes per direction (0: any): the team kernel
   where it exists for N, else a refusal (the kernel is not instantiated). */
template <int N, int DIM>
int DG_SN(colour)(const dg_spatch_kargs &a, const long *list, long np, const DG_SR *Vs,
                  const DG_SR *ls, DG_SR shift, const DG_SR *r, DG_SR *z) {
  if constexpr (N > 0 && dg_spatch_team<N, DIM, sizeof(DG_SR)>::ppb > 0) {
    const int ppb = dg_spatch_team<N, DIM, sizeof(DG_SR)>::ppb;
    DG_SN(dg_spatch_k_team)<N, DIM>
        <<<(unsigned)((np + ppb - 1) / ppb), dg_spatch_team<N, DIM, sizeof(DG_SR)>::threads>>>(
            a, list, np, Vs, ls, shift, r, z);
    return launched("vertex-patch kernel (team)");
  } else {
    return dg_error(DG_ERR_ARG,
                    "vertex-patch smoother: degree %d in %dD (%s) has no CUDA kernel (its patch "
                    "does not fit a block's shared memory); use the element-block smoother",
                    a.n - 1, DIM, sizeof(DG_SR) == 8 ? "double" : "float");
  }
}

} // namespace

extern "C" {

int DG_SN(dg_cuda_spatch_apply)(const dg_spatch *sp, const DG_SR *r, DG_SR *z) {
  const DG_SR *Vs = DG_SPV(sp), *ls = DG_SPL(sp);
  const dg_sop *op = sp->op;
  const dg_grid *g = &op->g;
  if (sp->dim != 2 && sp->dim != 3)
    return dg_error(DG_ERR_ARG, "vertex-patch smoother (CUDA): dimension %d", sp->dim);
  dg_spatch_kargs a;
  a.n = sp->n;
  for (int d = 0; d < 3; ++d) {
    a.nv[d] = sp->nv[d];
    a.voff[d] = sp->voff[d];
  }
  a.n0 = g->n[0];
  a.n1 = sp->dim > 1 ? g->n[1] : 1;
  a.vinfo = sp->vinfo;
  a.off = op->doff;
  const DG_SR shift = (DG_SR)sp->shift;
  /* a vector kernel: it records its own launch failure */
  DG_SN(dg_cuda_svec_zero)(dg_sop_n(op), z);
  for (int col = 0; col < sp->ncol; ++col) {
    const long np = sp->cstart[col + 1] - sp->cstart[col];
    if (!np) continue;
    const long *list = sp->list + sp->cstart[col];
    int rc = 0;
    if (sp->dim == 2)
      DG_PATCH_NS(2, sp->n, (a, list, np, Vs, ls, shift, r, z))
    else
      DG_PATCH_NS(3, sp->n, (a, list, np, Vs, ls, shift, r, z))
    if (rc) return rc;
  }
  return 0;
}

} /* extern "C" */
