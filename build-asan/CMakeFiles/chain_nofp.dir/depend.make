# Empty dependencies file for chain_nofp.
# This may be replaced when dependencies are built.
