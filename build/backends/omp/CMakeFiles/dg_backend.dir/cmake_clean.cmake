file(REMOVE_RECURSE
  "CMakeFiles/dg_backend.dir/dg_backend_omp.c.o"
  "CMakeFiles/dg_backend.dir/dg_backend_omp.c.o.d"
  "CMakeFiles/dg_backend.dir/dg_omp_2d.c.o"
  "CMakeFiles/dg_backend.dir/dg_omp_2d.c.o.d"
  "CMakeFiles/dg_backend.dir/dg_omp_3d.c.o"
  "CMakeFiles/dg_backend.dir/dg_omp_3d.c.o.d"
  "libdg_backend.a"
  "libdg_backend.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dg_backend.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
