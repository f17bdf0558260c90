/* dg_sipg_elem.h - the solvers' element arithmetic (dg_sipg_elem_t.h) and
 * the vertex patches' (dg_spatch_t.h) in
 * float (suffix _f) and double (suffix _d), from the one source.  Included by
 * the drivers (backends/omp/dg_sop_omp.c, backends/cuda/dg_sop_cuda_{d,f}.cu). */
#ifndef DG_SIPG_ELEM_H
#define DG_SIPG_ELEM_H

#include "dg_types.h"

/* table extent: degrees 0..DG_MAX_DEGREE */
#define DG_SNR (DG_MAX_DEGREE + 1)

/* leading dimension of a vertex patch's 1D matrices (two cells) */
#define DG_SPATCH_LD (2 * DG_SNR)

/* Boundary rule per direction of a solver grid. */
enum { DG_SBC_PERIODIC = 0, DG_SBC_DIRICHLET = 1 };

/* defines (dg_sipg_elem_t.h, dg_spatch_t.h): dg_sblock_solve_d dg_sface_g_d dg_sface_row_d
   dg_sface_sigma_d dg_sface_trace_d dg_sfd_eig_d dg_sfd_line_d dg_sgeom_d dg_sh_prolong_d
   dg_sh_prolong_at_d dg_sh_prolong_elem_d dg_sh_prolong_ijk_d dg_sh_restrict_d dg_sh_restrict_at_d
   dg_sh_restrict_elem_d dg_sh_restrict_ijk_d dg_sipg_diag_d dg_sipg_elem_d dg_sipg_elem_r_d
   dg_sline_trace_d dg_snbr_d dg_snbr_ijk_d dg_snbr_line_d dg_sp_low_modes_d dg_sp_prolong_elem_d
   dg_sp_restrict_elem_d dg_stang_d dg_svol_row_d dg_spatch_eig_d dg_spatch_lines_d
   dg_spatch_lines_part_d dg_spatch_solve_d dg_spatch_solve_r_d */
#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_sipg_elem_t.h"
#include "dg_spatch_t.h"
#undef DG_SR
#undef DG_SN

/* defines (dg_sipg_elem_t.h, dg_spatch_t.h): dg_sblock_solve_f dg_sface_g_f dg_sface_row_f
   dg_sface_sigma_f dg_sface_trace_f dg_sfd_eig_f dg_sfd_line_f dg_sgeom_f dg_sh_prolong_f
   dg_sh_prolong_at_f dg_sh_prolong_elem_f dg_sh_prolong_ijk_f dg_sh_restrict_f dg_sh_restrict_at_f
   dg_sh_restrict_elem_f dg_sh_restrict_ijk_f dg_sipg_diag_f dg_sipg_elem_f dg_sipg_elem_r_f
   dg_sline_trace_f dg_snbr_f dg_snbr_ijk_f dg_snbr_line_f dg_sp_low_modes_f dg_sp_prolong_elem_f
   dg_sp_restrict_elem_f dg_stang_f dg_svol_row_f dg_spatch_eig_f dg_spatch_lines_f
   dg_spatch_lines_part_f dg_spatch_solve_f dg_spatch_solve_r_f */
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_sipg_elem_t.h"
#include "dg_spatch_t.h"
#undef DG_SR
#undef DG_SN

/* The drivers' dispatch on an element's degree, one case per degree: the
 * element function fn is inlined with a constant degree, so its loops have
 * constant trip counts (unrolled, vectorised). */
#define DG_SOP_CASE(R, fn, A, T, e, x, y)                                                          \
  case R:                                                                                          \
    fn(A, T, e, x, y, R);                                                                          \
    break;
#define DG_SOP_DISPATCH(fn, A, T, e, x, y, r)                                                      \
  switch (r) {                                                                                     \
    DG_SOP_CASE(0, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(1, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(2, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(3, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(4, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(5, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(6, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(7, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(8, fn, A, T, e, x, y)                                                              \
    DG_SOP_CASE(9, fn, A, T, e, x, y)                                                              \
  default:                                                                                         \
    fn(A, T, e, x, y, r);                                                                          \
  }

/* The vertex-patch drivers' dispatch on the modes per direction n of a
 * patch whose directions all have two cells: fn(args..., n, 1) with a
 * constant n. */
#define DG_SPATCH_CASE(N, fn, ...)                                                                 \
  case N:                                                                                          \
    fn(__VA_ARGS__, N, 1);                                                                         \
    break;
#define DG_SPATCH_DISPATCH(fn, n, ...)                                                             \
  switch (n) {                                                                                     \
    DG_SPATCH_CASE(1, fn, __VA_ARGS__)                                                             \
    DG_SPATCH_CASE(2, fn, __VA_ARGS__)                                                             \
    DG_SPATCH_CASE(3, fn, __VA_ARGS__)                                                             \
    DG_SPATCH_CASE(4, fn, __VA_ARGS__)                                                             \
    DG_SPATCH_CASE(5, fn, __VA_ARGS__)                                                             \
    DG_SPATCH_CASE(6, fn, __VA_ARGS__)                                                             \
    DG_SPATCH_CASE(7, fn, __VA_ARGS__)                                                             \
    DG_SPATCH_CASE(8, fn, __VA_ARGS__)                                                             \
  default:                                                                                         \
    fn(__VA_ARGS__, n, 1);                                                                         \
  }

#endif
