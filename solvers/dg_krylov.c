/* dg_krylov.c - the Krylov solvers of dg_krylov_t.h in double and float. */
#include "dg_krylov.h"

#include "dg_error.h"
#include "dg_svec.h"

#include <math.h>
#include <stdlib.h>

#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_krylov_t.h"
#undef DG_SR
#undef DG_SN

#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_krylov_t.h"
#undef DG_SR
#undef DG_SN
