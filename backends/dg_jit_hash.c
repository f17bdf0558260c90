/* dg_jit_hash.c - the hashes a kernel-cache key is made of (dg_jit.c): two
 * independent 64-bit streams over bytes, and a modeller's header with the
 * headers beside it that it includes; the header's digest a restart checks
 * (dg_model_file_digest, dg_backends.h). */
#include "dg_backends.h"
#include "dg_jit_internal.h"

#include "dg_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* FNV-1a, and a multiply-xorshift: 128 bits no accident repeats */
void dg_jit_h_init(dg_jit_hash *h) {
  h->a = 1469598103934665603ULL;
  h->b = 0x9e3779b97f4a7c15ULL;
}

void dg_jit_h_add(dg_jit_hash *h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; ++i) {
    h->a = (h->a ^ c[i]) * 1099511628211ULL;
    h->b = (h->b + c[i] + 1) * 0xff51afd7ed558ccdULL;
    h->b ^= h->b >> 29;
  }
}

void dg_jit_h_str(dg_jit_hash *h, const char *s) { dg_jit_h_add(h, s, strlen(s) + 1); }

void dg_jit_h_hex(const dg_jit_hash *h, char out[DG_JIT_KEY + 1]) {
  dg_jit_fmt(out, DG_JIT_KEY + 1, "%016llx%016llx", (unsigned long long)h->a,
             (unsigned long long)h->b);
}

int dg_jit_hash_header(dg_jit_hash *h, const char *path, int with_path, int depth, int *nfiles) {
  FILE *f = fopen(path, "rb");
  if (!f) return dg_error(DG_ERR_IO, "model file %s: cannot read it (%s)", path, strerror(errno));
  if (++*nfiles > 64) {
    fclose(f);
    return dg_error(DG_ERR_ARG, "model file %s: more than 64 headers included", path);
  }
  if (with_path) dg_jit_h_str(h, path);
  char *text = NULL;
  size_t len = 0, cap = 0;
  unsigned char buf[8192];
  size_t n;
  int rc = 0;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0 && !rc) {
    dg_jit_h_add(h, buf, n);
    if (len + n + 1 > cap) {
      cap = 2 * (len + n + 1);
      char *t = realloc(text, cap);
      if (!t)
        rc = dg_error(DG_ERR_MEM, "out of memory");
      else
        text = t;
    }
    if (!rc) memcpy(text + len, buf, n), len += n;
  }
  const int bad = ferror(f);
  fclose(f);
  if (!rc && bad) rc = dg_error(DG_ERR_IO, "model file %s: read error", path);
  if (!rc && text && depth > 0) {
    text[len] = '\0';
    const char *slash = strrchr(path, '/');
    const size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    for (char *line = text; line && *line && !rc;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
      const char *p = line + strspn(line, " \t");
      if (*p != '#') continue;
      p += 1 + strspn(p + 1, " \t");
      if (strncmp(p, "include", 7)) continue;
      p += 7 + strspn(p + 7, " \t");
      if (*p != '"') continue;
      const char *end = strchr(p + 1, '"');
      const char *nl = strchr(p + 1, '\n');
      if (!end || (nl && nl < end) || end == p + 1 || p[1] == '/') continue;
      char inc[4096];
      if (dirlen + (size_t)(end - p - 1) + 1 > sizeof inc) continue;
      memcpy(inc, path, dirlen);
      memcpy(inc + dirlen, p + 1, (size_t)(end - p - 1));
      inc[dirlen + (size_t)(end - p - 1)] = '\0';
      /* the name as written, so that the digest does not depend on where
         the folder is */
      if (!with_path) dg_jit_h_str(h, inc + dirlen);
      struct stat st;
      if (stat(inc, &st) == 0 && S_ISREG(st.st_mode))
        rc = dg_jit_hash_header(h, inc, with_path, depth - 1, nfiles);
    }
  }
  free(text);
  return rc;
}

int dg_model_file_digest(const char *path, char out[33]) {
  if (!path || !out) return dg_error(DG_ERR_ARG, "dg_model_file_digest: NULL argument");
  dg_jit_hash h;
  dg_jit_h_init(&h);
  int nfiles = 0;
  DG_CALL(dg_jit_hash_header(&h, path, 0, 8, &nfiles));
  dg_jit_h_hex(&h, out);
  return 0;
}
