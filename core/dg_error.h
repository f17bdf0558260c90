/* dg_error.h - error values and the message record (DESIGN.md decision 7).
 *
 * Every host function returns 0 on success or a DG_ERR_* code, after recording a
 * one-line message that names the file, key or value at fault.  Apps print
 * dg_error_message() and exit non-zero; the library never exits.  */
#ifndef DG_ERROR_H
#define DG_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
  DG_OK = 0,
  DG_ERR_ARG = 1,     /* bad argument, option or configuration value */
  DG_ERR_IO = 2,      /* file missing, unreadable, unwritable, malformed */
  DG_ERR_MEM = 3,     /* allocation failed */
  DG_ERR_BACKEND = 4, /* CUDA/OpenMP runtime failure, no device */
  DG_ERR_NUMERIC = 5, /* NaN/Inf, failed quadrature, unstable */
  DG_ERR_LIB = 6      /* GSL/HDF5 returned an error */
};

/* Record a printf-style message and return `code` (so callers can
 * `return dg_error(DG_ERR_ARG, "...")`).  The message is thread-local. */
int dg_error(int code, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The last recorded message ("" if none). */
const char *dg_error_message(void);

/* Prefix the recorded message with context ("while reading x.h5: ...") and
 * return `code` unchanged. */
int dg_error_prefix(int code, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Forget the recorded message. */
void dg_error_clear(void);

/* Propagate a non-zero status: DG_CALL(f(x)); */
#define DG_CALL(expr)                                                                              \
  do {                                                                                             \
    int dg_call_rc_ = (expr);                                                                      \
    if (dg_call_rc_ != 0) return dg_call_rc_;                                                      \
  } while (0)

#ifdef __cplusplus
}
#endif
#endif
