/* dg_spart_t.h - a rank operator's ghost exchange and clearing, written
 * once: dg_spart.c defines DG_SR (the real type) and DG_SN(name) and
 * includes it per precision.  No include guard. */

/* x's ghost slots of lists l received from their owners. */
static int DG_SN(part_exchange)(const dg_sop *op, const struct dg_spxl *l, DG_SR *x) {
  const struct dg_spx *px = op->px;
  DG_CALL(dg_svec_sync(op->be)); /* no kernel may still use x */
  /* x is solver memory: the host packs and unpacks a view of it */
  const size_t nb = sizeof(DG_SR) * (size_t)op->len;
  DG_SR *xh = NULL;
  DG_CALL(dg_svec_map(op->be, x, nb, DG_SVEC_READ, (void **)&xh));
  DG_SR *sb = (DG_SR *)(void *)l->sbuf, *rb = (DG_SR *)(void *)l->rbuf;
  const long ns = l->soff[l->npeer], nr = l->roff[l->npeer];
  for (long k = 0; k < ns; ++k) sb[k] = xh[l->sidx[k]];
  int rc =
      dg_comm_exchange(px->sp->comm, l->npeer, l->peer, sb, l->soff, rb, l->roff, sizeof(DG_SR));
  for (long k = 0; k < nr && !rc; ++k) xh[l->ridx[k]] = rb[k];
  const int rc2 = dg_svec_unmap(op->be, x, xh, nb, rc ? 0 : DG_SVEC_WRITE);
  return rc ? rc : rc2;
}

int DG_SN(dg_sop_part_exchange)(const dg_sop *op, DG_SR *x) {
  const struct dg_spx *px = op->px;
  if (!px || px->face.npeer == 0 || px->off) return 0;
  return DG_SN(part_exchange)(op, &px->face, x);
}

int DG_SN(dg_sop_part_exchange_all)(const dg_sop *op, DG_SR *x) {
  const struct dg_spx *px = op->px;
  if (!px) return 0;
  if (!px->has_all)
    return dg_error(DG_ERR_ARG, "dg_sop_part_exchange_all: no lists (dg_sop_part_corners)");
  if (px->all.npeer == 0 || px->off_all) return 0;
  return DG_SN(part_exchange)(op, &px->all, x);
}

void DG_SN(dg_sop_part_clear)(const dg_sop *op, DG_SR *x) {
  const struct dg_spx *px = op->px;
  if (!px) return;
  /* on the backend: x is solver memory */
  for (long z = 0; z < px->nz; ++z)
    DG_SN(dg_svec_zero)(op->be, px->zrun[2 * z + 1], x + px->zrun[2 * z]);
}
