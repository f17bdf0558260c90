/* dg_sop_cuda_t.h - the CUDA solver driver in one precision: the
 * one-thread-per-element kernels over the element functions
 * (solvers/dg_sipg_elem.h), the launches of the line and team kernels
 * (dg_sop_cuda_line_t.h, dg_sop_cuda_team_t.h) and the entry points of
 * dg_solver_cuda.h.  Written once and included by dg_sop_cuda_{d,f}.cu per
 * precision (solvers/README.md, "One source, two precisions"): DG_SR,
 * DG_SN(name), DG_STAB_C (the constant-memory copy of that precision's
 * tables), DG_SBV(bj) and DG_SBL(bj) (the block solve's tables of that
 * precision) defined there, with the level tests and the launch macros
 * (tables, line_level, team_level, DG_LINE, DG_TEAM, DG_SOP_UNIFORM).  No
 * include guard on purpose. */

/* the constant-memory tables of this precision, through a call: it keeps
   the element apply's generated code as it was */
static __device__ const DG_SN(dg_stab) * DG_SN(tab)(void) { return &DG_STAB_C; }

/* the element functions of this precision (dg_sipg_elem_t.h) */
static __device__ inline void DG_SN(elem_r)(const DG_SN(dg_sargs) * A, const DG_SN(dg_stab) * T,
                                            long e, const DG_SR *x, DG_SR *y, int r) {
  DG_SOP_DISPATCH(DG_SN(dg_sipg_elem_r), A, T, e, x, y, r)
}
static __device__ inline void DG_SN(bsolve)(int dim, int r, const DG_SR *const V[3],
                                            const DG_SR *const l[3], DG_SR s, const DG_SR *rv,
                                            DG_SR *z) {
  DG_SN(dg_sblock_solve)(dim, r, V, l, s, rv, z);
}
static __device__ inline void DG_SN(restrict_elem)(const DG_SN(dg_sargs) * F,
                                                   const DG_SN(dg_sargs) * C, int p, long e,
                                                   const DG_SR *r, DG_SR *bc) {
  if (p)
    DG_SN(dg_sp_restrict_elem)(F, C, e, r, bc);
  else
    DG_SN(dg_sh_restrict_elem)(F, C, &DG_STAB_C, e, r, bc);
}
static __device__ inline void DG_SN(prolong_elem)(const DG_SN(dg_sargs) * F,
                                                  const DG_SN(dg_sargs) * C, int p, long e,
                                                  const DG_SR *xc, DG_SR *x) {
  if (p)
    DG_SN(dg_sp_prolong_elem)(F, C, e, xc, x);
  else
    DG_SN(dg_sh_prolong_elem)(F, C, &DG_STAB_C, e, xc, x);
}

/* One thread per element, the element function dispatched on the element's
   degree.  Kernels per (degree, dimension) for uniform levels, as
   dg_sop_k_block has, gave wrong applies in 2D at degrees 2 and 3 on the
   H100 (errors of order 1 in solvers.lane_element, 2026-11-25, where this
   kernel agrees with the host to 1e-16 on the same maps); the cause was not
   found, so the element plan keeps the dispatch on every level. */
static __global__ void DG_SN(dg_sop_k_apply)(DG_SN(dg_sargs) args, long ne, const DG_SR *x,
                                             DG_SR *y) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const DG_SN(dg_sargs) a = args;
  DG_SN(elem_r)(&a, DG_SN(tab)(), e, x, y, a.deg[e]);
}

static __global__ void DG_SN(dg_sop_k_diag)(DG_SN(dg_sargs) args, long ne, DG_SR *y) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const DG_SN(dg_sargs) a = args;
  DG_SN(dg_sipg_diag)(&a, &DG_STAB_C, e, y);
}

template <int DEG, int DIM>
static __global__ void
DG_SN(dg_sop_k_block)(long ne, int dim, const unsigned char *deg, const long *off, const int *key,
                      const DG_SR *Vs, const DG_SR *ls, DG_SR shift, const DG_SR *r, DG_SR *z) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const DG_SR *V[3] = {0, 0, 0}, *lam[3] = {0, 0, 0};
  const int dm = DIM ? DIM : dim;
  for (int d = 0; d < dm; ++d) {
    V[d] = Vs + (long)key[3 * e + d] * DG_SNR * DG_SNR;
    lam[d] = ls + (long)key[3 * e + d] * DG_SNR;
  }
  DG_SN(bsolve)(dm, DEG >= 0 ? DEG : deg[e], V, lam, shift, r + off[e], z + off[e]);
}

static __global__ void DG_SN(dg_sop_k_restrict)(DG_SN(dg_sargs) F, DG_SN(dg_sargs) C, int p,
                                                long ne, const DG_SR *r, DG_SR *bc) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const DG_SN(dg_sargs) f = F, c = C;
  DG_SN(restrict_elem)(&f, &c, p, e, r, bc);
}

static __global__ void DG_SN(dg_sop_k_prolong)(DG_SN(dg_sargs) F, DG_SN(dg_sargs) C, int p, long ne,
                                               const DG_SR *xc, DG_SR *x) {
  const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= ne) return;
  const DG_SN(dg_sargs) f = F, c = C;
  DG_SN(prolong_elem)(&f, &c, p, e, xc, x);
}

static void DG_SN(team_apply)(const dg_sop *op, const DG_SR *x, DG_SR *y) {
  const int ne = (int)op->g.nelem;
  if (line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(DG_SN(dg_sop_k_line_apply), d, D)
    DG_LINE(DG_K, (op->DG_SN(args), DG_SN(line_geo_make)(&op->DG_SN(args), op->g.dim), ne, x, y),
            op->runi, op->g.dim);
#undef DG_K
    return;
  }
#define DG_K(d, D) DG_TEAM_LAUNCH(DG_SN(dg_sop_k_team_apply), d, D)
  DG_TEAM(DG_K, (op->DG_SN(args), ne, x, y), op->runi, op->g.dim);
#undef DG_K
}

static int DG_SN(xfer)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *in, DG_SR *out,
                       int prolong) {
  /* the kernels take the whole box, parents at i / 2: one process's grids */
  if (!by_degree && (F->px || C->px))
    return dg_error(DG_ERR_ARG, "cuda solvers: the h-levels do not run across ranks yet");
  DG_CALL(tables(F));
  if (prolong) {
    const long ne = by_degree ? C->g.nelem : F->g.nelem;
    if (ne)
      DG_SN(dg_sop_k_prolong)<<<grid(ne), kThreads>>>(F->DG_SN(args), C->DG_SN(args), by_degree, ne,
                                                      in, out);
    return launched("prolongation kernel");
  }
  const long ne = C->g.nelem;
  if (ne)
    DG_SN(dg_sop_k_restrict)<<<grid(ne), kThreads>>>(F->DG_SN(args), C->DG_SN(args), by_degree, ne,
                                                     in, out);
  return launched("restriction kernel");
}

extern "C" {

int DG_SN(dg_cuda_sop_apply)(const dg_sop *op, const DG_SR *x, DG_SR *y) {
  DG_CALL(tables(op));
  const long ne = op->g.nelem;
  if (ne && (line_level(op) || team_level(op))) {
    DG_SN(team_apply)(op, x, y);
    return launched("operator kernel (line or team)");
  }
  if (ne) DG_SN(dg_sop_k_apply)<<<grid(ne), kThreads>>>(op->DG_SN(args), ne, x, y);
  return launched("operator kernel");
}

int DG_SN(dg_cuda_sop_diag)(const dg_sop *op, DG_SR *y) {
  DG_CALL(tables(op));
  const long ne = op->g.nelem;
  if (ne) DG_SN(dg_sop_k_diag)<<<grid(ne), kThreads>>>(op->DG_SN(args), ne, y);
  return launched("diagonal kernel");
}

int DG_SN(dg_cuda_sblock_apply)(const dg_sblock *bj, const DG_SR *r, DG_SR *z) {
  const dg_sop *op = bj->op;
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(DG_SN(dg_sop_k_line_block), d, D)
    DG_LINE(DG_K, ((int)ne, bj->key, DG_SBV(bj), DG_SBL(bj), (DG_SR)bj->shift, r, z), op->runi,
            op->g.dim);
#undef DG_K
    return launched("block Jacobi kernel (line)");
  }
  if (ne && team_level(op)) {
#define DG_K(d, D) DG_TEAM_LAUNCH(DG_SN(dg_sop_k_team_block), d, D)
    DG_TEAM(DG_K, ((int)ne, bj->key, DG_SBV(bj), DG_SBL(bj), (DG_SR)bj->shift, r, z), op->runi,
            op->g.dim);
#undef DG_K
    return launched("block Jacobi kernel (team)");
  }
#define DG_K(d, D) DG_SN(dg_sop_k_block)<d, D><<<grid(ne), kThreads>>>
  if (ne)
    DG_SOP_UNIFORM(DG_K,
                   (ne, op->g.dim, op->ddeg, op->doff, bj->key, DG_SBV(bj), DG_SBL(bj),
                    (DG_SR)bj->shift, r, z),
                   op->runi, op->g.dim);
#undef DG_K
  return launched("block Jacobi kernel");
}

int DG_SN(dg_cuda_sblock_resid)(const dg_sblock *bj, const DG_SR *x, const DG_SR *b, DG_SR *t,
                                DG_SR *p) {
  const dg_sop *op = bj->op;
  const long ne = op->g.nelem;
  DG_CALL(tables(op));
  if (ne && line_level(op)) {
#define DG_K(d, D) DG_LINE_LAUNCH(DG_SN(dg_sop_k_line_resid_block), d, D)
    DG_LINE(DG_K,
            (op->DG_SN(args), DG_SN(line_geo_make)(&op->DG_SN(args), op->g.dim), (int)ne, x, b,
             bj->key, DG_SBV(bj), DG_SBL(bj), (DG_SR)bj->shift, p),
            op->runi, op->g.dim);
#undef DG_K
    return launched("smoother kernel (line)");
  }
  if (ne && team_level(op)) {
#define DG_K(d, D) DG_TEAM_LAUNCH(DG_SN(dg_sop_k_team_resid_block), d, D)
    DG_TEAM(DG_K,
            (op->DG_SN(args), (int)ne, x, b, bj->key, DG_SBV(bj), DG_SBL(bj), (DG_SR)bj->shift, p),
            op->runi, op->g.dim);
#undef DG_K
    return launched("smoother kernel (team)");
  }
  DG_CALL(DG_SN(dg_cuda_sop_apply)(op, x, t));
  DG_SN(dg_cuda_svec_xpby)(dg_sop_n(op), b, (DG_SR)-1, t);
  return DG_SN(dg_cuda_sblock_apply)(bj, t, p);
}

int DG_SN(dg_cuda_sop_restrict)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *r,
                                DG_SR *bc) {
  return DG_SN(xfer)(F, C, by_degree, r, bc, 0);
}
int DG_SN(dg_cuda_sop_prolong_add)(const dg_sop *F, const dg_sop *C, int by_degree, const DG_SR *xc,
                                   DG_SR *x) {
  return DG_SN(xfer)(F, C, by_degree, xc, x, 1);
}

} /* extern "C" */
