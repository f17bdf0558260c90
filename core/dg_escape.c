/* dg_escape.c - one-line, terminal-safe copies of untrusted strings. */
#include "dg_escape.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s[0..n) and its code point, or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp) {
  unsigned char c = s[0];
  size_t len;
  uint32_t v, min;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, v = c & 0x1fu, min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, v = c & 0x0fu, min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, v = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (len > n) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((s[i] & 0xc0u) != 0x80u) return 0;
    v = (v << 6) | (s[i] & 0x3fu);
  }
  if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
  *cp = v;
  return len;
}

/* Code points shown as \u{XXXX}: C1 controls, line breaks, bidi controls. */
static int cp_hidden(uint32_t v) {
  return (v >= 0x80 && v <= 0x9f) || v == 0x2028 || v == 0x2029 || v == 0x200e || v == 0x200f ||
         (v >= 0x202a && v <= 0x202e) || (v >= 0x2066 && v <= 0x2069);
}

/* Escaped form of the character at s[0..n) into piece (>= 16 bytes);
 * returns the bytes of `s` consumed. */
static size_t escape_one(const unsigned char *s, size_t n, char *piece, int keep_bs) {
  unsigned char c = s[0];
  uint32_t cp = 0;
  size_t len;
  if (c == '\\' && !keep_bs) {
    strcpy(piece, "\\\\");
  } else if (c == '\n') {
    strcpy(piece, "\\n");
  } else if (c == '\t') {
    strcpy(piece, "\\t");
  } else if (c == '\r') {
    strcpy(piece, "\\r");
  } else if (c >= 0x20 && c < 0x7f) {
    piece[0] = (char)c;
    piece[1] = '\0';
  } else if (c >= 0x80 && (len = utf8_seq(s, n, &cp)) > 0) {
    if (cp_hidden(cp)) {
      snprintf(piece, 16, "\\u{%04x}", (unsigned)cp);
    } else {
      memcpy(piece, s, len);
      piece[len] = '\0';
    }
    return len;
  } else {
    snprintf(piece, 16, "\\x%02x", (unsigned)c);
  }
  return 1;
}

static const char *escape_n(char *out, size_t len, const char *s, size_t n, int keep_bs) {
  if (!out || len == 0) return out;
  if (len < 4) {
    out[0] = '\0';
    return out;
  }
  if (!s) {
    s = "(null)";
    n = 6;
  }
  const unsigned char *u = (const unsigned char *)s;
  size_t used = 0, i = 0, full = 0;
  char piece[16];
  /* Does all of it fit?  Then no room is kept for "...". */
  for (size_t k = 0; k < n && full < len;) {
    k += escape_one(u + k, n - k, piece, keep_bs);
    full += strlen(piece);
  }
  int fits = full <= len - 1;
  while (i < n) {
    size_t took = escape_one(u + i, n - i, piece, keep_bs);
    size_t pl = strlen(piece);
    /* Keep room for "..." unless this is the last character; so when a
     * piece does not fit, at least 3 bytes are left (len >= 4). */
    size_t room = len - 1 - used;
    if (!fits && (pl > room || pl + 3 > room)) {
      memcpy(out + used, "...", 3);
      used += 3;
      break;
    }
    memcpy(out + used, piece, pl);
    used += pl;
    i += took;
  }
  out[used] = '\0';
  return out;
}

const char *dg_escape_n(char *out, size_t len, const char *s, size_t n) {
  return escape_n(out, len, s, n, 0);
}

const char *dg_escape_message(char *out, size_t len, const char *s) {
  return escape_n(out, len, s, s ? strlen(s) : 0, 1);
}

const char *dg_escape(char *out, size_t len, const char *s) {
  return dg_escape_n(out, len, s, s ? strlen(s) : 0);
}

char *dg_escape_dup(const char *s) {
  if (!s) s = "(null)";
  size_t n = strlen(s);
  /* Worst case: every byte becomes "\xHH" (4 bytes). */
  if (n > (SIZE_MAX - 1) / 4) return NULL;
  size_t len = 4 * n + 4;
  char *out = malloc(len);
  if (!out) return NULL;
  return (char *)escape_n(out, len, s, n, 0);
}
