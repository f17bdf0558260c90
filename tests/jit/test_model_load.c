/* jit.model_load: dg_model_load's refusals (error code and message) and a
 * header that loads: its name, variables and parameters are those of the
 * description it defines. */
#include "dg_model.h"
#include "dg_test.h"

#include <stdio.h>
#include <string.h>

static void expect(int rc, int code, const char *text) {
  CHECK(rc == code, "rc %d, want %d (%s)", rc, code, dg_error_message());
  CHECK(strstr(dg_error_message(), text) != NULL, "message '%s' lacks '%s'", dg_error_message(),
        text);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_model_load MODELS_DIR WORK_DIR\n");
    return 2;
  }
  char path[4096], bad[4096];
  dg_model *m = (dg_model *)&m; /* a handle that must come back NULL */
  expect(dg_model_load(NULL, "x.h"), DG_ERR_ARG, "dg_model_load: NULL handle");
  expect(dg_model_load(&m, NULL), DG_ERR_ARG, "empty path");
  CHECK(m == NULL, "the handle was not cleared");
  expect(dg_model_load(&m, "/nonexistent/dir/tilted.h"), DG_ERR_IO,
         "cannot open '/nonexistent/dir/tilted.h' (No such file or directory)");
  /* not NAME.h: the name the header must define cannot be formed */
  snprintf(bad, sizeof bad, "%s/Bad-Name.h", argv[2]);
  FILE *f = fopen(bad, "w");
  CHECK(f != NULL, "cannot write %s", bad);
  if (f) {
    fputs("/* empty */\n", f);
    fclose(f);
  }
  expect(dg_model_load(&m, bad), DG_ERR_ARG, "'Bad-Name' is not a model name");
  /* a header without the description its name promises */
  snprintf(bad, sizeof bad, "%s/nodesc.h", argv[2]);
  f = fopen(bad, "w");
  if (f) {
    fputs("/* a model header that defines nothing */\n", f);
    fclose(f);
  }
  expect(dg_model_load(&m, bad), DG_ERR_ARG, "defines no 'const dg_model_desc dg_model_nodesc'");
  CHECK(m == NULL, "a failed load left a model");
  /* the library's own advection header, loaded as a file: the same model */
  snprintf(path, sizeof path, "%s/advection.h", argv[1]);
  int rc = dg_model_load(&m, path);
  CHECK(rc == 0, "loading %s: %s", path, dg_error_message());
  if (!rc) {
    CHECK(!strcmp(dg_model_name(m), "advection"), "name %s", dg_model_name(m));
    CHECK(dg_model_nvar(m) == 1, "nvar %d", dg_model_nvar(m));
    CHECK(dg_model_has_param(m, "beta"), "no parameter beta");
    dg_model *c = NULL;
    CHECK(dg_model_clone(&c, m) == 0, "clone: %s", dg_error_message());
    CHECK(c && !strcmp(dg_model_name(c), "advection"), "the clone's name");
    dg_model_destroy(&c);
    dg_model_destroy(&m);
  }
  if (dg_test_failures)
    printf("%d checks failed\n", dg_test_failures);
  else
    printf("dg_model_load: refusals and a loaded header as expected\n");
  return dg_test_failures != 0;
}
