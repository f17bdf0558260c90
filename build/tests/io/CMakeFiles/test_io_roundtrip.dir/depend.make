# Empty dependencies file for test_io_roundtrip.
# This may be replaced when dependencies are built.
