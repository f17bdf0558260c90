# CMake generated Testfile for 
# Source directory: /work/main/tests/io
# Build directory: /work/main/build/tests/io
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[io.roundtrip]=] "/work/main/build/tests/io/test_io_roundtrip" "/work/main/build/tests/io/work/roundtrip")
set_tests_properties([=[io.roundtrip]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;22;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[io.atomic]=] "/work/main/build/tests/io/test_io_atomic" "/work/main/build/tests/io/work/atomic")
set_tests_properties([=[io.atomic]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;23;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[io.bad_input]=] "/work/main/build/tests/io/test_io_bad_input" "/work/main/build/tests/io/work/bad_input")
set_tests_properties([=[io.bad_input]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;24;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[io.h5dump]=] "sh" "/work/main/tests/io/io_h5dump.sh" "/work/main/build/tests/io/io_gen" "/usr/bin/h5dump" "/usr/bin/h5ls" "/work/main/build/tests/io/work/h5dump")
set_tests_properties([=[io.h5dump]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;27;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[io.xdmf]=] "sh" "/work/main/tests/io/io_xdmf.sh" "/work/main/build/tests/io/io_gen" "/root/.pyenv/shims/python3" "/usr/bin/h5ls" "/usr/bin/h5dump" "/work/main/tests/io/check_xdmf.py" "/work/main/build/tests/io/work/xdmf")
set_tests_properties([=[io.xdmf]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;35;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[compare.identical]=] "sh" "/work/main/tests/io/compare_test.sh" "identical" "/work/main/build/apps/compare" "/work/main/build/tests/io/io_gen" "/work/main/build/tests/io/work/compare_identical")
set_tests_properties([=[compare.identical]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;44;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[compare.perturbed]=] "sh" "/work/main/tests/io/compare_test.sh" "perturbed" "/work/main/build/apps/compare" "/work/main/build/tests/io/io_gen" "/work/main/build/tests/io/work/compare_perturbed")
set_tests_properties([=[compare.perturbed]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;44;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[compare.degree_mismatch]=] "sh" "/work/main/tests/io/compare_test.sh" "degree_mismatch" "/work/main/build/apps/compare" "/work/main/build/tests/io/io_gen" "/work/main/build/tests/io/work/compare_degree_mismatch")
set_tests_properties([=[compare.degree_mismatch]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;44;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[compare.grid_mismatch]=] "sh" "/work/main/tests/io/compare_test.sh" "grid_mismatch" "/work/main/build/apps/compare" "/work/main/build/tests/io/io_gen" "/work/main/build/tests/io/work/compare_grid_mismatch")
set_tests_properties([=[compare.grid_mismatch]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;44;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[compare.missing_file]=] "sh" "/work/main/tests/io/compare_test.sh" "missing_file" "/work/main/build/apps/compare" "/work/main/build/tests/io/io_gen" "/work/main/build/tests/io/work/compare_missing_file")
set_tests_properties([=[compare.missing_file]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;44;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[compare.malformed]=] "sh" "/work/main/tests/io/compare_test.sh" "malformed" "/work/main/build/apps/compare" "/work/main/build/tests/io/io_gen" "/work/main/build/tests/io/work/compare_malformed")
set_tests_properties([=[compare.malformed]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;44;add_test;/work/main/tests/io/CMakeLists.txt;0;")
add_test([=[compare.usage]=] "sh" "/work/main/tests/io/compare_test.sh" "usage" "/work/main/build/apps/compare" "/work/main/build/tests/io/io_gen" "/work/main/build/tests/io/work/compare_usage")
set_tests_properties([=[compare.usage]=] PROPERTIES  ENVIRONMENT "DGRID_IO_FAIL=" TIMEOUT "120" _BACKTRACE_TRIPLES "/work/main/tests/io/CMakeLists.txt;44;add_test;/work/main/tests/io/CMakeLists.txt;0;")
