/* dg_io_seal.c - the checksum block in the HDF5 user block of a snapshot.
 *
 * The first DG_IO_USERBLOCK (512) bytes of a snapshot hold one text line
 *   "dgrid-checksum 1 crc64 <16 lowercase hex digits> <N>\n"
 * padded with NUL bytes, where N is the number of bytes after the user
 * block and the hex digits their CRC-64/XZ.  HDF5 itself skips the user
 * block; dgrid checks it before any byte reaches the HDF5 parser
 * (docs/FILE_FORMAT.md, "Checksum block"). */
#include "dg_error.h"
#include "dg_io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEAL_MAGIC "dgrid-checksum 1 crc64 "

static const unsigned char hdf5_sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

/* Slicing-by-8 tables for the reflected ECMA-182 polynomial, t[0] the
 * classic byte table.  Built per call (about 10 microseconds, nothing next
 * to reading a file; no shared state between threads). */
static void crc_tables(uint64_t t[8][256]) {
  const uint64_t poly = 0xc96c5795d7870f42ULL; /* reflected 0x42f0e1eba9ea3693 */
  for (unsigned i = 0; i < 256; ++i) {
    uint64_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
    t[0][i] = c;
  }
  for (unsigned i = 0; i < 256; ++i)
    for (int k = 1; k < 8; ++k) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
}

uint64_t dg_io_crc64_more(uint64_t crc, const void *p, size_t n) {
  uint64_t t[8][256];
  crc_tables(t);
  const unsigned char *c = p;
  crc = ~crc;
  for (; n >= 8; n -= 8, c += 8) {
    uint64_t w = 0;
    for (int k = 7; k >= 0; --k) w = (w << 8) | c[k]; /* little-endian load */
    crc ^= w;
    crc = t[7][crc & 0xff] ^ t[6][(crc >> 8) & 0xff] ^ t[5][(crc >> 16) & 0xff] ^
          t[4][(crc >> 24) & 0xff] ^ t[3][(crc >> 32) & 0xff] ^ t[2][(crc >> 40) & 0xff] ^
          t[1][(crc >> 48) & 0xff] ^ t[0][crc >> 56];
  }
  for (; n > 0; --n, ++c) crc = t[0][(crc ^ *c) & 0xff] ^ (crc >> 8);
  return ~crc;
}

uint64_t dg_io_crc64(const void *p, size_t n) { return dg_io_crc64_more(0, p, n); }

void dg_io_seal_block(unsigned char *block, uint64_t crc, size_t n) {
  memset(block, 0, DG_IO_USERBLOCK);
  snprintf((char *)block, DG_IO_USERBLOCK, SEAL_MAGIC "%016" PRIx64 " %zu\n", crc, n);
}

void dg_io_seal(unsigned char *image, size_t len) {
  size_t n = len - DG_IO_USERBLOCK;
  dg_io_seal_block(image, dg_io_crc64(image + DG_IO_USERBLOCK, n), n);
}

int dg_io_kind(const unsigned char *buf, size_t len) {
  if (len >= 15 && memcmp(buf, "dgrid-checksum ", 15) == 0) return DG_IO_KIND_SEALED;
  if (len >= sizeof hdf5_sig && memcmp(buf, hdf5_sig, sizeof hdf5_sig) == 0) return DG_IO_KIND_HDF5;
  return DG_IO_KIND_TEXT;
}

/* Parse the line; 0 and crc, n on success. */
static int parse_block(const unsigned char *b, uint64_t *crc, uint64_t *n) {
  size_t m = sizeof SEAL_MAGIC - 1, i = m;
  if (memcmp(b, SEAL_MAGIC, m) != 0) return -1;
  uint64_t c = 0, v = 0;
  for (int k = 0; k < 16; ++k, ++i) {
    unsigned char h = b[i];
    unsigned d;
    if (h >= '0' && h <= '9')
      d = (unsigned)(h - '0');
    else if (h >= 'a' && h <= 'f')
      d = (unsigned)(h - 'a' + 10);
    else
      return -1;
    c = (c << 4) | d;
  }
  if (b[i++] != ' ') return -1;
  size_t start = i;
  while (i < start + 19 && b[i] >= '0' && b[i] <= '9') {
    uint64_t d = (uint64_t)(b[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return -1;
    v = v * 10 + d;
    i++;
  }
  if (i == start || b[i++] != '\n') return -1;
  for (; i < DG_IO_USERBLOCK; ++i)
    if (b[i] != 0) return -1;
  *crc = c;
  *n = v;
  return 0;
}

/* The checks of a file of len bytes that begins with head[0..hlen) (at
 * least its checksum block and the HDF5 signature, when the file has them):
 * the block's checksum into *want. */
static int check_head(const char *label, const unsigned char *head, size_t hlen, size_t len,
                      uint64_t *want) {
  uint64_t n = 0;
  if (len < DG_IO_USERBLOCK + sizeof hdf5_sig || hlen < DG_IO_USERBLOCK + sizeof hdf5_sig)
    return dg_error(DG_ERR_IO, "%s: truncated: %zu bytes, a dgrid snapshot has at least %zu", label,
                    len, (size_t)DG_IO_USERBLOCK + sizeof hdf5_sig);
  if (parse_block(head, want, &n) != 0)
    return dg_error(DG_ERR_IO, "%s: malformed dgrid checksum block (the file's first %d bytes)",
                    label, DG_IO_USERBLOCK);
  if (n != len - DG_IO_USERBLOCK)
    return dg_error(DG_ERR_IO,
                    "%s: size mismatch: the checksum block covers %" PRIu64
                    " bytes after the user block, the file has %zu (truncated or appended to)",
                    label, n, len - DG_IO_USERBLOCK);
  return 0;
}

/* The data's CRC have against the block's want, then the HDF5 signature. */
static int check_sum(const char *label, const unsigned char *head, size_t len, uint64_t have,
                     uint64_t want) {
  if (have != want)
    return dg_error(DG_ERR_IO,
                    "%s: checksum mismatch, the file is corrupt (CRC-64 of its %zu data bytes is "
                    "%016" PRIx64 ", the checksum block says %016" PRIx64 ")",
                    label, len - DG_IO_USERBLOCK, have, want);
  if (memcmp(head + DG_IO_USERBLOCK, hdf5_sig, sizeof hdf5_sig) != 0)
    return dg_error(DG_ERR_IO, "%s: no HDF5 signature after the checksum block", label);
  return 0;
}

int dg_io_verify(const char *label, const unsigned char *buf, size_t len) {
  uint64_t want = 0;
  DG_CALL(check_head(label, buf, len, len, &want));
  return check_sum(label, buf, len, dg_io_crc64(buf + DG_IO_USERBLOCK, len - DG_IO_USERBLOCK),
                   want);
}

/* pread everything or say why not: bytes read (< n at the end of the file),
 * -1 with errno. */
static ssize_t read_at(int fd, unsigned char *p, size_t n, off_t at) {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = pread(fd, p + got, n - got, at + (off_t)got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (ssize_t)got;
}

int dg_io_verify_file(const char *label, const char *path) {
  enum { chunk = 1 << 20 };
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return dg_error(DG_ERR_IO, "%s: cannot open: %s", label, strerror(errno));
  struct stat st;
  unsigned char head[DG_IO_USERBLOCK + sizeof hdf5_sig], *buf = NULL;
  int rc = 0;
  if (fstat(fd, &st) != 0)
    rc = dg_error(DG_ERR_IO, "%s: cannot stat: %s", label, strerror(errno));
  else if (!S_ISREG(st.st_mode))
    rc = dg_error(DG_ERR_IO, "%s: not a regular file; only regular files are read", label);
  const size_t len = rc ? 0 : (size_t)st.st_size;
  ssize_t h = rc ? 0 : read_at(fd, head, sizeof head, 0);
  if (rc == 0 && h < 0) rc = dg_error(DG_ERR_IO, "%s: read error: %s", label, strerror(errno));
  if (rc == 0 && dg_io_kind(head, (size_t)h) != DG_IO_KIND_SEALED)
    rc = dg_io_refuse_unsealed(label, dg_io_kind(head, (size_t)h));
  uint64_t want = 0, crc = 0;
  if (rc == 0) rc = check_head(label, head, (size_t)h, len, &want);
  if (rc == 0 && !(buf = malloc(chunk)))
    rc = dg_error(DG_ERR_MEM, "%s: out of memory to verify the file", label);
  for (size_t at = DG_IO_USERBLOCK; rc == 0 && at < len;) {
    const size_t want_n = len - at < chunk ? len - at : chunk;
    const ssize_t r = read_at(fd, buf, want_n, (off_t)at);
    if (r < 0)
      rc = dg_error(DG_ERR_IO, "%s: read error: %s", label, strerror(errno));
    else if ((size_t)r < want_n)
      rc = dg_error(DG_ERR_IO, "%s: the file shrank while being read", label);
    else
      crc = dg_io_crc64_more(crc, buf, want_n);
    at += want_n;
  }
  free(buf);
  close(fd);
  return rc ? rc : check_sum(label, head, len, crc, want);
}
