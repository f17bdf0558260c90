# Empty dependencies file for advect.
# This may be replaced when dependencies are built.
