/* dg_krylov_t.h - CG, written once: the including file defines DG_SR (real
 * type) and DG_SN(name) (name with precision suffix).  No include guard. */

int DG_SN(dg_diag_apply)(void *ctx, const DG_SR *x, DG_SR *y) {
  const DG_SN(dg_diag) *D = (const DG_SN(dg_diag) *)ctx;
  DG_SN(dg_svec_mul)(D->n, D->d, x, y);
  return 0;
}

int DG_SN(dg_cg)(long n, DG_SN(dg_linop) A, void *actx, DG_SN(dg_linop) P, void *pctx,
                 const DG_SR *b, DG_SR *x, const dg_krylov_opts *o, dg_krylov_stats *st) {
  st->its = 0;
  st->rel = 1;
  st->converged = 0;
  DG_SR *r = malloc(sizeof(DG_SR) * (size_t)n), *z = malloc(sizeof(DG_SR) * (size_t)n);
  DG_SR *p = malloc(sizeof(DG_SR) * (size_t)n), *q = malloc(sizeof(DG_SR) * (size_t)n);
  int rc = 0;
  if (!r || !z || !p || !q) {
    rc = dg_error(DG_ERR_MEM, "CG: out of memory (4 x %ld reals)", n);
    goto done;
  }
  const double bn = sqrt(DG_SN(dg_svec_dot)(n, b, b));
  if (bn == 0) {
    DG_SN(dg_svec_zero)(n, x);
    st->rel = 0;
    st->converged = 1;
    goto done;
  }
  if ((rc = A(actx, x, r))) goto done;
  DG_SN(dg_svec_xpby)(n, b, (DG_SR)-1, r); /* r = b - A x */
  double rn = sqrt(DG_SN(dg_svec_dot)(n, r, r));
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
      DG_SN(dg_svec_copy)(n, r, z);
    }
    const double rz_new = DG_SN(dg_svec_dot)(n, r, z);
    if (it == 1)
      DG_SN(dg_svec_copy)(n, z, p);
    else
      DG_SN(dg_svec_xpby)(n, z, (DG_SR)(rz_new / rz), p);
    rz = rz_new;
    if ((rc = A(actx, p, q))) goto done;
    const double pq = DG_SN(dg_svec_dot)(n, p, q);
    if (!(pq > 0) || !isfinite(pq)) {
      rc = dg_error(DG_ERR_NUMERIC, "CG: p'Ap = %g at iteration %d (operator not SPD?)", pq, it);
      goto done;
    }
    const double alpha = rz / pq;
    DG_SN(dg_svec_axpy)(n, (DG_SR)alpha, p, x);
    DG_SN(dg_svec_axpy)(n, (DG_SR)-alpha, q, r);
    rn = sqrt(DG_SN(dg_svec_dot)(n, r, r));
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
  free(r);
  free(z);
  free(p);
  free(q);
  return rc;
}
