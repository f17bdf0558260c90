/* dg_sop_cuda.cu - the CUDA driver of the solvers' element functions
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
 * This file holds what both precisions share (the tables, the plan, the
 * level tests and the launch macros) and includes the templates once per
 * precision: the line and team kernels, then dg_sop_cuda_t.h (the element
 * kernels, the launches and the entry points). */
#include "dg_sblock_internal.h"
#include "dg_sop_team.h"

#include "dg_error.h"
#include "dg_solver_cuda.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

namespace {

__constant__ dg_stab_d c_tab_d;
__constant__ dg_stab_f c_tab_f;
__device__ dg_stab_d g_tab_d;
__device__ dg_stab_f g_tab_f;
int tabs_ready = 0;
int use_team = 1; /* DGRID_CUDA_SOP: line or team (1) or element (0) */
int use_line = 1; /* DGRID_CUDA_SOP: line (1, the default) or not (0) */
const int kThreads = 128;

int cuda_fail(cudaError_t e, const char *what) {
  return dg_error(DG_ERR_BACKEND, "cuda solvers: %s failed: %s (%s)", what, cudaGetErrorString(e),
                  cudaGetErrorName(e));
}

/* the tables and the plan once (every dg_sop builds the same tables) */
int tables(const dg_sop *op) {
  if (tabs_ready) return 0;
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
  cudaError_t e = cudaMemcpyToSymbol(c_tab_d, &op->tab_d, sizeof(dg_stab_d));
  if (e == cudaSuccess) e = cudaMemcpyToSymbol(c_tab_f, &op->tab_f, sizeof(dg_stab_f));
  if (e == cudaSuccess) e = cudaMemcpyToSymbol(g_tab_d, &op->tab_d, sizeof(dg_stab_d));
  if (e == cudaSuccess) e = cudaMemcpyToSymbol(g_tab_f, &op->tab_f, sizeof(dg_stab_f));
  if (e != cudaSuccess) return cuda_fail(e, "cudaMemcpyToSymbol (solver tables)");
  tabs_ready = 1;
  return 0;
}

/* defines (dg_sop_cuda_team_t.h, dg_sop_cuda_line_t.h): dg_sop_k_team_apply_d dg_sop_k_team_block_d
   dg_sop_k_team_resid_block_d team_apply_row_d team_block_row_d team_tables_d dg_sop_k_line_apply_d
   dg_sop_k_line_block_d dg_sop_k_line_resid_block_d dg_sop_k_line_resid_to_f_d line_apply_row_d
   line_apply_tile_d line_block_row_d line_geo_make_d line_idx_d line_stage_d line_terms_d */
#define DG_SR     double
#define DG_SN(x)  x##_d
#define DG_STAB_G g_tab_d
#include "dg_sop_cuda_team_t.h"
#undef DG_STAB_G
#define DG_STAB_C c_tab_d
#include "dg_sop_cuda_line_t.h"
#undef DG_STAB_C
#undef DG_SR
#undef DG_SN
/* defines (dg_sop_cuda_team_t.h, dg_sop_cuda_line_t.h): dg_sop_k_team_apply_f dg_sop_k_team_block_f
   dg_sop_k_team_resid_block_f team_apply_row_f team_block_row_f team_tables_f dg_sop_k_line_apply_f
   dg_sop_k_line_block_f dg_sop_k_line_resid_block_f dg_sop_k_line_resid_to_f_f line_apply_row_f
   line_apply_tile_f line_block_row_f line_geo_make_f line_idx_f line_stage_f line_terms_f */
#define DG_SR     float
#define DG_SN(x)  x##_f
#define DG_STAB_G g_tab_f
#include "dg_sop_cuda_team_t.h"
#undef DG_STAB_G
#define DG_STAB_C c_tab_f
#include "dg_sop_cuda_line_t.h"
#undef DG_STAB_C
#undef DG_SR
#undef DG_SN

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
static_assert(DG_MAX_DEGREE == 10, "dg_sop_cuda.cu: a line kernel case per 2D degree up to 10");
#define DG_LINE_LAUNCH(name, d, D)                                                                 \
  name<d, D><<<(unsigned)((ne + line_shape<d, D>::epb - 1) / line_shape<d, D>::epb),               \
               line_shape<d, D>::threads>>>
#define DG_TEAM_LAUNCH(name, d, D)                                                                 \
  name<d, D><<<(unsigned)((ne + team_shape<d, D>::epb - 1) / team_shape<d, D>::epb),               \
               team_shape<d, D>::threads>>>

} // namespace

/* defines (dg_sop_cuda_t.h): bsolve_d dg_cuda_sblock_apply_d dg_cuda_sblock_resid_d
   dg_cuda_sop_apply_d dg_cuda_sop_diag_d dg_cuda_sop_prolong_add_d dg_cuda_sop_restrict_d
   dg_sop_k_apply_d dg_sop_k_block_d dg_sop_k_diag_d dg_sop_k_prolong_d dg_sop_k_restrict_d
   elem_r_d prolong_elem_d restrict_elem_d tab_d team_apply_d xfer_d */
#define DG_SR      double
#define DG_SN(x)   x##_d
#define DG_STAB_C  c_tab_d
#define DG_SBV(bj) ((bj)->V)
#define DG_SBL(bj) ((bj)->lam)
#include "dg_sop_cuda_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_STAB_C
#undef DG_SBV
#undef DG_SBL

/* defines (dg_sop_cuda_t.h): bsolve_f dg_cuda_sblock_apply_f dg_cuda_sblock_resid_f
   dg_cuda_sop_apply_f dg_cuda_sop_diag_f dg_cuda_sop_prolong_add_f dg_cuda_sop_restrict_f
   dg_sop_k_apply_f dg_sop_k_block_f dg_sop_k_diag_f dg_sop_k_prolong_f dg_sop_k_restrict_f
   elem_r_f prolong_elem_f restrict_elem_f tab_f team_apply_f xfer_f */
#define DG_SR      float
#define DG_SN(x)   x##_f
#define DG_STAB_C  c_tab_f
#define DG_SBV(bj) ((bj)->Vf)
#define DG_SBL(bj) ((bj)->lamf)
#include "dg_sop_cuda_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_STAB_C
#undef DG_SBV
#undef DG_SBL

extern "C" {

int dg_cuda_sop_resid_to_f(const dg_sop *op, const double *x, const double *b, double scale,
                           double *t, float *y) {
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(dg_sop_k_line_resid_to_f_d, d, D)
    DG_LINE(DG_K, (op->args_d, line_geo_make_d(&op->args_d, op->g.dim), (int)ne, x, b, scale, y),
            op->runi, op->g.dim);
#undef DG_K
    return launched("residual-to-float kernel (line)");
  }
  DG_CALL(dg_cuda_sop_apply_d(op, x, t));
  dg_cuda_svec_resid_to_f(dg_sop_n(op), scale, b, t, y);
  return 0;
}

} /* extern "C" */
