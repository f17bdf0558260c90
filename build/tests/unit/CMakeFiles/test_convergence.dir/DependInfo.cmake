
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/unit/test_convergence.c" "tests/unit/CMakeFiles/test_convergence.dir/test_convergence.c.o" "gcc" "tests/unit/CMakeFiles/test_convergence.dir/test_convergence.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/core/CMakeFiles/dgrid.dir/DependInfo.cmake"
  "/work/main/build/quadrature/CMakeFiles/dg_quadrature.dir/DependInfo.cmake"
  "/work/main/build/backends/omp/CMakeFiles/dg_backend.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
