# Empty dependencies file for test_native_map.
# This may be replaced when dependencies are built.
