/* dg_types.h - the scalar type and limits (dg_real.h), the unroll hints and
 * the host/device marker shared by every layer.  Plain C11 / C++ (nvcc compiles it too). */
#ifndef DG_TYPES_H
#define DG_TYPES_H

#include "dg_real.h"

/* Unroll the loop that follows (bounds are constants in the backend wrappers).
 * DG_UNROLL marks inner loops (capped at 16); DG_UNROLL_ALL marks every other
 * loop of a stage and unrolls only where a backend asks for it with
 * DG_FULL_UNROLL (the CUDA 2D kernels: then the scratch lives in registers
 * instead of local memory).  On the CPU DG_UNROLL_ALL is empty. */
#if defined(__CUDACC__) && defined(DG_FULL_UNROLL)
#define DG_UNROLL     _Pragma("unroll")
#define DG_UNROLL_ALL _Pragma("unroll")
#elif defined(__CUDACC__)
#define DG_UNROLL _Pragma("unroll 16")
#define DG_UNROLL_ALL
#elif defined(__GNUC__) && !defined(__clang__)
#define DG_UNROLL _Pragma("GCC unroll 16")
#define DG_UNROLL_ALL
#else
#define DG_UNROLL
#define DG_UNROLL_ALL
#endif

/* DG_UNROLL_DIR marks the loops over the directions of the update and the
 * face values.  The CPU unrolls them, so that in each copy the direction is
 * a constant: the parity of the test tables (dg_line's even/odd split) and
 * the strides are then known and the branches on them vanish (fewer
 * instructions and a faster step); the GPU treats them like every other
 * loop (DG_UNROLL_ALL). */
#ifdef __CUDACC__
#define DG_UNROLL_DIR DG_UNROLL_ALL
#else
#define DG_UNROLL_DIR DG_UNROLL
#endif

/* DG_ROLL marks a loop that stays a loop even where everything else
 * unrolls (CUDA 2D): the update's slab pairs from DG_ROLL_SLABS_FROM points
 * per direction on.  Unrolled, the compiler interleaves the pairs and keeps
 * all their values alive at once and spills at high degree (the rolled loop
 * spills less and runs faster there); with fewer points everything fits in
 * registers and the unrolled loop is faster.  The CPU takes all pairs at
 * once, unrolled (DG_UNROLL_SLABS).  Measured on the H100
 * (backends/cuda/README.md); -DDG_ROLL_SLABS_FROM=N overrides it in a CUDA
 * build. */
#ifdef __CUDACC__
#define DG_ROLL _Pragma("unroll 1")
#ifndef DG_ROLL_SLABS_FROM
#define DG_ROLL_SLABS_FROM 6
#endif
#define DG_UNROLL_SLABS DG_UNROLL_ALL
#else
#define DG_ROLL
#define DG_ROLL_SLABS_FROM 99
/* the CPU does unroll the slab pairs (at most 6): each copy then knows
   whether its slab is the unpaired middle one */
#define DG_UNROLL_SLABS    DG_UNROLL
#endif

/* A stage function compiles for host and device, and is always inlined into
 * its backend wrapper so that R, Q and DIM become constants there. */
#ifdef __CUDACC__
/* not __forceinline__: it carries its own `inline`, and the stages are
 * declared `DG_HD static inline` (nvcc: "duplicate specifier") */
#define DG_HD __host__ __device__ __attribute__((always_inline))
#elif defined(__GNUC__)
#define DG_HD __attribute__((always_inline))
#else
#define DG_HD
#endif

/* The position as a model sees it (the x of dg_model_flux and the others):
 * DG_X_LEN lanes; x[0..dim-1] the coordinates (not on the latitude-longitude
 * grid: its slots hold none, x[0..dim-1] are not defined there, its models
 * read the entries that follow); on that grid, for each coordinate e (0: lambda, 1: theta) and
 * harmonic m = 1, 2, the element's interpolants of cos(m x_e) and sin(m x_e) and their derivatives
 * d/dx_e at the point: x[DG_X_C(e, m)], x[DG_X_S(e, m)], x[DG_X_DC(e, m)], x[DG_X_DS(e, m)].  The
 * interpolant is the one of degree K (dg_disc: rmax + 2) on the element's Gauss-Lobatto nodes, so a
 * stream function built from these products is continuous and its wind exactly divergence-free
 * (docs/ARCHITECTURE.md, "Geometry").  At a face of direction e the values along e are the exact
 * ones of the face (the interpolant's end values) and the derivatives along e are 0 (a
 * stream-function wind's normal component takes the tangential derivative
 * only).  Formed by the stages without a trigonometric function; 0 off the
 * sphere. */
#define DG_TRIG_N       8 /* entries per coordinate */
#define DG_X_LEN        (3 + 2 * DG_TRIG_N)
#define DG_X_TRIG(e, i) (3 + DG_TRIG_N * (e) + (i))
#define DG_X_C(e, m)    DG_X_TRIG(e, 4 * ((m)-1))
#define DG_X_S(e, m)    DG_X_TRIG(e, 4 * ((m)-1) + 1)
#define DG_X_DC(e, m)   DG_X_TRIG(e, 4 * ((m)-1) + 2)
#define DG_X_DS(e, m)   DG_X_TRIG(e, 4 * ((m)-1) + 3)
/* lane i of the position as a bit of a model's DG_MODEL_X_READS (dg_stages.h) */
#define DG_X_BIT(i) (1u << (i))

/* The sphere's geometry (dg_stage_args.metric): DG_GEOM_METRIC reals per
 * slot, no coordinates: the offset of its row's table and cos and sin of
 * lambda at its two lambda faces [side][cos, sin]; before the
 * slots, DG_TRIG_LEN reals: at the Gauss points d_k = h_0/2 (1 + xi_k), the
 * interpolants (degree K, on [0, h_0]) of cos(m d), sin(m d) and their
 * derivatives, [i][k] with i in DG_X_TRIG's order (m = 1, 2).  What depends
 * on theta alone is in the row's table (one per row and degree, N = r + 1
 * modes per direction, q points): the weighted theta mass inverse [N][N],
 * 1 / (a^2 cos theta) at the q points, the row's interpolants of cos(m
 * theta), sin(m theta) and their derivatives there [i][q] (DG_X_TRIG's
 * order), and cos, sin of the theta faces and their pole masks [cos-, sin-,
 * cos+, sin+, mask-, mask+]. */
#define DG_GEOM_METRIC    5
#define DG_TRIG_LEN       (DG_TRIG_N * DG_MAX_Q)
#define DG_ROW_JINV(n)    ((n) * (n))
#define DG_ROW_TRIG(n, q) ((n) * (n) + (q))
#define DG_ROW_FACE(n, q) ((n) * (n) + (1 + DG_TRIG_N) * (q))
#define DG_ROW_LEN(n, q)  ((n) * (n) + (1 + DG_TRIG_N) * (q) + 6)

/* A stage helper for rare work (a face on a boundary side), kept out of
 * line: inlined, its code was copied into every unrolled face point of the
 * update (the CPU's 2D degree-3 copy for x-dependent models grew 2.1x). */
#ifdef __CUDACC__
#define DG_HD_COLD __host__ __device__ __noinline__
#elif defined(__GNUC__)
#define DG_HD_COLD __attribute__((noinline, cold))
#else
#define DG_HD_COLD
#endif

#endif
