# CMake generated Testfile for 
# Source directory: /work/main/tests/unit
# Build directory: /work/main/build/tests/unit
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[unit.convergence_2d]=] "/work/main/build/tests/unit/test_convergence" "2")
set_tests_properties([=[unit.convergence_2d]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;8;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[unit.convergence_3d]=] "/work/main/build/tests/unit/test_convergence" "3")
set_tests_properties([=[unit.convergence_3d]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;9;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
