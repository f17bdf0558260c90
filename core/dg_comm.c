/* dg_comm.c - the ranks of a run (dg_comm.h): MPI in an MPI build
 * (DG_HAVE_MPI, set by CMake for this library only), one rank otherwise. */
#include "dg_comm.h"

#include "dg_backend.h"
#include "dg_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef DG_HAVE_MPI
#include "dg_comm_mpi.h"
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif
#endif

struct dg_comm {
  int rank, size;
  int alone; /* this rank failed where the others could not follow (dg_comm_agree_failure) */
#ifdef DG_HAVE_MPI
  MPI_Comm comm; /* MPI_COMM_NULL for dg_comm_create_self */
#endif
};

#ifdef DG_HAVE_MPI
static int dg_comm_live;        /* world communicators alive */
static int dg_comm_initialised; /* MPI_Init was ours: finalise with the last one */

/* Record MPI's message for a failed call; DG_ERR_LIB. */
static int mpi_fail(int err, const char *call) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(err, text, &len) != MPI_SUCCESS)
    snprintf(text, sizeof text, "error %d", err);
  return dg_error(DG_ERR_LIB, "MPI: %s failed: %s", call, text);
}
#define MPI_CHECK(call, name)                                                                      \
  do {                                                                                             \
    const int dg_mpi_err_ = (call);                                                                \
    if (dg_mpi_err_ != MPI_SUCCESS) return mpi_fail(dg_mpi_err_, name);                            \
  } while (0)

MPI_Comm dg_comm_mpi(const dg_comm *c) { return c->comm; }
#endif

int dg_comm_mpi_built(void) {
#ifdef DG_HAVE_MPI
  return 1;
#else
  return 0;
#endif
}

int dg_comm_cuda_aware(void) {
  /* the header's MPIX_CUDA_AWARE_SUPPORT says what the library we compiled
     against was built with; the library loaded at run time decides */
#if defined(DG_HAVE_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT)
  int up = 0;
  if (MPI_Initialized(&up) != MPI_SUCCESS || !up) return 0;
  return MPIX_Query_cuda_support() == 1;
#else
  return 0;
#endif
}

int dg_comm_halo_path(const dg_backend *be, int *path) {
  if (!be || !path) return dg_error(DG_ERR_ARG, "dg_comm_halo_path: NULL argument");
  if (be->ops->host_is_device) {
    *path = DG_HALO_HOST;
    return 0;
  }
  const int aware = dg_comm_cuda_aware();
  if (be->cuda_aware > 0 && !aware)
    return dg_error(DG_ERR_ARG, "DGRID_CUDA_AWARE=on: this MPI does not read device memory "
                                "(MPIX_Query_cuda_support is 0 or absent); use auto or off");
  *path = aware && be->cuda_aware >= 0 ? DG_HALO_DEVICE : DG_HALO_STAGED;
  return 0;
}

int dg_comm_halo_buf(const dg_backend *be, int path, size_t bytes, void **p) {
  if (path == DG_HALO_STAGED && be->ops->host_alloc) return be->ops->host_alloc(p, bytes);
  *p = malloc(bytes ? bytes : 1);
  return *p ? 0 : dg_error(DG_ERR_MEM, "out of memory for the halo (%zu bytes)", bytes);
}

void dg_comm_halo_buf_free(const dg_backend *be, int path, void *p) {
  if (path == DG_HALO_STAGED && be->ops->host_free)
    be->ops->host_free(p);
  else
    free(p);
}

void dg_comm_halo_describe(const dg_backend *be, int path, char *buf, size_t cap) {
  const int aware = dg_comm_cuda_aware();
  const char *why = be && be->cuda_aware < 0   ? ", DGRID_CUDA_AWARE=off"
                    : be && be->cuda_aware > 0 ? ", DGRID_CUDA_AWARE=on"
                                               : "";
  if (path == DG_HALO_HOST)
    snprintf(buf, cap, "halo: host (the backend's memory is the host's)");
  else
    snprintf(buf, cap, "halo: %s (MPI CUDA-aware: %s%s)",
             path == DG_HALO_DEVICE ? "device (device buffers handed to MPI)"
                                    : "staged (device buffers copied through page-locked host "
                                      "buffers)",
             aware ? "yes" : "no", why);
}

int dg_comm_create_self(dg_comm **c) {
  if (!c) return dg_error(DG_ERR_ARG, "dg_comm_create_self: NULL handle");
  *c = calloc(1, sizeof **c);
  if (!*c) return dg_error(DG_ERR_MEM, "communicator: out of memory");
  (*c)->rank = 0;
  (*c)->size = 1;
#ifdef DG_HAVE_MPI
  (*c)->comm = MPI_COMM_NULL;
#endif
  return 0;
}

int dg_comm_create_world(dg_comm **c, int *argc, char ***argv) {
#ifndef DG_HAVE_MPI
  (void)argc;
  (void)argv;
  return dg_comm_create_self(c);
#else
  if (!c) return dg_error(DG_ERR_ARG, "dg_comm_create_world: NULL handle");
  *c = NULL;
  int up = 0, down = 0;
  MPI_CHECK(MPI_Initialized(&up), "MPI_Initialized");
  MPI_CHECK(MPI_Finalized(&down), "MPI_Finalized");
  if (down) return dg_error(DG_ERR_LIB, "MPI: already finalised, no communicator can be made");
  if (!up) {
    MPI_CHECK(MPI_Init(argc, argv), "MPI_Init");
    dg_comm_initialised = 1;
  }
  dg_comm *p = calloc(1, sizeof *p);
  if (!p) return dg_error(DG_ERR_MEM, "communicator: out of memory");
  int rc = 0, err;
  if ((err = MPI_Comm_dup(MPI_COMM_WORLD, &p->comm)) != MPI_SUCCESS) {
    rc = mpi_fail(err, "MPI_Comm_dup");
    p->comm = MPI_COMM_NULL;
  }
  /* errors come back as codes on this communicator, never abort */
  if (rc == 0 && (err = MPI_Comm_set_errhandler(p->comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS)
    rc = mpi_fail(err, "MPI_Comm_set_errhandler");
  if (rc == 0 && (err = MPI_Comm_rank(p->comm, &p->rank)) != MPI_SUCCESS)
    rc = mpi_fail(err, "MPI_Comm_rank");
  if (rc == 0 && (err = MPI_Comm_size(p->comm, &p->size)) != MPI_SUCCESS)
    rc = mpi_fail(err, "MPI_Comm_size");
  if (rc != 0) {
    if (p->comm != MPI_COMM_NULL) MPI_Comm_free(&p->comm); /* already failing: its code is moot */
    free(p);
    return rc;
  }
  dg_comm_live++;
  *c = p;
  return 0;
#endif
}

int dg_comm_destroy(dg_comm **c) {
  if (!c || !*c) return 0;
  int rc = 0;
#ifdef DG_HAVE_MPI
  if ((*c)->comm != MPI_COMM_NULL) {
    int err = MPI_Comm_free(&(*c)->comm);
    if (err != MPI_SUCCESS) rc = mpi_fail(err, "MPI_Comm_free");
    if (--dg_comm_live == 0 && dg_comm_initialised) {
      dg_comm_initialised = 0;
      err = MPI_Finalize();
      if (err != MPI_SUCCESS && rc == 0) rc = mpi_fail(err, "MPI_Finalize");
    }
  }
#endif
  free(*c);
  *c = NULL;
  return rc;
}

int dg_comm_rank(const dg_comm *c) { return c->rank; }
int dg_comm_size(const dg_comm *c) { return c->size; }

int dg_comm_node_rank(dg_comm *c, int *node_rank) {
  if (!c || !node_rank) return dg_error(DG_ERR_ARG, "dg_comm_node_rank: NULL argument");
  *node_rank = 0;
  if (c->size == 1) return 0;
#ifdef DG_HAVE_MPI
  MPI_Comm node;
  MPI_CHECK(MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type (the node's ranks)");
  const int rc = MPI_Comm_rank(node, node_rank);
  MPI_CHECK(MPI_Comm_free(&node), "MPI_Comm_free (the node's ranks)");
  MPI_CHECK(rc, "MPI_Comm_rank (the node's ranks)");
#endif
  return 0;
}

int dg_comm_allreduce_max(dg_comm *c, const double *in, double *out, int n) {
  if (!c || n < 0 || (n > 0 && (!in || !out)))
    return dg_error(DG_ERR_ARG, "dg_comm_allreduce_max: bad arguments");
  if (c->size == 1) {
    if (out != in) memmove(out, in, (size_t)n * sizeof *out);
    return 0;
  }
#ifdef DG_HAVE_MPI
  /* NaN compares false either way: reduce a flag beside each value */
  double *buf = malloc(2 * (size_t)n * sizeof *buf + 1);
  if (!buf) return dg_error(DG_ERR_MEM, "communicator: out of memory for %d maxima", n);
  for (int i = 0; i < n; ++i) {
    buf[i] = isnan(in[i]) ? -INFINITY : in[i];
    buf[n + i] = isnan(in[i]) ? 1 : 0;
  }
  const int err = MPI_Allreduce(MPI_IN_PLACE, buf, 2 * n, MPI_DOUBLE, MPI_MAX, c->comm);
  if (err != MPI_SUCCESS) {
    free(buf);
    return mpi_fail(err, "MPI_Allreduce (max)");
  }
  for (int i = 0; i < n; ++i) out[i] = buf[n + i] > 0 ? NAN : buf[i];
  free(buf);
  return 0;
#else
  return dg_error(DG_ERR_ARG, "communicator: %d ranks without MPI", c->size);
#endif
}

/* The int64 words of one accumulator on the wire: limbs, NaNs, infinities. */
#define XSUM_WORDS (DG_XSUM_LIMBS + 3)

int dg_comm_allreduce_xsum(dg_comm *c, dg_xsum *s, int n) {
  if (!c || n < 0 || (n > 0 && !s))
    return dg_error(DG_ERR_ARG, "dg_comm_allreduce_xsum: bad arguments");
  for (int i = 0; i < n; ++i) dg_xsum_normalize(&s[i]);
  if (c->size == 1) return 0;
#ifdef DG_HAVE_MPI
  /* normalised limbs are below 2^32: the sum over 2^31 ranks fits an int64 */
  int64_t *buf = malloc((size_t)n * XSUM_WORDS * sizeof *buf + 1);
  if (!buf) return dg_error(DG_ERR_MEM, "communicator: out of memory for %d sums", n);
  for (int i = 0; i < n; ++i) {
    memcpy(buf + (size_t)i * XSUM_WORDS, s[i].limb, sizeof s[i].limb);
    buf[(size_t)i * XSUM_WORDS + DG_XSUM_LIMBS] = s[i].nan;
    buf[(size_t)i * XSUM_WORDS + DG_XSUM_LIMBS + 1] = s[i].pinf;
    buf[(size_t)i * XSUM_WORDS + DG_XSUM_LIMBS + 2] = s[i].ninf;
  }
  const int err = MPI_Allreduce(MPI_IN_PLACE, buf, n * XSUM_WORDS, MPI_INT64_T, MPI_SUM, c->comm);
  if (err != MPI_SUCCESS) {
    free(buf);
    return mpi_fail(err, "MPI_Allreduce (exact sum)");
  }
  for (int i = 0; i < n; ++i) {
    memcpy(s[i].limb, buf + (size_t)i * XSUM_WORDS, sizeof s[i].limb);
    s[i].nan = buf[(size_t)i * XSUM_WORDS + DG_XSUM_LIMBS];
    s[i].pinf = buf[(size_t)i * XSUM_WORDS + DG_XSUM_LIMBS + 1];
    s[i].ninf = buf[(size_t)i * XSUM_WORDS + DG_XSUM_LIMBS + 2];
    s[i].pending = 0;
    dg_xsum_normalize(&s[i]);
  }
  free(buf);
  return 0;
#else
  return dg_error(DG_ERR_ARG, "communicator: %d ranks without MPI", c->size);
#endif
}

int dg_comm_allreduce_sum(dg_comm *c, const double *in, double *out, int n) {
  if (!c || n < 0 || (n > 0 && (!in || !out)))
    return dg_error(DG_ERR_ARG, "dg_comm_allreduce_sum: bad arguments");
  dg_xsum *s = malloc((size_t)n * sizeof *s + 1);
  if (!s) return dg_error(DG_ERR_MEM, "communicator: out of memory for %d sums", n);
  for (int i = 0; i < n; ++i) {
    dg_xsum_init(&s[i]);
    dg_xsum_add(&s[i], in[i]);
  }
  const int rc = dg_comm_allreduce_xsum(c, s, n);
  for (int i = 0; rc == 0 && i < n; ++i) out[i] = dg_xsum_value(&s[i]);
  free(s);
  return rc;
}

#ifdef DG_HAVE_MPI
/* A message's bytes as MPI's int count. */
static int byte_count(long n, size_t item, int *out) {
  const double b = (double)n * (double)item;
  if (n < 0 || b >= 2147483647.0)
    return dg_error(DG_ERR_ARG, "communicator: a message of %.0f bytes (at most 2^31 - 1)", b);
  *out = (int)(n * (long)item);
  return 0;
}
#endif

/* A started exchange: its requests, receives first (dg_comm.h). */
struct dg_comm_xreq {
  int cap, n; /* room for, and posted, requests */
#ifdef DG_HAVE_MPI
  MPI_Request *rq;
#endif
};

int dg_comm_xreq_create(dg_comm_xreq **x, int npeer) {
  if (!x || npeer < 0) return dg_error(DG_ERR_ARG, "dg_comm_xreq_create: bad arguments");
  *x = calloc(1, sizeof **x);
  if (!*x) return dg_error(DG_ERR_MEM, "communicator: out of memory for an exchange");
  (*x)->cap = 2 * npeer;
#ifdef DG_HAVE_MPI
  (*x)->rq = malloc(((size_t)(*x)->cap + 1) * sizeof *(*x)->rq);
  if (!(*x)->rq) {
    free(*x);
    *x = NULL;
    return dg_error(DG_ERR_MEM, "communicator: out of memory for %d requests", npeer);
  }
#endif
  return 0;
}

void dg_comm_xreq_destroy(dg_comm_xreq **x) {
  if (!x || !*x) return;
#ifdef DG_HAVE_MPI
  free((*x)->rq);
#endif
  free(*x);
  *x = NULL;
}

int dg_comm_exchange_start(dg_comm *c, dg_comm_xreq *x, int npeer, const int *peer,
                           const void *sbuf, const long *soff, void *rbuf, const long *roff,
                           size_t item) {
  if (!c || !x || npeer < 0 || 2 * npeer > x->cap || x->n != 0 ||
      (npeer > 0 && (!peer || !soff || !roff)))
    return dg_error(DG_ERR_ARG, "dg_comm_exchange_start: bad arguments");
  if (npeer == 0) return 0;
#ifdef DG_HAVE_MPI
  int rc = 0;
  for (int pass = 0; pass < 2 && !rc; ++pass) /* all receives, then all sends */
    for (int i = 0; i < npeer && !rc; ++i) {
      const long *off = pass ? soff : roff;
      int n = 0, err;
      if ((rc = byte_count(off[i + 1] - off[i], item, &n))) break;
      if (pass == 0)
        err = MPI_Irecv((char *)rbuf + off[i] * (long)item, n, MPI_BYTE, peer[i], 46, c->comm,
                        &x->rq[x->n]);
      else
        err = MPI_Isend((const char *)sbuf + off[i] * (long)item, n, MPI_BYTE, peer[i], 46, c->comm,
                        &x->rq[x->n]);
      if (err != MPI_SUCCESS)
        rc = mpi_fail(err, pass ? "MPI_Isend (halo)" : "MPI_Irecv (halo)");
      else
        x->n++;
    }
  if (rc) { /* the posted ones finish even after a failure: their buffers are the caller's */
    MPI_Waitall(x->n, x->rq, MPI_STATUSES_IGNORE);
    x->n = 0;
  }
  return rc;
#else
  (void)sbuf;
  (void)rbuf;
  (void)item;
  return dg_error(DG_ERR_ARG, "communicator: an exchange with %d ranks without MPI", npeer);
#endif
}

int dg_comm_exchange_wait(dg_comm *c, dg_comm_xreq *x) {
  if (!c || !x) return dg_error(DG_ERR_ARG, "dg_comm_exchange_wait: bad arguments");
  if (x->n == 0) return 0;
#ifdef DG_HAVE_MPI
  const int err = MPI_Waitall(x->n, x->rq, MPI_STATUSES_IGNORE);
  x->n = 0;
  return err != MPI_SUCCESS ? mpi_fail(err, "MPI_Waitall (halo)") : 0;
#else
  return 0;
#endif
}

int dg_comm_exchange(dg_comm *c, int npeer, const int *peer, const void *sbuf, const long *soff,
                     void *rbuf, const long *roff, size_t item) {
  if (!c || npeer < 0 || (npeer > 0 && (!peer || !soff || !roff)))
    return dg_error(DG_ERR_ARG, "dg_comm_exchange: bad arguments");
  if (npeer == 0) return 0;
  dg_comm_xreq *x = NULL;
  DG_CALL(dg_comm_xreq_create(&x, npeer));
  int rc = dg_comm_exchange_start(c, x, npeer, peer, sbuf, soff, rbuf, roff, item);
  if (!rc) rc = dg_comm_exchange_wait(c, x);
  dg_comm_xreq_destroy(&x);
  return rc;
}

#ifdef DG_HAVE_MPI
/* Each rank's bytes and its displacement, MPI's ints: [2 size] in *out
 * (freed by the caller). */
static int byte_counts(const dg_comm *c, const long *counts, size_t item, int **out) {
  int *cnt = malloc(2 * (size_t)c->size * sizeof *cnt);
  if (!cnt) return dg_error(DG_ERR_MEM, "communicator: out of memory for %d counts", c->size);
  int rc = 0;
  long total = 0;
  for (int r = 0; r < c->size && !rc; ++r) {
    rc = byte_count(counts[r], item, &cnt[r]);
    if (!rc) rc = byte_count(total, item, &cnt[c->size + r]);
    total += counts[r];
  }
  if (rc) {
    free(cnt);
    return rc;
  }
  *out = cnt;
  return 0;
}
#endif

/* The one-rank forms of the gathers and the scatter: a copy. */
static int copy_one(const void *sbuf, void *rbuf, long n, size_t item) {
  if (n > 0) memmove(rbuf, sbuf, (size_t)n * item);
  return 0;
}

int dg_comm_allgather(dg_comm *c, const void *sbuf, void *rbuf, const long *counts, size_t item) {
  if (!c || !counts || !rbuf || (counts[c->rank] > 0 && !sbuf))
    return dg_error(DG_ERR_ARG, "dg_comm_allgather: bad arguments");
  if (c->size == 1) return copy_one(sbuf, rbuf, counts[0], item);
#ifdef DG_HAVE_MPI
  int *cnt = NULL;
  DG_CALL(byte_counts(c, counts, item, &cnt));
  const int err =
      MPI_Allgatherv(sbuf, cnt[c->rank], MPI_BYTE, rbuf, cnt, cnt + c->size, MPI_BYTE, c->comm);
  free(cnt);
  return err != MPI_SUCCESS ? mpi_fail(err, "MPI_Allgatherv") : 0;
#else
  return dg_error(DG_ERR_ARG, "communicator: %d ranks without MPI", c->size);
#endif
}

/* dg_comm_gather (scatter 0) and dg_comm_scatter (1): root's buffer holds
 * every rank's part, each rank's other buffer its own. */
static int rooted(dg_comm *c, int root, const void *sbuf, void *rbuf, const long *counts,
                  size_t item, int scatter) {
  const char *name = scatter ? "dg_comm_scatter" : "dg_comm_gather";
  const void *whole = scatter ? sbuf : rbuf, *part = scatter ? rbuf : sbuf;
  if (!c || !counts || root < 0 || root >= c->size || (c->rank == root && !whole) ||
      (counts[c->rank] > 0 && !part))
    return dg_error(DG_ERR_ARG, "%s: bad arguments", name);
  if (c->size == 1) return copy_one(sbuf, rbuf, counts[0], item);
#ifdef DG_HAVE_MPI
  int *cnt = NULL;
  DG_CALL(byte_counts(c, counts, item, &cnt));
  const int err = scatter ? MPI_Scatterv(sbuf, cnt, cnt + c->size, MPI_BYTE, rbuf, cnt[c->rank],
                                         MPI_BYTE, root, c->comm)
                          : MPI_Gatherv(sbuf, cnt[c->rank], MPI_BYTE, rbuf, cnt, cnt + c->size,
                                        MPI_BYTE, root, c->comm);
  free(cnt);
  return err != MPI_SUCCESS ? mpi_fail(err, scatter ? "MPI_Scatterv" : "MPI_Gatherv") : 0;
#else
  return dg_error(DG_ERR_ARG, "communicator: %d ranks without MPI", c->size);
#endif
}

int dg_comm_gather(dg_comm *c, int root, const void *sbuf, void *rbuf, const long *counts,
                   size_t item) {
  return rooted(c, root, sbuf, rbuf, counts, item, 0);
}

int dg_comm_scatter(dg_comm *c, int root, const void *sbuf, void *rbuf, const long *counts,
                    size_t item) {
  return rooted(c, root, sbuf, rbuf, counts, item, 1);
}

#ifdef DG_HAVE_MPI
/* The agreement's reduction, nonblocking so that a rank that failed can stop
 * waiting: [the lowest failing rank (size: none), 1 if every rank failed].
 * Every agreement uses it, so that they all match (MPI does not match a
 * blocking collective with a nonblocking one).  wait_s < 0: no limit; *done
 * is 0 where the limit passed first (the request is then left to the
 * MPI_Abort that follows). */
static int agree_reduce(dg_comm *c, int rc, double wait_s, int out[2], int *done) {
  int mine[2] = {rc != 0 ? c->rank : c->size, rc != 0};
  MPI_Request req;
  MPI_CHECK(MPI_Iallreduce(mine, out, 2, MPI_INT, MPI_MIN, c->comm, &req),
            "MPI_Iallreduce (agree)");
  if (wait_s < 0) {
    MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE), "MPI_Wait (agree)");
    *done = 1;
    return 0;
  }
  const double end = MPI_Wtime() + wait_s;
  *done = 0;
  for (;;) {
    MPI_CHECK(MPI_Test(&req, done, MPI_STATUS_IGNORE), "MPI_Test (agree)");
    if (*done || MPI_Wtime() > end) return 0;
    const struct timespec nap = {0, 1000000};
    nanosleep(&nap, NULL);
  }
}

/* The lowest failing rank's code and message, to every rank. */
static int agree_message(dg_comm *c, int rc, int first) {
  char msg[1024];
  int code = rc;
  if (c->rank == first) snprintf(msg, sizeof msg, "%s", dg_error_message());
  MPI_CHECK(MPI_Bcast(&code, 1, MPI_INT, first, c->comm), "MPI_Bcast (agree)");
  MPI_CHECK(MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, c->comm), "MPI_Bcast (agree)");
  msg[sizeof msg - 1] = '\0';
  return dg_error(code, "rank %d: %s", first, msg);
}
#endif

int dg_comm_agree(dg_comm *c, int rc) {
  if (!c) return dg_error(DG_ERR_ARG, "dg_comm_agree: NULL communicator");
  if (c->size == 1) return rc;
#ifdef DG_HAVE_MPI
  int out[2], done;
  DG_CALL(agree_reduce(c, rc, -1, out, &done));
  return out[0] == c->size ? 0 : agree_message(c, rc, out[0]);
#else
  return rc;
#endif
}

int dg_comm_agree_failure(dg_comm *c, int rc, double wait_s) {
  if (!c) return dg_error(DG_ERR_ARG, "dg_comm_agree_failure: NULL communicator");
  if (rc == 0) return dg_error(DG_ERR_ARG, "dg_comm_agree_failure: called without a failure");
  if (c->size == 1) return rc;
#ifdef DG_HAVE_MPI
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", dg_error_message());
  int out[2], done;
  const int rrc = agree_reduce(c, rc, wait_s, out, &done);
  if (rrc == 0 && done && out[1] == 1) return agree_message(c, rc, out[0]);
  /* the others did not all come, or some of them went on: no clean end */
  c->alone = 1;
  return dg_error(rc, "rank %d: %s", c->rank, msg);
#else
  return rc;
#endif
}

int dg_comm_failed_alone(const dg_comm *c) { return c && c->alone; }

void dg_comm_abort(dg_comm *c, int status) {
#ifdef DG_HAVE_MPI
  int up = 0, down = 0;
  if (MPI_Initialized(&up) == MPI_SUCCESS && up && MPI_Finalized(&down) == MPI_SUCCESS && !down)
    MPI_Abort(c && c->comm != MPI_COMM_NULL ? c->comm : MPI_COMM_WORLD, status);
#else
  (void)c;
  (void)status;
#endif
}
