/* dg_disc_impl.h - the discretisation object's fields and the pieces its
 * files share (dg_disc.c: setup and stage driver; dg_disc_geom.c: neighbour
 * and geometry tables; dg_disc_work.c: counted work).  Private to those
 * files: everyone else reaches a dg_disc through dg_disc.h and
 * dg_disc_internal.h. */
#ifndef DG_DISC_IMPL_H
#define DG_DISC_IMPL_H

#include "dg_backend.h"
#include "dg_disc_internal.h"

/* With own_q a bucket holds two groups, each padded to whole microblocks:
 * first the elements with a neighbour of another degree (at the common q),
 * then those whose neighbours all share their degree (at q = r + 1). */
typedef struct {
  long n;         /* elements of this degree */
  long slot0;     /* first slot (multiple of W) */
  long nblock;    /* microblocks */
  long base;      /* first storage index */
  long nedge;     /* elements with a neighbour of another degree where the bucket
                     splits (own_q), else n */
  long eblock;    /* microblocks of those (the first ones), else nblock */
  long ng;        /* across ranks: ghosts of this degree (other ranks' elements that
                     this rank's read across a face), in the last microblocks */
  long gblock;    /* microblocks of those */
  long bblock[2]; /* across ranks: of each group's microblocks the first ones, which
                     hold its elements next to another rank's (they read a ghost),
                     updated after the ghosts arrive; the rest before (the overlap) */
} bucket;

/* Which elements of the global grid a discretisation holds (across ranks). */
enum { DG_HELD_NONE = 0, DG_HELD_OWN = 1, DG_HELD_GHOST = 2 };

typedef struct dg_xlist dg_xlist; /* dg_xlist.h */
typedef struct dg_comm dg_comm;

struct dg_disc {
  const dg_backend_ops *be;  /* backend->ops */
  const dg_backend *backend; /* the program's; outlives d */
  dg_grid grid;
  dg_degree_map map; /* own copy */
  dg_model *model;   /* own copy, parameters finished for the grid */
  int kslot;         /* the backend's slot for the model's kernels */
  int kernels_ready; /* the plan's kernels are loaded (at the first stage) */
  dg_plan_in pin;    /* what the backend's plan was chosen from */
  dg_plan plan;      /* the backend's plan */
  int q, nvar, W;
  long ndofs, len, nslots;
  bucket bk[DG_MAX_DEGREE + 1];
  long *elem_slot; /* [nelem] */
  long *slot_elem; /* [nslots], -1 for padding */
  dg_basis basis;
  void *basis_dev;                    /* backend handle */
  int own_q;                          /* elements whose neighbours share their degree r run at
                                         q = r + 1 (the plan's own_q; exact there by the model's word) */
  void *basis_own[DG_MAX_DEGREE + 1]; /* own_q: backend handles of the q = r + 1 tables */
  int *d_nbr;                         /* device: [nslots/W][2*dim][W] */
  dg_real *d_geom;                    /* device: [nslots/W][geom_stride][W] (then the sphere's
                                         row tables) or NULL */
  int metric;                         /* the latlon sphere: dg_stage_args.metric */
  int bnd;                            /* a box with inflow/outflow/wall sides: the slots'
                                         boundary masks in d_geom (dg_stage_args.bc) */
  unsigned short bc;                  /* dg_stage_args.bc: 2 bits per side */
  long geom0;                         /* reals of d_geom before the first slot's: the
                                         model's inflow data (DG_BDATA_REALS) */
  long tab_off[DG_MAX_DEGREE + 1];    /* metric: each degree's row tables in d_geom */
  dg_real *d_aux;                     /* device: [nslots/W][aux_size][W] or NULL */
  long aux_size;                      /* DG_AUX_SIZE: the model's values per element */
  dg_real *d_trace[2];                /* device: [nslots/W][2*dim*nvar*QF][W], double-buffered */
  dg_real *d_weight;                  /* device: [nslots] 1 for an element, 0 for padding */
  dg_real *d_rate;                    /* device: [nslots] the elements' CFL rates */
  long *d_watch_rows;                 /* device: [nwatch] where each microblock's mode-0
                                         values of each variable start (dg_disc_watch) */
  long nwatch;
  long *d_watch_first;        /* device: the first step seen not finite, or LONG_MAX */
  int nbr_coeffs;             /* updates read the neighbours' coefficients, no traces */
  int reuse_traces;           /* updates read their own old face values back */
  int team;                   /* updates run the team stage (dg_team.h) */
  int nbr_traces;             /* nbr_coeffs with degree changes: traces there */
  long jump_sides;            /* element faces whose neighbour has another degree */
  dg_real *d_spare;           /* nbr_coeffs: the other coefficient buffer (len reals) */
  int first_r[2], first_g[2]; /* per pass (0 traces, 1 update): the degree and group
                                 launched first (launch_first) */
  int cur;                    /* buffer holding the traces of trace_src */
  const dg_field *trace_src;  /* field whose current coefficients they are */
  long trace_stamp;           /* ... at this modification stamp */
  int timing;
  double t_trace, t_update;
  double t_post, t_wait; /* across ranks: in the exchange's start (pack, post) and
                            its wait (wait, unpack) */
  /* across ranks (dg_disc_part.c): NULL when one process holds every element */
  dg_comm *comm;
  unsigned char *held; /* [nelem] DG_HELD_* */
  int *owner;          /* [nelem] the rank that owns each element */
  dg_xlist *x;         /* the ghosts' exchange lists and buffers (dg_disc_part.c) */
};

/* dg_disc_create for the elements marked in held[nelem] (DG_HELD_*; NULL:
 * every element its own): the plan from the whole map's counts, buckets of
 * the held elements, each bucket's ghosts in its last microblocks. */
int dg_disc_create_held(dg_disc **d, const dg_backend *backend, const dg_grid *g,
                        const dg_degree_map *m, int q, const dg_model *model,
                        const unsigned char *held);
/* dg_disc_set_aux with the model's own sampler (dg_disc_create). */
int dg_disc_set_model_aux(dg_disc *d);
/* Across ranks: bring every ghost's coefficients of u from its owner
 * (collective); 0 at once for a discretisation of one process. */
int dg_disc_exchange(dg_disc *d, dg_field *u);
/* A monotonic clock in seconds (the timers of dg_disc_set_timing). */
double dg_disc_now_s(void);
/* The same in two halves: pack and post (dg_disc_exchange_start), and
 * wait and unpack (dg_disc_exchange_wait); between them u's owned
 * coefficients may change, not its ghosts'. */
int dg_disc_exchange_start(dg_disc *d, dg_field *u);
int dg_disc_exchange_wait(dg_disc *d, dg_field *u);
/* Across ranks: free the exchange lists (dg_disc_destroy). */
void dg_disc_part_free(dg_disc *d);

static inline long dg_disc_ipow(long b, int e) {
  long p = 1;
  for (int i = 0; i < e; ++i) p *= b;
  return p;
}

/* Reals of a slot's geometry: on a box centre and faces per direction, with
 * boundaries then a mask per face (dg_stage_args.bc); on the sphere only the
 * row-table offset and the lambda faces' cos and sin (dg_stage_args.metric,
 * DG_GEOM_METRIC): its models read the trigonometric entries, never the
 * coordinates, which at low degree were a large share of a stage's bytes
 * (docs/ARCHITECTURE.md, "Geometry"). */
static inline int dg_disc_geom_stride(const dg_disc *d) {
  return (d->metric ? DG_GEOM_METRIC : 3 * d->grid.dim) + (d->bnd ? 2 * d->grid.dim : 0);
}

/* Whether the minus face of the first element along d is seen from its
 * wrapped neighbour (periodic, and the sphere's poles, whose flux is masked):
 * then its coordinate is hi, as that neighbour sees it. */
static inline int dg_disc_wraps(const dg_grid *g, int d) {
  return g->bc[2 * d] == DG_BC_PERIODIC || g->bc[2 * d] == DG_BC_POLE;
}

/* Whether face `side` of direction d of element ijk lies on a boundary side
 * (inflow, outflow, wall): no neighbour there (a pole face has one, the
 * element across the pole in the table's wrap, its flux masked). */
static inline int dg_disc_on_boundary(const dg_grid *g, const int ijk[3], int d, int side) {
  const int k = g->bc[2 * d + side];
  if (k != DG_BC_INFLOW && k != DG_BC_OUTFLOW && k != DG_BC_WALL) return 0;
  return side ? ijk[d] == g->n[d] - 1 : ijk[d] == 0;
}

/* The element across face `side` (2 dd + s) of e as the neighbour tables
 * read it (dg_disc_build_tables), or -1 on a boundary side. */
static inline long dg_disc_face_nbr(const dg_grid *g, long e, int side) {
  int ijk[3];
  dg_grid_ijk(g, e, ijk);
  const int dd = side / 2, up = side % 2;
  if (dg_disc_on_boundary(g, ijk, dd, up)) return -1;
  ijk[dd] += up ? 1 : -1;
  return dg_grid_elem(g, ijk[0], ijk[1], ijk[2]);
}

/* Length of the geometry array: the model's inflow data (geom0 reals), the
 * slots', then (sphere) the row tables of every degree present; sets
 * d->tab_off (counted from the first slot's). */
long dg_disc_geom_len(dg_disc *d);
/* The sphere's angle table (DG_TRIG_LEN reals, dg_types.h): the interpolants
 * of cos(m d), sin(m d) on [0, h_0] and their derivatives at the basis's
 * Gauss points, [i][k]; kept in the basis (the team update reads it there,
 * CUDA: from the constant bank) and before the first slot's geometry. */
int dg_disc_angle_table(const dg_disc *d, dg_real *tt);

/* Neighbour offsets and geometry per slot, built on the host into new
 * arrays *nbr and *geom (NULL where no model, sphere or boundary needs
 * positions); the caller frees them.  Sets d->jump_sides. */
int dg_disc_build_tables(dg_disc *d, int **nbr, dg_real **geom);

#endif
