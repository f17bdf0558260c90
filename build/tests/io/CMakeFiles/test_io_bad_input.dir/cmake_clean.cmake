file(REMOVE_RECURSE
  "CMakeFiles/test_io_bad_input.dir/test_io_bad_input.c.o"
  "CMakeFiles/test_io_bad_input.dir/test_io_bad_input.c.o.d"
  "test_io_bad_input"
  "test_io_bad_input.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_io_bad_input.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
