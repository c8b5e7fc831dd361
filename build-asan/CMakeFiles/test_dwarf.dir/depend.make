# Empty dependencies file for test_dwarf.
# This may be replaced when dependencies are built.
