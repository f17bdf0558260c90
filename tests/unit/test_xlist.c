/* test_xlist.c - unit.xlist: an exchange list's peers, offsets and buffers
 * (core/dg_xlist.h), from hand-made counts, on the build's backend: the
 * ranks with something to send or receive in increasing order, each one's
 * slot, the offsets their running sums, the buffers a gather writes (device
 * memory where the backend has its own, else the host's), and a free that
 * leaves nothing behind.  No MPI: the exchange itself is mpi.*'s. */
#include "dg_test.h"

#include "dg_xlist.h"

#include <string.h>

int main(void) {
  const dg_backend *be = dg_test_backend();
  /* rank 1 and 4 exchange nothing; 0 only sends, 2 only receives */
  const long scount[5] = {3, 0, 0, 1, 0}, rcount[5] = {0, 0, 2, 4, 0};
  int slot[5] = {-1, -1, -1, -1, -1};
  dg_xlist x;
  memset(&x, 0, sizeof x);
  OK(dg_xlist_peers(&x, 5, scount, rcount, slot, "test"));
  CHECK(x.npeer == 3, "npeer %d, not 3", x.npeer);
  const int peer[3] = {0, 2, 3};
  const long soff[4] = {0, 3, 3, 4}, roff[4] = {0, 0, 2, 6};
  for (int i = 0; i < 3 && x.npeer == 3; ++i)
    CHECK(x.peer[i] == peer[i] && slot[peer[i]] == i, "peer %d: rank %d slot %d", i, x.peer[i],
          slot[peer[i]]);
  CHECK(slot[1] == -1 && slot[4] == -1, "a slot for a rank without values");
  for (int i = 0; i <= 3 && x.npeer == 3; ++i)
    CHECK(x.soff[i] == soff[i] && x.roff[i] == roff[i], "offsets %d: %ld %ld", i, x.soff[i],
          x.roff[i]);
  for (long i = 0; i < 4; ++i) x.sidx[i] = 10 + i;
  for (long i = 0; i < 6; ++i) x.ridx[i] = 20 + i;
  OK(dg_xlist_setup(&x, be, &dg_xlist_backend_mem, sizeof(double)));
  if (be->ops->host_is_device) {
    CHECK(x.path == DG_HALO_HOST, "path %d on host memory", x.path);
    CHECK(x.sidx_dev == x.sidx && x.ridx_dev == x.ridx, "the lists copied on host memory");
    CHECK(!x.sdev && !x.rdev, "device buffers on host memory");
    CHECK(dg_xlist_send_buf(&x) == x.sbuf && dg_xlist_recv_buf(&x) == x.rbuf && x.sbuf && x.rbuf,
          "the host buffers are the ones gathered into");
  } else {
    CHECK(x.path != DG_HALO_HOST, "host path on device memory");
    CHECK(x.sdev && x.rdev && dg_xlist_send_buf(&x) == x.sdev && dg_xlist_recv_buf(&x) == x.rdev,
          "the device buffers are the ones gathered into");
    CHECK((x.path == DG_HALO_DEVICE) == !x.sbuf, "host buffers on path %d", x.path);
  }
  CHECK(x.req != NULL, "no request");
  dg_xlist_free(&x, be, &dg_xlist_backend_mem);
  CHECK(x.npeer == 0 && !x.peer && !x.sidx && !x.sbuf && !x.req, "free left something");
  /* no peer at all: nothing to post, the buffers still there to point at */
  const long none[2] = {0, 0};
  OK(dg_xlist_peers(&x, 2, none, none, NULL, "test"));
  CHECK(x.npeer == 0 && x.soff[0] == 0 && x.roff[0] == 0, "npeer %d without values", x.npeer);
  OK(dg_xlist_setup(&x, be, &dg_xlist_backend_mem, sizeof(double)));
  CHECK(x.path == DG_HALO_HOST, "path %d without peers", x.path);
  dg_xlist_free(&x, be, &dg_xlist_backend_mem);
  return dg_test_done("unit.xlist");
}
