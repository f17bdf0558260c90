/* test_halo_exchange.c - mpi.halo_npN: the halo lists (core/dg_halo.h) on
 * real ranks.  Every rank computes the partition alone, fills each face it
 * sends with values that name the element, side and point, exchanges them
 * with non-blocking MPI in the lists' order (receives straight into the
 * ghost array, no unpacking), and checks that every ghost holds the values
 * of the element across that face: on a sphere (lambda wraps, poles have no
 * ghost) and on a periodic 3D box.   test_halo_exchange N */
#include "dg_test.h"

#include "dg_comm.h"
#include "dg_comm_mpi.h"
#include "dg_degree_map.h"
#include "dg_halo.h"
#include "dg_partition.h"

#include <stdint.h>

enum { NV = 3 }; /* values per face: nvar * Q^(dim-1) in a run */

/* The value i of element e's trace on `side`: exact in a double. */
static double face_value(long e, int side, int i) { return (double)e * 64 + side * 4 + i; }

static void exchange(dg_comm *c, const dg_grid *g, const dg_degree_map *m, const char *what) {
  const int rank = dg_comm_rank(c), size = dg_comm_size(c);
  dg_partition *p = NULL;
  dg_halo *h = NULL;
  OK(dg_partition_create(&p, g, m, size, NULL));
  OK(dg_halo_create(&h, g, p, rank));
  double *send = malloc((size_t)(h->nface * NV + 1) * sizeof *send);
  double *ghost = malloc((size_t)(h->nface * NV + 1) * sizeof *ghost);
  MPI_Request *req = malloc((size_t)(2 * h->npeer + 1) * sizeof *req);
  if (!send || !ghost || !req) exit(1);
  const MPI_Comm comm = dg_comm_mpi(c);
  long at = 0;
  int nreq = 0;
  for (int i = 0; i < h->npeer; ++i) {
    const dg_halo_peer *q = &h->peer[i];
    CHECK(MPI_Irecv(ghost + at * NV, (int)(q->nface * NV), MPI_DOUBLE, q->rank, 46, comm,
                    &req[nreq++]) == MPI_SUCCESS,
          "MPI_Irecv");
    for (long u = 0; u < q->nface; ++u)
      for (int v = 0; v < NV; ++v)
        send[(at + u) * NV + v] = face_value(q->send_elem[u], q->send_side[u], v);
    CHECK(MPI_Isend(send + at * NV, (int)(q->nface * NV), MPI_DOUBLE, q->rank, 46, comm,
                    &req[nreq++]) == MPI_SUCCESS,
          "MPI_Isend");
    at += q->nface;
  }
  CHECK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "MPI_Waitall");
  long wrong = 0;
  at = 0;
  for (int i = 0; i < h->npeer; ++i) {
    const dg_halo_peer *q = &h->peer[i];
    for (long u = 0; u < q->nface; ++u) {
      const long nb = dg_halo_neighbour(g, q->recv_elem[u], q->recv_side[u]);
      for (int v = 0; v < NV; ++v)
        if (ghost[(at + u) * NV + v] != face_value(nb, q->recv_side[u] ^ 1, v)) wrong++;
    }
    at += q->nface;
  }
  CHECK(wrong == 0, "%s, rank %d of %d: %ld ghost values are not the neighbour's", what, rank, size,
        wrong);
  /* every face to another rank arrived once: the ranks' counts add up */
  double n = (double)h->nface, total;
  OK(dg_comm_allreduce_sum(c, &n, &total, 1));
  CHECK(total == (double)dg_partition_halo_total(p),
        "%s: %g faces exchanged, the partition has %ld", what, total, dg_partition_halo_total(p));
  if (rank == 0)
    printf("%s, %d ranks: %g ghost faces, all the neighbours' values\n", what, size, total);
  free(send);
  free(ghost);
  free(req);
  dg_halo_destroy(&h);
  dg_partition_destroy(&p);
}

int main(int argc, char **argv) {
  dg_comm *c = NULL;
  if (dg_comm_create_world(&c, &argc, &argv) != 0) {
    fprintf(stderr, "test_halo_exchange: %s\n", dg_error_message());
    return 2;
  }
  const int want = argc > 1 ? atoi(argv[1]) : 1;
  CHECK(dg_comm_size(c) == want, "%d ranks, mpirun started %d", dg_comm_size(c), want);
  dg_grid g;
  dg_degree_map *m = NULL;
  OK(dg_grid_init_latlon(&g, 40, 20, 1.0));
  OK(dg_degree_map_create_latitude(&m, &g, 1, 4));
  exchange(c, &g, m, "latlon 40x20 latitude 1..4");
  dg_degree_map_destroy(&m);
  const int n3[3] = {6, 5, 4};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  OK(dg_grid_init(&g, 3, n3, lo, hi));
  OK(dg_degree_map_create_random(&m, &g, 0, 3, 5));
  exchange(c, &g, m, "box 6x5x4 random 0..3");
  dg_degree_map_destroy(&m);
  double f = dg_test_failures, worst;
  OK(dg_comm_allreduce_max(c, &f, &worst, 1));
  int status = worst > 0;
  if (dg_comm_rank(c) == 0) status = worst > 0 ? 1 : dg_test_done("mpi.halo");
  if (dg_comm_destroy(&c) != 0) {
    fprintf(stderr, "test_halo_exchange: %s\n", dg_error_message());
    return 2;
  }
  return status;
}
