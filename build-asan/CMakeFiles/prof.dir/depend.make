# Empty dependencies file for prof.
# This may be replaced when dependencies are built.
