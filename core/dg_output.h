/* dg_output.h - between a running discretisation and a dg_snapshot (core/dg_io.h):
 * fill a snapshot from a field, and load a field from a snapshot (restart)
 * after checking that the snapshot describes the same problem. */
#ifndef DG_OUTPUT_H
#define DG_OUTPUT_H

#include "dg_eval.h"
#include "dg_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill `s` (allocating; free with dg_snapshot_free) from field u at (t, step):
 * grid, degrees, compact coefficients, values at the Gauss points, the view
 * sub-grid with view_s samples per element and direction (0: none) and, with
 * with_error, the pointwise error there against the model's solution where
 * it is known at t.  Parameters and history are left empty for the caller.
 * On a rank's block (dg_disc_part.h) the per-element data is the block's:
 * coeff and gauss_values of its own elements in element order, the view
 * arrays of its box (for dg_snapshot_write_ranks); grid, degree and
 * coeff_offset are the whole grid's. */
int dg_snapshot_from_field(dg_snapshot *s, const dg_disc *d, dg_field *u, double t, long step,
                           int view_s, int with_error);

/* Load u from snapshot s read from `path`, after checking dim, cells, box, q,
 * nvar, model and every element's degree; a mismatch names what differs.
 * On a rank's block s->coeff holds its own elements' coefficients in
 * element order (dg_snapshot_read_part), the others' are not read. */
int dg_field_from_snapshot(const dg_disc *d, dg_field *u, const dg_snapshot *s, const char *path);

#ifdef __cplusplus
}
#endif
#endif
