/* dg_mg_t.h - the multigrid cycle, written once: the including file defines
 * DG_SR (real type), DG_SN(name) (name with precision suffix), DG_SV(lev)
 * (the level's work vectors of that precision) and DG_SDINV(lev) (its
 * inverse diagonal).  No include guard. */

static int DG_SN(mg_apply)(dg_mg *mg, int l, const DG_SR *x, DG_SR *y) {
  const dg_mg_level *L = &mg->lev[l];
  mg->work += (double)L->n / (double)mg->lev[0].n;
  return DG_SN(dg_sop_apply)(L->op, x, y);
}

/* z = D^-1 r: point or element-block Jacobi. */
static int DG_SN(mg_jacobi)(dg_mg *mg, int l, const DG_SR *r, DG_SR *z) {
  const dg_mg_level *L = &mg->lev[l];
  if (L->bj) return DG_SN(dg_sblock_apply)(L->bj, r, z);
  DG_SN(dg_svec_mul)(L->n, DG_SDINV(L), r, z);
  return 0;
}

/* Chebyshev-accelerated Jacobi on [lmax/range, lmax] (Saad, Alg. 12.1),
 * smooth_deg steps; x = 0 on entry when zero is set (saves one apply). */
static int DG_SN(mg_smooth)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x, int zero) {
  dg_mg_level *L = &mg->lev[l];
  const long n = L->n;
  DG_SR *d = DG_SV(L)[MG_D], *t = DG_SV(L)[MG_T], *p = DG_SV(L)[MG_R];
  const double lmax = L->lmax, lmin = lmax / mg->o.smooth_range;
  const double theta = 0.5 * (lmax + lmin), delta = 0.5 * (lmax - lmin), s1 = theta / delta;
  double rho = 1 / s1;
  const DG_SR c0 = (DG_SR)(1 / theta);
  if (zero) {
    DG_CALL(DG_SN(mg_jacobi)(mg, l, b, p));
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      d[i] = c0 * p[i];
      x[i] = d[i];
    }
  } else {
    DG_CALL(DG_SN(mg_apply)(mg, l, x, t));
    DG_SN(dg_svec_xpby)(n, b, (DG_SR)-1, t);
    DG_CALL(DG_SN(mg_jacobi)(mg, l, t, p));
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      d[i] = c0 * p[i];
      x[i] += d[i];
    }
  }
  for (int k = 2; k <= mg->o.smooth_deg; ++k) {
    const double rn = 1 / (2 * s1 - rho);
    const DG_SR c1 = (DG_SR)(rn * rho), c2 = (DG_SR)(2 * rn / delta);
    rho = rn;
    DG_CALL(DG_SN(mg_apply)(mg, l, x, t));
    DG_SN(dg_svec_xpby)(n, b, (DG_SR)-1, t);
    DG_CALL(DG_SN(mg_jacobi)(mg, l, t, p));
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
      d[i] = c1 * d[i] + c2 * p[i];
      x[i] += d[i];
    }
  }
  return 0;
}

/* bc = R r: restriction of the residual r of level l to level l+1. */
static void DG_SN(mg_restrict)(dg_mg *mg, int l, const DG_SR *r, DG_SR *bc) {
  const dg_sop *F = mg->lev[l].op, *C = mg->lev[l + 1].op;
  const dg_grid *gf = dg_sop_grid(F), *gc = dg_sop_grid(C);
  const uint8_t *df = dg_sop_degrees(F), *dc = dg_sop_degrees(C);
  const long *of = dg_sop_offsets(F), *oc = dg_sop_offsets(C);
  const int dim = gf->dim;
  if (mg->lev[l + 1].kind == 'p') {
#pragma omp parallel for schedule(static)
    for (long e = 0; e < gc->nelem; ++e) {
      const int nf = df[e] + 1, nc = dc[e] + 1, nc2 = dim == 3 ? nc : 1;
      for (int i2 = 0; i2 < nc2; ++i2)
        for (int i1 = 0; i1 < nc; ++i1)
          for (int i0 = 0; i0 < nc; ++i0)
            bc[oc[e] + i0 + nc * (i1 + nc * i2)] = r[of[e] + i0 + nf * (i1 + nf * i2)];
    }
  } else {
    const DG_SN(dg_stab) *T = DG_SN(dg_sop_tab)(F);
#pragma omp parallel for schedule(static)
    for (long e = 0; e < gc->nelem; ++e) {
      int ijk[3];
      dg_grid_ijk(gc, e, ijk);
      const int nc = dc[e] + 1;
      long m = nc * nc * (dim == 3 ? nc : 1);
      for (long i = 0; i < m; ++i) bc[oc[e] + i] = 0;
      for (int c2 = 0; c2 < (dim == 3 ? 2 : 1); ++c2)
        for (int c1 = 0; c1 < 2; ++c1)
          for (int c0 = 0; c0 < 2; ++c0) {
            const int c[3] = {c0, c1, c2};
            const long ef =
                dg_grid_elem(gf, 2 * ijk[0] + c0, 2 * ijk[1] + c1, dim == 3 ? 2 * ijk[2] + c2 : 0);
            DG_SN(dg_sh_restrict)(T, dim, c, df[ef], r + of[ef], dc[e], bc + oc[e]);
          }
    }
  }
}

/* x += P xc: prolongation of level l+1's correction to level l, added. */
static void DG_SN(mg_prolong_add)(dg_mg *mg, int l, const DG_SR *xc, DG_SR *x) {
  const dg_sop *F = mg->lev[l].op, *C = mg->lev[l + 1].op;
  const dg_grid *gf = dg_sop_grid(F), *gc = dg_sop_grid(C);
  const uint8_t *df = dg_sop_degrees(F), *dc = dg_sop_degrees(C);
  const long *of = dg_sop_offsets(F), *oc = dg_sop_offsets(C);
  const int dim = gf->dim;
  if (mg->lev[l + 1].kind == 'p') {
#pragma omp parallel for schedule(static)
    for (long e = 0; e < gc->nelem; ++e) {
      const int nf = df[e] + 1, nc = dc[e] + 1, nc2 = dim == 3 ? nc : 1;
      for (int i2 = 0; i2 < nc2; ++i2)
        for (int i1 = 0; i1 < nc; ++i1)
          for (int i0 = 0; i0 < nc; ++i0)
            x[of[e] + i0 + nf * (i1 + nf * i2)] += xc[oc[e] + i0 + nc * (i1 + nc * i2)];
    }
  } else {
    const DG_SN(dg_stab) *T = DG_SN(dg_sop_tab)(F);
#pragma omp parallel for schedule(static)
    for (long e = 0; e < gf->nelem; ++e) {
      int ijk[3];
      dg_grid_ijk(gf, e, ijk);
      const int c[3] = {ijk[0] & 1, ijk[1] & 1, ijk[2] & 1};
      const long ec = dg_grid_elem(gc, ijk[0] / 2, ijk[1] / 2, ijk[2] / 2);
      DG_SN(dg_sh_prolong)(T, dim, c, dc[ec], xc + oc[ec], df[e], x + of[e]);
    }
  }
}

static int DG_SN(mg_coarse)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x);

/* x = V-cycle(b) on level l from x = 0. */
static int DG_SN(mg_vcycle)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x) {
  if (l == mg->nl - 1) return DG_SN(mg_coarse)(mg, l, b, x);
  dg_mg_level *L = &mg->lev[l], *C = &mg->lev[l + 1];
  const long n = L->n;
  DG_SR *r = DG_SV(L)[MG_R];
  DG_CALL(DG_SN(mg_smooth)(mg, l, b, x, 1));
  DG_CALL(DG_SN(mg_apply)(mg, l, x, r));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) r[i] = b[i] - r[i];
  DG_SN(mg_restrict)(mg, l, r, DG_SV(C)[MG_B]);
  DG_CALL(DG_SN(mg_vcycle)(mg, l + 1, DG_SV(C)[MG_B], DG_SV(C)[MG_X]));
  DG_SN(mg_prolong_add)(mg, l, DG_SV(C)[MG_X], x);
  return DG_SN(mg_smooth)(mg, l, b, x, 0);
}

/* x = F-cycle(b) on level l from x = 0: the coarse correction is an F-cycle
 * followed by a V-cycle on its residual. */
static int DG_SN(mg_fcycle)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x) {
  if (l == mg->nl - 1) return DG_SN(mg_coarse)(mg, l, b, x);
  dg_mg_level *L = &mg->lev[l], *C = &mg->lev[l + 1];
  const long n = L->n, nc = C->n;
  DG_SR *r = DG_SV(L)[MG_R];
  DG_CALL(DG_SN(mg_smooth)(mg, l, b, x, 1));
  DG_CALL(DG_SN(mg_apply)(mg, l, x, r));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) r[i] = b[i] - r[i];
  DG_SR *bc = DG_SV(C)[MG_B], *xc = DG_SV(C)[MG_X];
  DG_SN(mg_restrict)(mg, l, r, bc);
  DG_CALL(DG_SN(mg_fcycle)(mg, l + 1, bc, xc));
  if (l + 1 < mg->nl - 1) {
    /* second correction: r_c = b_c - A_c x_c in C's R, a V-cycle into C's T
       (the V-cycle on level l+1 uses C's D and T only as smoother scratch,
       so keep the correction in this level's T instead) */
    DG_SR *rc = DG_SV(C)[MG_R], *cc = DG_SV(L)[MG_T];
    DG_CALL(DG_SN(mg_apply)(mg, l + 1, xc, rc));
#pragma omp parallel for schedule(static)
    for (long i = 0; i < nc; ++i) rc[i] = bc[i] - rc[i];
    /* the V-cycle on l+1 overwrites C's B and X: move the data aside */
    DG_SR *keep = DG_SV(L)[MG_D];
    for (long i = 0; i < nc; ++i) keep[i] = xc[i];
    for (long i = 0; i < nc; ++i) bc[i] = rc[i];
    DG_CALL(DG_SN(mg_vcycle)(mg, l + 1, bc, cc));
    for (long i = 0; i < nc; ++i) xc[i] = keep[i] + cc[i];
  }
  DG_SN(mg_prolong_add)(mg, l, xc, x);
  return DG_SN(mg_smooth)(mg, l, b, x, 0);
}

int DG_SN(dg_mg_cycle)(dg_mg *mg, const DG_SR *b, DG_SR *x) {
  if (!DG_SV(&mg->lev[0])[MG_R])
    return dg_error(DG_ERR_ARG, "dg_mg_cycle: the " DG_SRNAME " cycle was not set up");
  mg->cycles++;
  return mg->o.cycle == DG_MG_F ? DG_SN(mg_fcycle)(mg, 0, b, x) : DG_SN(mg_vcycle)(mg, 0, b, x);
}

int DG_SN(dg_mg_precond)(void *ctx, const DG_SR *r, DG_SR *z) {
  return DG_SN(dg_mg_cycle)((dg_mg *)ctx, r, z);
}
