/* dg_sipg_elem.h - the solvers' element arithmetic (dg_sipg_elem_t.h) in
 * float (suffix _f) and double (suffix _d), from the one source.  Included by
 * the drivers (dg_sop_omp.c; a CUDA driver would include the same header). */
#ifndef DG_SIPG_ELEM_H
#define DG_SIPG_ELEM_H

#include "dg_types.h"

/* table extent: degrees 0..DG_MAX_DEGREE */
#define DG_SNR (DG_MAX_DEGREE + 1)

/* Boundary rule per direction of a solver grid. */
enum { DG_SBC_PERIODIC = 0, DG_SBC_DIRICHLET = 1 };

#define DG_SR    double
#define DG_SN(x) x##_d
#include "dg_sipg_elem_t.h"
#undef DG_SR
#undef DG_SN

#define DG_SR    float
#define DG_SN(x) x##_f
#include "dg_sipg_elem_t.h"
#undef DG_SR
#undef DG_SN

#endif
