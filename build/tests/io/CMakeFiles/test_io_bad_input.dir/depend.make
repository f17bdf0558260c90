# Empty dependencies file for test_io_bad_input.
# This may be replaced when dependencies are built.
