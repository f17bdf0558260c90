/* dg_sop_cuda_d.cu - the CUDA solver driver in double (dg_sop_cuda.cuh):
 * this precision's 1D tables in constant and global memory, uploaded at the
 * first call, and the kernels and entry points of dg_sop_cuda_line_t.h,
 * dg_sop_cuda_team_t.h and dg_sop_cuda_t.h for it. */
#include "dg_sop_cuda.cuh"

namespace {

__constant__ dg_stab_d c_tab_d;
__device__ dg_stab_d g_tab_d;
int tabs_ready = 0;

int tables(const dg_sop *op) {
  return upload_tables(c_tab_d, g_tab_d, op->tab_d, &tabs_ready,
                       "cudaMemcpyToSymbol (solver tables, double)");
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
