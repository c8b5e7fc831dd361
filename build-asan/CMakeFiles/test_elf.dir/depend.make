# Empty dependencies file for test_elf.
# This may be replaced when dependencies are built.
