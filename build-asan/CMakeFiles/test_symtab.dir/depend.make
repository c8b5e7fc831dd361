# Empty dependencies file for test_symtab.
# This may be replaced when dependencies are built.
