
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/backends/omp/dg_backend_omp.c" "backends/omp/CMakeFiles/dg_backend.dir/dg_backend_omp.c.o" "gcc" "backends/omp/CMakeFiles/dg_backend.dir/dg_backend_omp.c.o.d"
  "/work/main/backends/omp/dg_omp_2d.c" "backends/omp/CMakeFiles/dg_backend.dir/dg_omp_2d.c.o" "gcc" "backends/omp/CMakeFiles/dg_backend.dir/dg_omp_2d.c.o.d"
  "/work/main/backends/omp/dg_omp_3d.c" "backends/omp/CMakeFiles/dg_backend.dir/dg_omp_3d.c.o" "gcc" "backends/omp/CMakeFiles/dg_backend.dir/dg_omp_3d.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
