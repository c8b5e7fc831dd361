# Empty compiler generated dependencies file for chain_fp.
# This may be replaced when dependencies are built.
