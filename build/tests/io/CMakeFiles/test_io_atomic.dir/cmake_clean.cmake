file(REMOVE_RECURSE
  "CMakeFiles/test_io_atomic.dir/test_io_atomic.c.o"
  "CMakeFiles/test_io_atomic.dir/test_io_atomic.c.o.d"
  "test_io_atomic"
  "test_io_atomic.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_io_atomic.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
