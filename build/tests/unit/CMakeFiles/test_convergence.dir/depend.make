# Empty dependencies file for test_convergence.
# This may be replaced when dependencies are built.
