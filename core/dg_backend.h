/* dg_backend.h - the ops table through which core drives the one backend
 * chosen at build time (-DDGRID_BACKEND=omp|cuda).  Core never includes
 * OpenMP or CUDA headers; backends/omp and backends/cuda each define
 * dg_backend() and fill this table.  Every function returns 0 or a DG_ERR_*
 * code with a recorded message naming the failed call. */
#ifndef DG_BACKEND_H
#define DG_BACKEND_H

#include "dg_basis.h"
#include "dg_stage_args.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *name;   /* "omp" or "cuda" */
  int lane_width;     /* DG_W of this backend's layout (microblock size) */
  int host_is_device; /* 1: device pointers are host memory (no copies) */
  int reuse_traces;   /* dg_stage_args.reuse_traces for every update */
  int coeffs_rmax[2]; /* [dim-2]: a uniform map of degree <= coeffs_rmax (and
                         q = r+1) runs its updates with nbr_coeffs (no traces);
                         -1: never */
  int team_qmin[2];   /* [dim-2]: grids with q >= team_qmin points run the
                         team update (dg_team.h; 2D only), which reads the
                         neighbours' coefficients (and traces across degree
                         changes) whatever the map; DG_MAX_Q + 1: never */
  long own_q_min;     /* > 0: on variable 2D maps of models whose velocity does
                         not depend on x, the elements whose neighbours share
                         their degree r run at q = r + 1 (the same results to
                         round-off; core/dg_disc.c, choose_own_q), in degrees
                         with at least this many such elements (a launch
                         more per degree); it takes the team update with
                         traces at degree changes for that.  0: never */
  /* Check that the backend can run here (CUDA: a device is present). */
  int (*init)(void);
  /* Device memory, zero-filled. */
  int (*alloc)(void **p, size_t bytes);
  void (*free)(void *p);
  int (*to_device)(void *d, const void *h, size_t bytes);
  int (*to_host)(void *h, const void *d, size_t bytes);
  /* Place basis tables where the stages read them; *handle is passed back to
   * the stage calls.  basis_free releases it. */
  int (*basis_create)(void **handle, const dg_basis *b);
  void (*basis_free)(void *handle);
  /* Run one stage over a bucket (all a->nblock microblocks of degree r). */
  int (*trace)(const dg_stage_args *a, const void *basis, int r, int q);
  int (*update)(const dg_stage_args *a, const void *basis, int r, int q);
  /* Wait for queued work (timing); 0 or an error from the queue. */
  int (*sync)(void);
  /* STREAM triad a = b + s*c over n reals, for measured bandwidth. */
  int (*triad)(dg_real *a, const dg_real *b, const dg_real *c, dg_real s, size_t n);
  /* Threads (CPU) or SMs (GPU), for reports. */
  int (*parallelism)(void);
} dg_backend_ops;

/* The build's backend. */
const dg_backend_ops *dg_backend(void);

#ifdef __cplusplus
}
#endif
#endif
