/* dg_io_ranks.c - a snapshot written by every rank together (dg_io_ranks.h).
 *
 * The file is the one dg_snapshot_write makes, written through HDF5's
 * MPI-IO driver instead of built in memory: every rank creates the same
 * groups, attributes and datasets (collective), each writes its block's
 * hyperslabs of the per-element datasets, rank 0 the datasets every rank
 * holds whole (dg_io_h5_write_body).  The user block is reserved
 * (H5Pset_userblock) and filled by rank 0 after the file is closed, from a
 * read of the file's bytes (the CRC-64 of docs/FILE_FORMAT.md, "Checksum
 * block").  The atomic writer of dg_io_file.c makes the temporary and
 * renames it, on rank 0, after every rank agreed. */
#include "dg_io_ranks.h"

#include "dg_arg.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_io_internal.h"

#ifdef DG_HAVE_MPI
#include "dg_comm_mpi.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef DG_HAVE_MPI
/* Rank 0: the checksum block of the closed temporary, written in place. */
static int seal_file(const char *label, const char *tmp, const char *tmp_label) {
  enum { chunk = 1 << 20 };
  const int fd = open(tmp, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return dg_error(DG_ERR_IO, "%s: cannot reopen temporary %s: %s", label, tmp_label,
                    strerror(errno));
  unsigned char *buf = malloc(chunk);
  int rc = buf ? 0 : dg_error(DG_ERR_MEM, "%s: out of memory to seal %s", label, tmp_label);
  uint64_t crc = 0;
  size_t n = 0;
  while (rc == 0) {
    const ssize_t got = pread(fd, buf, chunk, (off_t)(DG_IO_USERBLOCK + n));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      rc = dg_error(DG_ERR_IO, "%s: cannot read back %s: %s", label, tmp_label, strerror(errno));
    if (got <= 0) break;
    crc = dg_io_crc64_more(crc, buf, (size_t)got);
    n += (size_t)got;
  }
  unsigned char block[DG_IO_USERBLOCK];
  dg_io_seal_block(block, crc, n);
  for (size_t done = 0; rc == 0 && done < sizeof block;) {
    const ssize_t w = pwrite(fd, block + done, sizeof block - done, (off_t)done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      rc = dg_error(DG_ERR_IO, "%s: cannot seal %s: %s", label, tmp_label,
                    w < 0 ? strerror(errno) : "no room");
    else
      done += (size_t)w;
  }
  free(buf);
  if (close(fd) != 0 && rc == 0)
    rc = dg_error(DG_ERR_IO, "%s: cannot seal %s: %s", label, tmp_label, strerror(errno));
  return rc;
}

/* How long a rank that failed inside the collective writing waits for the
 * others to fail too before it takes them to be stuck in HDF5. */
#define DG_IO_ALONE_WAIT_S 5.0

/* Every rank: the file `tmp` created and written collectively.  *agreed is
 * set where a failure was agreed here already.  A rank that fails inside
 * the writing (a collective HDF5 call, or its own preparation) may leave the
 * others waiting in HDF5: it agrees with a limit (dg_comm_agree_failure);
 * where every rank failed they close the file together, else it returns at
 * once, the file open, and the app ends the job (dg_comm_failed_alone). */
static int write_file(const char *label, const char *tmp, const dg_snapshot *s, dg_comm *c,
                      const int lo[3], const int hi[3], int *agreed) {
  dg_io_h5_quiet q;
  DG_CALL(dg_io_h5_quiet_begin(&q, label));
  int rc = 0;
  *agreed = 0;
  hid_t fapl = H5I_INVALID_HID, fcpl = H5I_INVALID_HID, dxpl = H5I_INVALID_HID;
  hid_t file = H5I_INVALID_HID;
  if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 ||
      H5Pset_fapl_mpio(fapl, dg_comm_mpi(c), MPI_INFO_NULL) < 0 ||
      (fcpl = H5Pcreate(H5P_FILE_CREATE)) < 0 || H5Pset_userblock(fcpl, DG_IO_USERBLOCK) < 0 ||
      (dxpl = H5Pcreate(H5P_DATASET_XFER)) < 0 || H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot set up the parallel HDF5 file properties%s", label,
                  dg_io_h5_why());
  if (rc == 0 && (file = H5Fcreate(tmp, H5F_ACC_TRUNC, fcpl, fapl)) < 0)
    rc = dg_error(DG_ERR_LIB, "%s: cannot create the HDF5 file%s", label, dg_io_h5_why());
  /* the tests' failure of the last rank alone, inside the collective writing */
  if (rc == 0 && dg_comm_rank(c) == dg_comm_size(c) - 1 && dg_io_fail_injected("ranks_alone"))
    rc = dg_error(DG_ERR_IO,
                  "%s: injected failure (DGRID_IO_FAIL=ranks_alone) inside the collective write",
                  label);
  else if (rc == 0) {
    const dg_io_h5w w = {label, file, dxpl, dg_comm_rank(c) == 0, lo, hi};
    rc = dg_io_h5_write_body(&w, s);
  }
  if (rc != 0) {
    rc = dg_comm_agree_failure(c, rc, DG_IO_ALONE_WAIT_S);
    if (dg_comm_failed_alone(c)) return dg_io_h5_quiet_end(&q, rc, label);
    *agreed = 1;
  }
  rc = dg_io_h5_close(&file, H5Fclose, rc, label, "the HDF5 file");
  rc = dg_io_h5_close(&dxpl, H5Pclose, rc, label, "transfer list");
  rc = dg_io_h5_close(&fcpl, H5Pclose, rc, label, "file creation list");
  rc = dg_io_h5_close(&fapl, H5Pclose, rc, label, "file access list");
  return dg_io_h5_quiet_end(&q, rc, label);
}

/* The temporary's name, rank 0's, to every rank (into *tmp, malloc'd). */
static int share_name(dg_comm *c, const char *name, char **tmp) {
  MPI_Comm mc = dg_comm_mpi(c);
  int len = name ? (int)strlen(name) : 0;
  *tmp = NULL;
  if (MPI_Bcast(&len, 1, MPI_INT, 0, mc) != MPI_SUCCESS)
    return dg_error(DG_ERR_LIB, "MPI: MPI_Bcast (the snapshot's temporary name) failed");
  char *t = malloc((size_t)len + 1);
  if (!t) return dg_error(DG_ERR_MEM, "out of memory for a file name");
  if (name) memcpy(t, name, (size_t)len + 1);
  if (MPI_Bcast(t, len + 1, MPI_CHAR, 0, mc) != MPI_SUCCESS) {
    free(t);
    return dg_error(DG_ERR_LIB, "MPI: MPI_Bcast (the snapshot's temporary name) failed");
  }
  *tmp = t;
  return 0;
}
#endif

int dg_snapshot_write_ranks(const char *path, const dg_snapshot *s, dg_comm *c, const int lo[3],
                            const int hi[3]) {
  DG_ARG_NONNULL("dg_snapshot_write_ranks", path);
  DG_ARG_NONNULL("dg_snapshot_write_ranks", s);
  DG_ARG_NONNULL("dg_snapshot_write_ranks", c);
  DG_ARG_NONNULL("dg_snapshot_write_ranks", lo);
  DG_ARG_NONNULL("dg_snapshot_write_ranks", hi);
  if (dg_comm_size(c) == 1) return dg_snapshot_write(path, s);
#ifndef DG_HAVE_MPI
  return dg_error(DG_ERR_ARG, "dg_snapshot_write_ranks: %d ranks without MPI", dg_comm_size(c));
#else
  const int me = dg_comm_rank(c);
  char *label = dg_escape_dup(path), *tmp = NULL;
  int rc = label ? dg_io_h5_check(label, s)
                 : dg_error(DG_ERR_MEM, "dg_snapshot_write_ranks: out of memory");
  dg_io_out o;
  int open = 0;
  if (rc == 0 && me == 0) open = (rc = dg_io_out_open(&o, path, label)) == 0;
  /* each agreement ends the write on every rank where one failed */
  rc = dg_comm_agree(c, rc);
  if (rc == 0) rc = dg_comm_agree(c, share_name(c, me == 0 ? o.tmp : NULL, &tmp));
  if (rc == 0) {
    int agreed = 0;
    rc = write_file(label, tmp, s, c, lo, hi, &agreed);
    if (dg_comm_failed_alone(c)) {
      /* the job ends from the app: no temporary left behind (the others
       * may still hold it open; the name goes, never a final one) */
      (void)unlink(tmp);
      if (open) dg_io_out_abort(&o);
      free(tmp);
      free(label);
      return rc;
    }
    /* the tests' failure of a rank but 0 after the collective write */
    if (rc == 0 && me == dg_comm_size(c) - 1 && dg_io_fail_injected("ranks"))
      rc = dg_error(DG_ERR_IO,
                    "%s: injected failure (DGRID_IO_FAIL=ranks) after rank %d wrote its part",
                    label, me);
    if (!agreed) rc = dg_comm_agree(c, rc);
  }
  if (rc == 0 && me == 0) {
    rc = seal_file(label, o.tmp, o.tmp_label);
    if (rc == 0)
      rc = dg_io_out_commit(&o, "snapshot"); /* removes the temporary on failure */
    else
      dg_io_out_abort(&o);
    open = 0;
    rc = dg_comm_agree(c, rc);
  } else if (rc == 0) {
    rc = dg_comm_agree(c, 0);
  }
  if (open) dg_io_out_abort(&o);
  free(tmp);
  free(label);
  return rc;
#endif
}

int dg_snapshot_verify(const char *path) {
  DG_ARG_NONNULL("dg_snapshot_verify", path);
  char *label = dg_escape_dup(path);
  if (!label) return dg_error(DG_ERR_MEM, "dg_snapshot_verify: out of memory");
  const int rc = dg_io_verify_file(label, path);
  free(label);
  return rc;
}

int dg_snapshot_read_part(const char *path, dg_snapshot *s, const int *lo, const int *hi) {
  DG_ARG_NONNULL("dg_snapshot_read_part", path);
  DG_ARG_NONNULL("dg_snapshot_read_part", s);
  char *label = dg_escape_dup(path);
  if (!label) return dg_error(DG_ERR_MEM, "dg_snapshot_read_part: out of memory");
  const int rc = dg_io_h5_read_part(label, path, s, lo, hi);
  free(label);
  return rc;
}
