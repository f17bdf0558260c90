/* fuzz_config: the configuration-file parser (dg_config_read, what
 * `advect run.cfg` and --restart's stored configuration go through) and, on
 * every value it accepts, the strict value parsers of dg_parse.h.  The whole
 * input is the file.
 *
 * Besides the sanitizers, it aborts when a promise is broken: a failed parse
 * leaves nothing behind and records one line; a parsed configuration has
 * non-empty names as keys, unique, with values that are non-empty, trimmed
 * and free of control characters, in known sections, on increasing lines;
 * written back (dg_config_format) it reads back as the same entries. */
#include "fuzz_common.h"

#include "dg_config.h"
#include "dg_error.h"
#include "dg_parse.h"

#include <math.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const sections[] = {"grid", "physics", "time", "output"};
enum { NSEC = 4 };

static int name_char(unsigned char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '-' || ch == '_' || ch == '.';
}

static void check_entries(const dg_config *c) {
  int line = 0;
  for (int i = 0; i < c->n; ++i) {
    const dg_config_entry *e = &c->e[i];
    const size_t kn = strlen(e->key), vn = strlen(e->value);
    if (kn == 0 || vn == 0) abort();
    for (size_t k = 0; k < kn; ++k)
      if (!name_char((unsigned char)e->key[k])) abort();
    if (e->value[0] == ' ' || e->value[0] == '\t' || e->value[vn - 1] == ' ' ||
        e->value[vn - 1] == '\t')
      abort();
    for (size_t k = 0; k < vn; ++k) {
      const unsigned char ch = (unsigned char)e->value[k];
      if ((ch < 0x20 && ch != '\t') || ch == 0x7f) abort();
    }
    if (kn + 1 + vn > DG_CONFIG_MAX_LINE) abort();
    if (e->section < -1 || e->section >= NSEC) abort();
    if (i > 0 && e->section < 0 && c->e[i - 1].section >= 0) abort();
    if (e->line <= line) abort();
    line = e->line;
    for (int j = 0; j < i; ++j)
      if (!strcmp(c->e[j].key, e->key)) abort();
    if (dg_config_find(c, e->key) != i) abort();
    /* the value parsers on what a configuration may hold */
    double v[6];
    int n = 0, w = 0;
    if (dg_parse_real("--x", e->value, -HUGE_VAL, HUGE_VAL, v) == 0 && !isfinite(v[0])) abort();
    if (dg_parse_list("--x", e->value, 1, 6, v, &n) == 0) {
      if (n < 1 || n > 6) abort();
      for (int k = 0; k < n; ++k)
        if (!isfinite(v[k])) abort();
    }
    if (dg_parse_word("--x", e->value, "false|true|a-b|uniform", &w) == 0 && (w < 0 || w > 3))
      abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  int fd = fuzz_file(data, size, path, sizeof path);
  if (fd < 0) fuzz_setup_failed("memfd");
  dg_config c;
  memset(&c, 0x5a, sizeof c); /* the reader must not rely on a zeroed struct */
  const int rc = dg_config_read(&c, path, sections, NSEC);
  close(fd);
  if (rc != 0) {
    if (c.n != 0 || c.e || c.label) abort(); /* failure leaves nothing behind */
    if (strchr(dg_error_message(), '\n') || dg_error_message()[0] == '\0') abort();
    return 0;
  }
  check_entries(&c);
  char *text = NULL;
  if (dg_config_format(&c, "# written back\n", sections, NSEC, &text) != 0) abort();
  dg_config d;
  if (dg_config_parse(&d, "round trip", text, strlen(text), sections, NSEC) != 0) abort();
  if (d.n != c.n) abort();
  for (int i = 0; i < c.n; ++i)
    if (strcmp(c.e[i].key, d.e[i].key) || strcmp(c.e[i].value, d.e[i].value) ||
        c.e[i].section != d.e[i].section)
      abort();
  free(text);
  dg_config_free(&d);
  dg_config_free(&c);
  return 0;
}
