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
 * team kernels stage them in shared memory), uploaded once. */
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

__device__ const dg_stab_d *tab(double) { return &c_tab_d; }
__device__ const dg_stab_f *tab(float) { return &c_tab_f; }

/* overloads over the element functions' two precisions */
__device__ inline void elem_r(const dg_sargs_d *A, const dg_stab_d *T, long e, const double *x,
                              double *y,
                              int r){DG_SOP_DISPATCH(dg_sipg_elem_r_d, A, T, e, x, y, r)} __device__
    inline void elem_r(const dg_sargs_f *A, const dg_stab_f *T, long e, const float *x, float *y,
                       int r){DG_SOP_DISPATCH(dg_sipg_elem_r_f, A, T, e, x, y, r)} __device__
    inline void diag(const dg_sargs_d *A, const dg_stab_d *T, long e, double *y) {
  dg_sipg_diag_d(A, T, e, y);
}
__device__ inline void diag(const dg_sargs_f *A, const dg_stab_f *T, long e, float *y) {
  dg_sipg_diag_f(A, T, e, y);
}
__device__ inline void bsolve(int dim, int r, const double *const V[3], const double *const l[3],
                              double s, const double *rv, double *z) {
  dg_sblock_solve_d(dim, r, V, l, s, rv, z);
}
__device__ inline void bsolve(int dim, int r, const float *const V[3], const float *const l[3],
                              float s, const float *rv, float *z) {
  dg_sblock_solve_f(dim, r, V, l, s, rv, z);
}
__device__ inline void restrict_elem(const dg_sargs_d *F, const dg_sargs_d *C, int p, long e,
                                     const double *r, double *bc) {
  if (p)
    dg_sp_restrict_elem_d(F, C, e, r, bc);
  else
    dg_sh_restrict_elem_d(F, C, &c_tab_d, e, r, bc);
}
__device__ inline void restrict_elem(const dg_sargs_f *F, const dg_sargs_f *C, int p, long e,
                                     const float *r, float *bc) {
  if (p)
    dg_sp_restrict_elem_f(F, C, e, r, bc);
  else
    dg_sh_restrict_elem_f(F, C, &c_tab_f, e, r, bc);
}
__device__ inline void prolong_elem(const dg_sargs_d *F, const dg_sargs_d *C, int p, long e,
                                    const double *xc, double *x) {
  if (p)
    dg_sp_prolong_elem_d(F, C, e, xc, x);
  else
    dg_sh_prolong_elem_d(F, C, &c_tab_d, e, xc, x);
}
__device__ inline void prolong_elem(const dg_sargs_f *F, const dg_sargs_f *C, int p, long e,
                                    const float *xc, float *x) {
  if (p)
    dg_sp_prolong_elem_f(F, C, e, xc, x);
  else
    dg_sh_prolong_elem_f(F, C, &c_tab_f, e, xc, x);
}

/* One thread per element, the element function dispatched on the element's
   degree.  Kernels per (degree, dimension) for uniform levels, as k_block
   has, gave wrong applies in 2D at degrees 2 and 3 on the H100 (errors of
   order 1 in solvers.lane_element, 2026-11-25, where this kernel agrees with
   the host to 1e-16 on the same maps); the cause was not found, so the
   element plan keeps the dispatch on every level. */
template <typename R, typename A> __global__ void k_apply(A args, long ne, const R *x, R *y) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const A a = args;
  elem_r(&a, tab(R(0)), e, x, y, a.deg[e]);
}

template <typename R, typename A> __global__ void k_diag(A args, long ne, R *y) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const A a = args;
  diag(&a, tab(R(0)), e, y);
}

template <typename R, int DEG, int DIM>
__global__ void k_block(long ne, int dim, const unsigned char *deg, const long *off, const int *key,
                        const R *Vs, const R *ls, R shift, const R *r, R *z) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const R *V[3] = {0, 0, 0}, *lam[3] = {0, 0, 0};
  const int dm = DIM ? DIM : dim;
  for (int d = 0; d < dm; ++d) {
    V[d] = Vs + (long)key[3 * e + d] * DG_SNR * DG_SNR;
    lam[d] = ls + (long)key[3 * e + d] * DG_SNR;
  }
  bsolve(dm, DEG >= 0 ? DEG : deg[e], V, lam, shift, r + off[e], z + off[e]);
}

template <typename R, typename A>
__global__ void k_restrict(A F, A C, int p, long ne, const R *r, R *bc) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const A f = F, c = C;
  restrict_elem(&f, &c, p, e, r, bc);
}

template <typename R, typename A>
__global__ void k_prolong(A F, A C, int p, long ne, const R *xc, R *x) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const A f = F, c = C;
  prolong_elem(&f, &c, p, e, xc, x);
}

const dg_sargs_d &args(const dg_sop *op, double) { return op->args_d; }
const dg_sargs_f &args(const dg_sop *op, float) { return op->args_f; }
template <typename R> struct sargs;
template <> struct sargs<double> { typedef dg_sargs_d type; };
template <> struct sargs<float> { typedef dg_sargs_f type; };

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

void team_apply(const dg_sop *op, const double *x, double *y) {
  const int ne = (int)op->g.nelem;
  if (line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(k_line_apply_d, d, D)
    DG_LINE(DG_K, (op->args_d, line_geo_make_d(&op->args_d, op->g.dim), ne, x, y), op->runi,
            op->g.dim);
#undef DG_K
    return;
  }
#define DG_K(d, D) DG_TEAM_LAUNCH(k_team_apply_d, d, D)
  DG_TEAM(DG_K, (op->args_d, ne, x, y), op->runi, op->g.dim);
#undef DG_K
}
void team_apply(const dg_sop *op, const float *x, float *y) {
  const int ne = (int)op->g.nelem;
  if (line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(k_line_apply_f, d, D)
    DG_LINE(DG_K, (op->args_f, line_geo_make_f(&op->args_f, op->g.dim), ne, x, y), op->runi,
            op->g.dim);
#undef DG_K
    return;
  }
#define DG_K(d, D) DG_TEAM_LAUNCH(k_team_apply_f, d, D)
  DG_TEAM(DG_K, (op->args_f, ne, x, y), op->runi, op->g.dim);
#undef DG_K
}

template <typename R> int apply(const dg_sop *op, const R *x, R *y) {
  DG_CALL(tables(op));
  const long ne = op->g.nelem;
  if (ne && (line_level(op) || team_level(op))) {
    team_apply(op, x, y);
    return launched("operator kernel (line or team)");
  }
  if (ne) k_apply<R, typename sargs<R>::type><<<grid(ne), kThreads>>>(args(op, R(0)), ne, x, y);
  return launched("operator kernel");
}

template <typename R> int diag_all(const dg_sop *op, R *y) {
  DG_CALL(tables(op));
  const long ne = op->g.nelem;
  if (ne) k_diag<R><<<grid(ne), kThreads>>>(args(op, R(0)), ne, y);
  return launched("diagonal kernel");
}

template <typename R>
int xfer(const dg_sop *F, const dg_sop *C, int by_degree, const R *in, R *out, int prolong) {
  DG_CALL(tables(F));
  if (prolong) {
    const long ne = by_degree ? C->g.nelem : F->g.nelem;
    if (ne)
      k_prolong<R><<<grid(ne), kThreads>>>(args(F, R(0)), args(C, R(0)), by_degree, ne, in, out);
    return launched("prolongation kernel");
  }
  const long ne = C->g.nelem;
  if (ne)
    k_restrict<R><<<grid(ne), kThreads>>>(args(F, R(0)), args(C, R(0)), by_degree, ne, in, out);
  return launched("restriction kernel");
}

} // namespace

extern "C" {

int dg_cuda_sop_apply_d(const dg_sop *op, const double *x, double *y) { return apply(op, x, y); }
int dg_cuda_sop_apply_f(const dg_sop *op, const float *x, float *y) { return apply(op, x, y); }
int dg_cuda_sop_diag_d(const dg_sop *op, double *y) { return diag_all(op, y); }
int dg_cuda_sop_diag_f(const dg_sop *op, float *y) { return diag_all(op, y); }

int dg_cuda_sblock_apply_d(const dg_sblock *bj, const double *r, double *z) {
  const dg_sop *op = bj->op;
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(k_line_block_d, d, D)
    DG_LINE(DG_K, ((int)ne, bj->key, bj->V, bj->lam, bj->shift, r, z), op->runi, op->g.dim);
#undef DG_K
    return launched("block Jacobi kernel (line)");
  }
  if (ne && team_level(op)) {
#define DG_K(d, D) DG_TEAM_LAUNCH(k_team_block_d, d, D)
    DG_TEAM(DG_K, ((int)ne, bj->key, bj->V, bj->lam, bj->shift, r, z), op->runi, op->g.dim);
#undef DG_K
    return launched("block Jacobi kernel (team)");
  }
#define DG_K(d, D) k_block<double, d, D><<<grid(ne), kThreads>>>
  if (ne)
    DG_SOP_UNIFORM(DG_K,
                   (ne, op->g.dim, op->ddeg, op->doff, bj->key, bj->V, bj->lam, bj->shift, r, z),
                   op->runi, op->g.dim);
#undef DG_K
  return launched("block Jacobi kernel");
}

int dg_cuda_sblock_apply_f(const dg_sblock *bj, const float *r, float *z) {
  const dg_sop *op = bj->op;
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(k_line_block_f, d, D)
    DG_LINE(DG_K, ((int)ne, bj->key, bj->Vf, bj->lamf, (float)bj->shift, r, z), op->runi,
            op->g.dim);
#undef DG_K
    return launched("block Jacobi kernel (line)");
  }
  if (ne && team_level(op)) {
#define DG_K(d, D) DG_TEAM_LAUNCH(k_team_block_f, d, D)
    DG_TEAM(DG_K, ((int)ne, bj->key, bj->Vf, bj->lamf, (float)bj->shift, r, z), op->runi,
            op->g.dim);
#undef DG_K
    return launched("block Jacobi kernel (team)");
  }
#define DG_K(d, D) k_block<float, d, D><<<grid(ne), kThreads>>>
  if (ne)
    DG_SOP_UNIFORM(
        DG_K,
        (ne, op->g.dim, op->ddeg, op->doff, bj->key, bj->Vf, bj->lamf, (float)bj->shift, r, z),
        op->runi, op->g.dim);
#undef DG_K
  return launched("block Jacobi kernel");
}

int dg_cuda_sblock_resid_d(const dg_sblock *bj, const double *x, const double *b, double *t,
                           double *p) {
  const dg_sop *op = bj->op;
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(k_line_resid_block_d, d, D)
    DG_LINE(DG_K,
            (op->args_d, line_geo_make_d(&op->args_d, op->g.dim), (int)ne, x, b, bj->key, bj->V,
             bj->lam, bj->shift, p),
            op->runi, op->g.dim);
#undef DG_K
    return launched("smoother kernel (line)");
  }
  if (ne && team_level(op)) {
#define DG_K(d, D) DG_TEAM_LAUNCH(k_team_resid_block_d, d, D)
    DG_TEAM(DG_K, (op->args_d, (int)ne, x, b, bj->key, bj->V, bj->lam, bj->shift, p), op->runi,
            op->g.dim);
#undef DG_K
    return launched("smoother kernel (team)");
  }
  DG_CALL(dg_cuda_sop_apply_d(op, x, t));
  dg_cuda_svec_xpby_d(dg_sop_n(op), b, -1.0, t);
  return dg_cuda_sblock_apply_d(bj, t, p);
}

int dg_cuda_sblock_resid_f(const dg_sblock *bj, const float *x, const float *b, float *t,
                           float *p) {
  const dg_sop *op = bj->op;
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(k_line_resid_block_f, d, D)
    DG_LINE(DG_K,
            (op->args_f, line_geo_make_f(&op->args_f, op->g.dim), (int)ne, x, b, bj->key, bj->Vf,
             bj->lamf, (float)bj->shift, p),
            op->runi, op->g.dim);
#undef DG_K
    return launched("smoother kernel (line)");
  }
  if (ne && team_level(op)) {
#define DG_K(d, D) DG_TEAM_LAUNCH(k_team_resid_block_f, d, D)
    DG_TEAM(DG_K, (op->args_f, (int)ne, x, b, bj->key, bj->Vf, bj->lamf, (float)bj->shift, p),
            op->runi, op->g.dim);
#undef DG_K
    return launched("smoother kernel (team)");
  }
  DG_CALL(dg_cuda_sop_apply_f(op, x, t));
  dg_cuda_svec_xpby_f(dg_sop_n(op), b, -1.0f, t);
  return dg_cuda_sblock_apply_f(bj, t, p);
}

int dg_cuda_sop_resid_to_f(const dg_sop *op, const double *x, const double *b, double scale,
                           double *t, float *y) {
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(k_line_resid_to_f_d, d, D)
    DG_LINE(DG_K, (op->args_d, line_geo_make_d(&op->args_d, op->g.dim), (int)ne, x, b, scale, y),
            op->runi, op->g.dim);
#undef DG_K
    return launched("residual-to-float kernel (line)");
  }
  DG_CALL(dg_cuda_sop_apply_d(op, x, t));
  dg_cuda_svec_resid_to_f(dg_sop_n(op), scale, b, t, y);
  return 0;
}

int dg_cuda_sop_restrict_d(const dg_sop *F, const dg_sop *C, int by_degree, const double *r,
                           double *bc) {
  return xfer(F, C, by_degree, r, bc, 0);
}
int dg_cuda_sop_restrict_f(const dg_sop *F, const dg_sop *C, int by_degree, const float *r,
                           float *bc) {
  return xfer(F, C, by_degree, r, bc, 0);
}
int dg_cuda_sop_prolong_add_d(const dg_sop *F, const dg_sop *C, int by_degree, const double *xc,
                              double *x) {
  return xfer(F, C, by_degree, xc, x, 1);
}
int dg_cuda_sop_prolong_add_f(const dg_sop *F, const dg_sop *C, int by_degree, const float *xc,
                              float *x) {
  return xfer(F, C, by_degree, xc, x, 1);
}

} /* extern "C" */
