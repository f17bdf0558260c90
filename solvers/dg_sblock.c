/* dg_sblock.c - element-block Jacobi: the 1D eigenproblems (cyclic Jacobi
 * rotations, host, setup).  The backends' drivers (backends/omp/dg_sop_omp.c,
 * backends/cuda/dg_sop_cuda_{d,f}.cu) apply dg_sblock_solve_* per element. */
#include "dg_sblock_internal.h"

#include "dg_error.h"
#include "dg_svec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NR = DG_SNR, NSIDE = DG_SBLOCK_NSIDE }; /* side: penalty degree, + NR on a boundary */

int dg_sym_eig(int n, int ld, double *A, double *Q, double *l) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) Q[i * ld + j] = i == j;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, tot = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        tot += A[i * ld + j] * A[i * ld + j];
        if (i != j) off += A[i * ld + j] * A[i * ld + j];
      }
    if (off <= 1e-30 * tot) {
      for (int i = 0; i < n; ++i) l[i] = A[i * ld + i];
      return 0;
    }
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        const double apq = A[p * ld + q];
        if (apq == 0) continue;
        const double th = (A[q * ld + q] - A[p * ld + p]) / (2 * apq);
        const double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
        const double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) { /* columns p, q */
          const double akp = A[k * ld + p], akq = A[k * ld + q];
          A[k * ld + p] = c * akp - s * akq;
          A[k * ld + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) { /* rows p, q */
          const double apk = A[p * ld + k], aqk = A[q * ld + k];
          A[p * ld + k] = c * apk - s * aqk;
          A[q * ld + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; ++k) {
          const double qkp = Q[k * ld + p], qkq = Q[k * ld + q];
          Q[k * ld + p] = c * qkp - s * qkq;
          Q[k * ld + q] = s * qkp + c * qkq;
        }
      }
  }
  return dg_error(DG_ERR_NUMERIC, "block smoother: eigenproblem of size %d did not converge", n);
}

int dg_stables_fill(const dg_backend *be, double *V, double *lam, float *Vf, float *lamf, size_t vn,
                    size_t ln, dg_stables_build build, void *ctx) {
  double *Vh = NULL, *lh = NULL;
  float *Vfh = NULL, *lfh = NULL;
  int rc = dg_svec_map(be, V, sizeof(double) * vn, DG_SVEC_WRITE, (void **)&Vh);
  if (!rc) rc = dg_svec_map(be, lam, sizeof(double) * ln, DG_SVEC_WRITE, (void **)&lh);
  if (!rc) rc = dg_svec_map(be, Vf, sizeof(float) * vn, DG_SVEC_WRITE, (void **)&Vfh);
  if (!rc) rc = dg_svec_map(be, lamf, sizeof(float) * ln, DG_SVEC_WRITE, (void **)&lfh);
  if (!rc) {
    memset(Vh, 0, sizeof(double) * vn);
    memset(lh, 0, sizeof(double) * ln);
    rc = build(ctx, Vh, lh);
  }
  if (!rc) {
    for (size_t i = 0; i < vn; ++i) Vfh[i] = (float)Vh[i];
    for (size_t i = 0; i < ln; ++i) lfh[i] = (float)lh[i];
  }
  /* every view ends (its copy freed); they go back only after a build */
  const int mode = rc ? 0 : DG_SVEC_WRITE;
  const int u[4] = {dg_svec_unmap(be, V, Vh, sizeof(double) * vn, mode),
                    dg_svec_unmap(be, lam, lh, sizeof(double) * ln, mode),
                    dg_svec_unmap(be, Vf, Vfh, sizeof(float) * vn, mode),
                    dg_svec_unmap(be, lamf, lfh, sizeof(float) * ln, mode)};
  for (int i = 0; i < 4 && !rc; ++i) rc = u[i];
  return rc;
}

/* The 1D block of direction d for degree r whose lower/upper sides have
 * the side codes lo, hi (penalty degree, + NR on a Dirichlet boundary),
 * scaled by M^-1/2. */
static int key_setup(const dg_sblock *bj, double *Vh, double *lamh, int k, int d, int r, int lo,
                     int hi) {
  const dg_sop *op = bj->op;
  const dg_stab_d *T = &op->tab_d;
  const dg_grid *g = &op->g;
  const int n = r + 1;
  double half[3], vol = 1;
  for (int e = 0; e < 3; ++e) half[e] = e < g->dim ? g->h[e] / 2 : 1;
  for (int e = 0; e < g->dim; ++e) vol *= half[e];
  const double h = g->h[d], w = vol / (half[d] * half[d]), J = vol / half[d], b = op->p.b;
  double G[NR * NR], Q[NR * NR];
  const int rs[2] = {lo, hi};
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < n; ++c) {
      double v = w * T->K[a][c];
      for (int s = 0; s < 2; ++s) {
        const int bnd = rs[s] >= NR, rm = rs[s] % NR;
        const double sg = s ? 1 : -1, wav = bnd ? 1 : 0.5;
        const double sig = op->p.cpen * (rm + 1) * (rm + 1) / h;
        v += J * (sig * T->Pe[s][a] * T->Pe[s][c] -
                  sg * wav * (2 / h) * (T->Pe[s][a] * T->De[s][c] + T->De[s][a] * T->Pe[s][c]));
      }
      G[a * NR + c] = b * v / sqrt(T->M[a] * T->M[c]);
    }
  double *V = Vh + (long)k * NR * NR, *lam = lamh + (long)k * NR;
  DG_CALL(dg_sym_eig(n, NR, G, Q, lam));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) V[i * NR + j] = Q[i * NR + j] / sqrt(T->M[i]);
  return 0;
}

/* Every distinct key's block into host views V, lam (dg_stables_fill). */
static int build_keys(void *ctx, double *V, double *lam) {
  const dg_sblock *bj = (const dg_sblock *)ctx;
  for (int d = 0; d < 3; ++d)
    for (int r = 0; r < NR; ++r)
      for (int lo = 0; lo < NSIDE; ++lo)
        for (int hi = 0; hi < NSIDE; ++hi) {
          const int k = bj->slot[d][r][lo][hi];
          if (k >= 0) DG_CALL(key_setup(bj, V, lam, k, d, r, lo, hi));
        }
  return 0;
}

int dg_sblock_create(dg_sblock **bjp, const dg_sop *op) {
  *bjp = NULL;
  const dg_grid *g = &op->g;
  const dg_backend *be = op->be;
  dg_sblock *bj = calloc(1, sizeof *bj);
  if (!bj) return dg_error(DG_ERR_MEM, "dg_sblock_create: out of memory");
  bj->op = op;
  bj->be = be;
  memset(bj->slot, -1, sizeof bj->slot);
  /* the tables are built on the host (views of solver memory: copies on
     the CUDA backend, dg_svec_map) and go to the backend once */
  const size_t keyb = sizeof(int) * 3 * (size_t)g->nelem;
  int *key = NULL;
  int rc = 0;
  bj->key = dg_svec_alloc(be, keyb);
  if (!bj->key) {
    rc = dg_error(DG_ERR_MEM, "dg_sblock_create: out of memory");
    goto fail;
  }
  if ((rc = dg_svec_map(be, bj->key, keyb, DG_SVEC_WRITE, (void **)&key))) goto fail;
  /* pass 1: the distinct keys (the host's degree tables, op->hargs_d) */
  for (long e = 0; e < g->nelem; ++e)
    for (int d = 0; d < g->dim; ++d) {
      const int r = op->deg[e];
      int side[2];
      for (int s = 0; s < 2; ++s) {
        const long nb = dg_snbr_d(&op->hargs_d, e, d, s);
        const int pe = op->pdeg[e];
        side[s] = nb < 0 ? NR + pe : (op->pdeg[nb] > pe ? op->pdeg[nb] : pe);
      }
      int *sl = &bj->slot[d][r][side[0]][side[1]];
      if (*sl < 0) *sl = bj->nkeys++;
      key[3 * e + d] = *sl;
    }
  rc = dg_svec_unmap(be, bj->key, key, keyb, DG_SVEC_WRITE);
  if (rc) goto fail;
  const size_t vn = (size_t)bj->nkeys * NR * NR, ln = (size_t)bj->nkeys * NR;
  bj->V = dg_svec_alloc(be, sizeof(double) * vn);
  bj->lam = dg_svec_alloc(be, sizeof(double) * ln);
  bj->Vf = dg_svec_alloc(be, sizeof(float) * vn);
  bj->lamf = dg_svec_alloc(be, sizeof(float) * ln);
  if (!bj->V || !bj->lam || !bj->Vf || !bj->lamf) {
    rc = dg_error(DG_ERR_MEM, "dg_sblock_create: out of memory");
    goto fail;
  }
  if ((rc = dg_stables_fill(be, bj->V, bj->lam, bj->Vf, bj->lamf, vn, ln, build_keys, bj)))
    goto fail;
  bj->shift = op->p.a;
  for (int d = 0; d < g->dim; ++d) bj->shift *= g->h[d] / 2;
  *bjp = bj;
  return 0;
fail:
  dg_sblock_destroy(&bj);
  return rc;
}

void dg_sblock_destroy(dg_sblock **bj) {
  if (!bj || !*bj) return;
  const dg_backend *be = (*bj)->be;
  dg_svec_free(be, (*bj)->key);
  dg_svec_free(be, (*bj)->V);
  dg_svec_free(be, (*bj)->lam);
  dg_svec_free(be, (*bj)->Vf);
  dg_svec_free(be, (*bj)->lamf);
  free(*bj);
  *bj = NULL;
}

int dg_sblock_nkeys(const dg_sblock *bj) { return bj->nkeys; }
