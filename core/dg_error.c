/* dg_error.c - thread-local record of the last error message. */
#include "dg_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DG_ERROR_LEN 1024
static _Thread_local char dg_error_buf[DG_ERROR_LEN];

int dg_error(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dg_error_buf, sizeof dg_error_buf, fmt, ap);
  va_end(ap);
  return code;
}

int dg_error_prefix(int code, const char *fmt, ...) {
  char head[DG_ERROR_LEN], old[DG_ERROR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(head, sizeof head, fmt, ap);
  va_end(ap);
  memcpy(old, dg_error_buf, sizeof old);
  /* head + ": " + old, cut at the buffer size */
  size_t n = strlen(head);
  if (n > DG_ERROR_LEN - 3) n = DG_ERROR_LEN - 3;
  memcpy(dg_error_buf, head, n);
  memcpy(dg_error_buf + n, ": ", 2);
  size_t m = strlen(old);
  if (m > DG_ERROR_LEN - 1 - (n + 2)) m = DG_ERROR_LEN - 1 - (n + 2);
  memcpy(dg_error_buf + n + 2, old, m);
  dg_error_buf[n + 2 + m] = '\0';
  return code;
}

const char *dg_error_message(void) { return dg_error_buf; }

void dg_error_clear(void) { dg_error_buf[0] = '\0'; }
