/* dg_sop_xfer_t.h - the level transfers' and the vertex patches' calls
 * (the calls that read every ghost slot), written once: dg_sop_run.c
 * defines DG_SR (the real type) and DG_SN(name) and includes it per
 * precision.  No include guard.
 *
 * A rank's transfers by agglomeration (dg_spart.h) read the other level's
 * ghosts, corners included: a coarse element's children, a fine element's
 * parent.  They are received first and cleared after; the drivers write the
 * owned elements alone, so the restriction's output ghost slots are cleared
 * too.  The transfers by degree are element-local.  A rank's patches
 * (dg_spatch.c) read r's ghosts on every side likewise; z's ghost slots are
 * cleared after (their owners compute those corrections themselves). */

int DG_SN(dg_sop_restrict)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *r,
                           DG_SR *bc) {
  if (by_degree || !F->px) return dg_sop_ops(F)->DG_SN(restrict)(F, C, by_degree, r, bc);
  DG_SR *rw = (DG_SR *)r; /* only its ghost slots, zero again on return */
  DG_CALL(DG_SN(dg_sop_part_exchange_all)(F, rw));
  const int rc = dg_sop_ops(F)->DG_SN(restrict)(F, C, by_degree, r, bc);
  DG_SN(dg_sop_part_clear)(F, rw);
  DG_SN(dg_sop_part_clear)(C, bc);
  return rc;
}

int DG_SN(dg_sop_prolong_add)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *xc,
                              DG_SR *x) {
  if (by_degree || !C->px) return dg_sop_ops(F)->DG_SN(prolong_add)(F, C, by_degree, xc, x);
  DG_SR *xw = (DG_SR *)xc; /* only its ghost slots, zero again on return */
  DG_CALL(DG_SN(dg_sop_part_exchange_all)(C, xw));
  const int rc = dg_sop_ops(F)->DG_SN(prolong_add)(F, C, by_degree, xc, x);
  DG_SN(dg_sop_part_clear)(C, xw);
  return rc;
}

int DG_SN(dg_spatch_apply)(const dg_spatch *sp, const DG_SR *r, DG_SR *z) {
  const dg_sop *op = sp->op;
  if (!op->px) return dg_sop_ops(op)->DG_SN(spatch_apply)(sp, r, z);
  DG_SR *rw = (DG_SR *)r; /* only its ghost slots, zero again on return */
  DG_CALL(DG_SN(dg_sop_part_exchange_all)(op, rw));
  const int rc = dg_sop_ops(op)->DG_SN(spatch_apply)(sp, r, z);
  DG_SN(dg_sop_part_clear)(op, rw);
  DG_SN(dg_sop_part_clear)(op, z);
  return rc;
}
