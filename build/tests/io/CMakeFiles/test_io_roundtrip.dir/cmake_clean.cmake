file(REMOVE_RECURSE
  "CMakeFiles/test_io_roundtrip.dir/test_io_roundtrip.c.o"
  "CMakeFiles/test_io_roundtrip.dir/test_io_roundtrip.c.o.d"
  "test_io_roundtrip"
  "test_io_roundtrip.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_io_roundtrip.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
