/* dg_spart_t.h - a rank operator's ghost exchange and clearing, written
 * once: dg_spart.c defines DG_SR (the real type) and DG_SN(name) and
 * includes it per precision.  No include guard. */

int DG_SN(dg_sop_part_exchange)(const dg_sop *op, DG_SR *x) {
  const struct dg_spx *px = op->px;
  if (!px || px->npeer == 0 || px->off) return 0;
  DG_CALL(dg_svec_sync(op->be)); /* the host reads and writes x */
  DG_SR *sb = (DG_SR *)(void *)px->sbuf, *rb = (DG_SR *)(void *)px->rbuf;
  const long ns = px->soff[px->npeer], nr = px->roff[px->npeer];
  for (long k = 0; k < ns; ++k) sb[k] = x[px->sidx[k]];
  DG_CALL(dg_comm_exchange(px->sp->comm, px->npeer, px->peer, sb, px->soff, rb, px->roff,
                           sizeof(DG_SR)));
  for (long k = 0; k < nr; ++k) x[px->ridx[k]] = rb[k];
  return 0;
}

void DG_SN(dg_sop_part_clear)(const dg_sop *op, DG_SR *x) {
  const struct dg_spx *px = op->px;
  if (!px) return;
  for (long z = 0; z < px->nz; ++z)
    memset(x + px->zrun[2 * z], 0, sizeof(DG_SR) * (size_t)px->zrun[2 * z + 1]);
}
