# Empty dependencies file for jprof.
# This may be replaced when dependencies are built.
