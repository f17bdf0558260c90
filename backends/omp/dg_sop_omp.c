/* dg_sop_omp.c - the OpenMP driver of the solvers' element functions
 * (dg_sipg_elem.h): one loop over elements around the operator apply, its
 * diagonal, the element-block solve and the level transfers, per precision
 * (dg_sop_omp_t.h).  The runs of elements of one degree go through lane
 * functions (dg_sipg_lane_t.h) compiled per (precision, degree) when a run
 * first needs them (dg_sop_lane.inc, through the kernel cache:
 * backends/dg_jit.h); the element functions, for the rest, are compiled
 * here (inlined in the loops as before: the same bits).  dg_sop_cuda_{d,f}.cu is
 * the CUDA driver of the same functions. */
#include "dg_error.h"
#include "dg_jit.h"
#include "dg_sblock_internal.h"
#include "dg_solver_omp.h"
#include "dg_sop_lane.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The lane functions of each degree and precision, from the units loaded so
 * far (NULL: not loaded); written under lanes_mu, before the loops that call
 * them. */
static struct {
  dg_sipg_lane_fn_d sipg_d[DG_SNR];
  dg_sblock_lane_fn_d sblock_d[DG_SNR];
  dg_sipg_lane_fn_f sipg_f[DG_SNR];
  dg_sblock_lane_fn_f sblock_f[DG_SNR];
} lanes;
static pthread_mutex_t lanes_mu = PTHREAD_MUTEX_INITIALIZER;

static int lane_loaded(int fl, int r) {
  return fl ? lanes.sipg_f[r] != NULL : lanes.sipg_d[r] != NULL;
}

/* Caller holds lanes_mu. */
static int lanes_load(int dim, unsigned degrees, int precisions) {
  enum { NU = 2 * DG_SNR };
  dg_jit_unit u[NU];
  char src[NU][160], what[NU][64];
  int pr[NU][2], m = 0;
  void *h[NU];
  memset(u, 0, sizeof u);
  for (int fl = 0; fl < 2; ++fl)
    for (int r = 0; r <= DG_SLRMAX; ++r) {
      if (!(precisions >> fl & 1) || !(degrees >> r & 1) || lane_loaded(fl, r) ||
          !dg_sop_lane_fits(dim ? dim : 2, r))
        continue;
      const char *pn = fl ? "float" : "double";
      snprintf(src[m], sizeof src[m],
               "/* dgrid kernel: omp solver lanes %s r=%d */\n#define DG_SOP_LANE_R %d\n"
               "#define DG_SOP_LANE_FLOAT %d\n#include \"dg_sop_lane.inc\"\n",
               pn, r, r, fl);
      snprintf(what[m], sizeof what[m], "omp solver lanes %s r=%d", pn, r);
      u[m].what = what[m];
      u[m].source = src[m];
      pr[m][0] = fl;
      pr[m++][1] = r;
    }
  if (!m) return 0;
  DG_CALL(dg_jit_load(m, u, h));
  for (int k = 0; k < m; ++k) {
    void *a = dlsym(h[k], "dg_omp_sipg_lane"), *b = dlsym(h[k], "dg_omp_sblock_lane");
    if (!a || !b)
      return dg_error(DG_ERR_BACKEND, "kernel %s: no dg_omp_sipg_lane or dg_omp_sblock_lane in it",
                      what[k]);
    const int r = pr[k][1];
    if (pr[k][0]) { /* sipg_ last: lane_loaded looks at it */
      *(void **)&lanes.sblock_f[r] = b;
      *(void **)&lanes.sipg_f[r] = a;
    } else {
      *(void **)&lanes.sblock_d[r] = b;
      *(void **)&lanes.sipg_d[r] = a;
    }
  }
  return 0;
}

int dg_omp_sop_prepare(int dim, unsigned degrees, int precisions) {
  pthread_mutex_lock(&lanes_mu);
  const int rc = lanes_load(dim, degrees, precisions);
  pthread_mutex_unlock(&lanes_mu);
  return rc;
}

/* Every lane function op's runs take in precision fl (1: float), loaded
 * before its loops: one batch where no prepare named its degrees. */
static int lanes_need(const dg_sop *op, int fl) {
  unsigned miss = 0;
  pthread_mutex_lock(&lanes_mu);
  for (int r = 0; r <= DG_SLRMAX; ++r)
    if ((op->degmask >> r & 1) && dg_sop_lane_fits(op->g.dim, r) && !lane_loaded(fl, r))
      miss |= 1u << r;
  const int rc = miss ? lanes_load(op->g.dim, miss, 1 << fl) : 0;
  pthread_mutex_unlock(&lanes_mu);
  return rc;
}

/* defines (dg_sop_omp_t.h): dg_omp_sblock_apply_d dg_omp_sop_apply_d dg_omp_sop_diag_d
   dg_omp_sop_prolong_add_d dg_omp_sop_restrict_d sblock_factors_d sop_lane_run_d */
#define DG_SR      double
#define DG_SN(x)   x##_d
#define DG_SSFX    d
#define DG_SBV(bj) ((bj)->V)
#define DG_SBL(bj) ((bj)->lam)
#define DG_SLW     (DG_SLBYTES / 8)
#include "dg_sop_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SSFX
#undef DG_SBV
#undef DG_SBL
#undef DG_SLW

/* defines (dg_sop_omp_t.h): dg_omp_sblock_apply_f dg_omp_sop_apply_f dg_omp_sop_diag_f
   dg_omp_sop_prolong_add_f dg_omp_sop_restrict_f sblock_factors_f sop_lane_run_f */
#define DG_SR      float
#define DG_SN(x)   x##_f
#define DG_SSFX    f
#define DG_SBV(bj) ((bj)->Vf)
#define DG_SBL(bj) ((bj)->lamf)
#define DG_SLW     (DG_SLBYTES / 4)
#include "dg_sop_omp_t.h"
#undef DG_SR
#undef DG_SN
#undef DG_SSFX
#undef DG_SBV
#undef DG_SBL
#undef DG_SLW
