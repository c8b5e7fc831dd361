# Empty compiler generated dependencies file for test_filepath.
# This may be replaced when dependencies are built.
