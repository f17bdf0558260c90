# Empty dependencies file for dg_backend.
# This may be replaced when dependencies are built.
