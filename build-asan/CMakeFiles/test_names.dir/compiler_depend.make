# Empty compiler generated dependencies file for test_names.
# This may be replaced when dependencies are built.
