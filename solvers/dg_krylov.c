/* dg_krylov.c - the Krylov solvers of dg_krylov_t.h in double and float. */
#include "dg_krylov.h"

#include "dg_error.h"
#include "dg_svec.h"

#include <math.h>
#include <stdlib.h>

/* defines (dg_krylov_t.h): dg_cg_d dg_diag_apply_d dg_fgmres_d */
#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_krylov_t.h"
#undef DG_SR
#undef DG_SN

/* defines (dg_krylov_t.h): dg_cg_f dg_diag_apply_f dg_fgmres_f */
#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_krylov_t.h"
#undef DG_SR
#undef DG_SN
