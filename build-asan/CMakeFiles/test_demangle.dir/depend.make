# Empty dependencies file for test_demangle.
# This may be replaced when dependencies are built.
