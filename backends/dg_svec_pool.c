/* dg_svec_pool.c - the blocks handed out and the cache of freed blocks of
 * solver memory (dg_svec_pool.h). */
#include "dg_svec_pool.h"

#include "dg_error.h"

#include <stdlib.h>

typedef struct {
  void *p;
  size_t bytes;
} pool_block;

static pool_block cache[DG_SVEC_POOL_CACHE]; /* oldest first */
static int ncache = 0;
static pool_block *live = NULL; /* handed out */
static int nlive = 0, caplive = 0;

void *dg_svec_pool_take(size_t b) {
  for (int i = ncache - 1; i >= 0; --i)
    if (cache[i].bytes == b) {
      void *p = cache[i].p;
      for (int k = i + 1; k < ncache; ++k) cache[k - 1] = cache[k];
      ncache--;
      return p;
    }
  return NULL;
}

void *dg_svec_pool_put(void *p, size_t b, size_t *ob) {
  void *old = NULL;
  *ob = 0;
  if (ncache == DG_SVEC_POOL_CACHE) {
    old = cache[0].p;
    *ob = cache[0].bytes;
    for (int i = 1; i < ncache; ++i) cache[i - 1] = cache[i];
    ncache--;
  }
  cache[ncache].p = p;
  cache[ncache].bytes = b;
  ncache++;
  return old;
}

void *dg_svec_pool_pop(size_t *ob) {
  if (ncache == 0) return NULL;
  ncache--;
  *ob = cache[ncache].bytes;
  return cache[ncache].p;
}

int dg_svec_pool_add(void *p, size_t b) {
  if (nlive == caplive) {
    const int cap = caplive ? 2 * caplive : 64;
    pool_block *n = (pool_block *)realloc(live, sizeof(pool_block) * (size_t)cap);
    if (!n) return dg_error(DG_ERR_MEM, "solver memory: out of host memory");
    live = n;
    caplive = cap;
  }
  live[nlive].p = p;
  live[nlive].bytes = b;
  nlive++;
  return 0;
}

size_t dg_svec_pool_remove(void *p) {
  for (int i = nlive - 1; i >= 0; --i)
    if (live[i].p == p) {
      const size_t b = live[i].bytes;
      live[i] = live[--nlive];
      return b;
    }
  dg_error(DG_ERR_ARG, "solver memory: dg_svec_free of %p, which dg_svec_alloc did not return", p);
  return 0;
}
