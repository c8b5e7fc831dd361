# Empty dependencies file for test_kallsyms.
# This may be replaced when dependencies are built.
