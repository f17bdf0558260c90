/* dg_xlist.h - an exchange list: the values a rank sends to and receives
 * from each peer, by storage index, with the buffers the values travel
 * through (docs/ARCHITECTURE.md, "Runs across ranks", "The CUDA exchange").
 * The explicit stages (dg_disc_part.c) and the solver operators
 * (solvers/dg_spart.c) each fill the lists in their own order and gather
 * and scatter their own reals with their own kernels; this file holds what
 * they share: the peers and offsets, the lists' copies in device memory,
 * the buffers, the posting of an exchange through dg_comm, and the free. */
#ifndef DG_XLIST_H
#define DG_XLIST_H

#include "dg_backend.h"
#include "dg_comm.h"

#include <stddef.h>

/* The memory the lists and device buffers live in: the backend's
 * (dg_xlist_backend_mem) or the solvers' (solvers/dg_spart.c).  Each
 * function returns an int status and records why it failed. */
typedef struct {
  int (*alloc)(const dg_backend *be, void **p, size_t bytes);
  void (*free)(const dg_backend *be, void *p);
  int (*to_device)(const dg_backend *be, void *d, const void *h, size_t bytes);
} dg_xlist_mem;

extern const dg_xlist_mem dg_xlist_backend_mem;

/* Per peer (increasing rank) the indices to send, sidx[soff[i] ..
 * soff[i+1]), and those to receive, ridx[roff[i] .. roff[i+1]); both ranks
 * of a pair compute the same order, so no list is ever sent. */
typedef struct dg_xlist {
  int npeer, *peer;
  long *soff, *roff; /* [npeer + 1] */
  long *sidx, *ridx;
  long *sidx_dev, *ridx_dev; /* the lists in device memory (the lists themselves where
                                the backend's memory is the host's) */
  int path;                  /* DG_HALO_*: what MPI is handed (dg_comm_halo_path) */
  void *sbuf, *rbuf;         /* host memory (page-locked where staged); NULL where MPI
                                reads the device buffers */
  void *sdev, *rdev;         /* device memory gathered into and scattered from (NULL
                                where the backend's memory is the host's) */
  dg_comm_xreq *req;         /* the exchange in flight */
} dg_xlist;

/* The peers and offsets of x from per-rank counts of values to send
 * (scount) and receive (rcount), nranks each; the index lists allocated,
 * unfilled.  slot (optional, [nranks]) gets each peer's position.  who
 * names the caller in the messages.  DG_ERR_MEM. */
int dg_xlist_peers(dg_xlist *x, int nranks, const long *scount, const long *rcount, int *slot,
                   const char *who);

/* After the lists are filled: the exchange's path, the lists' device
 * copies, the buffers (room for items of `item` bytes) and the request. */
int dg_xlist_setup(dg_xlist *x, const dg_backend *be, const dg_xlist_mem *mem, size_t item);

/* Everything x holds, with the same be and mem; x zeroed. */
void dg_xlist_free(dg_xlist *x, const dg_backend *be, const dg_xlist_mem *mem);

/* The buffers the caller gathers into and scatters from: the device ones
 * where there are any, else the host ones. */
void *dg_xlist_send_buf(const dg_xlist *x);
void *dg_xlist_recv_buf(const dg_xlist *x);

/* The exchange of items of `item` bytes in two halves (dg_comm_exchange_
 * start and _wait): MPI reads the device buffers on DG_HALO_DEVICE, else
 * the host ones, which the caller has filled (and empties after). */
int dg_xlist_start(const dg_xlist *x, dg_comm *c, size_t item);
int dg_xlist_wait(const dg_xlist *x, dg_comm *c);

#endif
