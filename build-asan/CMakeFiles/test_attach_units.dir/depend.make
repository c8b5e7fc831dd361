# Empty dependencies file for test_attach_units.
# This may be replaced when dependencies are built.
