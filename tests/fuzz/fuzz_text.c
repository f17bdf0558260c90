/* fuzz_text: the plain-text modal reader (dg_snapshot_read_text). */
#include "fuzz_common.h"

#include "dg_io.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The invariants every successful read promises (dg_io.h). */
static void check(const dg_snapshot *s) {
  if (s->dim != 2 && s->dim != 3) abort();
  if (s->nelem != (int64_t)s->cells[0] * s->cells[1] * s->cells[2]) abort();
  if (s->coeff_offset[0] != 0) abort();
  for (int64_t e = 0; e < s->nelem; ++e) {
    int64_t n = s->nvar;
    for (int d = 0; d < s->dim; ++d) n *= s->degree[e] + 1;
    if (s->degree[e] > 10 || s->coeff_offset[e + 1] - s->coeff_offset[e] != n) abort();
  }
  volatile double sum = 0; /* touch every coefficient (ASan checks the bounds) */
  for (int64_t i = 0; i < s->coeff_offset[s->nelem]; ++i) sum += s->coeff[i];
  (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  int fd = fuzz_file(data, size, path, sizeof path);
  if (fd < 0) fuzz_setup_failed("memfd");
  dg_snapshot s;
  if (dg_snapshot_read_text(path, &s) == 0) {
    check(&s);
    dg_snapshot_free(&s);
  } else {
    static const dg_snapshot zero;
    if (memcmp(&s, &zero, sizeof s) != 0) abort(); /* failure leaves it empty */
  }
  close(fd);
  return 0;
}
