# Empty compiler generated dependencies file for profcore.
# This may be replaced when dependencies are built.
