# Empty dependencies file for io_gen.
# This may be replaced when dependencies are built.
