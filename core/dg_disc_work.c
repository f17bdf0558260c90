/* dg_disc_work.c - the counted work of one stage of a discretisation
 * (flops and bytes, dg_disc_work), for the benchmarks' rates. */
#include "dg_disc_impl.h"

#include <math.h>
#include <string.h>

/* Flops of a contraction between nm modes and nq points along one direction,
 * times `other` lines, in the even-odd form of dg_contract: nm*ceil(nq/2)
 * multiply-adds and floor(nq/2) sums and differences per line.  (Rows of odd
 * parity skip the middle point when nq is odd; not counted: an upper bound.) */
static double cflops(double nm, double nq, double other) {
  const double h = floor(nq / 2), hc = ceil(nq / 2);
  return other * (2.0 * nm * hc + 2.0 * h);
}

/* Counted flops of one element of degree r and one variable in an update
 * at Q points (see dg_disc_work). */
static double elem_flops(int dim, int r, int Q, int coeffs, int reuse) {
  const double QF = (double)dg_disc_ipow(Q, dim - 1), NP = (double)dg_disc_ipow(Q, dim);
  const double N = r + 1, M = (double)dg_disc_ipow(r + 1, dim);
  double f = 0;
  /* face values of the new coefficients (the next stage's traces) and of
     the old ones (own side of each flux) */
  const double NF = (double)dg_disc_ipow(r + 1, dim - 1);
  const double fc = dim == 2 ? cflops(N, Q, 1) : cflops(N, Q, N) + cflops(N, Q, Q);
  /* per direction: even/odd sums, both sides; once when the update reads
     the old face values back (reuse_traces); with nbr_coeffs the old ones
     and, on each face, the neighbour's facing side (no new ones) */
  if (coeffs)
    f += dim * (M + 2 * NF + 2 * fc) + 2 * dim * (M + NF + fc);
  else
    f += (reuse ? 1 : 2) * dim * (M + 2 * NF + 2 * fc);
  /* values at points */
  f += dim == 2 ? cflops(N, Q, N) + cflops(N, Q, Q)
                : cflops(N, Q, N * N) + cflops(N, Q, Q * N) + cflops(N, Q, Q * Q);
  /* flux and weights per direction, then test with gradients */
  for (int dd = 0; dd < dim; ++dd) {
    f += 3 * NP;
    f += dim == 2 ? cflops(N, Q, Q) + cflops(N, Q, N)
                  : cflops(N, Q, Q * Q) + cflops(N, Q, N * Q) + cflops(N, Q, N * N);
  }
  /* faces: Rusanov (about 10 flops a point) and lifting */
  f += 2 * dim * 10 * QF + dim * (2 * QF + 2 * fc + M); /* lifts G- -+ G+ per direction */
  /* mass scale and RK update */
  f += 6 * M;
  return f;
}

dg_work dg_disc_work(const dg_disc *d, double reg_streams) {
  dg_work w;
  memset(&w, 0, sizeof w);
  const int dim = d->grid.dim, nv = d->nvar;
  const double QF = (double)dg_disc_ipow(d->q, dim - 1);
  const int coeffs = d->nbr_coeffs, reuse = d->reuse_traces;
  w.dofs = d->ndofs;
  w.padded_elems = d->nslots;
  for (int r = 0; r <= DG_MAX_DEGREE; ++r) {
    const bucket *b = &d->bk[r];
    /* with own_q the elements away from degree changes at r + 1 points */
    w.flops += nv * ((double)b->nedge * elem_flops(dim, r, d->q, coeffs, reuse) +
                     (double)(b->n - b->nedge) * elem_flops(dim, r, r + 1, coeffs, reuse));
  }
  const double rb = sizeof(dg_real);
  w.bytes_min = (double)d->ndofs * rb * (2 + reg_streams);
  const double tr = (double)d->nslots * 2 * dim * nv * QF * rb;
  /* u read once (with nbr_coeffs the neighbours' reads of it count as cache
     hits), written once */
  w.bytes_moved = (double)d->len * rb * (2 + reg_streams) +
                  (coeffs ? 0 : (reuse ? 3 : 2)) * tr /* traces: write new, read neighbours'
                                                         (and own) */
                  /* with nbr_coeffs, where the degree changes: write and read */
                  + (coeffs ? 2.0 * (double)d->jump_sides * nv * QF * rb : 0) +
                  (double)d->nslots * 2 * dim * sizeof(int) +
                  (d->d_geom ? (double)d->nslots * dg_disc_geom_stride(d) * rb : 0) +
                  (double)d->nslots * d->aux_size * rb; /* auxiliary data, read once */
  return w;
}
