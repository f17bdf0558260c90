/* fuzz_map: the degree-map file parser (dg_degree_map_create_file).
 * The first two bytes choose the grid (2D or 3D, 1..8 elements per
 * direction); the rest is the map file. */
#include "fuzz_common.h"

#include "dg_degree_map.h"
#include "dg_grid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  int dim = 2 + (data[0] & 1);
  int n[3] = {1 + ((data[0] >> 1) & 7), 1 + (data[1] & 7), dim == 3 ? 1 + ((data[1] >> 3) & 7) : 1};
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_grid g;
  if (dg_grid_init(&g, dim, n, lo, hi) != 0) fuzz_setup_failed("dg_grid_init");
  char path[64];
  int fd = fuzz_file(data + 2, size - 2, path, sizeof path);
  if (fd < 0) fuzz_setup_failed("memfd");
  dg_degree_map *m = NULL;
  if (dg_degree_map_create_file(&m, &g, path) == 0) {
    /* A map that parsed is complete and in range. */
    if (!m || m->nelem != g.nelem) abort();
    for (long e = 0; e < m->nelem; ++e)
      if (m->deg[e] > 10) abort();
    dg_degree_map_destroy(&m);
  } else if (m) {
    abort(); /* failure must leave nothing behind */
  }
  close(fd);
  return 0;
}
