/* dg_jit_internal.h - what the kernel compiler (dg_jit.c) and its cache's
 * folder (dg_jit_cache.c) share.  Private to backends/. */
#ifndef DG_JIT_INTERNAL_H
#define DG_JIT_INTERNAL_H

#include "dg_jit.h"

#include <stddef.h>
#include <stdint.h>

enum { DG_JIT_PATH = 4096, DG_JIT_KEY = 32 };

/* The cache root ("" until resolved), where new entries go (v1/k or a
 * private temporary one), the folder above that (src-*, tmp/), and the
 * user's read-only v1/k where new entries go elsewhere (else ""). */
extern char dg_jit_root[DG_JIT_PATH];
extern char dg_jit_kdir[DG_JIT_PATH];
extern char dg_jit_vdir[DG_JIT_PATH];
extern char dg_jit_rdir[DG_JIT_PATH];

/* Resolve, create and check the cache folder (once); 0 or DG_ERR_*. */
int dg_jit_resolve(void);
/* Forget the resolved folder and the written sources (after a clear). */
void dg_jit_forget(void);
/* mkdir -p with 0700 for what it creates; 0 or DG_ERR_IO. */
int dg_jit_make_dirs(const char *path);
/* rm -r; 0 or -1. */
int dg_jit_rm_tree(const char *path);
/* snprintf for paths and records: a too long result is cut, and every path
 * it cuts fails to open; the wrapper keeps gcc's truncation warnings for
 * the rest of dgrid. */
int dg_jit_fmt(char *buf, size_t cap, const char *f, ...) __attribute__((format(printf, 3, 4)));

/* The hashes a cache key is made of (dg_jit_hash.c): two independent 64-bit
 * streams (FNV-1a and a multiply-xorshift), written as 32 hex digits. */
typedef struct {
  uint64_t a, b;
} dg_jit_hash;
void dg_jit_h_init(dg_jit_hash *h);
void dg_jit_h_add(dg_jit_hash *h, const void *p, size_t n);
void dg_jit_h_str(dg_jit_hash *h, const char *s);
void dg_jit_h_hex(const dg_jit_hash *h, char out[DG_JIT_KEY + 1]);
/* Add the text of the header at `path` to h (and the path itself where
 * with_path is set), and that of every header it includes with #include
 * "NAME" that lies beside it (recursively, `depth` levels, at most 64 files
 * in all): a modeller's header may split itself.  Names that are not there
 * (dg_lane.h, ...) come from the library's sources, which a key holds
 * already. */
int dg_jit_hash_header(dg_jit_hash *h, const char *path, int with_path, int depth, int *nfiles);

#endif
