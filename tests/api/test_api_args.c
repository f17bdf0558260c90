/* api.args: every public function of <dgrid/dgrid.h> that takes a handle, a
 * field, an index or a time refuses a bad one with DG_ERR_ARG and one message
 * naming the function and the argument (core/dg_arg.h): NULL pointers, a
 * field of another discretisation, an element index outside the grid, a
 * non-finite time or step.  Nothing here may crash. */
#include "dgrid.h"
#include "dg_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* rc is `code` and the message is exactly `text` */
#define EXPECT(call, code, text)                                                                   \
  do {                                                                                             \
    dg_error_clear();                                                                              \
    int rc_ = (call);                                                                              \
    CHECK(rc_ == (code), "%s: rc %d, want %d (%s)", #call, rc_, (code), dg_error_message());       \
    CHECK(strcmp(dg_error_message(), (text)) == 0, "%s: message '%s', want '%s'", #call,           \
          dg_error_message(), (text));                                                             \
  } while (0)

static double one(const double x[3], int v, void *ctx) {
  (void)x, (void)v, (void)ctx;
  return 1.0;
}

static int deg1(const int ijk[3], const double c[3], void *ctx) {
  (void)ijk, (void)c, (void)ctx;
  return 1;
}

/* a grid of n x n cells, degree 1, advection: its discretisation and a field */
static int setup(int n, dg_grid *g, dg_degree_map **m, dg_model **md, dg_disc **d, dg_field **f) {
  const int cells[3] = {n, n, 1};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  DG_CALL(dg_grid_init(g, 2, cells, lo, hi));
  DG_CALL(dg_degree_map_create_uniform(m, g, 1));
  DG_CALL(dg_model_create(md, "advection"));
  DG_CALL(dg_disc_create(d, dg_test_backend(), g, *m, 0, *md));
  return dg_field_create(f, *d);
}

int main(void) {
  const int A = DG_ERR_ARG;
  dg_grid g, g2;
  dg_degree_map *m = NULL, *m2 = NULL;
  dg_model *md = NULL, *md2 = NULL;
  dg_disc *d = NULL, *d2 = NULL;
  dg_field *f = NULL, *f2 = NULL;
  int rc = setup(4, &g, &m, &md, &d, &f);
  if (!rc) rc = setup(3, &g2, &m2, &md2, &d2, &f2);
  if (rc) {
    fprintf(stderr, "FAIL: setup: %s\n", dg_error_message());
    return 1;
  }
  double buf[4096], x1d[2] = {-0.5, 0.5}, v[8];
  const int cells[3] = {4, 4, 1}, bc[DG_GRID_SIDES] = {0};
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};

  /* grid and degree maps */
  EXPECT(dg_grid_init(NULL, 2, cells, lo, hi), A, "dg_grid_init: NULL argument 'g'");
  EXPECT(dg_grid_init(&g2, 2, NULL, lo, hi), A, "dg_grid_init: NULL argument 'n'");
  EXPECT(dg_grid_init_latlon(NULL, 4, 2, 1.0), A, "dg_grid_init_latlon: NULL argument 'g'");
  EXPECT(dg_grid_set_bc(NULL, bc), A, "dg_grid_set_bc: NULL argument 'g'");
  dg_degree_map *mm = (dg_degree_map *)&mm;
  EXPECT(dg_degree_map_create_uniform(&mm, NULL, 1), A,
         "dg_degree_map_create_uniform: NULL argument 'g'");
  CHECK(mm == NULL, "a refused map create left a handle");
  EXPECT(dg_degree_map_create_uniform(NULL, &g, 1), A,
         "dg_degree_map_create_uniform: NULL argument 'm'");
  EXPECT(dg_degree_map_create_band(&mm, NULL, 0, 1), A,
         "dg_degree_map_create_band: NULL argument 'g'");
  EXPECT(dg_degree_map_create_rows(&mm, &g, NULL), A,
         "dg_degree_map_create_rows: NULL argument 'row_deg'");
  EXPECT(dg_degree_map_create_callback(&mm, &g, NULL, NULL), A,
         "dg_degree_map_create_callback: NULL argument 'fn'");
  EXPECT(dg_degree_map_create_callback(&mm, NULL, deg1, NULL), A,
         "dg_degree_map_create_callback: NULL argument 'g'");
  EXPECT(dg_degree_map_create_file(&mm, &g, NULL), A,
         "dg_degree_map_create_file: NULL argument 'raw_path'");
  EXPECT(dg_degree_map_write(m, &g, NULL), A, "dg_degree_map_write: NULL argument 'path'");

  /* models */
  dg_model *mo = NULL;
  EXPECT(dg_model_create(NULL, "advection"), A, "dg_model_create: NULL handle");
  EXPECT(dg_model_create(&mo, NULL), A, "dg_model_create: NULL model name");
  EXPECT(dg_model_clone(&mo, NULL), A, "dg_model_clone: NULL argument 'src'");
  EXPECT(dg_model_set(NULL, "beta", "1,1"), A, "dg_model_set: NULL argument 'm'");
  EXPECT(dg_model_set(md, NULL, "1,1"), A, "dg_model_set: NULL argument 'key'");
  EXPECT(dg_model_set(md, "beta", NULL), A, "dg_model_set: NULL argument 'value'");
  EXPECT(dg_model_finish(md, 2, NULL, hi), A, "dg_model_finish: NULL argument 'lo'");
  EXPECT(dg_model_finish_grid(md, NULL), A, "dg_model_finish_grid: NULL argument 'g'");
  EXPECT(dg_model_finish_domain(md, NULL), A, "dg_model_finish_domain: NULL argument 'dom'");

  /* discretisation and fields */
  dg_disc *dd = (dg_disc *)&dd;
  const dg_backend *be = dg_test_backend();
  EXPECT(dg_disc_create(&dd, be, NULL, m, 0, md), A, "dg_disc_create: NULL argument 'g'");
  CHECK(dd == NULL, "a refused dg_disc_create left a handle");
  EXPECT(dg_disc_create(&dd, NULL, &g, m, 0, md), A, "dg_disc_create: NULL argument 'backend'");
  EXPECT(dg_disc_create(&dd, be, &g, NULL, 0, md), A, "dg_disc_create: NULL argument 'm'");
  EXPECT(dg_disc_create(&dd, be, &g, m, 0, NULL), A, "dg_disc_create: NULL argument 'model'");
  EXPECT(dg_disc_create(NULL, be, &g, m, 0, md), A, "dg_disc_create: NULL argument 'out'");
  /* backends */
  dg_backend *bb = NULL;
  EXPECT(dg_backend_create(NULL, "omp"), A, "dg_backend_create: NULL handle");
  EXPECT(dg_backend_create(&bb, "gpu"), A,
         strcmp(dg_backend_list(), "omp") == 0
             ? "backend 'gpu': not a backend of this build (omp)"
             : "backend 'gpu': not a backend of this build (omp, cuda, cuda:N)");
  CHECK(bb == NULL, "a refused dg_backend_create left a handle");
  EXPECT(dg_model_warm(NULL, md, 2, 0, NULL), A, "dg_model_warm: NULL argument");
  EXPECT(dg_backend_warm_solvers(NULL, 2, 1u << 3), A, "dg_backend_warm_solvers: NULL argument");
  dg_field *ff = NULL;
  EXPECT(dg_field_create(&ff, NULL), A, "dg_field_create: NULL argument 'd'");
  EXPECT(dg_field_to_host(NULL), A, "dg_field_to_host: NULL argument 'f'");
  EXPECT(dg_field_copy(f, NULL), A, "dg_field_copy: NULL argument 'src'");
  EXPECT(dg_disc_stable_dt(d, f2, 0, v), A,
         "dg_disc_stable_dt: field 'u' belongs to another discretisation");
  EXPECT(dg_disc_stable_dt(d, f, 0, NULL), A, "dg_disc_stable_dt: NULL argument 'dt'");
  EXPECT(dg_disc_element_rates(d, f2, 0, buf), A,
         "dg_disc_element_rates: field 'u' belongs to another discretisation");
  EXPECT(dg_disc_set_aux(NULL, NULL, NULL), A, "dg_disc_set_aux: NULL argument 'd'");
  EXPECT(dg_disc_rhs(d, f, 0, f2), A, "dg_disc_rhs: field 'out' belongs to another discretisation");
  EXPECT(dg_disc_jacvec(d, NULL, NULL, f2, 0, NULL, f), A,
         "dg_disc_jacvec: field 'v' belongs to another discretisation");
  EXPECT(dg_field_get_compact(d, f2, buf), A,
         "dg_field_get_compact: field 'f' belongs to another discretisation");
  EXPECT(dg_field_set_compact(d, f, NULL), A, "dg_field_set_compact: NULL argument 'x'");

  /* evaluation: the field must be d's, the element inside the grid */
  EXPECT(dg_project(d, f2, one, NULL), A,
         "dg_project: field 'f' belongs to another discretisation");
  EXPECT(dg_project(d, f, NULL, NULL), A, "dg_project: NULL argument 'fn'");
  EXPECT(dg_project_solution(NULL, f, 0), A, "dg_project_solution: NULL argument 'd'");
  EXPECT(dg_project_solution(d, f, NAN), A, "dg_project_solution: t = nan is not finite");
  EXPECT(dg_mass(d, f2, v), A, "dg_mass: field 'f' belongs to another discretisation");
  EXPECT(dg_mass(d2, f, v), A, "dg_mass: field 'f' belongs to another discretisation");
  EXPECT(dg_mass(d, NULL, v), A, "dg_mass: NULL argument 'f'");
  EXPECT(dg_mass(d, f, NULL), A, "dg_mass: NULL argument 'mass'");
  EXPECT(dg_error_norms(d, f2, 0, v, v + 1), A,
         "dg_error_norms: field 'f' belongs to another discretisation");
  EXPECT(dg_error_norms(d, f, 0, NULL, v), A, "dg_error_norms: NULL argument 'l2'");
  EXPECT(dg_error_norms_rel(d2, f, 0, v, v, v), A,
         "dg_error_norms_rel: field 'f' belongs to another discretisation");
  EXPECT(dg_check_finite(d, f2), A, "dg_check_finite: field 'f' belongs to another discretisation");
  EXPECT(dg_element_coeffs(d, f, 1L << 40, buf), A,
         "dg_element_coeffs: element 1099511627776 out of range (the grid has 16 elements)");
  EXPECT(dg_element_coeffs(d, f, -1, buf), A,
         "dg_element_coeffs: element -1 out of range (the grid has 16 elements)");
  EXPECT(dg_element_coeffs(d, f, 16, buf), A,
         "dg_element_coeffs: element 16 out of range (the grid has 16 elements)");
  EXPECT(dg_element_coeffs(d, f2, 0, buf), A,
         "dg_element_coeffs: field 'f' belongs to another discretisation");
  EXPECT(dg_element_coeffs(d, f, 0, NULL), A, "dg_element_coeffs: NULL argument 'out'");
  EXPECT(dg_element_set_coeffs(d, f, 1L << 40, buf), A,
         "dg_element_set_coeffs: element 1099511627776 out of range (the grid has 16 elements)");
  EXPECT(dg_element_set_coeffs(d, f2, 0, buf), A,
         "dg_element_set_coeffs: field 'f' belongs to another discretisation");
  EXPECT(dg_sample(NULL, f, 2, x1d, buf), A, "dg_sample: NULL argument 'd'");
  EXPECT(dg_sample(d, NULL, 2, x1d, buf), A, "dg_sample: NULL argument 'f'");
  EXPECT(dg_sample(d, f, 2, NULL, buf), A, "dg_sample: NULL argument 'x1d'");
  EXPECT(dg_sample(d, f, 2, x1d, NULL), A, "dg_sample: NULL argument 'out'");
  /* the checks pass good arguments through */
  EXPECT(dg_element_coeffs(d, f, 15, buf), 0, "");
  EXPECT(dg_mass(d2, f2, v), 0, "");

  /* snapshots */
  dg_snapshot s;
  memset(&s, 0, sizeof s);
  EXPECT(dg_snapshot_from_field(&s, d, f2, 0, 0, 0, 0), A,
         "dg_snapshot_from_field: field 'u' belongs to another discretisation");
  EXPECT(dg_snapshot_from_field(NULL, d, f, 0, 0, 0, 0), A,
         "dg_snapshot_from_field: NULL argument 's'");
  EXPECT(dg_snapshot_from_field(&s, d, f, INFINITY, 0, 0, 0), A,
         "dg_snapshot_from_field: t = inf is not finite");
  EXPECT(dg_field_from_snapshot(d, f2, &s, "x.h5"), A,
         "dg_field_from_snapshot: field 'u' belongs to another discretisation");
  EXPECT(dg_field_from_snapshot(d, f, NULL, "x.h5"), A,
         "dg_field_from_snapshot: NULL argument 's'");
  EXPECT(dg_snapshot_write(NULL, &s), A, "dg_snapshot_write: NULL argument 'path'");
  EXPECT(dg_snapshot_write("x.h5", NULL), A, "dg_snapshot_write: NULL argument 's'");
  EXPECT(dg_snapshot_write_text("x.txt", NULL), A, "dg_snapshot_write_text: NULL argument 's'");
  EXPECT(dg_snapshot_read(NULL, &s), A, "dg_snapshot_read: NULL argument 'path'");
  EXPECT(dg_snapshot_read_any("x.h5", NULL), A, "dg_snapshot_read_any: NULL argument 's'");
  EXPECT(dg_snapshot_read_text(NULL, &s), A, "dg_snapshot_read_text: NULL argument 'path'");
  EXPECT(dg_snapshot_read_unverified(NULL, &s), A,
         "dg_snapshot_read_unverified: NULL argument 'path'");
  EXPECT(dg_xdmf_write(NULL, 0, NULL, NULL, &s), A, "dg_xdmf_write: NULL argument 'xdmf_path'");

  /* integrators: the field must be the integrator's discretisation's, t and dt finite */
  dg_ts *ts = NULL;
  dg_ts_kind k;
  EXPECT(dg_ts_parse(NULL, &k), A, "dg_ts_parse: NULL argument 'name'");
  EXPECT(dg_ts_create(&ts, NULL, DG_TS_RK4), A, "dg_ts_create: NULL argument 'd'");
  EXPECT(dg_ts_create(&ts, d, DG_TS_RK4), 0, "");
  EXPECT(dg_ts_step(NULL, f, 0, 0.1), A, "dg_ts_step: NULL argument 'ts'");
  EXPECT(dg_ts_step(ts, NULL, 0, 0.1), A, "dg_ts_step: NULL argument 'u'");
  EXPECT(dg_ts_step(ts, f2, 0, 0.1), A, "dg_ts_step: field 'u' belongs to another discretisation");
  EXPECT(dg_ts_step(ts, f, 0, NAN), A, "dg_ts_step: dt = nan is not finite");
  EXPECT(dg_ts_step(ts, f, 0, INFINITY), A, "dg_ts_step: dt = inf is not finite");
  EXPECT(dg_ts_step(ts, f, NAN, 0.1), A, "dg_ts_step: t = nan is not finite");

  dg_ts_destroy(&ts);
  dg_field_destroy(&f);
  dg_field_destroy(&f2);
  dg_disc_destroy(&d);
  dg_disc_destroy(&d2);
  dg_model_destroy(&md);
  dg_model_destroy(&md2);
  dg_degree_map_destroy(&m);
  dg_degree_map_destroy(&m2);
  if (dg_test_failures) {
    fprintf(stderr, "api.args: %d failure(s)\n", dg_test_failures);
    return 1;
  }
  printf("api.args: all refusals as documented\n");
  return 0;
}
