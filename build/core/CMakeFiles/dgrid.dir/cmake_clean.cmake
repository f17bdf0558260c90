file(REMOVE_RECURSE
  "CMakeFiles/dgrid.dir/dg_degree_map.c.o"
  "CMakeFiles/dgrid.dir/dg_degree_map.c.o.d"
  "CMakeFiles/dgrid.dir/dg_disc.c.o"
  "CMakeFiles/dgrid.dir/dg_disc.c.o.d"
  "CMakeFiles/dgrid.dir/dg_error.c.o"
  "CMakeFiles/dgrid.dir/dg_error.c.o.d"
  "CMakeFiles/dgrid.dir/dg_eval.c.o"
  "CMakeFiles/dgrid.dir/dg_eval.c.o.d"
  "CMakeFiles/dgrid.dir/dg_field.c.o"
  "CMakeFiles/dgrid.dir/dg_field.c.o.d"
  "CMakeFiles/dgrid.dir/dg_grid.c.o"
  "CMakeFiles/dgrid.dir/dg_grid.c.o.d"
  "CMakeFiles/dgrid.dir/dg_io.c.o"
  "CMakeFiles/dgrid.dir/dg_io.c.o.d"
  "CMakeFiles/dgrid.dir/dg_problem.c.o"
  "CMakeFiles/dgrid.dir/dg_problem.c.o.d"
  "CMakeFiles/dgrid.dir/dg_ts.c.o"
  "CMakeFiles/dgrid.dir/dg_ts.c.o.d"
  "libdgrid.a"
  "libdgrid.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dgrid.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
