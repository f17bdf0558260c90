/* dg_escape.h - one-line, terminal-safe copies of untrusted strings (file
 * names, option values, strings read from files) for messages.
 *
 * Printable ASCII is kept; a backslash becomes "\\"; newline, tab and
 * carriage return become "\n", "\t", "\r"; every other control byte, DEL and
 * every byte that is not part of valid UTF-8 becomes "\xHH".  Valid UTF-8
 * sequences are kept, except the C1 controls (U+0080..U+009F), the line and
 * paragraph separators (U+2028, U+2029) and the bidirectional controls
 * (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), which become "\u{XXXX}".
 * The result never contains a newline or an escape sequence a terminal
 * would act on. */
#ifndef DG_ESCAPE_H
#define DG_ESCAPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Escape `s` (NULL reads as "(null)") into `out` of `len` bytes (len >= 4).
 * A result that does not fit is cut at a character boundary and ends in
 * "...".  Returns `out`, so it can be used as a printf argument. */
const char *dg_escape(char *out, size_t len, const char *s);

/* Like dg_escape for the first `n` bytes of `s` (which may hold NUL bytes,
 * shown as "\x00"). */
const char *dg_escape_n(char *out, size_t len, const char *s, size_t n);

/* For a whole message whose parts were escaped already: like dg_escape, but
 * a backslash is kept as it is (so the escaped parts read the same); a raw
 * control byte or other hidden character that reached the message is still
 * escaped.  The apps print every message through it. */
const char *dg_escape_message(char *out, size_t len, const char *s);

/* A malloc'd escaped copy of `s` with nothing cut, or NULL when out of
 * memory.  The caller frees it. */
char *dg_escape_dup(const char *s);

#ifdef __cplusplus
}
#endif
#endif
