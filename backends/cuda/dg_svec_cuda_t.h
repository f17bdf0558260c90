/* dg_svec_cuda_t.h - the CUDA backend's vector kernels and their entry points
 * in one precision, written once and included by dg_svec_cuda.cu per
 * precision (DG_SR, DG_SN(name); solvers/README.md, "One source, two
 * precisions").  No include guard on purpose.  Uses dg_svec_cuda.cu's
 * helpers (kThreads, kRedBlocks, red_dev, blocks, launched, red_setup,
 * summed, block_sum, DG_GRID_STRIDE). */

static __global__ void DG_SN(dg_svec_k_dot)(long n, const DG_SR *x, const DG_SR *y, double *part) {
  double s = 0;
  DG_GRID_STRIDE(i, n) s += (double)x[i] * (double)y[i];
  block_sum(s, part);
}
static __global__ void DG_SN(dg_svec_k_axpy)(long n, DG_SR a, const DG_SR *x, DG_SR *y) {
  DG_GRID_STRIDE(i, n) y[i] += a * x[i];
}
static __global__ void DG_SN(dg_svec_k_xpby)(long n, const DG_SR *x, DG_SR b, DG_SR *y) {
  DG_GRID_STRIDE(i, n) y[i] = x[i] + b * y[i];
}
static __global__ void DG_SN(dg_svec_k_scale)(long n, DG_SR a, DG_SR *x) {
  DG_GRID_STRIDE(i, n) x[i] *= a;
}
static __global__ void DG_SN(dg_svec_k_mul)(long n, const DG_SR *x, const DG_SR *y, DG_SR *z) {
  DG_GRID_STRIDE(i, n) z[i] = x[i] * y[i];
}
static __global__ void DG_SN(dg_svec_k_copy)(long n, const DG_SR *x, DG_SR *y) {
  DG_GRID_STRIDE(i, n) y[i] = x[i];
}
static __global__ void DG_SN(dg_svec_k_gather)(long m, const long *idx, const DG_SR *x, DG_SR *y) {
  DG_GRID_STRIDE(i, m) y[i] = x[idx[i]];
}
static __global__ void DG_SN(dg_svec_k_scatter)(long m, const long *idx, const DG_SR *x, DG_SR *y) {
  DG_GRID_STRIDE(i, m) y[idx[i]] = x[i];
}
static __global__ void DG_SN(dg_svec_k_zero)(long n, DG_SR *x) { DG_GRID_STRIDE(i, n) x[i] = 0; }
static __global__ void DG_SN(dg_svec_k_cheb)(long n, DG_SR c1, DG_SR c2, const DG_SR *p, DG_SR *d,
                                             DG_SR *x, int mode) {
  DG_GRID_STRIDE(i, n) {
    const DG_SR di = mode == 2 ? c1 * d[i] + c2 * p[i] : c2 * p[i];
    d[i] = di;
    x[i] = mode == 0 ? di : x[i] + di;
  }
}
static __global__ void DG_SN(dg_svec_k_cheb_add)(long n, DG_SR c1, DG_SR c2, const DG_SR *p,
                                                 const DG_SR *d, const DG_SR *x, int mode, double s,
                                                 double *y) {
  DG_GRID_STRIDE(i, n) {
    const DG_SR di = mode == 2 ? c1 * d[i] + c2 * p[i] : c2 * p[i];
    const DG_SR xi = mode == 0 ? di : x[i] + di;
    y[i] += s * (double)xi;
  }
}
static __global__ void DG_SN(dg_svec_k_cg_step)(long n, DG_SR a, const DG_SR *p, const DG_SR *q,
                                                DG_SR *x, DG_SR *r, double *part) {
  const DG_SR ma = -a;
  double s = 0;
  DG_GRID_STRIDE(i, n) {
    x[i] += a * p[i];
    const DG_SR ri = r[i] + ma * q[i];
    r[i] = ri;
    s += (double)ri * (double)ri;
  }
  block_sum(s, part);
}

extern "C" {

double DG_SN(dg_cuda_svec_dot)(long n, const DG_SR *x, const DG_SR *y) {
  if (red_setup()) return NAN;
  DG_SN(dg_svec_k_dot)<<<kRedBlocks, kThreads>>>(n, x, y, red_dev);
  return summed("dot kernel");
}
void DG_SN(dg_cuda_svec_axpy)(long n, DG_SR a, const DG_SR *x, DG_SR *y) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_axpy), "axpy kernel", n, a, x, y);
}
void DG_SN(dg_cuda_svec_xpby)(long n, const DG_SR *x, DG_SR b, DG_SR *y) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_xpby), "xpby kernel", n, x, b, y);
}
void DG_SN(dg_cuda_svec_scale)(long n, DG_SR a, DG_SR *x) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_scale), "scale kernel", n, a, x);
}
void DG_SN(dg_cuda_svec_mul)(long n, const DG_SR *x, const DG_SR *y, DG_SR *z) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_mul), "mul kernel", n, x, y, z);
}
void DG_SN(dg_cuda_svec_copy)(long n, const DG_SR *x, DG_SR *y) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_copy), "copy kernel", n, x, y);
}
void DG_SN(dg_cuda_svec_gather)(long m, const long *idx, const DG_SR *x, DG_SR *y) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_gather), "gather kernel", m, idx, x, y);
}
void DG_SN(dg_cuda_svec_scatter)(long m, const long *idx, const DG_SR *x, DG_SR *y) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_scatter), "scatter kernel", m, idx, x, y);
}
void DG_SN(dg_cuda_svec_zero)(long n, DG_SR *x) {
  DG_SVEC_LAUNCH(DG_SN(dg_svec_k_zero), "zero kernel", n, x);
}
void DG_SN(dg_cuda_svec_cheb)(long n, DG_SR c1, DG_SR c2, const DG_SR *p, DG_SR *d, DG_SR *x,
                              int first) {
  const int mode = first ? 0 : (c1 == 0 ? 1 : 2);
  DG_SN(dg_svec_k_cheb)<<<blocks(n), kThreads>>>(n, c1, c2, p, d, x, mode);
  launched("Chebyshev kernel");
}
void DG_SN(dg_cuda_svec_cheb_add)(long n, DG_SR c1, DG_SR c2, const DG_SR *p, const DG_SR *d,
                                  const DG_SR *x, int first, double s, double *y) {
  const int mode = first ? 0 : (c1 == 0 ? 1 : 2);
  DG_SN(dg_svec_k_cheb_add)<<<blocks(n), kThreads>>>(n, c1, c2, p, d, x, mode, s, y);
  launched("Chebyshev-add kernel");
}
/* the same partial sums as the dot, so r'r has dg_cuda_svec_dot's bits */
double DG_SN(dg_cuda_svec_cg_step)(long n, DG_SR a, const DG_SR *p, const DG_SR *q, DG_SR *x,
                                   DG_SR *r) {
  if (red_setup()) return NAN;
  DG_SN(dg_svec_k_cg_step)<<<kRedBlocks, kThreads>>>(n, a, p, q, x, r, red_dev);
  return summed("CG step kernel");
}

} /* extern "C" */
