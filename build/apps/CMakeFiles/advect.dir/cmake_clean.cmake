file(REMOVE_RECURSE
  "CMakeFiles/advect.dir/advect.c.o"
  "CMakeFiles/advect.dir/advect.c.o.d"
  "advect"
  "advect.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/advect.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
