/* dg_spart_t.h - a rank operator's ghost exchange and clearing, written
 * once: dg_spart.c defines DG_SR (the real type) and DG_SN(name) and
 * includes it per precision.  No include guard. */

/* x's ghost slots of lists l received from their owners. */
static int DG_SN(part_exchange)(const dg_sop *op, const dg_xlist *l, DG_SR *x) {
  const struct dg_spx *px = op->px;
  const dg_backend *be = op->be;
  const long ns = l->soff[l->npeer], nr = l->roff[l->npeer];
  DG_SR *sd = dg_xlist_send_buf(l), *rd = dg_xlist_recv_buf(l);
  /* the sent entries gathered on the backend, after the kernels that wrote x */
  DG_SN(dg_svec_gather)(be, ns, l->sidx_dev, x, sd);
  int rc;
  if (l->path == DG_HALO_STAGED) /* the copies wait for the gather */
    rc = dg_svec_to_host(be, l->sbuf, sd, sizeof(DG_SR) * (size_t)ns);
  else /* MPI reads the gathered entries where they are */
    rc = dg_svec_sync(be);
  if (!rc) rc = dg_xlist_start(l, px->sp->comm, sizeof(DG_SR));
  if (!rc) rc = dg_xlist_wait(l, px->sp->comm);
  if (!rc && l->path == DG_HALO_STAGED)
    rc = dg_svec_to_device(be, rd, l->rbuf, sizeof(DG_SR) * (size_t)nr);
  if (rc) return rc;
  DG_SN(dg_svec_scatter)(be, nr, l->ridx_dev, rd, x);
  return dg_svec_status(be);
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
