# Empty dependencies file for fuzz_elf.
# This may be replaced when dependencies are built.
