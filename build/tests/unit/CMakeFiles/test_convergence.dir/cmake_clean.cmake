file(REMOVE_RECURSE
  "CMakeFiles/test_convergence.dir/test_convergence.c.o"
  "CMakeFiles/test_convergence.dir/test_convergence.c.o.d"
  "test_convergence"
  "test_convergence.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_convergence.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
