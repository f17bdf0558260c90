/* dg_krylov_t.h - CG and FGMRES, written once: the including file defines DG_SR (real
 * type) and DG_SN(name) (name with precision suffix).  No include guard. */

int DG_SN(dg_diag_apply)(void *ctx, const DG_SR *x, DG_SR *y) {
  const DG_SN(dg_diag) *D = (const DG_SN(dg_diag) *)ctx;
  DG_SN(dg_svec_mul)(D->be, D->n, D->d, x, y);
  return 0;
}

int DG_SN(dg_cg)(const dg_backend *be, long n, DG_SN(dg_linop) A, void *actx, DG_SN(dg_linop) P,
                 void *pctx, const DG_SR *b, DG_SR *x, const dg_krylov_opts *o,
                 dg_krylov_stats *st) {
  st->its = 0;
  st->rel = 1;
  st->converged = 0;
  DG_SR *r = (DG_SR *)dg_svec_alloc(be, sizeof(DG_SR) * (size_t)n);
  DG_SR *z = (DG_SR *)dg_svec_alloc(be, sizeof(DG_SR) * (size_t)n);
  DG_SR *p = (DG_SR *)dg_svec_alloc(be, sizeof(DG_SR) * (size_t)n);
  DG_SR *q = (DG_SR *)dg_svec_alloc(be, sizeof(DG_SR) * (size_t)n);
  int rc = 0;
  if (!r || !z || !p || !q) {
    rc = dg_error(DG_ERR_MEM, "CG: out of memory (4 x %ld reals)", n);
    goto done;
  }
  const double bn = sqrt(DG_SN(dg_svec_dot)(be, n, b, b));
  if (bn == 0) {
    DG_SN(dg_svec_zero)(be, n, x);
    st->rel = 0;
    st->converged = 1;
    goto done;
  }
  if ((rc = A(actx, x, r))) goto done;
  DG_SN(dg_svec_xpby)(be, n, b, (DG_SR)-1, r); /* r = b - A x */
  double rn = sqrt(DG_SN(dg_svec_dot)(be, n, r, r));
  st->rel = rn / bn;
  if (st->rel <= o->rtol) {
    st->converged = 1;
    goto done;
  }
  double rz = 0;
  for (int it = 1; it <= o->maxit; ++it) {
    if (P) {
      if ((rc = P(pctx, r, z))) goto done;
    } else {
      DG_SN(dg_svec_copy)(be, n, r, z);
    }
    const double rz_new = DG_SN(dg_svec_dot)(be, n, r, z);
    if (it == 1)
      DG_SN(dg_svec_copy)(be, n, z, p);
    else
      DG_SN(dg_svec_xpby)(be, n, z, (DG_SR)(rz_new / rz), p);
    rz = rz_new;
    if ((rc = A(actx, p, q))) goto done;
    const double pq = DG_SN(dg_svec_dot)(be, n, p, q);
    if (!(pq > 0) || !isfinite(pq)) {
      rc = dg_error(DG_ERR_NUMERIC, "CG: p'Ap = %g at iteration %d (operator not SPD?)", pq, it);
      goto done;
    }
    const double alpha = rz / pq;
    /* x += alpha p, r -= alpha q and r'r in one pass */
    rn = sqrt(DG_SN(dg_svec_cg_step)(be, n, (DG_SR)alpha, p, q, x, r));
    if ((rc = dg_svec_status(be))) goto done;
    st->its = it;
    st->rel = rn / bn;
    if (o->monitor) o->monitor(o->monitor_ctx, it, st->rel);
    if (!isfinite(st->rel)) {
      rc = dg_error(DG_ERR_NUMERIC, "CG: residual not finite at iteration %d", it);
      goto done;
    }
    if (st->rel <= o->rtol) {
      st->converged = 1;
      break;
    }
  }
done:
  dg_svec_free(be, r);
  dg_svec_free(be, z);
  dg_svec_free(be, p);
  dg_svec_free(be, q);
  return rc;
}

int DG_SN(dg_fgmres)(const dg_backend *be, long n, DG_SN(dg_linop) A, void *actx, DG_SN(dg_linop) P,
                     void *pctx, const DG_SR *b, DG_SR *x, const dg_krylov_opts *o,
                     dg_krylov_stats *st) {
  enum { MMAX = 200 };
  const int m = o->restart <= 0 ? 30 : (o->restart > MMAX ? MMAX : o->restart);
  st->its = 0;
  st->rel = 1;
  st->converged = 0;
  DG_SR *V = (DG_SR *)dg_svec_alloc(be, sizeof(DG_SR) * (size_t)n * (size_t)(m + 1));
  DG_SR *Z = (DG_SR *)dg_svec_alloc(be, sizeof(DG_SR) * (size_t)n * (size_t)m);
  double *H = malloc(sizeof(double) * (size_t)(m + 1) * (size_t)m);
  double cs[MMAX], sn[MMAX], g[MMAX + 1], y[MMAX];
  int rc = 0;
  if (!V || !Z || !H) {
    rc = dg_error(DG_ERR_MEM, "FGMRES: out of memory (%d x %ld reals)", 2 * m + 1, n);
    goto done;
  }
  const double bn = sqrt(DG_SN(dg_svec_dot)(be, n, b, b));
  if (bn == 0) {
    DG_SN(dg_svec_zero)(be, n, x);
    st->rel = 0;
    st->converged = 1;
    goto done;
  }
  while (st->its < o->maxit) {
    DG_SR *v0 = V;
    if ((rc = A(actx, x, v0))) goto done;
    DG_SN(dg_svec_xpby)(be, n, b, (DG_SR)-1, v0); /* r = b - A x */
    const double beta = sqrt(DG_SN(dg_svec_dot)(be, n, v0, v0));
    if ((rc = dg_svec_status(be))) goto done;
    st->rel = beta / bn;
    if (!isfinite(st->rel)) {
      rc = dg_error(DG_ERR_NUMERIC, "FGMRES: residual not finite after %d iterations", st->its);
      goto done;
    }
    if (st->rel <= o->rtol) {
      st->converged = 1;
      break;
    }
    DG_SN(dg_svec_scale)(be, n, (DG_SR)(1 / beta), v0);
    g[0] = beta;
    int k = 0;
    for (int j = 0; j < m && st->its < o->maxit; ++j) {
      DG_SR *vj = V + (size_t)j * n, *zj = Z + (size_t)j * n, *w = V + (size_t)(j + 1) * n;
      if (P) {
        if ((rc = P(pctx, vj, zj))) goto done;
      } else {
        DG_SN(dg_svec_copy)(be, n, vj, zj);
      }
      if ((rc = A(actx, zj, w))) goto done;
      for (int i = 0; i <= j; ++i) { /* modified Gram-Schmidt */
        const DG_SR *vi = V + (size_t)i * n;
        const double hij = DG_SN(dg_svec_dot)(be, n, w, vi);
        H[i * m + j] = hij;
        DG_SN(dg_svec_axpy)(be, n, (DG_SR)-hij, vi, w);
      }
      const double hn = sqrt(DG_SN(dg_svec_dot)(be, n, w, w));
      H[(j + 1) * m + j] = hn;
      if (hn > 0) DG_SN(dg_svec_scale)(be, n, (DG_SR)(1 / hn), w);
      for (int i = 0; i < j; ++i) { /* the earlier rotations */
        const double a = H[i * m + j], c = H[(i + 1) * m + j];
        H[i * m + j] = cs[i] * a + sn[i] * c;
        H[(i + 1) * m + j] = -sn[i] * a + cs[i] * c;
      }
      const double a = H[j * m + j], c = H[(j + 1) * m + j], rr = hypot(a, c);
      cs[j] = rr > 0 ? a / rr : 1;
      sn[j] = rr > 0 ? c / rr : 0;
      H[j * m + j] = rr;
      H[(j + 1) * m + j] = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      k = j + 1;
      st->its++;
      st->rel = fabs(g[j + 1]) / bn;
      if (o->monitor) o->monitor(o->monitor_ctx, st->its, st->rel);
      if (st->rel <= o->rtol || hn == 0) break;
    }
    for (int i = k - 1; i >= 0; --i) { /* back substitution */
      double s = g[i];
      for (int l = i + 1; l < k; ++l) s -= H[i * m + l] * y[l];
      if (H[i * m + i] == 0) {
        rc = dg_error(DG_ERR_NUMERIC, "FGMRES: singular Hessenberg matrix at %d", i);
        goto done;
      }
      y[i] = s / H[i * m + i];
    }
    for (int i = 0; i < k; ++i) DG_SN(dg_svec_axpy)(be, n, (DG_SR)y[i], Z + (size_t)i * n, x);
    if (st->rel <= o->rtol) {
      /* the recursive residual said so; the loop head checks the true one */
      continue;
    }
  }
done:
  dg_svec_free(be, V);
  dg_svec_free(be, Z);
  free(H);
  return rc;
}
