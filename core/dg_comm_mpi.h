/* dg_comm_mpi.h - the MPI communicator of a dg_comm, for the code that
 * exchanges halos and writes snapshots collectively (backends/, dg_io).
 * Internal, not installed, and only in an MPI build: including it without
 * DG_HAVE_MPI is an error, so no MPI header reaches a build without MPI. */
#ifndef DG_COMM_MPI_H
#define DG_COMM_MPI_H

#ifndef DG_HAVE_MPI
#error "dg_comm_mpi.h is for MPI builds (DGRID_MPI) only"
#endif

#include "dg_comm.h"

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The communicator's MPI handle (MPI_COMM_NULL for dg_comm_create_self). */
MPI_Comm dg_comm_mpi(const dg_comm *c);

#ifdef __cplusplus
}
#endif
#endif
