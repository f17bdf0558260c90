/* dg_backend.h - the backend object through which core drives hardware:
 * an ops table and the device it runs on (docs/ARCHITECTURE.md, "One
 * backend layer").  Core never includes OpenMP or CUDA headers and never
 * names a backend: backends/omp and backends/cuda fill the table, and
 * dg_backend_create (backends/dg_backends.h) makes the object from a
 * resource string ("omp", "cuda", "cuda:1") for the program to hand to
 * dg_disc_create.  Every function returns 0 or a DG_ERR_* code with a
 * recorded message naming the failed call. */
#ifndef DG_BACKEND_H
#define DG_BACKEND_H

#include "dg_basis.h"
#include "dg_stage_args.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What core tells the backend about a discretisation when it asks for a
 * plan (dg_backend_ops.plan). */
typedef struct {
  int dim, q, rmin, rmax;
  long nelem;
  long n[DG_MAX_DEGREE + 1];     /* elements of each degree */
  long nedge[DG_MAX_DEGREE + 1]; /* of those, with a neighbour of another degree */
  int own_q_exact;               /* the model declares the r + 1 point rule exact on
                                    elements whose neighbours share their degree (a
                                    flux linear in u and independent of x, affine grid) */
  int aux;                       /* the model reads auxiliary data at the points (Q
                                    points) */
  int nvar;                      /* variables per point: a model with auxiliary data
                                    and several variables takes the team update over
                                    team_aux_q */
  int mapped;                    /* a grid with metric terms (the latlon sphere): no
                                    own q there */
  int bnd;                       /* a box with inflow, outflow or wall sides: only the
                                    one-element update on traces forms exterior states */
} dg_plan_in;

/* The backend's plan: how one RK stage runs on the buckets.  Every plan
 * computes the same discrete operator (to round-off). */
typedef struct {
  int team;         /* the team update (stencils/dg_team.h, 2D) */
  int nbr_coeffs;   /* updates read the neighbours' coefficients, not traces */
  int nbr_traces;   /* ... and traces across degree changes (team only) */
  int reuse_traces; /* updates read their own old face values back */
  int own_q;        /* elements whose neighbours share their degree r run at
                       q = r + 1 in the degrees with split[r] set */
  unsigned char split[DG_MAX_DEGREE + 1];    /* own q: bucket r holds two groups */
  unsigned char own_team[DG_MAX_DEGREE + 1]; /* own q: that group runs the team update */
  int largest_first; /* the launch with the most DOFs first, then degree order */
  int overlap;       /* across ranks: update the elements that read no ghost while
                        the ghosts travel (docs/ARCHITECTURE.md, "Runs across ranks") */
} dg_plan;

typedef struct dg_backend_ops dg_backend_ops;
struct dg_solver_ops;
struct dg_backend_ops {
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
  int team_aux_q[2];  /* 2D, models with auxiliary data (dg_plan_in.aux): with
                         several variables the team update for team_aux_q[0]
                         <= q <= team_aux_q[1] instead of from team_qmin (the
                         one-element update holds the point's auxiliary values
                         besides every variable's state and spills); with one
                         variable the one-element update (not timed against
                         the team); an empty range: never */
  long own_q_min;     /* > 0: on variable 2D maps of models that declare it
                         exact, the elements whose neighbours share their
                         degree r run at q = r + 1 (the same results to
                         round-off; backends/dg_plan.c), in degrees with at
                         least this many such elements (a launch more per
                         degree); it takes the team update with traces at
                         degree changes for that.  0: never */
  /* Check that the backend can run here on device `device` (CUDA: that
   * device is present; the CPU: 0) and make it ready. */
  int (*init)(int device);
  /* Device memory, zero-filled. */
  int (*alloc)(void **p, size_t bytes);
  void (*free)(void *p);
  int (*to_device)(void *d, const void *h, size_t bytes);
  int (*to_host)(void *h, const void *d, size_t bytes);
  /* Place basis tables where the stages read them; *handle is passed back to
   * the stage calls.  basis_free releases it. */
  int (*basis_create)(void **handle, const dg_basis *b);
  void (*basis_free)(void *handle);
  /* The plan for a discretisation (backends/dg_plan.c with this backend's
   * constants); describe writes it as one line. */
  int (*plan)(const dg_plan_in *in, dg_plan *out);
  void (*describe)(const dg_plan *p, const dg_plan_in *in, char *buf, size_t cap);
  /* The slot (dg_stage_args.model_id) of the model whose device part is in
   * `header`: a name under models/ for the library's own models, an
   * absolute path for a modeller's header (dg_model_load). */
  int (*model_slot)(const char *header, int *slot);
  /* Make the stages of slot `slot` for dimension dim and the n (degree,
   * points) pairs rq[] ready: loaded from the kernel cache, or compiled
   * (docs/ARCHITECTURE.md, "Kernels on demand").  `like` is what the stage
   * calls will hold besides the bucket (the model's parameters, geom
   * non-NULL where there are positions, metric), so that a backend may
   * compile only the copies those need (the sphere's: one flux variant);
   * NULL: every grid the model may run on (dgrid cache warm). */
  int (*prepare)(int slot, int dim, int n, const int (*rq)[2], const dg_stage_args *like);
  /* 1 when the stages of slot `model_id` are ready for dimension dim,
   * degree r and q points and calls like `like` (as prepare's). */
  int (*available)(int model_id, int dim, int r, int q, const dg_stage_args *like);
  /* Say on stderr what is compiled or loaded, and how long it took. */
  void (*jit_verbose)(int on);
  /* Run one stage over a bucket (all a->nblock microblocks of degree r) with
   * the kernels of model a->model_id: the face traces, the RK update, or the
   * elements' CFL rates (dg_stage_rate: into a->u_out, weights in a->k). */
  int (*trace)(const dg_stage_args *a, const void *basis, int r, int q);
  int (*update)(const dg_stage_args *a, const void *basis, int r, int q);
  int (*rate)(const dg_stage_args *a, const void *basis, int r, int q);
  /* *out = max of the n reals at x (device memory). */
  int (*max)(const dg_real *x, size_t n, double *out);
  /* The blow-up watch, queued without waiting: *first (a long in device
   * memory) becomes min(*first, tag) when one of the w reals from
   * x + rows[i], i < nrows (rows: device memory), is not finite. */
  int (*nonfinite)(const dg_real *x, const long *rows, long nrows, int w, long tag, long *first);
  /* Wait for queued work (timing); 0 or an error from the queue. */
  int (*sync)(void);
  /* STREAM triad a = b + s*c over n reals, for measured bandwidth. */
  int (*triad)(dg_real *a, const dg_real *b, const dg_real *c, dg_real s, size_t n);
  /* Threads (CPU) or SMs (GPU), for reports. */
  int (*parallelism)(void);
  /* Across ranks (docs/ARCHITECTURE.md, "Runs across ranks"): the ghosts'
   * values.  pack: buf[i] = x[idx[i]]; unpack: x[idx[i]] = buf[i]; i < n,
   * x and idx device memory (idx made once with alloc/to_device), buf host
   * memory, tmp n reals of device memory to stage them in (NULL where
   * host_is_device); pack returns once buf holds the values, after the work
   * queued before it; unpack's values are in x for the work queued after it.
   * buf NULL (device memory handed to a CUDA-aware MPI, DG_HALO_DEVICE):
   * pack returns once tmp holds the values, unpack scatters them from tmp.
   * NULL where a backend does not run across ranks: core then refuses such
   * a run. */
  int (*pack)(dg_real *buf, dg_real *tmp, const dg_real *x, const long *idx, size_t n);
  int (*unpack)(dg_real *x, dg_real *tmp, const long *idx, const dg_real *buf, size_t n);
  /* Host memory that copies to and from the device reach fastest (CUDA:
   * page-locked, cudaHostAlloc), for the staged exchange's buffers; NULL
   * where host_is_device (malloc and free then). */
  int (*host_alloc)(void **p, size_t bytes);
  void (*host_free)(void *p);
  /* The solvers' drivers, vector kernels and memory on this backend
   * (solvers/dg_solver_ops.h; core never calls them). */
  const struct dg_solver_ops *solver;
};

/* A backend: what dg_backend_create made (backends/dg_backends.h); core
 * reads it, never makes one. */
typedef struct dg_backend {
  const dg_backend_ops *ops;
  int device;        /* the device index of "cuda:N"; 0 on the CPU */
  char resource[24]; /* "omp", "cuda:0", ... as it runs */
  /* The ranks a solve runs across (solvers/dg_spart.h), or NULL (one
   * process): the solvers' dot products and maxima are then reduced over
   * them.  Set by a program on its own copy of what dg_backend_create made. */
  struct dg_comm *comm;
  /* Whether an exchange across ranks hands device memory to MPI
   * (dg_comm_halo_path): 0 where MPI says it reads it (CUDA-aware), -1
   * never (staged through host memory, for an A/B), 1 always (an MPI that
   * cannot is then an error).  dg_backend_create sets it from
   * DGRID_CUDA_AWARE=auto|off|on. */
  int cuda_aware;
} dg_backend;

/* How an exchange across ranks moves values that live in a backend's
 * memory (dg_comm_halo_path; docs/ARCHITECTURE.md, "The CUDA exchange"). */
enum {
  DG_HALO_HOST = 0,   /* the memory is the host's (OpenMP): MPI reads it */
  DG_HALO_DEVICE = 1, /* gathered into device buffers that MPI reads itself */
  DG_HALO_STAGED = 2  /* gathered into device buffers, copied through page-locked
                         host buffers */
};

/* The plan of backends/dg_plan.c for backend be (its constants), and its
 * description; the backends' plan and describe entries. */
int dg_plan_choose(const dg_backend_ops *be, const dg_plan_in *in, dg_plan *p);
void dg_plan_describe(const dg_plan *p, const dg_plan_in *in, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
