/* test_comm.c - mpi.comm_*: the communicator across ranks (core/dg_comm.h),
 * run by mpirun with 1..4 ranks.
 *   test_comm N reduce   size N; exact maxima (NaN included); exact sums of
 *                        10^5 values split over the ranks: the same bits as
 *                        one process summing them all; the per-rank sum
 *                        within 1e-14; the partition is the same on every rank
 *   test_comm N agree    the failure agreement: the lowest failing rank's code
 *                        and message on every rank, 0 when none fails
 *   test_comm N halo     how an exchange reaches MPI (dg_comm_halo_path): host
 *                        memory as it is; device memory handed to MPI only
 *                        where it says it is CUDA-aware and DGRID_CUDA_AWARE is
 *                        not off, staged otherwise; on refused where MPI cannot
 *   test_comm N fail     like an app: the last rank fails while reading its
 *                        input, rank 0 prints the one message, every rank
 *                        exits with status 2 (tests/mpi/run_fail.sh checks) */
#include "dg_test.h"

#include "dg_backend.h"
#include "dg_backends.h"
#include "dg_comm.h"
#include "dg_degree_map.h"
#include "dg_partition.h"

#include <stdint.h>
#include <string.h>

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void test_reduce(dg_comm *c, int want_size) {
  const int rank = dg_comm_rank(c), size = dg_comm_size(c);
  CHECK(size == want_size, "%d ranks, mpirun started %d", size, want_size);
  CHECK(rank >= 0 && rank < size, "rank %d of %d", rank, size);
  /* maxima: of 1.5 r, of -r, and NaN from the last rank only */
  double in[3] = {1.5 * rank, -rank, rank == size - 1 ? NAN : 1}, out[3];
  OK(dg_comm_allreduce_max(c, in, out, 3));
  CHECK(out[0] == 1.5 * (size - 1) && out[1] == 0 && isnan(out[2]), "max: %g %g %g", out[0], out[1],
        out[2]);
  /* exact sums: every rank makes the same values, adds its share */
  enum { N = 100003 };
  double *v = malloc(N * sizeof *v);
  if (!v) exit(1);
  uint64_t seed = 2026;
  for (int i = 0; i < N; ++i) {
    const uint64_t r = splitmix(&seed);
    v[i] = (r & 1 ? -1 : 1) * ldexp((double)(r >> 11) * 0x1p-53, (int)(r % 120) - 60);
  }
  const long lo = (long)N * rank / size, hi = (long)N * (rank + 1) / size;
  dg_xsum s[2], all;
  dg_xsum_init(&s[0]);
  dg_xsum_init(&s[1]);
  dg_xsum_add_n(&s[0], v + lo, hi - lo, 1);
  for (long i = lo; i < hi; ++i) dg_xsum_add(&s[1], v[i] * v[i]);
  OK(dg_comm_allreduce_xsum(c, s, 2));
  dg_xsum_init(&all);
  dg_xsum_add_n(&all, v, N, 1);
  const double got = dg_xsum_value(&s[0]), want = dg_xsum_value(&all);
  CHECK(memcmp(&got, &want, sizeof got) == 0, "exact sum on %d ranks: %a, one process %a", size,
        got, want);
  double part = 0, total;
  for (long i = lo; i < hi; ++i) part += v[i];
  OK(dg_comm_allreduce_sum(c, &part, &total, 1));
  CHECK_CLOSE(total, want, 0, 1e-14, "per-rank partial sums");
  if (rank == 0) printf("%d ranks: sum %a, sum of squares %a\n", size, got, dg_xsum_value(&s[1]));
  free(v);
  /* the partition is a pure function: the same blocks everywhere; the
     ranks' own block costs add up to the total */
  dg_grid g;
  OK(dg_grid_init_latlon(&g, 160, 80, 1.0));
  dg_degree_map *m = NULL;
  OK(dg_degree_map_create_latitude(&m, &g, 1, 6));
  dg_partition *p = NULL;
  OK(dg_partition_create(&p, &g, m, size, NULL));
  double mine = p->block[rank].cost, sum, lo_hi[2];
  OK(dg_comm_allreduce_sum(c, &mine, &sum, 1));
  CHECK(sum == p->cost_total, "block costs add to %.17g, the partition's total %.17g", sum,
        p->cost_total);
  double first = p->block[0].hi[0], neg = -first;
  OK(dg_comm_allreduce_max(c, &first, &lo_hi[0], 1));
  OK(dg_comm_allreduce_max(c, &neg, &lo_hi[1], 1));
  CHECK(lo_hi[0] == -lo_hi[1], "ranks disagree on rank 0's block: %g .. %g", -lo_hi[1], lo_hi[0]);
  dg_partition_destroy(&p);
  dg_degree_map_destroy(&m);
}

static void test_agree(dg_comm *c) {
  const int rank = dg_comm_rank(c), size = dg_comm_size(c);
  dg_error_clear();
  CHECK(dg_comm_agree(c, 0) == 0, "agree: all passed, yet it failed: %s", dg_error_message());
  /* the last rank fails */
  int rc = 0;
  if (rank == size - 1) rc = dg_error(DG_ERR_IO, "map.txt: line 3: 7 integers, 160 expected");
  rc = dg_comm_agree(c, rc);
  char want[256];
  if (size > 1)
    snprintf(want, sizeof want, "rank %d: map.txt: line 3: 7 integers, 160 expected", size - 1);
  else
    snprintf(want, sizeof want, "map.txt: line 3: 7 integers, 160 expected");
  CHECK(rc == DG_ERR_IO && strcmp(dg_error_message(), want) == 0, "agree: %d '%s', wanted %d '%s'",
        rc, dg_error_message(), DG_ERR_IO, want);
  /* every rank but 0 fails with its own code: rank 1's wins */
  rc = rank > 0 ? dg_error(DG_ERR_ARG + rank, "bad option on rank %d", rank) : 0;
  rc = dg_comm_agree(c, rc);
  if (size > 1) {
    CHECK(rc == DG_ERR_ARG + 1 && strcmp(dg_error_message(), "rank 1: bad option on rank 1") == 0,
          "agree: %d '%s'", rc, dg_error_message());
  } else {
    CHECK(rc == 0, "agree on one rank, nobody failed: %d", rc);
  }
}

static void test_halo(void) {
  dg_backend *be = NULL;
  char line[256];
  setenv("DGRID_CUDA_AWARE", "yes", 1);
  CHECK(dg_backend_create(&be, "omp") == DG_ERR_ARG &&
            !strcmp(dg_error_message(), "DGRID_CUDA_AWARE='yes': expected auto, off or on"),
        "DGRID_CUDA_AWARE=yes: '%s'", dg_error_message());
  setenv("DGRID_CUDA_AWARE", "off", 1);
  OK(dg_backend_create(&be, "omp"));
  unsetenv("DGRID_CUDA_AWARE");
  if (!be) return;
  CHECK(be->cuda_aware == -1, "DGRID_CUDA_AWARE=off: cuda_aware %d", be->cuda_aware);
  int path = -1;
  OK(dg_comm_halo_path(be, &path));
  CHECK(path == DG_HALO_HOST, "omp: path %d, not the host's memory", path);
  dg_comm_halo_describe(be, path, line, sizeof line);
  CHECK(!strncmp(line, "halo: host ", 11), "omp: '%s'", line);
  /* the same backend, had its memory been a device's */
  dg_backend_ops dev = *be->ops;
  dev.host_is_device = 0;
  dg_backend b = *be;
  b.ops = &dev;
  const int aware = dg_comm_cuda_aware();
  OK(dg_comm_halo_path(&b, &path));
  CHECK(path == DG_HALO_STAGED, "DGRID_CUDA_AWARE=off: path %d, not staged", path);
  dg_comm_halo_describe(&b, path, line, sizeof line);
  CHECK(strstr(line, "halo: staged") == line && strstr(line, "DGRID_CUDA_AWARE=off"), "'%s'", line);
  b.cuda_aware = 0;
  OK(dg_comm_halo_path(&b, &path));
  CHECK(path == (aware ? DG_HALO_DEVICE : DG_HALO_STAGED), "auto, MPI CUDA-aware %d: path %d",
        aware, path);
  b.cuda_aware = 1;
  const int rc = dg_comm_halo_path(&b, &path);
  if (aware)
    CHECK(rc == 0 && path == DG_HALO_DEVICE, "on, CUDA-aware MPI: %d, path %d", rc, path);
  else
    CHECK(rc == DG_ERR_ARG && !strncmp(dg_error_message(),
                                       "DGRID_CUDA_AWARE=on: this MPI does "
                                       "not read device memory",
                                       48),
          "on without a CUDA-aware MPI: %d '%s'", rc, dg_error_message());
  dg_backend_destroy(&be);
}

int main(int argc, char **argv) {
  dg_comm *c = NULL;
  if (dg_comm_create_world(&c, &argc, &argv) != 0) {
    fprintf(stderr, "test_comm: %s\n", dg_error_message());
    return 2;
  }
  const int want = argc > 1 ? atoi(argv[1]) : 1;
  const char *mode = argc > 2 ? argv[2] : "";
  int status = 0;
  if (!strcmp(mode, "fail")) {
    /* an app's input check: the last rank cannot read its file */
    int rc = 0;
    if (dg_comm_rank(c) == dg_comm_size(c) - 1)
      rc = dg_error(DG_ERR_IO, "snapshot.h5: no such file");
    rc = dg_comm_agree(c, rc);
    if (rc != 0) {
      if (dg_comm_rank(c) == 0) fprintf(stderr, "test_comm: %s\n", dg_error_message());
      status = 2;
    }
  } else {
    if (!*mode || !strcmp(mode, "reduce")) test_reduce(c, want);
    if (!*mode || !strcmp(mode, "agree")) test_agree(c);
    if (!*mode || !strcmp(mode, "halo")) test_halo();
    /* every rank's verdict, so that one rank's failure fails the test */
    double f = dg_test_failures, worst;
    OK(dg_comm_allreduce_max(c, &f, &worst, 1));
    if (dg_comm_rank(c) == 0)
      status = worst > 0 ? 1 : dg_test_done("mpi.comm");
    else
      status = worst > 0;
  }
  if (dg_comm_destroy(&c) != 0) {
    fprintf(stderr, "test_comm: %s\n", dg_error_message());
    return 2;
  }
  return status;
}
