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
  snprintf(dg_error_buf, sizeof dg_error_buf, "%s: %s", head, old);
  return code;
}

const char *dg_error_message(void) { return dg_error_buf; }

void dg_error_clear(void) { dg_error_buf[0] = '\0'; }
