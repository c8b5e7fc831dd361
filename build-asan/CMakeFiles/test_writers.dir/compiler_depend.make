# Empty compiler generated dependencies file for test_writers.
# This may be replaced when dependencies are built.
