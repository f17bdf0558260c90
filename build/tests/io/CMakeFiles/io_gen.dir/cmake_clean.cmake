file(REMOVE_RECURSE
  "CMakeFiles/io_gen.dir/io_gen.c.o"
  "CMakeFiles/io_gen.dir/io_gen.c.o.d"
  "io_gen"
  "io_gen.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/io_gen.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
