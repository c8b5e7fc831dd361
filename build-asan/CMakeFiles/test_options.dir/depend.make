# Empty dependencies file for test_options.
# This may be replaced when dependencies are built.
