file(REMOVE_RECURSE
  "CMakeFiles/compare.dir/compare.c.o"
  "CMakeFiles/compare.dir/compare.c.o.d"
  "compare"
  "compare.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/compare.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
