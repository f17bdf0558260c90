
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/core/dg_degree_map.c" "core/CMakeFiles/dgrid.dir/dg_degree_map.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_degree_map.c.o.d"
  "/work/main/core/dg_disc.c" "core/CMakeFiles/dgrid.dir/dg_disc.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_disc.c.o.d"
  "/work/main/core/dg_error.c" "core/CMakeFiles/dgrid.dir/dg_error.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_error.c.o.d"
  "/work/main/core/dg_eval.c" "core/CMakeFiles/dgrid.dir/dg_eval.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_eval.c.o.d"
  "/work/main/core/dg_field.c" "core/CMakeFiles/dgrid.dir/dg_field.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_field.c.o.d"
  "/work/main/core/dg_grid.c" "core/CMakeFiles/dgrid.dir/dg_grid.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_grid.c.o.d"
  "/work/main/core/dg_io.c" "core/CMakeFiles/dgrid.dir/dg_io.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_io.c.o.d"
  "/work/main/core/dg_problem.c" "core/CMakeFiles/dgrid.dir/dg_problem.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_problem.c.o.d"
  "/work/main/core/dg_ts.c" "core/CMakeFiles/dgrid.dir/dg_ts.c.o" "gcc" "core/CMakeFiles/dgrid.dir/dg_ts.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/quadrature/CMakeFiles/dg_quadrature.dir/DependInfo.cmake"
  "/work/main/build/backends/omp/CMakeFiles/dg_backend.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
