/* dg_parse.c - strict value parsing (dg_parse.h). */
#include "dg_parse.h"

#include "dg_error.h"
#include "dg_escape.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dg_parse_real(const char *opt, const char *s, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  /* decimal notation only: strtod would also take blanks, hex ("0x10" = 16),
     "inf" and "nan" */
  char esc[160];
  const int formed = *s != '\0' && strspn(s, "0123456789+-.eE") == strlen(s) && *end == '\0';
  /* a well-formed number out of the range of a double: said so, not "not a number" */
  if (formed && errno == ERANGE && fabs(v) >= DBL_MAX)
    return dg_error(DG_ERR_ARG, "option %s: '%s' is beyond the largest double (%.3g)", opt,
                    dg_escape(esc, sizeof esc, s), DBL_MAX);
  if (!formed || !isfinite(v))
    return dg_error(DG_ERR_ARG, "option %s: '%s' is not a finite number", opt,
                    dg_escape(esc, sizeof esc, s));
  if (errno == ERANGE)
    return dg_error(DG_ERR_ARG,
                    "option %s: '%s' is below the smallest normal double (%.3g): give 0 or a "
                    "larger magnitude",
                    opt, dg_escape(esc, sizeof esc, s), DBL_MIN);
  if (v < lo || v > hi)
    return dg_error(DG_ERR_ARG, "option %s: %g is outside %g..%g", opt, v, lo, hi);
  *out = v;
  return 0;
}

int dg_parse_list(const char *opt, const char *s, int nmin, int nmax, double *out, int *n) {
  char buf[512], esc[160];
  if (strlen(s) >= sizeof buf) return dg_error(DG_ERR_ARG, "option %s: value too long", opt);
  strcpy(buf, s);
  dg_escape(esc, sizeof esc, s); /* the value as echoed in messages */
  /* strtok_r would skip an empty field silently */
  if (s[0] == ',' || strstr(s, ",,") || (s[0] && s[strlen(s) - 1] == ','))
    return dg_error(DG_ERR_ARG, "option %s: '%s' has an empty value", opt, esc);
  int k = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (k >= nmax)
      return dg_error(DG_ERR_ARG, "option %s: '%s' has more than %d values", opt, esc, nmax);
    DG_CALL(dg_parse_real(opt, tok, -HUGE_VAL, HUGE_VAL, &out[k]));
    ++k;
  }
  if (k < nmin)
    return dg_error(DG_ERR_ARG, "option %s: '%s' needs %d%s comma-separated numbers", opt, esc,
                    nmin, nmax > nmin ? " or more" : "");
  *n = k;
  return 0;
}

int dg_parse_word(const char *opt, const char *s, const char *words, int *index) {
  const size_t len = strlen(s);
  int i = 0;
  for (const char *w = words; *w; ++i) {
    const char *bar = strchr(w, '|');
    const size_t wl = bar ? (size_t)(bar - w) : strlen(w);
    if (wl == len && strncmp(w, s, len) == 0) {
      *index = i;
      return 0;
    }
    w += wl + (bar ? 1 : 0);
  }
  char list[256] = "";
  size_t o = 0;
  for (const char *w = words; *w && o + 3 < sizeof list; ++w)
    if (*w == '|') {
      list[o++] = ',';
      list[o++] = ' ';
    } else {
      list[o++] = *w;
    }
  list[o] = '\0';
  char esc[160];
  return dg_error(DG_ERR_ARG, "option %s: '%s' is not one of %s", opt,
                  dg_escape(esc, sizeof esc, s), list);
}

void dg_format_real(char *buf, size_t cap, double v) {
  /* (also tells gcc 12's -Wformat-truncation under -fsanitize=undefined at -O3
     that buf is not NULL: it warned where nothing is) */
  if (!buf || cap == 0) return;
  for (int p = 1; p <= 17; ++p) {
    snprintf(buf, cap, "%.*g", p, v);
    if (strtod(buf, NULL) == v) return;
  }
}

void dg_format_list(char *buf, size_t cap, const double *v, int n) {
  size_t o = 0;
  buf[0] = '\0';
  for (int k = 0; k < n && o + 1 < cap; ++k) {
    char r[40];
    dg_format_real(r, sizeof r, v[k]);
    o += (size_t)snprintf(buf + o, cap - o, "%s%s", k ? "," : "", r);
  }
}
