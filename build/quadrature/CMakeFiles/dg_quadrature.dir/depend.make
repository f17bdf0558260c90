# Empty dependencies file for dg_quadrature.
# This may be replaced when dependencies are built.
