/* dg_config.h - configuration files: `key = value` lines, optionally under
 * INI `[section]` headers, parsed strictly, and written back in the same form.
 *
 * The format (README.md, "Run from a config file"):
 *   - one `key = value` per line; blanks around key and value are dropped,
 *     the value keeps its inner blanks and may hold '=' (the first '=' splits);
 *   - a key is a name: letters, digits, '-', '_', '.';
 *   - `[name]` starts a section: one of the caller's sections;
 *   - lines whose first non-blank character is '#' or ';' are comments, blank
 *     lines are skipped; there are no comments after a value;
 *   - lines end in LF or CRLF; a UTF-8 byte order mark at the start is skipped.
 * Errors are one line "LABEL:LINE: what", naming the key or text at fault
 * (escaped, dg_escape.h): a line without '=', an empty key or value, a key
 * given twice, an unknown section, a NUL byte or another control character
 * (tab excepted), a line longer than DG_CONFIG_MAX_LINE bytes; a text longer
 * than DG_CONFIG_MAX_BYTES is refused whole ("LABEL: ...").
 *
 * This parser knows nothing of the keys: the caller checks them (and their
 * sections) against its own list and parses the values (dg_parse.h). */
#ifndef DG_CONFIG_H
#define DG_CONFIG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DG_CONFIG_MAX_LINE  1024      /* bytes of one line, its end excluded */
#define DG_CONFIG_MAX_BYTES (1 << 20) /* bytes of one configuration */

typedef struct {
  char *key;
  char *value; /* never empty; no blank at either end; no control character */
  int section; /* index into the caller's sections; -1: before any header */
  int line;    /* 1-based line of the text; 0: added by dg_config_add */
} dg_config_entry;

typedef struct dg_config {
  char *label; /* the name messages give (escaped), e.g. "run.cfg" */
  int n, cap;
  dg_config_entry *e;
} dg_config;

/* Parse `len` bytes of `text` (need not be NUL-terminated) into `c`, which
 * need not be initialised; `label` names the text in messages.  `sections`
 * lists the nsections known section names.  On failure `c` holds nothing
 * to free (n == 0, e == NULL, label NULL). */
int dg_config_parse(dg_config *c, const char *label, const char *text, size_t len,
                    const char *const *sections, int nsections);

/* Read the regular file at `path` (at most DG_CONFIG_MAX_BYTES) and parse it
 * with dg_config_parse, labelled by the path. */
int dg_config_read(dg_config *c, const char *path, const char *const *sections, int nsections);

/* An empty configuration labelled `label` (for dg_config_add). */
int dg_config_init(dg_config *c, const char *label);

/* Append key = value in `section` (-1: none); DG_ERR_ARG if the key is
 * already there. */
int dg_config_add(dg_config *c, const char *key, const char *value, int section);

/* The index of `key`, or -1. */
int dg_config_find(const dg_config *c, const char *key);

/* The text of `c` in the format above, in entry order, a `[section]` header
 * wherever the section changes, after `header` (comment lines, each starting
 * with '#', or NULL).  Refused (DG_ERR_ARG, naming the key) where the text
 * would not read back as the same entries: a key that is not a name, an
 * empty value, a value with a blank at either end or a control character, a
 * line that is too long, an entry without a section after one with.  The
 * text is malloc'd and NUL-terminated; the caller frees it. */
int dg_config_format(const dg_config *c, const char *header, const char *const *sections,
                     int nsections, char **text);

/* Record "LABEL:LINE: <message>" (line 0: "LABEL: <message>") and return
 * `code`. */
int dg_config_error(const dg_config *c, int line, int code, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;

void dg_config_free(dg_config *c);

#ifdef __cplusplus
}
#endif
#endif
