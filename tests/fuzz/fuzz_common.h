/* fuzz_common.h - shared by the libFuzzer targets: the input as a file.
 *
 * The readers take a path, so each input is written to an anonymous memory
 * file (memfd) and read back through /proc/self/fd/N: the real entry point,
 * including the regular-file check and the bounded read, without touching
 * a disk. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* A memfd holding data[0..size); its path in `path`.  -1 on failure. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len) {
  int fd = memfd_create("dgrid-fuzz", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < size) {
    ssize_t w = write(fd, data + done, size - done);
    if (w <= 0) {
      close(fd);
      return -1;
    }
    done += (size_t)w;
  }
  snprintf(path, len, "/proc/self/fd/%d", fd);
  return fd;
}

/* A failed setup is not a finding: stop loudly instead of fuzzing nothing. */
static inline void fuzz_setup_failed(const char *what) {
  perror(what);
  abort();
}

#endif
