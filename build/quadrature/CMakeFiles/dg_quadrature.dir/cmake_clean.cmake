file(REMOVE_RECURSE
  "CMakeFiles/dg_quadrature.dir/dg_quadrature.c.o"
  "CMakeFiles/dg_quadrature.dir/dg_quadrature.c.o.d"
  "libdg_quadrature.a"
  "libdg_quadrature.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dg_quadrature.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
