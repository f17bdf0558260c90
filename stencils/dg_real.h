/* dg_real.h - the scalar type and the compile-time limits: the one header of
 * stencils/ that is also part of the installed API (a field's storage is
 * dg_real; a degree map holds degrees up to DG_MAX_DEGREE).  Plain C11 / C++
 * (nvcc compiles it too); includes nothing. */
#ifndef DG_REAL_H
#define DG_REAL_H

/* Highest polynomial degree a degree map may hold (kernels exist for 0..max). */
#define DG_MAX_DEGREE 10
/* Most Gauss points per direction; Q >= rmax+1 and Q <= DG_MAX_Q. */
#define DG_MAX_Q 12
/* Most variables a model may have (host-side buffers of diagnostics). */
#define DG_MAX_NVAR 16

/* dg_real is double unless the build asks for float (-DDGRID_REAL=float,
 * which defines DG_REAL_FLOAT for dgrid and for every program that uses the
 * installed package: dgrid::dgrid and dgrid.pc carry it). */
#ifdef DG_REAL_FLOAT
typedef float dg_real;
#define DG_REAL_NAME "float"
#else
typedef double dg_real;
#define DG_REAL_NAME "double"
#endif

#endif
