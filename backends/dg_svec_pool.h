/* dg_svec_pool.h - the bookkeeping of solver memory that both backends'
 * allocators share (omp/dg_svec_omp.c, cuda/dg_svec_cuda.cu): the blocks handed out
 * (so that a free knows a block's size and refuses a pointer that was not
 * handed out) and a small cache of freed blocks, handed out again for the
 * same size.  It holds pointers only: the backend allocates, clears and
 * releases the memory.  One host thread calls the solvers; each backend
 * keeps its own pool (its memory is its own). */
#ifndef DG_SVEC_POOL_H
#define DG_SVEC_POOL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most freed blocks the cache holds. */
#define DG_SVEC_POOL_CACHE 32

typedef struct {
  void *p;
  size_t bytes;
} dg_svec_block;

/* One backend's blocks (each backend's allocator has its own, zeroed). */
typedef struct {
  dg_svec_block cache[DG_SVEC_POOL_CACHE]; /* oldest first */
  int ncache;
  dg_svec_block *live; /* handed out */
  int nlive, caplive;
} dg_svec_pool;

/* A cached block of exactly b bytes (the newest such, whose pages are the
   warmest), taken out of the cache; NULL if there is none. */
void *dg_svec_pool_take(dg_svec_pool *P, size_t b);
/* Put the freed block p of b bytes into the cache.  When the cache is full
   its oldest block leaves it: returned (with its size in *ob) for the
   backend to release; NULL otherwise. */
void *dg_svec_pool_put(dg_svec_pool *P, void *p, size_t b, size_t *ob);
/* One cached block out of the cache (its size in *ob), NULL when empty: the
   backend releases them all when an allocation fails. */
void *dg_svec_pool_pop(dg_svec_pool *P, size_t *ob);
/* Record p (b bytes) as handed out; 0, or DG_ERR_MEM with a message. */
int dg_svec_pool_add(dg_svec_pool *P, void *p, size_t b);
/* p's size, removing it from the blocks handed out; 0, with a recorded
   message, if p is not one of them. */
size_t dg_svec_pool_remove(dg_svec_pool *P, void *p);

#ifdef __cplusplus
}
#endif
#endif
