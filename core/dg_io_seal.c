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

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

int dg_io_verify(const char *label, const unsigned char *buf, size_t len) {
  uint64_t want = 0, n = 0;
  if (len < DG_IO_USERBLOCK + sizeof hdf5_sig)
    return dg_error(DG_ERR_IO, "%s: truncated: %zu bytes, a dgrid snapshot has at least %zu", label,
                    len, (size_t)DG_IO_USERBLOCK + sizeof hdf5_sig);
  if (parse_block(buf, &want, &n) != 0)
    return dg_error(DG_ERR_IO, "%s: malformed dgrid checksum block (the file's first %d bytes)",
                    label, DG_IO_USERBLOCK);
  if (n != len - DG_IO_USERBLOCK)
    return dg_error(DG_ERR_IO,
                    "%s: size mismatch: the checksum block covers %" PRIu64
                    " bytes after the user block, the file has %zu (truncated or appended to)",
                    label, n, len - DG_IO_USERBLOCK);
  uint64_t have = dg_io_crc64(buf + DG_IO_USERBLOCK, len - DG_IO_USERBLOCK);
  if (have != want)
    return dg_error(DG_ERR_IO,
                    "%s: checksum mismatch, the file is corrupt (CRC-64 of its %zu data bytes is "
                    "%016" PRIx64 ", the checksum block says %016" PRIx64 ")",
                    label, len - DG_IO_USERBLOCK, have, want);
  if (memcmp(buf + DG_IO_USERBLOCK, hdf5_sig, sizeof hdf5_sig) != 0)
    return dg_error(DG_ERR_IO, "%s: no HDF5 signature after the checksum block", label);
  return 0;
}
