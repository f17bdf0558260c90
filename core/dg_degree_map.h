/* dg_degree_map.h - one polynomial degree per element (static p-adaptivity).
 * Any map with degrees in 0..DG_MAX_DEGREE is legal, jumps included. */
#ifndef DG_DEGREE_MAP_H
#define DG_DEGREE_MAP_H

#include "dg_grid.h"
#include "dg_real.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  long nelem;
  uint8_t *deg; /* [nelem], element order of dg_grid */
  int rmin, rmax;
} dg_degree_map;

/* The degrees of freedom of m's elements in `dim` dimensions, nvar values
 * per point: sum over the elements of nvar (deg + 1)^dim. */
long dg_degree_map_dofs(const dg_degree_map *m, int dim, int nvar);

/* Every element degree r. */
int dg_degree_map_create_uniform(dg_degree_map **m, const dg_grid *g, int r);

/* Latitude-like band: rmin on the rows next to both y-boundaries, rising by one
 * degree per band of rows to rmax on the middle rows; the bands split each
 * half of the rows into (rmax-rmin+1) equal parts.  Constant in x and z. */
int dg_degree_map_create_band(dg_degree_map **m, const dg_grid *g, int rmin, int rmax);

/* By latitude (rows, the y index): rmin on the rows next to both y
 * boundaries (the poles of --grid latlon), one more per row away from them,
 * capped at rmax; constant in x.  The degree falls by at most one per row. */
int dg_degree_map_create_latitude(dg_degree_map **m, const dg_grid *g, int rmin, int rmax);

/* One degree per row (y index): row_deg[n1]. */
int dg_degree_map_create_rows(dg_degree_map **m, const dg_grid *g, const int *row_deg);

/* The degree of each row so that its stable step is not below the target:
 * row_rate[j] is the largest CFL rate of row j's elements at degree rmax
 * (dg_disc_element_rates; a rate is (2 r + 1) times a speed factor), the
 * target is the step of the middle (equatorial) rows at rmax, and each row
 * gets the highest degree in rmin..rmax whose step reaches it.  *dt_reached
 * is the step of the resulting map: below *dt_target where degree reduction
 * alone cannot reach it (it gains at most (2 rmax + 1) / (2 rmin + 1)). */
int dg_degree_rows_for_step(int nrow, const double *row_rate, int rmax, int rmin, int *row_deg,
                            double *dt_target, double *dt_reached);

/* Local time stepping on such rows, estimated (dgrid does not step this way):
 * row j steps at dt_target / 2^levels[j], the smallest level at which its
 * degree row_deg[j] is stable (rates as for dg_degree_rows_for_step).
 * *work_ratio is the work of one dt_target this way over that of the global
 * step dt_reached (dt_target / dt_reached steps), both counted as the rows'
 * (r_j + 1)^2 DOFs per element times their steps (2D rows of equal length). */
int dg_degree_rows_lts(int nrow, const double *row_rate, int rmax, const int *row_deg,
                       double dt_target, double dt_reached, int *levels, double *work_ratio);

/* Independent uniform random degrees in rmin..rmax (splitmix64 from seed:
 * the same map on every machine). */
int dg_degree_map_create_random(dg_degree_map **m, const dg_grid *g, int rmin, int rmax,
                                uint64_t seed);

/* Read a text file: n1 lines of n0 integers, first line the lowest row j=0;
 * in 3D n2 such blocks, k=0 first.  Blank lines and '#' comments are skipped.
 * Errors name the file and line. */
int dg_degree_map_create_file(dg_degree_map **m, const dg_grid *g, const char *path);

/* Degree from a callback fn(ijk, centre, ctx), which returns the degree
 * (0..DG_MAX_DEGREE) or a negative value to fail. */
typedef int (*dg_degree_fn)(const int ijk[3], const double centre[3], void *ctx);
int dg_degree_map_create_callback(dg_degree_map **m, const dg_grid *g, dg_degree_fn fn, void *ctx);

/* Write the map in the file format above. */
int dg_degree_map_write(const dg_degree_map *m, const dg_grid *g, const char *path);

void dg_degree_map_destroy(dg_degree_map **m);

#ifdef __cplusplus
}
#endif
#endif
