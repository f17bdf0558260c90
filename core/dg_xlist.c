/* dg_xlist.c - exchange lists and their buffers (dg_xlist.h). */
#include "dg_xlist.h"

#include "dg_error.h"

#include <stdlib.h>
#include <string.h>

static int be_alloc(const dg_backend *be, void **p, size_t bytes) {
  return be->ops->alloc(p, bytes);
}
static void be_free(const dg_backend *be, void *p) { be->ops->free(p); }
static int be_to_device(const dg_backend *be, void *d, const void *h, size_t bytes) {
  return be->ops->to_device(d, h, bytes);
}

const dg_xlist_mem dg_xlist_backend_mem = {be_alloc, be_free, be_to_device};

int dg_xlist_peers(dg_xlist *x, int nranks, const long *scount, const long *rcount, int *slot,
                   const char *who) {
  int np = 0;
  for (int q = 0; q < nranks; ++q) np += scount[q] || rcount[q];
  x->peer = malloc(sizeof(int) * (size_t)(np ? np : 1));
  x->soff = calloc((size_t)np + 1, sizeof(long));
  x->roff = calloc((size_t)np + 1, sizeof(long));
  if (!x->peer || !x->soff || !x->roff)
    return dg_error(DG_ERR_MEM, "%s: out of memory for the exchange lists", who);
  x->npeer = 0;
  for (int q = 0; q < nranks; ++q) {
    if (!scount[q] && !rcount[q]) continue;
    const int i = x->npeer++;
    x->peer[i] = q;
    if (slot) slot[q] = i;
    x->soff[i + 1] = x->soff[i] + scount[q];
    x->roff[i + 1] = x->roff[i] + rcount[q];
  }
  const long ns = x->soff[np], nr = x->roff[np];
  x->sidx = malloc(sizeof(long) * (size_t)(ns + 1));
  x->ridx = malloc(sizeof(long) * (size_t)(nr + 1));
  if (!x->sidx || !x->ridx)
    return dg_error(DG_ERR_MEM, "%s: out of memory for the exchange lists (%ld values)", who,
                    ns + nr);
  return 0;
}

/* A device copy of list h (n entries), made once: the kernels that gather
 * and scatter read it there. */
static int upload(const dg_backend *be, const dg_xlist_mem *mem, long *h, long n, long **dev) {
  if (be->ops->host_is_device) {
    *dev = h;
    return 0;
  }
  const size_t b = sizeof(long) * (size_t)(n + 1);
  DG_CALL(mem->alloc(be, (void **)dev, b));
  return mem->to_device(be, *dev, h, b);
}

int dg_xlist_setup(dg_xlist *x, const dg_backend *be, const dg_xlist_mem *mem, size_t item) {
  const long ns = x->soff[x->npeer], nr = x->roff[x->npeer];
  x->path = DG_HALO_HOST;
  if (x->npeer > 0) DG_CALL(dg_comm_halo_path(be, &x->path));
  DG_CALL(upload(be, mem, x->sidx, ns, &x->sidx_dev));
  DG_CALL(upload(be, mem, x->ridx, nr, &x->ridx_dev));
  if (!be->ops->host_is_device) {
    DG_CALL(mem->alloc(be, &x->sdev, item * (size_t)(ns + 1)));
    DG_CALL(mem->alloc(be, &x->rdev, item * (size_t)(nr + 1)));
  }
  if (x->path != DG_HALO_DEVICE) {
    DG_CALL(dg_comm_halo_buf(be, x->path, item * (size_t)(ns + 1), &x->sbuf));
    DG_CALL(dg_comm_halo_buf(be, x->path, item * (size_t)(nr + 1), &x->rbuf));
  }
  return dg_comm_xreq_create(&x->req, x->npeer);
}

void dg_xlist_free(dg_xlist *x, const dg_backend *be, const dg_xlist_mem *mem) {
  free(x->peer);
  free(x->soff);
  free(x->roff);
  if (x->sidx_dev && x->sidx_dev != x->sidx) mem->free(be, x->sidx_dev);
  if (x->ridx_dev && x->ridx_dev != x->ridx) mem->free(be, x->ridx_dev);
  if (x->sdev) mem->free(be, x->sdev);
  if (x->rdev) mem->free(be, x->rdev);
  free(x->sidx);
  free(x->ridx);
  dg_comm_halo_buf_free(be, x->path, x->sbuf);
  dg_comm_halo_buf_free(be, x->path, x->rbuf);
  dg_comm_xreq_destroy(&x->req);
  memset(x, 0, sizeof *x);
}

void *dg_xlist_send_buf(const dg_xlist *x) { return x->sdev ? x->sdev : x->sbuf; }
void *dg_xlist_recv_buf(const dg_xlist *x) { return x->rdev ? x->rdev : x->rbuf; }

int dg_xlist_start(const dg_xlist *x, dg_comm *c, size_t item) {
  const int dev = x->path == DG_HALO_DEVICE;
  return dg_comm_exchange_start(c, x->req, x->npeer, x->peer, dev ? x->sdev : x->sbuf, x->soff,
                                dev ? x->rdev : x->rbuf, x->roff, item);
}

int dg_xlist_wait(const dg_xlist *x, dg_comm *c) { return dg_comm_exchange_wait(c, x->req); }
