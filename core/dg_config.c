/* dg_config.c - configuration files (dg_config.h). */
#include "dg_config.h"

#include "dg_error.h"
#include "dg_escape.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int dg_config_error(const dg_config *c, int line, int code, const char *fmt, ...) {
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *label = c && c->label ? c->label : "configuration";
  if (line > 0) return dg_error(code, "%s:%d: %s", label, line, msg);
  return dg_error(code, "%s: %s", label, msg);
}

void dg_config_free(dg_config *c) {
  if (!c) return;
  for (int i = 0; i < c->n; ++i) {
    free(c->e[i].key);
    free(c->e[i].value);
  }
  free(c->e);
  free(c->label);
  memset(c, 0, sizeof *c);
}

int dg_config_init(dg_config *c, const char *label) {
  memset(c, 0, sizeof *c);
  c->label = dg_escape_dup(label ? label : "configuration");
  if (!c->label) return dg_error(DG_ERR_MEM, "configuration: out of memory");
  return 0;
}

int dg_config_find(const dg_config *c, const char *key) {
  for (int i = 0; i < c->n; ++i)
    if (strcmp(c->e[i].key, key) == 0) return i;
  return -1;
}

static int add_n(dg_config *c, const char *key, size_t klen, const char *value, size_t vlen,
                 int section, int line) {
  if (c->n == c->cap) {
    const int cap = c->cap ? 2 * c->cap : 16;
    dg_config_entry *e = realloc(c->e, (size_t)cap * sizeof *e);
    if (!e) return dg_config_error(c, line, DG_ERR_MEM, "out of memory");
    c->e = e;
    c->cap = cap;
  }
  dg_config_entry *e = &c->e[c->n];
  e->key = malloc(klen + 1);
  e->value = malloc(vlen + 1);
  if (!e->key || !e->value) {
    free(e->key);
    free(e->value);
    return dg_config_error(c, line, DG_ERR_MEM, "out of memory");
  }
  memcpy(e->key, key, klen);
  e->key[klen] = '\0';
  memcpy(e->value, value, vlen);
  e->value[vlen] = '\0';
  e->section = section;
  e->line = line;
  c->n++;
  return 0;
}

int dg_config_add(dg_config *c, const char *key, const char *value, int section) {
  if (dg_config_find(c, key) >= 0) {
    char k[96];
    return dg_config_error(c, 0, DG_ERR_ARG, "key '%s' given twice", dg_escape(k, sizeof k, key));
  }
  return add_n(c, key, strlen(key), value, strlen(value), section, 0);
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }

static int is_name_char(unsigned char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '-' || ch == '_' || ch == '.';
}

static int is_name(const char *s, size_t n) {
  if (n == 0) return 0;
  for (size_t i = 0; i < n; ++i)
    if (!is_name_char((unsigned char)s[i])) return 0;
  return 1;
}

/* The first control byte of s[0..n) other than tab (NUL included), or -1. */
static int control_at(const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const unsigned char ch = (unsigned char)s[i];
    if ((ch < 0x20 && ch != '\t') || ch == 0x7f) return (int)i;
  }
  return -1;
}

/* Trim blanks: [*b, *e) shrinks to its non-blank part. */
static void trim(const char **b, const char **e) {
  while (*b < *e && is_blank(**b)) ++*b;
  while (*e > *b && is_blank((*e)[-1])) --*e;
}

/* "'<escaped excerpt>'" of s[0..n) for messages. */
static const char *excerpt(char *out, size_t cap, const char *s, size_t n) {
  return dg_escape_n(out, cap, s, n);
}

static int parse_line(dg_config *c, const char *const *sections, int nsections, int *section,
                      const char *b, const char *e, int line) {
  char x[96], y[96];
  trim(&b, &e);
  if (b == e || *b == '#' || *b == ';') return 0;
  if (*b == '[') {
    if (e[-1] != ']' || e - b < 2)
      return dg_config_error(c, line, DG_ERR_ARG, "'%s' is not a [section] header",
                             excerpt(x, sizeof x, b, (size_t)(e - b)));
    const char *nb = b + 1, *ne = e - 1;
    trim(&nb, &ne);
    const size_t n = (size_t)(ne - nb);
    for (int i = 0; i < nsections; ++i)
      if (strlen(sections[i]) == n && memcmp(sections[i], nb, n) == 0) {
        *section = i;
        return 0;
      }
    char list[200] = "";
    for (int i = 0, o = 0; i < nsections && o < (int)sizeof list; ++i)
      o += snprintf(list + o, sizeof list - (size_t)o, "%s%s", i ? ", " : "", sections[i]);
    return dg_config_error(c, line, DG_ERR_ARG, "unknown section [%s] (sections: %s)",
                           excerpt(x, sizeof x, nb, n), nsections ? list : "none");
  }
  const char *eq = memchr(b, '=', (size_t)(e - b));
  if (!eq)
    return dg_config_error(c, line, DG_ERR_ARG, "no '=' in '%s' (lines are key = value)",
                           excerpt(x, sizeof x, b, (size_t)(e - b)));
  const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
  trim(&kb, &ke);
  trim(&vb, &ve);
  if (kb == ke)
    return dg_config_error(c, line, DG_ERR_ARG, "no key before '=' in '%s'",
                           excerpt(x, sizeof x, b, (size_t)(e - b)));
  const size_t kn = (size_t)(ke - kb);
  if (!is_name(kb, kn))
    return dg_config_error(c, line, DG_ERR_ARG,
                           "key '%s' is not a name (letters, digits, '-', '_', '.')",
                           excerpt(x, sizeof x, kb, kn));
  if (vb == ve)
    return dg_config_error(c, line, DG_ERR_ARG, "key '%s' has an empty value",
                           excerpt(x, sizeof x, kb, kn));
  for (int i = 0; i < c->n; ++i)
    if (strlen(c->e[i].key) == kn && memcmp(c->e[i].key, kb, kn) == 0)
      return dg_config_error(c, line, DG_ERR_ARG, "key '%s' given twice (first on line %d)",
                             excerpt(y, sizeof y, kb, kn), c->e[i].line);
  return add_n(c, kb, kn, vb, (size_t)(ve - vb), *section, line);
}

int dg_config_parse(dg_config *c, const char *label, const char *text, size_t len,
                    const char *const *sections, int nsections) {
  DG_CALL(dg_config_init(c, label));
  int rc = 0;
  if (len > DG_CONFIG_MAX_BYTES) {
    rc = dg_config_error(c, 0, DG_ERR_ARG, "%zu bytes, more than the %d a configuration may have",
                         len, DG_CONFIG_MAX_BYTES);
    goto out;
  }
  const char *p = text, *end = text + len;
  if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) p += 3; /* UTF-8 byte order mark */
  int line = 0, section = -1;
  while (p < end && rc == 0) {
    ++line;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    const char *next = nl ? nl + 1 : end;
    if (e > p && e[-1] == '\r') --e; /* CRLF */
    const size_t n = (size_t)(e - p);
    const int at = control_at(p, n);
    if (at >= 0) {
      const unsigned char ch = (unsigned char)p[at];
      rc = ch == 0 ? dg_config_error(c, line, DG_ERR_ARG, "NUL byte at column %d", at + 1)
                   : dg_config_error(c, line, DG_ERR_ARG, "control character \\x%02x at column %d",
                                     ch, at + 1);
    } else if (n > DG_CONFIG_MAX_LINE) {
      rc = dg_config_error(c, line, DG_ERR_ARG, "line of %zu bytes, longer than %d", n,
                           DG_CONFIG_MAX_LINE);
    } else {
      rc = parse_line(c, sections, nsections, &section, p, e, line);
    }
    p = next;
  }
out:
  if (rc) {
    /* the message is recorded; leave nothing behind */
    dg_config_free(c);
  }
  return rc;
}

int dg_config_read(dg_config *c, const char *path, const char *const *sections, int nsections) {
  memset(c, 0, sizeof *c);
  dg_config lab; /* the label for file-level messages */
  DG_CALL(dg_config_init(&lab, path));
  int rc = 0;
  /* Without blocking (a FIFO cannot stall us); regular files only. */
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  char *buf = NULL;
  size_t got = 0;
  if (fd < 0) {
    rc = dg_config_error(&lab, 0, DG_ERR_IO, "cannot open: %s", strerror(errno));
  } else if (fstat(fd, &st) != 0) {
    rc = dg_config_error(&lab, 0, DG_ERR_IO, "cannot stat: %s", strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    rc = dg_config_error(&lab, 0, DG_ERR_IO, "not a regular file; only regular files are read");
  } else if (st.st_size > DG_CONFIG_MAX_BYTES) {
    rc = dg_config_error(&lab, 0, DG_ERR_ARG,
                         "%lld bytes, more than the %d a configuration may have",
                         (long long)st.st_size, DG_CONFIG_MAX_BYTES);
  } else if (!(buf = malloc((size_t)st.st_size + 1))) {
    rc = dg_config_error(&lab, 0, DG_ERR_MEM, "out of memory");
  } else {
    /* one byte more than fstat says, to see a file that grew meanwhile */
    const size_t want = (size_t)st.st_size + 1;
    while (got < want) {
      const ssize_t r = read(fd, buf + got, want - got);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) {
        rc = dg_config_error(&lab, 0, DG_ERR_IO, "cannot read: %s", strerror(errno));
        break;
      }
      if (r == 0) break;
      got += (size_t)r;
    }
    if (rc == 0 && got != (size_t)st.st_size)
      rc = dg_config_error(&lab, 0, DG_ERR_IO, "changed while it was read");
  }
  if (fd >= 0) close(fd);
  if (rc == 0) rc = dg_config_parse(c, path, buf, got, sections, nsections);
  /* "cells = 8x8  # wide" in a file someone wrote: a comment after the value
     would be read as part of it (a bad number, or a file name with it);
     comments are whole lines.  Only here: a snapshot's stored configuration
     (dg_config_parse alone) keeps such a value as it was given. */
  for (int i = 0; rc == 0 && i < c->n; ++i) {
    const char *val = c->e[i].value, *v = val + 1;
    while (*v && !((*v == '#' || *v == ';') && (v[-1] == ' ' || v[-1] == '\t'))) ++v;
    if (!*v) continue;
    char x[96], y[96];
    rc = dg_config_error(c, c->e[i].line, DG_ERR_ARG,
                         "key '%s': a comment after the value ('%s'); comments are whole lines "
                         "starting with # or ;",
                         excerpt(x, sizeof x, c->e[i].key, strlen(c->e[i].key)),
                         excerpt(y, sizeof y, val, strlen(val)));
    dg_config_free(c); /* as a failed parse leaves it */
    break;
  }
  free(buf);
  dg_config_free(&lab);
  return rc;
}

typedef struct {
  char *buf;
  size_t len, cap;
  int oom;
} sbuf;

static void put(sbuf *s, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(sbuf *s, const char *fmt, ...) {
  if (s->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(s->buf ? s->buf + s->len : NULL, s->buf ? s->cap - s->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      s->oom = 1;
      return;
    }
    if (s->buf && s->len + (size_t)n < s->cap) {
      s->len += (size_t)n;
      return;
    }
    size_t cap = s->cap ? 2 * s->cap : 1024;
    while (cap < s->len + (size_t)n + 1) cap *= 2;
    char *b = realloc(s->buf, cap);
    if (!b) {
      s->oom = 1;
      return;
    }
    s->buf = b;
    s->cap = cap;
  }
}

int dg_config_format(const dg_config *c, const char *header, const char *const *sections,
                     int nsections, char **text) {
  *text = NULL;
  sbuf s = {NULL, 0, 0, 0};
  int rc = 0, section = -1;
  char k[96], v[96];
  if (header) put(&s, "%s", header);
  for (int i = 0; i < c->n && rc == 0; ++i) {
    const dg_config_entry *e = &c->e[i];
    const size_t kn = strlen(e->key), vn = strlen(e->value);
    dg_escape(k, sizeof k, e->key);
    if (!is_name(e->key, kn))
      rc = dg_config_error(c, 0, DG_ERR_ARG,
                           "key '%s' is not a name (letters, digits, '-', '_', '.')", k);
    else if (vn == 0)
      rc = dg_config_error(c, 0, DG_ERR_ARG, "key '%s' has an empty value", k);
    else if (is_blank(e->value[0]) || is_blank(e->value[vn - 1]) || control_at(e->value, vn) >= 0)
      rc = dg_config_error(c, 0, DG_ERR_ARG,
                           "%s = '%s': a value with a blank at either end or a control character "
                           "cannot be written to a configuration file",
                           k, dg_escape(v, sizeof v, e->value));
    else if (kn + 1 + vn > DG_CONFIG_MAX_LINE)
      rc = dg_config_error(c, 0, DG_ERR_ARG, "%s: the line would be longer than %d bytes", k,
                           DG_CONFIG_MAX_LINE);
    else if (e->section >= nsections || e->section < -1 || (e->section < 0 && section >= 0))
      rc = dg_config_error(c, 0, DG_ERR_ARG, "%s: no section to write it in", k);
    if (rc) break;
    if (e->section != section) {
      put(&s, "%s[%s]\n", s.len ? "\n" : "", sections[e->section]);
      section = e->section;
    }
    /* "key=value" where the blanks would make the line too long */
    put(&s, kn + 3 + vn > DG_CONFIG_MAX_LINE ? "%s=%s\n" : "%s = %s\n", e->key, e->value);
  }
  if (rc == 0 && !s.buf) put(&s, "%s", "");
  if (rc == 0 && s.oom) rc = dg_config_error(c, 0, DG_ERR_MEM, "out of memory");
  if (rc) {
    free(s.buf);
    return rc;
  }
  *text = s.buf;
  return 0;
}
