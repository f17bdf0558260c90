# Empty dependencies file for dgrid.
# This may be replaced when dependencies are built.
