/* dg_spart_t.h - a rank operator's ghost exchange and clearing, written
 * once: dg_spart.c defines DG_SR (the real type) and DG_SN(name) and
 * includes it per precision.  No include guard. */

int DG_SN(dg_sop_part_exchange)(const dg_sop *op, DG_SR *x) {
  const struct dg_spx *px = op->px;
  if (!px || px->npeer == 0 || px->off) return 0;
  const dg_backend *be = op->be;
  const long ns = px->soff[px->npeer], nr = px->roff[px->npeer];
  DG_SR *sd = (DG_SR *)px->sdev, *rd = (DG_SR *)px->rdev;
  /* the sent entries gathered on the backend, after the kernels that wrote x */
  DG_SN(dg_svec_gather)(be, ns, px->sidx_dev, x, sd);
  int rc;
  if (px->path == DG_HALO_STAGED) { /* the copies wait for the gather */
    rc = dg_svec_to_host(be, px->sbuf, sd, sizeof(DG_SR) * (size_t)ns);
    if (!rc)
      rc = dg_comm_exchange(px->sp->comm, px->npeer, px->peer, px->sbuf, px->soff, px->rbuf,
                            px->roff, sizeof(DG_SR));
    if (!rc) rc = dg_svec_to_device(be, rd, px->rbuf, sizeof(DG_SR) * (size_t)nr);
  } else { /* MPI reads the gathered entries where they are */
    rc = dg_svec_sync(be);
    if (!rc)
      rc = dg_comm_exchange(px->sp->comm, px->npeer, px->peer, sd, px->soff, rd, px->roff,
                            sizeof(DG_SR));
  }
  if (rc) return rc;
  DG_SN(dg_svec_scatter)(be, nr, px->ridx_dev, rd, x);
  return dg_svec_status(be);
}

void DG_SN(dg_sop_part_clear)(const dg_sop *op, DG_SR *x) {
  const struct dg_spx *px = op->px;
  if (!px) return;
  /* on the backend: x is solver memory */
  for (long z = 0; z < px->nz; ++z)
    DG_SN(dg_svec_zero)(op->be, px->zrun[2 * z + 1], x + px->zrun[2 * z]);
}
