/* dg_stage_args.h - everything a stage launch needs, as one plain struct
 * (passed by value to CUDA kernels, so it lands in the parameter bank).
 * Core fills it per degree bucket; stages only read it. */
#ifndef DG_STAGE_ARGS_H
#define DG_STAGE_ARGS_H

#include "dg_types.h"

#include <string.h>

/* The fused update of the last stage of an RK stage (see core/dg_ts.c):
 *   k   <- ka*k + kc*dt*L(u)                       (when use_k)
 *   u   <- ua*u + u0a*u0 + uk*k + ul*dt*L(u)       (u0 read when use_u0)
 *   u0  <- u (old value)                           (when save_u0)
 * L is evaluated at the stage's time, dg_stage_args.t (core/dg_ts.c keeps
 * each stage's fraction of the step). */
typedef struct {
  dg_real ka, kc, ua, u0a, uk, ul;
  int use_k, use_u0, save_u0; /* ints, not bytes: as bytes the GPU update ran slower
                                 (docs/ARCHITECTURE.md, "Decisions and why") */
} dg_rk_coeffs;

/* A model's parameters as the stages carry them: the bytes of the model
 * header's dg_model_params (models/), at most DG_MODEL_BYTES (56: what
 * keeps dg_stage_args at 264 bytes).  Core and the
 * backends never look inside; the stages unpack it (dg_model_unpack in each
 * model header, a memcpy). */
#define DG_MODEL_BYTES 56
typedef struct {
  dg_real r[DG_MODEL_BYTES / sizeof(dg_real)];
} dg_model_block;

/* Keep the size (264 bytes with double): the CUDA kernels take it by value
 * ahead of the basis tables, and a larger struct made the same kernels
 * slower (docs/ARCHITECTURE.md, "Decisions and why"); new fields go into the
 * alignment holes or are measured. */
typedef struct {
  dg_real *u;          /* this bucket's coefficients (block 0) */
  dg_real *u0;         /* RK register, same layout (or NULL) */
  dg_real *k;          /* RK register, same layout (or NULL) */
  dg_real *u_out;      /* update: where the new coefficients go (same layout),
                          or NULL: back into u; rate: one real per slot of
                          the bucket (the element's CFL rate) */
  dg_real *trace;      /* all face traces, indexed by slot (all buckets) */
  dg_real *trace_out;  /* update: where to write the new coefficients' traces
                          (the other buffer), or NULL */
  const int *nbr;      /* this bucket: [block][2*dim][DG_W] trace offset of the
                          neighbour's facing trace (v=0, point 0), or with
                          nbr_coeffs the offset of its coefficients from u */
  const dg_real *geom; /* this bucket: [block][3*dim][DG_W] centre, minus-face
                          and plus-face coordinate per direction (then a box's
                          boundary masks, see `bc`; on the sphere instead only
                          the metric's DG_GEOM_METRIC, see `metric`); NULL
                          unless the model needs x */
  const dg_real *aux;  /* this bucket: [block][DG_AUX_SIZE][DG_W] the model's
                          auxiliary values at the points (dg_stages.h), or NULL */
  long slot0;          /* first slot of this bucket (a multiple of DG_W) */
  int nblock;          /* microblocks in this launch (ints: the neighbour tables
                          are int offsets, so a bucket's count fits) */
  int blk0;            /* its first, counted from the bucket's or group's first (u,
                          nbr, geom, aux and slot0 point there): 0 but where the
                          overlap across ranks splits a group's update in two */
  dg_real h[3];        /* element sizes */
  dg_real dt;
  dg_real t; /* the stage's time: t_n + c dt */
  dg_rk_coeffs rk;
  dg_model_block model;
  int dim;
  int pass;                   /* launches with the same pass id read nothing that the
                                 others write (the buckets of one pass over a stage):
                                 a backend may run them at once (compared for
                                 equality only: wrapping is harmless) */
  unsigned char model_id;     /* which model's kernels run (the build's registry order) */
  unsigned char reuse_traces; /* update: read its own old face values from `trace`
                                 (left there by the previous update or trace pass,
                                 the same bits) instead of recomputing them: fewer
                                 flops, more bytes; the backend's plan */
  unsigned char nbr_coeffs;   /* update: compute the neighbours' face values from their
                                 coefficients in u (all neighbours of this degree;
                                 u_out then must not be u) instead of reading traces */
  unsigned char team;         /* update: a team of threads per element (dg_team.h; needs
                                 nbr_coeffs, 2D), the backend's plan */
  unsigned char nbr_traces;   /* team update with nbr_coeffs on a map with degree
                                 changes: a neighbour offset < 0 is -1 - the offset of
                                 the neighbour's facing trace in `trace` (a neighbour
                                 of another degree), and the update writes the new
                                 traces of those faces into trace_out */
  unsigned char metric;       /* 1: the latitude-longitude sphere (2D): each slot's
                                 geom holds DG_GEOM_METRIC reals, no coordinates:
                                 the offset (from the first slot's geom) of its row's
                                 table (DG_ROW_*: the weighted theta mass inverse as
                                 dg_stage_update applies it, 1 / (a^2 cos theta), cos
                                 and sin of theta at the q points, the theta faces'
                                 cos, sin and pole masks, 0 at a pole: no flux) and
                                 its lambda faces' cos and sin (dg_types.h);
                                 core/dg_disc.c */
  unsigned short bc;          /* a box with boundaries: 2 bits per side (side f = 2 d + s
                                 at bits 2f: DG_STAGE_BC_*), 0 where every side is
                                 periodic.  Nonzero: each slot's geom holds 2*dim more
                                 reals after its 3*dim, per face 1 where it lies on a
                                 boundary side (else 0), and a side with inflow puts the
                                 model's boundary data (dg_model_bdata) in the
                                 DG_BDATA_REALS reals before the first slot's geom
                                 (dg_stages.h; core/dg_disc.c) */
} dg_stage_args;

#ifndef DG_REAL_FLOAT
/* The size the CUDA kernels were measured with (see above). */
typedef char dg_stage_args_size_kept[sizeof(dg_stage_args) == 264 ? 1 : -1];
#endif

/* The kinds of dg_stage_args.bc, the values of core/dg_grid.h's dg_bc_kind. */
enum {
  DG_STAGE_BC_PERIODIC = 0,
  DG_STAGE_BC_INFLOW = 1,
  DG_STAGE_BC_OUTFLOW = 2,
  DG_STAGE_BC_WALL = 3
};

#endif
