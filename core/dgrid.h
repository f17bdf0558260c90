/* dgrid.h - the installed API in one include: #include <dgrid/dgrid.h>.
 *
 * A program makes a backend (dg_backends.h: "omp", "cuda", "cuda:1"),
 * builds a grid (dg_grid.h), a degree map (dg_degree_map.h), a model of
 * the build by name (dg_model.h) or from a header (dg_model_load), the
 * discretisation on the backend (dg_disc.h)
 * and fields (dg_field.h); projects initial data and measures errors and
 * mass (dg_eval.h); steps with an integrator (dg_ts.h); writes and reads
 * snapshots (dg_io.h, dg_output.h).  Every function returns 0 or a DG_ERR_*
 * code with a message (dg_error.h).  examples/ holds a complete program. */
#ifndef DGRID_H
#define DGRID_H

#include "dg_backends.h"
#include "dg_degree_map.h"
#include "dg_disc.h"
#include "dg_disc_op.h"
#include "dg_error.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_grid.h"
#include "dg_io.h"
#include "dg_model.h"
#include "dg_model_desc.h"
#include "dg_output.h"
#include "dg_real.h"
#include "dg_ts.h"

#endif
