/* dg_svec_pool.c - the blocks handed out and the cache of freed blocks of
 * solver memory (dg_svec_pool.h). */
#include "dg_svec_pool.h"

#include "dg_error.h"

#include <stdlib.h>

void *dg_svec_pool_take(dg_svec_pool *P, size_t b) {
  for (int i = P->ncache - 1; i >= 0; --i)
    if (P->cache[i].bytes == b) {
      void *p = P->cache[i].p;
      for (int k = i + 1; k < P->ncache; ++k) P->cache[k - 1] = P->cache[k];
      P->ncache--;
      return p;
    }
  return NULL;
}

void *dg_svec_pool_put(dg_svec_pool *P, void *p, size_t b, size_t *ob) {
  void *old = NULL;
  *ob = 0;
  if (P->ncache == DG_SVEC_POOL_CACHE) {
    old = P->cache[0].p;
    *ob = P->cache[0].bytes;
    for (int i = 1; i < P->ncache; ++i) P->cache[i - 1] = P->cache[i];
    P->ncache--;
  }
  P->cache[P->ncache].p = p;
  P->cache[P->ncache].bytes = b;
  P->ncache++;
  return old;
}

void *dg_svec_pool_pop(dg_svec_pool *P, size_t *ob) {
  if (P->ncache == 0) return NULL;
  P->ncache--;
  *ob = P->cache[P->ncache].bytes;
  return P->cache[P->ncache].p;
}

int dg_svec_pool_add(dg_svec_pool *P, void *p, size_t b) {
  if (P->nlive == P->caplive) {
    const int cap = P->caplive ? 2 * P->caplive : 64;
    dg_svec_block *n = (dg_svec_block *)realloc(P->live, sizeof(dg_svec_block) * (size_t)cap);
    if (!n) return dg_error(DG_ERR_MEM, "solver memory: out of host memory");
    P->live = n;
    P->caplive = cap;
  }
  P->live[P->nlive].p = p;
  P->live[P->nlive].bytes = b;
  P->nlive++;
  return 0;
}

size_t dg_svec_pool_remove(dg_svec_pool *P, void *p) {
  for (int i = P->nlive - 1; i >= 0; --i)
    if (P->live[i].p == p) {
      const size_t b = P->live[i].bytes;
      P->live[i] = P->live[--P->nlive];
      return b;
    }
  dg_error(DG_ERR_ARG, "solver memory: dg_svec_free of %p, which dg_svec_alloc did not return", p);
  return 0;
}
