/* dg_parse.h - strict parsing of option and parameter values: the whole
 * text must parse, and every error names the option and the value. */
#ifndef DG_PARSE_H
#define DG_PARSE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A finite decimal number (no blanks, hex, inf or nan), lo <= value <= hi. */
int dg_parse_real(const char *opt, const char *s, double lo, double hi, double *out);
/* Comma-separated finite numbers, between nmin and nmax of them; *n = count. */
int dg_parse_list(const char *opt, const char *s, int nmin, int nmax, double *out, int *n);
/* One of the '|'-separated words of `words`: *index = its position. */
int dg_parse_word(const char *opt, const char *s, const char *words, int *index);

/* v in the fewest significant digits (at most 17) that read back as v
 * exactly; n reals comma-separated the same way (truncated to cap). */
void dg_format_real(char *buf, size_t cap, double v);
void dg_format_list(char *buf, size_t cap, const double *v, int n);

#ifdef __cplusplus
}
#endif
#endif
