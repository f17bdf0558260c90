/* dg_mg_t.h - the multigrid cycle, written once: the including file defines
 * DG_SR (real type), DG_SN(name) (name with precision suffix), DG_SV(lev)
 * (the level's work vectors of that precision) and DG_SDINV(lev) (its
 * inverse diagonal), and mg_work_apply (the count of fine-level applies).
 * No include guard. */

static int DG_SN(mg_apply)(dg_mg *mg, int l, const DG_SR *x, DG_SR *y) {
  mg_work_apply(mg, l);
  return DG_SN(dg_sop_apply)(mg->lev[l].op, x, y);
}

/* z = D^-1 r: point or element-block Jacobi, or the vertex patches. */
static int DG_SN(mg_jacobi)(dg_mg *mg, int l, const DG_SR *r, DG_SR *z) {
  const dg_mg_level *L = &mg->lev[l];
  if (L->sp) return DG_SN(dg_spatch_apply)(L->sp, r, z);
  if (L->bj) return DG_SN(dg_sblock_apply)(L->bj, r, z);
  DG_SN(dg_svec_mul)(mg->be, L->n, DG_SDINV(L), r, z);
  return 0;
}

/* p = D^-1 (b - A x), the smoother's step (t: scratch for the residual).
 * With element blocks the backend does it in one call (the CUDA driver in
 * one pass on uniform levels; the results are those of the three calls). */
static int DG_SN(mg_resid_jacobi)(dg_mg *mg, int l, const DG_SR *x, const DG_SR *b, DG_SR *t,
                                  DG_SR *p) {
  const dg_mg_level *L = &mg->lev[l];
  if (L->bj) {
    mg_work_apply(mg, l);
    return DG_SN(dg_sblock_resid)(L->bj, x, b, t, p);
  }
  DG_CALL(DG_SN(mg_apply)(mg, l, x, t));
  DG_SN(dg_svec_xpby)(mg->be, L->n, b, (DG_SR)-1, t);
  return DG_SN(mg_jacobi)(mg, l, t, p);
}

/* One Chebyshev step (dg_svec_cheb); the last one of a smoothing whose
 * result is only added into y (y set) adds s x there instead of writing x. */
static void DG_SN(mg_cheb_step)(const dg_mg *mg, long n, DG_SR c1, DG_SR c2, const DG_SR *p,
                                DG_SR *d, DG_SR *x, int first, int last, double s, double *y) {
  if (last && y)
    DG_SN(dg_svec_cheb_add)(mg->be, n, c1, c2, p, d, x, first, s, y);
  else
    DG_SN(dg_svec_cheb)(mg->be, n, c1, c2, p, d, x, first);
}

/* Chebyshev-accelerated Jacobi on [lmax/range, lmax] (Saad, Alg. 12.1),
 * smooth_deg steps; x = 0 on entry when zero is set (saves one apply).
 * With y set, the result is not left in x but added into y scaled by s
 * (y += s x: the mixed cycle's post-smoother, whose last step then writes
 * y alone). */
static int DG_SN(mg_smooth_to)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x, int zero, double s,
                               double *y) {
  dg_mg_level *L = &mg->lev[l];
  const long n = L->n;
  const int m = mg->o.smooth_deg;
  DG_SR *d = DG_SV(L)[MG_D], *t = DG_SV(L)[MG_T], *p = DG_SV(L)[MG_R];
  const double lmax = L->lmax, lmin = lmax / L->range;
  const double theta = 0.5 * (lmax + lmin), delta = 0.5 * (lmax - lmin), s1 = theta / delta;
  double rho = 1 / s1;
  const DG_SR c0 = (DG_SR)(1 / theta);
  if (zero)
    DG_CALL(DG_SN(mg_jacobi)(mg, l, b, p));
  else
    DG_CALL(DG_SN(mg_resid_jacobi)(mg, l, x, b, t, p));
  DG_SN(mg_cheb_step)(mg, n, 0, c0, p, d, x, zero, m <= 1, s, y);
  for (int k = 2; k <= m; ++k) {
    const double rn = 1 / (2 * s1 - rho);
    const DG_SR c1 = (DG_SR)(rn * rho), c2 = (DG_SR)(2 * rn / delta);
    rho = rn;
    DG_CALL(DG_SN(mg_resid_jacobi)(mg, l, x, b, t, p));
    DG_SN(mg_cheb_step)(mg, n, c1, c2, p, d, x, 0, k == m, s, y);
  }
  return 0;
}

static int DG_SN(mg_smooth)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x, int zero) {
  return DG_SN(mg_smooth_to)(mg, l, b, x, zero, 0, NULL);
}

/* bc = R r: restriction of the residual r of level l to level l+1. */
static int DG_SN(mg_restrict)(dg_mg *mg, int l, const DG_SR *r, DG_SR *bc) {
  return DG_SN(dg_sop_restrict)(mg->lev[l].op, mg->lev[l + 1].op, mg->lev[l + 1].kind == 'p', r,
                                bc);
}

/* x += P xc: prolongation of level l+1's correction to level l, added. */
static int DG_SN(mg_prolong_add)(dg_mg *mg, int l, const DG_SR *xc, DG_SR *x) {
  return DG_SN(dg_sop_prolong_add)(mg->lev[l].op, mg->lev[l + 1].op, mg->lev[l + 1].kind == 'p', xc,
                                   x);
}

static int DG_SN(mg_coarse)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x);

/* The first half of a cycle on level l (not the coarsest): x pre-smoothed
 * from zero, and its residual restricted into level l+1's B. */
static int DG_SN(mg_pre)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x) {
  dg_mg_level *L = &mg->lev[l];
  DG_SR *r = DG_SV(L)[MG_R];
  DG_CALL(DG_SN(mg_smooth)(mg, l, b, x, 1));
  DG_CALL(DG_SN(mg_apply)(mg, l, x, r));
  DG_SN(dg_svec_xpby)(mg->be, L->n, b, (DG_SR)-1, r); /* r = b - A x */
  return DG_SN(mg_restrict)(mg, l, r, DG_SV(&mg->lev[l + 1])[MG_B]);
}

/* x = V-cycle(b) on level l from x = 0. */
static int DG_SN(mg_vcycle)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x) {
  if (l == mg->nl - 1) return DG_SN(mg_coarse)(mg, l, b, x);
  dg_mg_level *C = &mg->lev[l + 1];
  DG_CALL(DG_SN(mg_pre)(mg, l, b, x));
  DG_CALL(DG_SN(mg_vcycle)(mg, l + 1, DG_SV(C)[MG_B], DG_SV(C)[MG_X]));
  DG_CALL(DG_SN(mg_prolong_add)(mg, l, DG_SV(C)[MG_X], x));
  return DG_SN(mg_smooth)(mg, l, b, x, 0);
}

/* x = F-cycle(b) on level l from x = 0: the coarse correction is an F-cycle
 * followed by a V-cycle on its residual. */
static int DG_SN(mg_fcycle)(dg_mg *mg, int l, const DG_SR *b, DG_SR *x) {
  if (l == mg->nl - 1) return DG_SN(mg_coarse)(mg, l, b, x);
  dg_mg_level *L = &mg->lev[l], *C = &mg->lev[l + 1];
  const long nc = C->n;
  DG_SR *bc = DG_SV(C)[MG_B], *xc = DG_SV(C)[MG_X];
  DG_CALL(DG_SN(mg_pre)(mg, l, b, x));
  DG_CALL(DG_SN(mg_fcycle)(mg, l + 1, bc, xc));
  if (l + 1 < mg->nl - 1) {
    /* second correction: r_c = b_c - A_c x_c, a V-cycle on it into this
       level's T (the V-cycle on level l+1 uses C's D, T and R as smoother
       scratch) */
    DG_SR *rc = DG_SV(C)[MG_R], *cc = DG_SV(L)[MG_T];
    DG_CALL(DG_SN(mg_apply)(mg, l + 1, xc, rc));
    /* b_c is not needed again: it becomes the residual (C's R is the
       smoother's scratch); the V-cycle leaves C's B and X alone */
    DG_SN(dg_svec_axpy)(mg->be, nc, (DG_SR)-1, rc, bc);
    DG_CALL(DG_SN(mg_vcycle)(mg, l + 1, bc, cc));
    DG_SN(dg_svec_axpy)(mg->be, nc, (DG_SR)1, cc, xc);
  }
  DG_CALL(DG_SN(mg_prolong_add)(mg, l, xc, x));
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
