/* dg_comm.h - the ranks of a run (docs/ARCHITECTURE.md, "Runs across
 * ranks"): who am I, how many are we, reductions, and the agreement on
 * failure.  Wraps an MPI communicator in an MPI build (DGRID_MPI); in a
 * build without MPI the same calls work on one rank and no MPI header is
 * seen anywhere (this header never includes one: the handle for backends
 * is in dg_comm_mpi.h).
 *
 * Every MPI call is checked: the communicator returns errors instead of
 * aborting (MPI_ERRORS_RETURN), and a failed call records a message with
 * MPI's own text and returns DG_ERR_LIB.
 *
 * Results that must not depend on the number of ranks:
 * - dg_comm_allreduce_max: a maximum is exact in any order;
 * - dg_comm_allreduce_xsum: exact sums (dg_xsum.h), rounded once: the same
 *   bits for every number of ranks when each rank adds its own terms;
 * - dg_comm_allreduce_sum: the per-rank values summed exactly, so the order
 *   of the ranks does not matter, but each rank's value is its own rounded
 *   partial sum: independent of the number of ranks only to round-off
 *   (printed norms, 1e-14), never for anything the solution depends on.
 *
 * Failure agreement: a rank that fails records its message and goes on to
 * the next agreement point (after input is read and checked: options,
 * configuration, maps, files), where every rank calls dg_comm_agree with
 * its status; all of them then return the same code and hold the same
 * message, the lowest failing rank's, so the app prints it once (on rank 0)
 * and every rank exits with status 2: no rank waits for one that left. */
#ifndef DG_COMM_H
#define DG_COMM_H

#include "dg_xsum.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_comm dg_comm;

/* The ranks of the job: MPI_COMM_WORLD (duplicated), initialising MPI if
 * nobody has (then dg_comm_destroy finalises it); argc, argv may be NULL.
 * Without MPI one rank.  DG_ERR_LIB with MPI's message, DG_ERR_MEM. */
int dg_comm_create_world(dg_comm **c, int *argc, char ***argv);

/* One rank alone, whatever the build (a program that runs on one process,
 * or a test of the one-rank path). */
int dg_comm_create_self(dg_comm **c);

/* Free the communicator; finalises MPI where dg_comm_create_world
 * initialised it and this was the last communicator.  Sets *c to NULL.
 * Returns 0 or DG_ERR_LIB. */
int dg_comm_destroy(dg_comm **c);

int dg_comm_rank(const dg_comm *c);
int dg_comm_size(const dg_comm *c);

/* 1 when the build runs across MPI ranks (DGRID_MPI), else 0. */
int dg_comm_mpi_built(void);

/* 1 where the MPI library reads and writes CUDA device memory itself,
 * asked at run time (Open MPI's MPIX_Query_cuda_support, where its
 * mpi-ext.h declares MPIX_CUDA_AWARE_SUPPORT); 0 otherwise, and without
 * MPI. */
int dg_comm_cuda_aware(void);

/* How an exchange of values in backend be's memory reaches MPI, into *path
 * (DG_HALO_*, dg_backend.h): the host's memory as it is; device memory
 * itself where dg_comm_cuda_aware() and be->cuda_aware >= 0; else staged
 * through host buffers.  DG_ERR_ARG where be->cuda_aware > 0 and this MPI
 * cannot read device memory. */
struct dg_backend;
int dg_comm_halo_path(const struct dg_backend *be, int *path);
/* Host buffers of `bytes` for an exchange on path `path`: page-locked
 * (be->ops->host_alloc) where the path stages device memory and the backend
 * has such memory, else malloc; freed by dg_comm_halo_buf_free with the same
 * be and path (NULL is ignored).  DG_ERR_MEM. */
int dg_comm_halo_buf(const struct dg_backend *be, int path, size_t bytes, void **p);
void dg_comm_halo_buf_free(const struct dg_backend *be, int path, void *p);
/* One line for --verbose: "halo: ..." (which path, and why). */
void dg_comm_halo_describe(const struct dg_backend *be, int path, char *buf, size_t cap);

/* out[i] = the largest in[i] over the ranks, i < n (in == out allowed).
 * Exact.  A NaN on any rank gives NaN. */
int dg_comm_allreduce_max(dg_comm *c, const double *in, double *out, int n);

/* s[i] = the sum of every rank's s[i], exactly (i < n); dg_xsum_value
 * then gives the same bits on every rank and for every number of ranks. */
int dg_comm_allreduce_xsum(dg_comm *c, dg_xsum *s, int n);

/* out[i] = the sum over the ranks of in[i], rounded once (in == out
 * allowed); see above for what does not depend on the ranks. */
int dg_comm_allreduce_sum(dg_comm *c, const double *in, double *out, int n);

/* Point-to-point exchange with npeer other ranks (collective over them):
 * to peer[i] the items sbuf[soff[i] .. soff[i+1]), from it into rbuf[roff[i]
 * .. roff[i+1]), items of `item` bytes; every receive is posted before any
 * send, and the call returns when all are done.  Each pair of ranks must
 * name each other with matching counts.  Without MPI npeer must be 0. */
int dg_comm_exchange(dg_comm *c, int npeer, const int *peer, const void *sbuf, const long *soff,
                     void *rbuf, const long *roff, size_t item);

/* The same exchange in two halves, so that work runs while the messages
 * travel: dg_comm_exchange_start posts every receive, then every send, and
 * returns; dg_comm_exchange_wait returns when all are done.  Until then
 * sbuf and rbuf stay untouched by the caller.  x holds the requests of one
 * exchange at a time (dg_comm_xreq_create for at most npeer peers, once);
 * a start that fails has finished what it posted. */
typedef struct dg_comm_xreq dg_comm_xreq;
int dg_comm_xreq_create(dg_comm_xreq **x, int npeer);
void dg_comm_xreq_destroy(dg_comm_xreq **x);
int dg_comm_exchange_start(dg_comm *c, dg_comm_xreq *x, int npeer, const int *peer,
                           const void *sbuf, const long *soff, void *rbuf, const long *roff,
                           size_t item);
int dg_comm_exchange_wait(dg_comm *c, dg_comm_xreq *x);

/* Every rank's n items of `item` bytes from sbuf, concatenated in rank
 * order into rbuf on every rank; counts[r] is rank r's n (every rank
 * passes the same counts). */
int dg_comm_allgather(dg_comm *c, const void *sbuf, void *rbuf, const long *counts, size_t item);

/* Every rank's counts[r] items of `item` bytes from sbuf, concatenated in
 * rank order into rbuf on rank `root` only (rbuf is not touched elsewhere
 * and may be NULL there); every rank passes the same counts. */
int dg_comm_gather(dg_comm *c, int root, const void *sbuf, void *rbuf, const long *counts,
                   size_t item);

/* The reverse: rank `root`'s sbuf holds every rank's counts[r] items in
 * rank order (read on root only, may be NULL elsewhere); each rank receives
 * its own counts[rank] into rbuf. */
int dg_comm_scatter(dg_comm *c, int root, const void *sbuf, void *rbuf, const long *counts,
                    size_t item);

/* The failure agreement (collective): every rank passes its status (0 or a
 * DG_ERR_* code, with its message recorded).  Returns 0 on every rank when
 * all passed 0; else, on every rank, the code of the lowest failing rank,
 * whose message every rank then holds (dg_error_message), prefixed with
 * "rank R: " when there are several ranks.  Without MPI it returns rc. */
int dg_comm_agree(dg_comm *c, int rc);

/* This rank's index among the ranks that share its node (MPI's shared-memory
 * split; collective), 0 for one process: a GPU per rank is chosen from it. */
int dg_comm_node_rank(dg_comm *c, int *node_rank);

/* The agreement for a rank that failed inside a collective step the others
 * may still be waiting in (an HDF5 collective write): rc != 0 is required.
 * It waits at most wait_s seconds for the others' dg_comm_agree or
 * dg_comm_agree_failure.  Where every rank failed, the result is
 * dg_comm_agree's on every rank.  Otherwise (some did not come in time, or
 * some had not failed) this rank failed alone: it returns rc with its own
 * message prefixed "rank R: ", dg_comm_failed_alone(c) is then 1, and the
 * app must end the job (dg_comm_abort): the others cannot be released. */
int dg_comm_agree_failure(dg_comm *c, int rc, double wait_s);

/* 1 after this rank failed alone (dg_comm_agree_failure); else 0. */
int dg_comm_failed_alone(const dg_comm *c);

/* End every rank now (MPI_Abort with `status`) after a failure that ranks
 * cannot agree on (one rank fails inside a step while the others wait in
 * an exchange).  For apps only: the library never exits.  Without MPI it
 * returns; the caller exits. */
void dg_comm_abort(dg_comm *c, int status);

#ifdef __cplusplus
}
#endif
#endif
