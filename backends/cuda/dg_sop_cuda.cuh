/* dg_sop_cuda.cuh - the CUDA driver of the solvers' element functions
 * (dg_sipg_elem.h) around the operator apply, its diagonal, the element-block
 * solve and the level transfers, the same element functions as the OpenMP
 * driver (dg_sop_omp.c).  Three thread organisations:
 *   line     (uniform-degree levels of degree 1..7, and 8..10 in 2D, the
 *            default there for the apply, the block solve and the
 *            smoother's fused step): a
 *            thread per line of an element along each direction, the lines'
 *            contractions in registers (dg_sop_cuda_line_t.h);
 *   team     (degrees 1..7 with DGRID_CUDA_SOP=team): a team of
 *            (r+1)^dim threads per element contracting in shared memory
 *            (dg_sop_cuda_team_t.h);
 *   element  one thread per element (variable-degree levels, the diagonal,
 *            the transfers; everything when DGRID_CUDA_SOP=element).
 * DGRID_CUDA_SOP picks one for an A/B in one build.
 * The 1D tables are the same for every level: they live in constant memory
 * (uniform reads of the element and line kernels) and in global memory (the
 * team kernels stage them in shared memory), uploaded once.
 * This header holds what both precisions share (the plan, the level tests
 * and the launch macros); dg_sop_cuda_d.cu and dg_sop_cuda_f.cu each hold
 * one precision's tables and include the templates for it: the line and
 * team kernels, then dg_sop_cuda_t.h (the element kernels, the launches and
 * the entry points).  Two translation units, so that a build compiles the
 * precisions at once (one unit took 107 s of nvcc on one core).  Included
 * once per unit, no include guard needed beyond that. */
#include "dg_sblock_internal.h"
#include "dg_sop_team.h"

#include "dg_error.h"
#include "dg_solver_cuda.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

namespace {

int use_team = 1; /* DGRID_CUDA_SOP: line or team (1) or element (0) */
int use_line = 1; /* DGRID_CUDA_SOP: line (1, the default) or not (0) */
const int kThreads = 128;

int cuda_fail(cudaError_t e, const char *what) {
  return dg_error(DG_ERR_BACKEND, "cuda solvers: %s failed: %s (%s)", what, cudaGetErrorString(e),
                  cudaGetErrorName(e));
}

/* DGRID_CUDA_SOP, read by each precision's unit at its first call (the
   same variable, so both units take the same plan) */
int read_plan(void) {
  const char *plan = getenv("DGRID_CUDA_SOP");
  if (plan && *plan) {
    if (!strcmp(plan, "line")) {
      use_team = use_line = 1;
    } else if (!strcmp(plan, "team")) {
      use_team = 1;
      use_line = 0;
    } else if (!strcmp(plan, "element")) {
      use_team = use_line = 0;
    } else {
      return dg_error(DG_ERR_ARG, "cuda solvers: DGRID_CUDA_SOP='%s': need line, team or element",
                      plan);
    }
  }
  return 0;
}

/* One precision's tables into its constant- and global-memory copies (the
   unit's symbols), with the plan, once: every dg_sop builds the same tables. */
template <typename T>
int upload_tables(const T &c_sym, const T &g_sym, const T &host, int *ready, const char *what) {
  if (*ready) return 0;
  DG_CALL(read_plan());
  cudaError_t e = cudaMemcpyToSymbol(c_sym, &host, sizeof(T));
  if (e == cudaSuccess) e = cudaMemcpyToSymbol(g_sym, &host, sizeof(T));
  if (e != cudaSuccess) return cuda_fail(e, what);
  *ready = 1;
  return 0;
}

int launched(const char *what) {
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : cuda_fail(e, what);
}

unsigned grid(long n) { return (unsigned)((n + kThreads - 1) / kThreads); }

/* The switch cases of degrees 1..6, kern(DEG, D) launch_args (shared by the
   element and the team dispatch below). */
#define DG_DEGS_1_6(kern, launch_args, D)                                                          \
  case 1:                                                                                          \
    kern(1, D) launch_args;                                                                        \
    break;                                                                                         \
  case 2:                                                                                          \
    kern(2, D) launch_args;                                                                        \
    break;                                                                                         \
  case 3:                                                                                          \
    kern(3, D) launch_args;                                                                        \
    break;                                                                                         \
  case 4:                                                                                          \
    kern(4, D) launch_args;                                                                        \
    break;                                                                                         \
  case 5:                                                                                          \
    kern(5, D) launch_args;                                                                        \
    break;                                                                                         \
  case 6:                                                                                          \
    kern(6, D) launch_args;                                                                        \
    break;
/* degs(kern, launch_args, deg, D) for dim 2 or 3 */
#define DG_BY_DIM(degs, kern, launch_args, deg, dim)                                               \
  do {                                                                                             \
    if ((dim) == 2) degs(kern, launch_args, deg, 2) else degs(kern, launch_args, deg, 3)           \
  } while (0)

/* A kernel per (degree, dimension) for uniform levels, kern(DEG, DIM); one
   that dispatches per element otherwise, kern(-1, 0). */
#define DG_SOP_DEGS(kern, launch_args, deg, D)                                                     \
  switch (deg) {                                                                                   \
  case 0:                                                                                          \
    kern(0, D) launch_args;                                                                        \
    break;                                                                                         \
    DG_DEGS_1_6(kern, launch_args, D)                                                              \
  case 7:                                                                                          \
    kern(7, D) launch_args;                                                                        \
    break;                                                                                         \
  default:                                                                                         \
    kern(-1, 0) launch_args;                                                                       \
    break;                                                                                         \
  }
#define DG_SOP_UNIFORM(kern, launch_args, deg, dim)                                                \
  DG_BY_DIM(DG_SOP_DEGS, kern, launch_args, deg, dim)

/* A uniform 2D or 3D level of degree 1..rmax with fewer than INT_MAX
   elements (the team and line kernels' element index is an int). */
int uniform_level(const dg_sop *op, int rmax) {
  return op->runi >= 1 && op->runi <= rmax && op->g.nelem <= INT_MAX &&
         (op->g.dim == 2 || op->g.dim == 3);
}

/* The team kernels, on a uniform level of degree 1..7; 0 when the level is
   not one (the element kernels run instead). */
int team_level(const dg_sop *op) { return use_team && uniform_level(op, 7); }
#define DG_TEAM_DEGS(kern, launch_args, deg, D)                                                    \
  switch (deg) {                                                                                   \
    DG_DEGS_1_6(kern, launch_args, D)                                                              \
  default:                                                                                         \
    kern(7, D) launch_args;                                                                        \
    break;                                                                                         \
  }
#define DG_TEAM(kern, launch_args, deg, dim) DG_BY_DIM(DG_TEAM_DEGS, kern, launch_args, deg, dim)

/* The line kernels: a team level (unless DGRID_CUDA_SOP=team), and in 2D
   also a uniform level of degree 8..10 (DG_MAX_DEGREE), for which the team
   kernels are not built (more kernels to compile for a plan that is not
   the default; DGRID_CUDA_SOP=team runs the element kernels there). */
int line_level(const dg_sop *op) {
  return use_line && uniform_level(op, op->g.dim == 2 ? DG_MAX_DEGREE : 7);
}
/* degrees 8..10, 2D only (DG_LINE_HI_3 is empty) */
#define DG_LINE_HI_2(kern, launch_args)                                                            \
  case 8:                                                                                          \
    kern(8, 2) launch_args;                                                                        \
    break;                                                                                         \
  case 9:                                                                                          \
    kern(9, 2) launch_args;                                                                        \
    break;                                                                                         \
  case 10:                                                                                         \
    kern(10, 2) launch_args;                                                                       \
    break;
#define DG_LINE_HI_3(kern, launch_args)
#define DG_LINE_DEGS(kern, launch_args, deg, D)                                                    \
  switch (deg) {                                                                                   \
    DG_DEGS_1_6(kern, launch_args, D)                                                              \
    DG_LINE_HI_##D(kern, launch_args) default : kern(7, D) launch_args;                            \
    break;                                                                                         \
  }
#define DG_LINE(kern, launch_args, deg, dim) DG_BY_DIM(DG_LINE_DEGS, kern, launch_args, deg, dim)
static_assert(DG_MAX_DEGREE == 10, "dg_sop_cuda.cuh: a line kernel case per 2D degree up to 10");
#define DG_LINE_LAUNCH(name, d, D)                                                                 \
  name<d, D><<<(unsigned)((ne + line_shape<d, D>::epb - 1) / line_shape<d, D>::epb),               \
               line_shape<d, D>::threads>>>
#define DG_TEAM_LAUNCH(name, d, D)                                                                 \
  name<d, D><<<(unsigned)((ne + team_shape<d, D>::epb - 1) / team_shape<d, D>::epb),               \
               team_shape<d, D>::threads>>>

} // namespace
