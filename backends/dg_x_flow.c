/* dg_x_flow.c - the host's flux variant of a model (dg_x_flow.h). */
#include "dg_x_flow.h"
#include "dg_error.h"
#include "dg_jit.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int count_ok(const char *name, int max, int count) {
  if (count > max)
    return dg_error(DG_ERR_ARG, "model %s: %d flux variants (DG_MODEL_X_FLOWS), at most %d", name,
                    count, max);
  return 0;
}

int dg_x_flow_host(const char *header, const char *name, int max, dg_x_flow_fn *fn, int *count) {
  *fn = NULL;
  *count = 0;
  for (int i = 0; i < dg_nx_flows; ++i)
    if (strcmp(dg_x_flows[i].header, header) == 0) {
      *fn = *dg_x_flows[i].fn;
      *count = *dg_x_flows[i].count;
      return count_ok(name, max, *count);
    }
  const int user = header[0] == '/';
  char src[4096 + 768], what[160];
  snprintf(what, sizeof what, "host flux variant of %s", name);
  const int n = snprintf(src, sizeof src,
                         "/* dgrid kernel: %s */\n#include \"%s\"\n#include \"dg_stage_args.h\"\n"
                         "#include <string.h>\n"
                         "#ifndef DG_MODEL_X_FLOWS\n#define DG_MODEL_X_FLOWS 0\n#endif\n"
                         "__attribute__((visibility(\"default\"))) extern const int dg_x_flows_n;\n"
                         "const int dg_x_flows_n = DG_MODEL_X_FLOWS;\n"
                         "#if DG_MODEL_X_FLOWS\n"
                         "__attribute__((visibility(\"default\"))) int "
                         "dg_x_flow(const dg_stage_args *a);\n"
                         "int dg_x_flow(const dg_stage_args *a) {\n  dg_model_params p;\n"
                         "  memcpy(&p, &a->model, sizeof p);\n  return dg_model_x_flow(&p);\n}\n"
                         "#endif\n",
                         what, header);
  if (n < 0 || (size_t)n >= sizeof src)
    return dg_error(DG_ERR_ARG, "model header '%s': path too long", header);
  const dg_jit_unit u = {what, src, user ? header : NULL, user, 0};
  void *h = NULL;
  DG_CALL(dg_jit_load(1, &u, &h));
  const int *c = dlsym(h, "dg_x_flows_n");
  if (!c) return dg_error(DG_ERR_BACKEND, "kernel %s: no dg_x_flows_n in it", what);
  *count = *c;
  if (*count > 0) {
    *(void **)fn = dlsym(h, "dg_x_flow");
    if (!*fn) return dg_error(DG_ERR_BACKEND, "kernel %s: no dg_x_flow in it", what);
  }
  return count_ok(name, max, *count);
}

int dg_x_flow_variant(const char *name, dg_x_flow_fn fn, int count, const dg_stage_args *a,
                      int *v) {
  *v = fn(a);
  if (*v < 0 || *v >= count)
    return dg_error(DG_ERR_BACKEND,
                    "model %s: dg_model_x_flow gave flux variant %d, not one of its %d "
                    "(DG_MODEL_X_FLOWS)",
                    name, *v, count);
  return 0;
}
