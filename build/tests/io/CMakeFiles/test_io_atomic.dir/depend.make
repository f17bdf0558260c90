# Empty dependencies file for test_io_atomic.
# This may be replaced when dependencies are built.
