/* bench_report.c - the output of apps/bench: the table on stdout, CSV and
 * JSON with the same fields per case (bench.h). */
#include "bench.h"
#include "dg_app.h"
#include "dg_backend.h"
#include "dg_error.h"
#include "dg_escape.h"
#include "dg_eval.h"
#include "dg_field.h"
#include "dg_lane.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

void bench_map_label(const result *r, char *buf, size_t cap) {
  if (r->p.map == MAP_UNIFORM)
    snprintf(buf, cap, "uniform");
  else
    snprintf(buf, cap, "%s%d-%d", bench_map_names[r->p.map], r->rmin, r->rmax);
}

void bench_cells_label(const int *cells, int dim, char *buf, size_t cap) {
  if (dim == 3)
    snprintf(buf, cap, "%dx%dx%d", cells[0], cells[1], cells[2]);
  else
    snprintf(buf, cap, "%dx%d", cells[0], cells[1]);
}

/* ------------------------------------------------------------------------ */
/* output                                                                    */

/* One case's output fields, written once for both formats: the CSV row (and
 * its header) and the JSON object hold the same keys in the same order. */
typedef enum { FLD_INT, FLD_NUM, FLD_STR, FLD_BOOL } fld_kind;
typedef struct {
  const char *name;
  fld_kind kind;
  double num; /* FLD_NUM (non-finite: empty in CSV, null in JSON) */
  long i;     /* FLD_INT, FLD_BOOL */
  const char *s;
  int csv; /* also a CSV column (the JSON holds every field) */
} fld;
enum { NFLD_MAX = 64 };

/* The fields of result r; cells and label are the caller's buffers (64).  The
 * required CSV columns come first (BENCHMARKS.md, "What bench measures";
 * tools/plot and bench.smoke read columns by name, bench.smoke reads
 * nbr_coeffs as the last one). */
static int case_fields(const bench_run *b, const result *r, fld *f, char *cells, char *label) {
  int n = 0;
  bench_cells_label(r->p.cells, r->p.dim, cells, 64);
  bench_map_label(r, label, 64);
#define FI(nm, v) f[n++] = (fld){nm, FLD_INT, 0, (long)(v), NULL, 1}
#define FN(nm, v)                                                                                  \
  f[n++] = (fld) { nm, FLD_NUM, (double)(v), 0, NULL, 1 }
#define FS(nm, v)                                                                                  \
  f[n++] = (fld) { nm, FLD_STR, 0, 0, (v), 1 }
#define FJ(nm, v)                                                                                  \
  f[n++] = (fld) { nm, FLD_NUM, (double)(v), 0, NULL, 0 }
#define FSJ(nm, v)                                                                                 \
  f[n++] = (fld) { nm, FLD_STR, 0, 0, (v), 0 }
  FI("dim", r->p.dim);
  FI("degree", r->rmax);
  FS("map", bench_map_names[r->p.map]);
  FS("integrator", dg_ts_name(r->p.ts));
  FI("nelem", r->nelem);
  FI("dofs", r->dofs);
  FI("steps", r->steps);
  FN("median_step_s", r->median);
  FN("spread", r->spread);
  FN("trace_s", r->trace_s);
  FN("update_s", r->update_s);
  FN("dof_stage_per_s", r->dof_stage_per_s);
  FN("gflops", r->gflops);
  FN("gbs_min", r->gbs_min);
  FN("gbs_moved", r->gbs_moved);
  FN("bw_fraction", r->bw_fraction);
  FN("stream_gbs", b->st0.gbs_median);
  FS("backend", b->be->name);
  FI("threads", b->threads);
  FS("real", DG_REAL_NAME);
  FI("degree_min", r->rmin);
  FS("cells", cells);
  FSJ("label", label);
  FI("q", r->q);
  FI("stages", r->stages);
  FI("repeats", r->repeats);
  FN("min_step_s", r->tmin);
  FN("max_step_s", r->tmax);
  FN("iqr_step_s", r->iqr);
  FN("flops_stage", r->flops_stage);
  FN("bytes_min_stage", r->bytes_min_stage);
  FN("bytes_moved_stage", r->bytes_moved_stage);
  FN("reg_streams", r->reg_streams);
  FN("gbs", r->gbs_min);
  FN("bw_fraction_moved", r->bw_fraction_moved);
  FN("peak_gflops", b->peak_gflops);
  FN("flop_fraction", r->flop_fraction);
  FN("cost_vs_dof_share", r->cost_vs_dof_share);
  FN("flops_vs_dof_share", r->flops_vs_dof_share);
  FI("lane_width", r->lane_width);
  FI("target_dofs", r->p.target);
  FI("degree_req", r->degree_req);
  FN("dt", r->dt);
  FN("setup_s", r->setup_s);
  FJ("warmup_run_s", r->warmup_steps_s);
  f[n++] = (fld){"finite", FLD_BOOL, 0, r->finite, NULL, 1};
  FI("own_q", r->own_q);
  FI("team", r->team);
  FI("reuse_traces", r->reuse_traces);
  FI("nbr_coeffs", r->nbr_coeffs);
#undef FI
#undef FN
#undef FS
#undef FJ
#undef FSJ
  return n;
}

/* The CSV header: the names of the CSV fields. */
void bench_csv_header(const bench_run *b) {
  result r0;
  memset(&r0, 0, sizeof r0);
  fld f[NFLD_MAX];
  char cells[64], label[64];
  const int n = case_fields(b, &r0, f, cells, label);
  int first = 1;
  for (int i = 0; i < n; ++i)
    if (f[i].csv) {
      fprintf(b->csv, "%s%s", first ? "" : ",", f[i].name);
      first = 0;
    }
  fputc('\n', b->csv);
}

void bench_csv_row(bench_run *b, const result *r) {
  FILE *out = b->csv;
  fld f[NFLD_MAX];
  char cells[64], label[64];
  const int n = case_fields(b, r, f, cells, label);
  int first = 1;
  for (int i = 0; i < n; ++i) {
    if (!f[i].csv) continue;
    if (!first) fputc(',', out);
    first = 0;
    if (f[i].kind == FLD_NUM) {
      if (isfinite(f[i].num)) fprintf(out, "%.9g", f[i].num);
    } else if (f[i].kind == FLD_STR) {
      fputs(f[i].s, out);
    } else {
      fprintf(out, "%ld", f[i].i);
    }
  }
  fputc('\n', out);
  fflush(out);
}

static void json_num(FILE *f, const char *key, double v, int comma) {
  if (isfinite(v))
    fprintf(f, "\"%s\": %.9g%s", key, v, comma ? ", " : "");
  else
    fprintf(f, "\"%s\": null%s", key, comma ? ", " : "");
}

static void json_str(FILE *f, const char *key, const char *s, int comma) {
  fprintf(f, "\"%s\": \"", key);
  for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
    if (*c == '"' || *c == '\\')
      fprintf(f, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(f, "\\u%04x", *c);
    else
      fputc(*c, f);
  }
  fprintf(f, "\"%s", comma ? ", " : "");
}

int bench_write_json(bench_run *b, const char *error) {
  FILE *f = b->json;
  const bench_opts *o = b->o;
  fprintf(f, "{\n  \"tool\": \"dgrid bench\",\n  \"format\": 1,\n  \"meta\": {");
  json_str(f, "command", o->command, 1);
  json_str(f, "date", b->date, 1);
  json_str(f, "host", b->host, 1);
  json_str(f, "cpu", b->cpu, 1);
  json_str(f, "compiler", __VERSION__, 1);
  json_str(f, "simd", bench_simd_name(), 1);
  json_str(f, "backend", b->be->name, 1);
  json_str(f, "real", DG_REAL_NAME, 1);
  fprintf(f, "\"threads\": %d, \"lane_width\": %d, ", b->threads, b->be->lane_width);
  json_num(f, "stream_gbs", b->st0.gbs_median, 1);
  json_num(f, "stream_gbs_best", b->st0.gbs_best, 1);
  json_num(f, "stream_gbs_end", b->st1.gbs_median, 1);
  json_num(f, "stream_array_mib", b->st0.mib, 1);
  fprintf(f, "\"stream_repeats\": %d, ", b->st0.reps);
  json_num(f, "peak_gflops", b->peak_gflops, 1);
  json_num(f, "loadavg_start", b->load0, 1);
  json_num(f, "loadavg_end", b->load1, 1);
  fprintf(f, "\"repeats\": %d, ", o->repeats);
  json_num(f, "warmup_s", o->warmup, 1);
  json_num(f, "min_time_s", o->min_time, 1);
  fprintf(f, "\"steps_fixed\": %ld, ", o->steps);
  json_str(f, "model", dg_model_file_name(o->base.model), 1);
  json_str(f, "error", error ? error : "", 0);
  fprintf(f, "},\n  \"cases\": [");
  for (long i = 0; i < b->nres; ++i) {
    fld c[NFLD_MAX];
    char cells[64], label[64];
    const int n = case_fields(b, &b->res[i], c, cells, label);
    fprintf(f, "%s\n    {", i ? "," : "");
    for (int k = 0; k < n; ++k) {
      const int comma = k + 1 < n;
      if (c[k].kind == FLD_NUM)
        json_num(f, c[k].name, c[k].num, comma);
      else if (c[k].kind == FLD_STR)
        json_str(f, c[k].name, c[k].s, comma);
      else if (c[k].kind == FLD_BOOL)
        fprintf(f, "\"%s\": %s%s", c[k].name, c[k].i ? "true" : "false", comma ? ", " : "");
      else
        fprintf(f, "\"%s\": %ld%s", c[k].name, c[k].i, comma ? ", " : "");
    }
    fputc('}', f);
  }
  fprintf(f, "\n  ],\n  \"skipped\": [");
  for (long i = 0; i < b->nskip; ++i) {
    fprintf(f, "%s\n    {", i ? "," : "");
    json_str(f, "case", b->skipped[i], 0);
    fputs("}", f);
  }
  fprintf(f, "\n  ]\n}\n");
  return 0;
}

void bench_table_header(void) {
  printf("%3s %3s %-11s %-6s %-11s %10s %6s %10s %7s %6s %11s %7s %8s %8s %6s\n", "dim", "deg",
         "map", "integ", "cells", "dofs", "steps", "step_s", "spread", "trace%", "dof/stage/s",
         "GFLOP/s", "GB/s_min", "GB/s_mov", "bw%");
}

void bench_table_row(const result *r) {
  char cells[64], label[64];
  bench_cells_label(r->p.cells, r->p.dim, cells, sizeof cells);
  bench_map_label(r, label, sizeof label);
  const double tsum = r->trace_s + r->update_s;
  printf("%3d %3d %-11s %-6s %-11s %10ld %6ld %10.4g %6.1f%% %6.1f %11.4g %7.3g %8.3g %8.3g "
         "%5.1f%%%s\n",
         r->p.dim, r->rmax, label, dg_ts_name(r->p.ts), cells, r->dofs, r->steps, r->median,
         100 * r->spread, tsum > 0 ? 100 * r->trace_s / tsum : NAN, r->dof_stage_per_s, r->gflops,
         r->gbs_min, r->gbs_moved, 100 * r->bw_fraction, r->finite ? "" : "  (not finite)");
  fflush(stdout);
}
