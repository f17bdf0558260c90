/* dg_spart.h - the solvers across ranks (docs/ARCHITECTURE.md, "The
 * solvers across ranks"): a rank's share of a solver grid, and the
 * operator of that share.
 *
 * A rank holds the elements of its dg_partition block and, as ghosts, one
 * layer of the elements its block reads across a face (another rank's, or
 * across a periodic wrap the block does not span).  Its operator is an
 * ordinary dg_sop on the extended box (block and ghost layer; the box's
 * corners are slots the applies never read, the transfers by agglomeration
 * do), so the drivers do not change; the
 * operator made the rank's share by dg_sop_set_part then:
 * - receives the ghosts' coefficients before each apply (its input's ghost
 *   slots are written, and cleared again after it), and clears its output's
 *   ghost slots: every solver vector keeps zeros outside the owned
 *   elements, so the vector kernels run over the whole box and a dot
 *   product sums the owned entries alone;
 * - reduces dot products and maxima across the ranks through its
 *   backend's communicator (dg_backend.comm, set by the caller on a copy
 *   of the backend: dg_svec.c reduces where it is set).
 * Results agree with one process to round-off (the sums run in another
 * order), not to the bit. */
#ifndef DG_SPART_H
#define DG_SPART_H

#include "dg_comm.h"
#include "dg_partition.h"
#include "dg_sop.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dg_spart dg_spart;

/* This rank's share of grid g with boundary rules prm (prm->bc) under
 * partition p (p's grid is g's).  c outlives the share.  DG_ERR_ARG,
 * DG_ERR_MEM. */
int dg_spart_create(dg_spart **sp, dg_comm *c, const dg_partition *p, const dg_grid *g,
                    const dg_sop_params *prm);
void dg_spart_destroy(dg_spart **sp);
/* The rank's extended box and its boundary rules (what its operators are
 * created on), the whole grid and its rules, the communicator. */
const dg_grid *dg_spart_grid(const dg_spart *sp);
const dg_sop_params *dg_spart_params(const dg_spart *sp);
const dg_grid *dg_spart_global_grid(const dg_spart *sp);
const dg_sop_params *dg_spart_global_params(const dg_spart *sp);
dg_comm *dg_spart_comm(const dg_spart *sp);
/* 1 for the box's elements the rank owns ([nelem of the box]). */
const unsigned char *dg_spart_owned(const dg_spart *sp);
/* The owned box elements in increasing global order ([*n]), and the whole
 * grid's element of each box element ([nelem of the box]). */
const long *dg_spart_owned_elems(const dg_spart *sp, long *n);
const long *dg_spart_global_elems(const dg_spart *sp);
/* loc[e] = glob[the whole grid's element at box element e] (the corners
 * too: the transfers by agglomeration read them). */
void dg_spart_localise(const dg_spart *sp, const uint8_t *glob, uint8_t *loc);

/* The share of the grid one agglomeration coarser (dg_mg's h-levels
 * across ranks, docs/ARCHITECTURE.md): the whole grid's count halved per
 * direction (each even), coarse element I owned by the owner of fine
 * element 2I, so fine block [lo, hi) gives coarse block
 * [ceil(lo/2), ceil(hi/2)); prm the coarse grid's rules.  A coarse owner's
 * children and a fine owner's parent are then owned or in the one ghost
 * layer (corners included).  The result keeps f's communicator only. */
int dg_spart_create_coarse(dg_spart **c, const dg_spart *f, const dg_sop_params *prm);
/* The smallest extent of a coarse block (over the ranks and directions)
 * under that rule; 0 where a rank would own no coarse element. */
int dg_spart_coarse_extent(const dg_spart *sp);

/* The rank's operator for the whole grid's degrees deg and penalty
 * degrees pdeg (the whole grid's arrays): created on the box, its
 * degrees localised, made the share (collective). */
int dg_sop_create_part(dg_sop **op, const dg_backend *be, const dg_spart *sp, const uint8_t *deg,
                       const uint8_t *pdeg);
/* Make op, created on dg_spart_grid(sp) with dg_spart_params(sp), the
 * rank's share (collective: the whole grid's degrees are gathered).  sp
 * outlives op. */
int dg_sop_set_part(dg_sop *op, const dg_spart *sp);
/* The share op belongs to, or NULL (an operator of one process). */
const dg_spart *dg_sop_part(const dg_sop *op);
/* How op's exchange reaches MPI (DG_HALO_*, core/dg_backend.h: chosen by
 * dg_comm_halo_path when op was made a share), or -1 where it exchanges
 * nothing. */
int dg_sop_part_halo_path(const dg_sop *op);
/* The whole vector's length, offsets ([nelem + 1] of the whole grid),
 * degrees and penalty degrees (op a share). */
long dg_sop_global_len(const dg_sop *op);
const long *dg_sop_global_offsets(const dg_sop *op);
const uint8_t *dg_sop_global_degrees(const dg_sop *op);
const uint8_t *dg_sop_global_penalty_degrees(const dg_sop *op);
/* The whole vector xg (host memory of dg_sop_global_len reals) from every
 * rank's owned entries of x (solver memory, read through a host view), on
 * every rank (collective). */
int dg_sop_gather_d(const dg_sop *op, const double *x, double *xg);
/* x (solver memory) = the owned entries of xg (host memory), zero
 * elsewhere. */
int dg_sop_scatter_d(const dg_sop *op, const double *xg, double *x);
/* The same onto rank `root` alone (the multigrid's coarse levels): xg is
 * written on root only (may be NULL elsewhere).  Collective whatever a
 * rank's status rc: a failing rank sends its code instead of x's entries,
 * so no rank waits for a part that never comes.  Returns rc, an MPI
 * failure, or on root the lowest failing rank's code. */
int dg_sop_gather_root_d(const dg_sop *op, int root, int rc, const double *x, double *xg);
/* x (solver memory) = the owned entries of root's xg (read on root only),
 * zero elsewhere; root's status rc goes to every rank with its part
 * (collective): every rank returns 0, or root's code with x untouched. */
int dg_sop_scatter_root_d(const dg_sop *op, int root, int rc, const double *xg, double *x);

/* Fault injection for tests (the apps pass the environment variable
 * DGRID_SPART_NO_EXCHANGE): "1", the operators made afterwards never
 * receive ghosts; "transfer", only the transfers' corner ghosts are never
 * received; NULL or "": none.  Anything else is an error (DG_ERR_ARG). */
int dg_spart_set_fault(const char *what);

/* For dg_sop_run.c: the ghosts' coefficients of x (solver memory) from
 * their owners (collective), and x's ghost slots zeroed.  With the fault
 * "1" set (dg_spart_set_fault) when the operator was made its ghosts are
 * never received (they stay zero): the test that the exchange is needed
 * (mpi.poisson_noexchange). */
int dg_sop_part_exchange_d(const dg_sop *op, double *x);
int dg_sop_part_exchange_f(const dg_sop *op, float *x);
/* The same for every ghost slot of the box, corners and edges included
 * (the transfers by agglomeration and the vertex patches read them), from
 * the lists that dg_sop_part_corners builds once (no message).  With the
 * fault "transfer" (or "1") these are never received: the tests that they
 * are needed (mpi.poisson_notransfer, mpi.poisson_nopatchghosts). */
int dg_sop_part_corners(dg_sop *op);
int dg_sop_part_exchange_all_d(const dg_sop *op, double *x);
int dg_sop_part_exchange_all_f(const dg_sop *op, float *x);
void dg_sop_part_clear_d(const dg_sop *op, double *x);
void dg_sop_part_clear_f(const dg_sop *op, float *x);
/* The same on a host view of a vector (dg_svec_map). */
void dg_sop_part_clear_host_d(const dg_sop *op, double *xh);
/* Free op's share data (dg_sop_destroy). */
void dg_sop_part_free(dg_sop *op);

#ifdef __cplusplus
}
#endif
#endif
