/* dg_disc_geom.c - a discretisation's neighbour and geometry tables, per
 * slot, built on the host at setup: the neighbours' trace or coefficient
 * offsets, the box's coordinates and boundary masks, the sphere's row
 * tables (docs/ARCHITECTURE.md, "Geometry"). */
#include "dg_disc_impl.h"

#include "dg_error.h"
#include "dg_model_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* First slot of the group of bucket b that slot s belongs to (the bucket's
 * first without own_q; see bucket). */
static long group_slot0(const bucket *b, long s, int W) {
  return s < b->slot0 + b->eblock * W ? b->slot0 : b->slot0 + b->eblock * W;
}

/* Reals of one row's table at degree r, q points (DG_ROW_*): the theta mass
 * inverse as the update applies it, (r+1)^2, 1 / (a^2 cos theta) and the
 * trigonometric interpolants at the q points, the theta faces' cos and sin,
 * the pole masks. */
static long row_len(int r, int q) { return DG_ROW_LEN((long)(r + 1), q); }

/* Length of the geometry array: the model's inflow data (geom0 reals), the
 * slots', then (sphere) the row tables of every degree present; sets
 * d->tab_off (counted from the first slot's). */
long dg_disc_geom_len(dg_disc *d) {
  long n = d->nslots * dg_disc_geom_stride(d);
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    d->tab_off[r] = n;
    if (d->metric && d->bk[r].n + d->bk[r].ng > 0) n += d->grid.n[1] * row_len(r, d->q);
  }
  return d->geom0 + n;
}

/* The degree K of the sphere's trigonometric interpolants, one for the whole
 * grid (docs/ARCHITECTURE.md, "Geometry"): the wind is then the exact curl
 * of a continuous psi_h of degree K, whose divergence the common q >= rmax
 * + 1 Gauss points integrate exactly against every element's test
 * functions (degree K + r - 1 <= 2 q - 1 per coordinate) for K = rmax + 2. */
static int trig_degree(const dg_disc *d) { return d->map.rmax + 2; }

int dg_disc_angle_table(const dg_disc *d, dg_real *tt) {
  double xr[DG_MAX_Q], tab[DG_TRIG_LEN];
  for (int k = 0; k < d->q; ++k) xr[k] = (double)d->basis.x[k];
  DG_CALL(dg_grid_trig_interp(trig_degree(d), 0, d->grid.h[0], d->q, xr, tab, DG_MAX_Q));
  for (int i = 0; i < DG_TRIG_LEN; ++i) tt[i] = 0;
  for (int i = 0; i < DG_TRIG_N; ++i)
    for (int k = 0; k < d->q; ++k) tt[i * DG_MAX_Q + k] = (dg_real)tab[i * DG_MAX_Q + k];
  return 0;
}

/* The sphere's row tables (docs/ARCHITECTURE.md): for row j and degree r,
 * T[b][b'] = 2 / (2 b + 1) W_{j,r}^-1[b][b'] / a^2, so that the update's
 * diagonal reference inverse (2 a + 1)(2 b + 1) / 4 completes the exact
 * inverse of M_e = (dlam dth / 4) a^2 D_r (x) W_{j,r}; then at the q Gauss
 * points of the row 1 / (a^2 cos theta) (the stable-step rate), the
 * interpolants of cos(m theta), sin(m theta) and their derivatives (the
 * wind, dg_grid_trig_interp); cos and sin of the row's two faces, from the
 * faces' coordinates as every row forms them (row j's plus face and row
 * j + 1's minus face: the same bits); the pole masks, 0 on a pole face. */
static int build_rows(dg_disc *d, dg_real *geom) {
  const dg_grid *g = &d->grid;
  const int q = d->q;
  const double a2 = g->radius * g->radius;
  double x[DG_MAX_Q], w[DG_MAX_Q], winv[(DG_MAX_DEGREE + 1) * (DG_MAX_DEGREE + 1)];
  double trig[DG_TRIG_LEN];
  for (int k = 0; k < q; ++k) {
    x[k] = (double)d->basis.x[k];
    w[k] = (double)d->basis.w[k];
  }
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    if (d->bk[r].n + d->bk[r].ng == 0) continue;
    const int N = r + 1;
    for (int j = 0; j < g->n[1]; ++j) {
      dg_real *t = geom + d->tab_off[r] + (long)j * row_len(r, q);
      DG_CALL(dg_grid_row_winv(g, j, r, q, x, w, winv));
      for (int b = 0; b < N; ++b)
        for (int bb = 0; bb < N; ++bb)
          t[b * N + bb] = (dg_real)(2.0 / (2 * b + 1) * winv[b * N + bb] / a2);
      for (int k = 0; k < q; ++k) {
        const double th = dg_grid_theta(g, j, x[k]);
        t[DG_ROW_JINV(N) + k] = (dg_real)(1.0 / (a2 * cos(th)));
      }
      const double fl = g->lo[1] + j * g->h[1], fr = g->lo[1] + (j + 1) * g->h[1];
      DG_CALL(dg_grid_trig_interp(trig_degree(d), fl, fr, q, x, trig, q));
      for (int i = 0; i < DG_TRIG_N * q; ++i) t[DG_ROW_TRIG(N, q) + i] = (dg_real)trig[i];
      dg_real *tf = t + DG_ROW_FACE(N, q);
      tf[0] = (dg_real)cos(fl);
      tf[1] = (dg_real)sin(fl);
      tf[2] = (dg_real)cos(fr);
      tf[3] = (dg_real)sin(fr);
      tf[4] = (dg_real)(j == 0 ? 0 : 1);
      tf[5] = (dg_real)(j == g->n[1] - 1 ? 0 : 1);
    }
  }
  return 0;
}

/* Neighbour offsets and coordinates, per slot, built on the host.  An offset
 * is the one of the facing trace; with nbr_coeffs that of the neighbour's
 * coefficients from its group's first (the element's own bucket: the same
 * degree; the group's update gets u from there), and where the neighbour
 * has another degree -1 - the offset of its facing trace
 * (dg_stage_args.nbr_traces). */
int dg_disc_build_tables(dg_disc *d, int **nbr, dg_real **geom) {
  const dg_grid *g = &d->grid;
  const int dim = g->dim, W = d->W, QF = (int)dg_disc_ipow(d->q, dim - 1);
  const long tslot = 2L * dim * d->nvar * QF; /* trace values per slot */
  const long nblk = d->nslots / W;
  if (d->nbr_coeffs && (double)d->len >= (double)INT_MAX)
    return dg_error(DG_ERR_ARG, "grid too large: coefficients exceed %d values (int offsets)",
                    INT_MAX);
  if ((!d->nbr_coeffs || d->nbr_traces) && (double)nblk * tslot * W >= (double)INT_MAX)
    return dg_error(DG_ERR_ARG, "grid too large: face traces exceed %d values (int offsets)",
                    INT_MAX);
  /* a box with boundaries needs the faces' positions (inflow data) and masks */
  const int needs_x = dg_model_uses_x(d->model) || d->metric || d->bnd;
  const int GS = dg_disc_geom_stride(d);
  *nbr = malloc((size_t)nblk * 2 * dim * W * sizeof **nbr);
  *geom = needs_x ? calloc((size_t)dg_disc_geom_len(d), sizeof **geom) : NULL;
  if (!*nbr || (needs_x && !*geom))
    return dg_error(DG_ERR_MEM, "out of memory for neighbour tables");
  /* the slots' geometry after the model's inflow data or the sphere's angle
     table (geom0 reals) */
  dg_real *gs = *geom ? *geom + d->geom0 : NULL;
  if (d->geom0 && d->bnd) dg_model_bdata(d->model, *geom);
  if (d->geom0 && d->metric) /* the angle table right before the first slot's (the
                                 basis's copy: the same bits) */
    for (int i = 0; i < DG_TRIG_LEN; ++i) gs[i - DG_TRIG_LEN] = d->basis.tt[i];
  d->jump_sides = 0;
  for (long s = 0; s < d->nslots; ++s) {
    const long blk = s / W, lane = s % W, e = d->slot_elem[s];
    int r = 0; /* the slot's bucket */
    while (s >= d->bk[r].slot0 + d->bk[r].nblock * W) r++;
    int ijk[3] = {0, 0, 0};
    if (e >= 0) dg_grid_ijk(g, e, ijk);
    for (int dd = 0; dd < dim; ++dd)
      for (int side = 0; side < 2; ++side) {
        long ns = s; /* padding lanes face themselves: their traces are zero */
        /* a boundary face reads its own trace (the stage replaces it by the
           exterior state) */
        const int bf = e >= 0 && dg_disc_on_boundary(g, ijk, dd, side);
        if (e >= 0 && !bf) {
          int nb[3] = {ijk[0], ijk[1], ijk[2]};
          nb[dd] += side ? 1 : -1;
          ns = d->elem_slot[dg_grid_elem(g, nb[0], nb[1], nb[2])];
          if (ns < 0) ns = s; /* a ghost's neighbour on no rank here: never updated */
        }
        const int fo = 2 * dd + (bf ? side : 1 - side);
        /* from the group's first slot: negative where group 1 reads group 0 */
        const long sb = ns - group_slot0(&d->bk[r], s, W), sblk = (sb - (sb < 0) * (W - 1)) / W;
        const long toff = (ns / W) * tslot * W + (long)fo * d->nvar * QF * W + ns % W;
        const int jump = ns != s && d->map.deg[d->slot_elem[ns]] != r;
        d->jump_sides += jump;
        const long off = !d->nbr_coeffs ? toff
                         : jump         ? -1 - toff
                                : sblk * d->nvar * dg_disc_ipow(r + 1, dim) * W + (sb - sblk * W);
        (*nbr)[(blk * 2 * dim + 2 * dd + side) * W + lane] = (int)off;
      }
    if (e < 0 || !gs) continue;
    if (d->metric) /* the row's table (theta's values, the pole masks) */
      gs[(blk * GS) * W + lane] = (dg_real)(d->tab_off[r] + (long)ijk[1] * row_len(r, d->q));
    if (d->bnd) /* 1 on the faces that lie on a boundary side */
      for (int fc = 0; fc < 2 * dim; ++fc)
        gs[(blk * GS + 3 * dim + fc) * W + lane] =
            (dg_real)dg_disc_on_boundary(g, ijk, fc / 2, fc % 2);
    if (d->metric) { /* cos and sin of both lambda faces, from the true
                        coordinates (the angle additions start at the minus
                        face); theta's are the row's (build_rows) */
      const int i = ijk[0], n = g->n[0];
      dg_real *tp = gs + (blk * GS + 1) * W + lane;
      /* lambda is periodic: the last column's plus face is lambda = lo, so
         both sides of the wrap face see the same bits */
      const double fl = g->lo[0] + i * g->h[0],
                   fr = i == n - 1 ? g->lo[0] : g->lo[0] + (i + 1) * g->h[0];
      tp[0] = (dg_real)cos(fl);
      tp[W] = (dg_real)sin(fl);
      tp[2 * W] = (dg_real)cos(fr);
      tp[3 * W] = (dg_real)sin(fr);
      continue; /* no coordinates (geom_stride) */
    }
    for (int dd = 0; dd < dim; ++dd) {
      const int i = ijk[dd], n = g->n[dd];
      dg_real *gp = gs + (blk * GS + 3 * dd) * W + lane;
      gp[0] = (dg_real)(g->lo[dd] + (i + 0.5) * g->h[dd]);
      /* the minus face as the left neighbour sees it (periodic wrap: hi) */
      const double fm = g->lo[dd] + (i == 0 && dg_disc_wraps(g, dd) ? n : i) * g->h[dd],
                   fp = g->lo[dd] + (i + 1) * g->h[dd];
      gp[W] = (dg_real)fm;
      gp[2 * W] = (dg_real)fp;
    }
  }
  if (d->metric && gs) DG_CALL(build_rows(d, gs));
  return 0;
}
