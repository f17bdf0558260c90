/* dg_disc_aux.c - a discretisation's auxiliary data (dg_disc_set_aux): the
 * model's values sampled at every volume and face point of every element
 * held, or through the element interpolant where the model asks for
 * derivatives (docs/ARCHITECTURE.md, "Auxiliary data"). */
#include "dg_disc.h"

#include "dg_arg.h"
#include "dg_disc_impl.h"
#include "dg_error.h"
#include "dg_model_internal.h"
#include "dg_quadrature.h"

#include <stdlib.h>

/* The model's own sample of its auxiliary data (dg_aux_fn). */
static int model_aux(const double x[3], double *out, void *ctx) {
  return dg_model_aux((const dg_model *)ctx, x, out);
}

/* The element's coordinates as the stages form them (dg_slab_x, the face
 * loops): the centre and sizes in dg_real, the minus face of the first
 * element at hi (periodic wrap, as dg_disc_build_tables' geometry). */
static void aux_elem_coords(const dg_grid *g, long e, double xc[3], double h[3], double fm[3],
                            double fp[3]) {
  int ijk[3];
  dg_grid_ijk(g, e, ijk);
  for (int k = 0; k < 3; ++k) xc[k] = h[k] = fm[k] = fp[k] = 0;
  for (int k = 0; k < g->dim; ++k) {
    const int i = ijk[k];
    xc[k] = (dg_real)(g->lo[k] + (i + 0.5) * g->h[k]);
    h[k] = (dg_real)g->h[k];
    fm[k] = (dg_real)(g->lo[k] + (i == 0 && dg_disc_wraps(g, k) ? g->n[k] : i) * g->h[k]);
    fp[k] = (dg_real)(g->lo[k] + (i + 1) * g->h[k]);
  }
}

/* Where value i of volume point p (fc < 0) or face fc's point p lies in an
 * element's auxiliary data (stencils/dg_stage_model.h, DG_AUX_SIZE): the
 * faces hold only the first nauxf values. */
static long aux_offset(int naux, int nauxf, int QV, int QF, int fc, int i, int p) {
  return fc < 0 ? (long)i * QV + p : (long)naux * QV + (long)(fc * nauxf + i) * QF + p;
}

/* Auxiliary data through the element interpolant (dg_model_desc.aux_deriv):
 * the sampler at the (K+1)^dim Gauss-Lobatto nodes of each element, K =
 * 2 q - 1 - rmax, the end nodes on the face coordinates (so the nodes of a
 * face are sampled at the same coordinates from both sides); volume points
 * take the tensor interpolant and its exact derivatives; a face point takes
 * the interpolant of the face's own nodes (the same bits on both sides) and
 * its tangential derivatives, 0 along the normal. */
static int aux_interp(dg_disc *d, dg_aux_fn fn, void *ctx, dg_real *a) {
  const dg_grid *g = &d->grid;
  const int naux = dg_model_naux(d->model), *deriv = d->model->desc->aux_deriv;
  const int nauxf = dg_model_naux_face(d->model);
  const int dim = g->dim, W = d->W, Q = d->q, QF = (int)dg_disc_ipow(Q, dim - 1);
  const int QV = (int)dg_disc_ipow(Q, dim);
  const int K = 2 * Q - 1 - d->map.rmax, NK = K + 1;
  for (int i = 0; i < naux; ++i) {
    const int j = deriv[i] / 3;
    if (deriv[i] != DG_AUX_VALUE &&
        (deriv[i] < 0 || j >= naux || deriv[i] % 3 >= dim || deriv[j] != DG_AUX_VALUE))
      return dg_error(DG_ERR_ARG, "model %s: auxiliary value %d is not a derivative of a value",
                      dg_model_name(d->model), i);
  }
  if (NK > 2 * DG_MAX_Q) return dg_error(DG_ERR_ARG, "auxiliary data: interpolant too high");
  long double zn[2 * DG_MAX_Q], Ll[2 * DG_MAX_Q], dLl[2 * DG_MAX_Q];
  DG_CALL(dg_gauss_lobatto(NK, zn));
  double L[DG_MAX_Q][2 * DG_MAX_Q], dL[DG_MAX_Q][2 * DG_MAX_Q]; /* node k at Gauss point p */
  for (int p = 0; p < Q; ++p) {
    dg_lagrange_eval(NK, zn, (long double)d->basis.x[p], Ll, dLl);
    for (int k = 0; k < NK; ++k) L[p][k] = (double)Ll[k], dL[p][k] = (double)dLl[k];
  }
  const long NN = dg_disc_ipow(NK, dim);
  double *nv = malloc(sizeof(double) * (size_t)(NN * naux)), out[64];
  if (!nv) return dg_error(DG_ERR_MEM, "out of memory for auxiliary data");
  int rc = 0;
  for (long s = 0; s < d->nslots && !rc; ++s) {
    const long e = d->slot_elem[s];
    if (e < 0) continue;
    double xc[3], h[3], fm[3], fp[3];
    aux_elem_coords(g, e, xc, h, fm, fp);
    for (long n = 0; n < NN && !rc; ++n) { /* the samples at the nodes */
      double x[3] = {0, 0, 0};
      for (int k = 0, r2 = (int)n; k < dim; ++k, r2 /= NK) {
        const int m = r2 % NK;
        x[k] = m == 0 ? fm[k] : m == K ? fp[k] : xc[k] + (dg_real)0.5 * h[k] * (double)zn[m];
      }
      if (fn(x, out, ctx)) {
        rc = dg_error(DG_ERR_ARG, "auxiliary data: the sampler failed at x = (%g, %g, %g)", x[0],
                      x[1], x[2]);
        break;
      }
      for (int i = 0; i < naux; ++i) nv[i * NN + n] = out[i];
    }
    dg_real *base = a + (s / W) * d->aux_size * W + s % W;
    for (int pt = 0; pt < QV + 2 * dim * QF && !rc; ++pt) {
      int fc = -1, p = pt, gp[3] = {0, 0, 0}; /* the point's Gauss index per direction */
      if (pt >= QV) fc = (pt - QV) / QF, p = (pt - QV) % QF;
      for (int k = 0, r2 = p; k < dim; ++k) {
        if (fc >= 0 && k == fc / 2) continue;
        gp[k] = r2 % Q;
        r2 /= Q;
      }
      for (int i = 0; i < (fc < 0 ? naux : nauxf); ++i) {
        const int j = deriv[i] == DG_AUX_VALUE ? i : deriv[i] / 3;
        const int dd = deriv[i] == DG_AUX_VALUE ? -1 : deriv[i] % 3;
        double v = 0;
        if (fc >= 0 && dd == fc / 2) {
          v = 0; /* along the face's normal */
        } else {
          for (long n = 0; n < NN; ++n) {
            double w = 1;
            for (int k = 0, r2 = (int)n; k < dim; ++k, r2 /= NK) {
              const int m = r2 % NK;
              if (fc >= 0 && k == fc / 2) /* the face's own nodes only */
                w *= m == (fc % 2 ? K : 0) ? 1.0 : 0.0;
              else
                w *= k == dd ? dL[gp[k]][m] * 2 / h[k] : L[gp[k]][m];
            }
            if (w != 0) v += w * nv[j * NN + n];
          }
        }
        const long o = aux_offset(naux, nauxf, QV, QF, fc, i, p);
        base[o * W] = (dg_real)v;
      }
    }
  }
  free(nv);
  return rc;
}

int dg_disc_set_aux(dg_disc *d, dg_aux_fn fn, void *ctx) {
  DG_ARG_NONNULL("dg_disc_set_aux", d);
  const int naux = dg_model_naux(d->model), nauxf = dg_model_naux_face(d->model);
  if (naux == 0 || !d->d_aux)
    return dg_error(DG_ERR_ARG, "model %s has no auxiliary data", dg_model_name(d->model));
  const dg_grid *g = &d->grid;
  const int dim = g->dim, W = d->W, Q = d->q, QF = (int)dg_disc_ipow(Q, dim - 1);
  const int QV = (int)dg_disc_ipow(Q, dim);
  const size_t bytes = (size_t)(d->nslots / W) * d->aux_size * W * sizeof(dg_real);
  dg_real *a = calloc(bytes ? bytes : 1, 1); /* padding lanes keep zeros */
  if (!a) return dg_error(DG_ERR_MEM, "out of memory for auxiliary data (%zu bytes)", bytes);
  double out[64];
  if (naux > 64) {
    free(a);
    return dg_error(DG_ERR_ARG, "model %s: %d auxiliary values, at most 64",
                    dg_model_name(d->model), naux);
  }
  const int *deriv = d->model->desc->aux_deriv;
  int rc = deriv ? aux_interp(d, fn, ctx, a) : 0;
  for (long s = 0; s < d->nslots && !rc && !deriv; ++s) {
    const long e = d->slot_elem[s];
    if (e < 0) continue;
    double xc[3], h[3], fm[3], fp[3];
    aux_elem_coords(g, e, xc, h, fm, fp);
    dg_real *base = a + (s / W) * d->aux_size * W + s % W;
    for (int pt = 0; pt < QV + 2 * dim * QF && !rc; ++pt) {
      double x[3] = {0, 0, 0};
      int fc = -1, p = pt;
      if (pt < QV) {
        for (int k = 0, r2 = pt; k < dim; ++k, r2 /= Q)
          x[k] = xc[k] + (dg_real)0.5 * h[k] * d->basis.x[r2 % Q];
      } else {
        fc = (pt - QV) / QF, p = (pt - QV) % QF;
        const int dd = fc / 2;
        int r2 = p;
        for (int k = 0; k < dim; ++k) {
          if (k == dd) {
            x[k] = fc % 2 ? fp[k] : fm[k];
          } else {
            x[k] = xc[k] + (dg_real)0.5 * h[k] * d->basis.x[r2 % Q];
            r2 /= Q;
          }
        }
      }
      if (fn(x, out, ctx)) {
        rc = dg_error(DG_ERR_ARG, "auxiliary data: the sampler failed at x = (%g, %g, %g)", x[0],
                      x[1], x[2]);
        break;
      }
      for (int i = 0; i < (fc < 0 ? naux : nauxf); ++i) {
        const long o = aux_offset(naux, nauxf, QV, QF, fc, i, p);
        base[o * W] = (dg_real)out[i];
      }
    }
  }
  if (!rc) rc = d->be->to_device(d->d_aux, a, bytes);
  free(a);
  return rc;
}

int dg_disc_set_model_aux(dg_disc *d) { return dg_disc_set_aux(d, model_aux, d->model); }
