/* fuzz_snapshot: the snapshot reader as compare and --restart use it
 * (dg_snapshot_read_any): the checksum block, the HDF5 gate and, for text
 * content, the text parser.  HDF5 itself is reached only by inputs whose
 * checksum block matches (docs/FUZZING.md says why that is the point). */
#include "fuzz_common.h"

#include "dg_io.h"

#include <hdf5.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  int fd = fuzz_file(data, size, path, sizeof path);
  if (fd < 0) fuzz_setup_failed("memfd");
  dg_snapshot s;
  if (dg_snapshot_read_any(path, &s) == 0) {
    if (s.nelem < 1 || s.coeff_offset[0] != 0) abort();
    volatile double sum = 0;
    for (int64_t i = 0; i < s.coeff_offset[s.nelem]; ++i) sum += s.coeff[i];
    (void)sum;
    dg_snapshot_free(&s);
  } else {
    static const dg_snapshot zero;
    if (memcmp(&s, &zero, sizeof s) != 0) abort();
  }
  /* No HDF5 object may stay open after a read. */
  if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0) abort();
  close(fd);
  return 0;
}
