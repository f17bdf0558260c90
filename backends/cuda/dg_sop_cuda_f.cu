/* dg_sop_cuda_f.cu - the CUDA solver driver in float (dg_sop_cuda.cuh):
 * this precision's 1D tables in constant and global memory, uploaded at the
 * first call, and the kernels and entry points of dg_sop_cuda_line_t.h,
 * dg_sop_cuda_team_t.h and dg_sop_cuda_t.h for it. */
#include "dg_sop_cuda.cuh"

namespace {

__constant__ dg_stab_f c_tab_f;
__device__ dg_stab_f g_tab_f;
int tabs_ready = 0;

int tables(const dg_sop *op) {
  return upload_tables(c_tab_f, g_tab_f, op->tab_f, &tabs_ready,
                       "cudaMemcpyToSymbol (solver tables, float)");
}

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

} // namespace

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
