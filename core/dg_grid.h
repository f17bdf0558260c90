/* dg_grid.h - the structured grid: d1 x d2 (x d3) equal boxes on [lo,hi],
 * periodic in every direction unless a side is given another boundary kind
 * (dg_grid_set_bc: inflow, outflow, wall), or (2D) the latitude-longitude
 * sphere: the
 * same boxes in (lambda, theta) on [0, 2 pi) x [-pi/2, pi/2], periodic in
 * lambda, poles at the theta ends.  Element e = i + n0*(j + n1*k).
 *
 * The sphere stays affine in (lambda, theta) (docs/ARCHITECTURE.md): its only
 * metric term is the area element a^2 cos(theta) in the mass matrix, which
 * depends on the row j alone; the per-row data (W_{j,r}^{-1}, cos(theta) at
 * the Gauss points) are computed here and stored per row by dg_disc. */
#ifndef DG_GRID_H
#define DG_GRID_H

#ifdef __cplusplus
extern "C" {
#endif

/* Geometry kinds. */
typedef enum {
  DG_GRID_BOX = 0,   /* affine periodic box: no metric data at all */
  DG_GRID_LATLON = 1 /* latitude-longitude sphere of radius `radius` (2D) */
} dg_grid_kind;

/* Boundary kinds of a side (docs/ARCHITECTURE.md, "Boundaries"). */
typedef enum {
  DG_BC_PERIODIC = 0, /* the wrapped element is the neighbour (both sides of a direction) */
  DG_BC_INFLOW = 1,   /* exterior state: the model's boundary data g(x, t) */
  DG_BC_OUTFLOW = 2,  /* exterior state: the interior one */
  DG_BC_WALL = 3,     /* exterior state: the model's reflection of the interior one */
  DG_BC_POLE = 4      /* the sphere's theta ends: no flux (set by dg_grid_init_latlon) */
} dg_bc_kind;

/* Sides: 2 d + s, s = 0 the lower end of direction d, 1 the upper (x-, x+,
 * y-, y+, z-, z+). */
#define DG_GRID_SIDES 6

typedef struct {
  int dim;               /* 2 or 3 */
  int n[3];              /* elements per direction (n[2] = 1 in 2D) */
  double lo[3];          /* box lower corner */
  double hi[3];          /* box upper corner */
  double h[3];           /* element size per direction */
  long nelem;            /* n0*n1*n2 */
  int kind;              /* dg_grid_kind */
  double radius;         /* DG_GRID_LATLON: the sphere's radius a (0 for a box) */
  int bc[DG_GRID_SIDES]; /* dg_bc_kind per side (periodic unless set; the sphere's
                            theta sides are poles) */
} dg_grid;

/* Fill `g`; checks dim in {2,3}, n >= 1, hi > lo (finite).  In 2D n[2], lo[2]
 * and hi[2] are ignored.  Returns 0 or DG_ERR_ARG with a message. */
int dg_grid_init(dg_grid *g, int dim, const int n[3], const double lo[3], const double hi[3]);

/* The latitude-longitude sphere of radius a: n1 x n2 elements, lambda in
 * [0, 2 pi) (periodic), theta in [-pi/2, pi/2] (rows equally spaced, the
 * faces theta = +-pi/2 are poles: no flux).  n1 = 0 selects 2 n2 (square
 * elements at the equator).  DG_ERR_ARG naming the option on bad input. */
int dg_grid_init_latlon(dg_grid *g, int n1, int n2, double radius);

/* The boundary kinds of a box's 2 dim sides (bc[2 d + s], dg_bc_kind;
 * entries past 2 dim are ignored).  A direction is periodic on both sides or
 * on neither; pole is the sphere's alone, and the sphere's sides are fixed.
 * DG_ERR_ARG naming the side and kinds otherwise. */
int dg_grid_set_bc(dg_grid *g, const int bc[DG_GRID_SIDES]);

/* 1 when direction d wraps periodically (both its sides periodic). */
int dg_grid_periodic(const dg_grid *g, int d);

/* 1 when some side of g is inflow, outflow or wall (the stages then form
 * exterior states there). */
int dg_grid_has_bc(const dg_grid *g);

/* "periodic", "inflow", "outflow", "wall" or "pole". */
const char *dg_bc_name(int kind);

/* "x-", "x+", "y-", .. for side 2 d + s. */
const char *dg_bc_side_name(int side);

/* Latitude of reference coordinate eta in [-1, 1] of row j (latlon). */
double dg_grid_theta(const dg_grid *g, int row, double eta);

/* The inverse of the row's weighted theta mass matrix (latlon):
 *   W[n][m] = sum_k w[k] cos(theta_row(x[k])) P_n(x[k]) P_m(x[k]),  n, m <= r,
 * with the q Gauss points x, weights w (exactly the rule of the stages),
 * inverted by Cholesky; winv[(r+1)^2] row-major.  DG_ERR_NUMERIC if W is not
 * positive definite (cannot happen for q >= r + 1). */
int dg_grid_row_winv(const dg_grid *g, int row, int r, int q, const double *x, const double *w,
                     double *winv);

/* The sphere's trigonometric interpolants (latlon; docs/ARCHITECTURE.md,
 * "Geometry"): on the interval [x0, x1] of one coordinate, the interpolant
 * I of degree K on its K + 1 Gauss-Lobatto nodes, at the q reference points
 * xr[k] in [-1, 1] (x = x0 + (x1 - x0) (1 + xr) / 2):
 *   out[i * stride + k], i = 4 (m - 1) + (0: I[cos m x], 1: I[sin m x],
 *   2: d/dx I[cos m x], 3: d/dx I[sin m x]), m = 1, 2
 * (stencils/dg_types.h, DG_X_TRIG's order).  Summed in long double, so each
 * entry is about correctly rounded.  1 <= K <= 63. */
int dg_grid_trig_interp(int K, double x0, double x1, int q, const double *xr, double *out,
                        int stride);

/* Element index of (i,j,k), each wrapped periodically (whatever the sides'
 * kinds: a boundary face's neighbour is decided by the caller). */
long dg_grid_elem(const dg_grid *g, long i, long j, long k);

/* (i,j,k) of element e. */
void dg_grid_ijk(const dg_grid *g, long e, int ijk[3]);

/* "(i,j)" or "(i,j,k)" of element e into buf (for messages); returns buf. */
const char *dg_grid_label(const dg_grid *g, long e, char *buf, unsigned long len);

#ifdef __cplusplus
}
#endif
#endif
