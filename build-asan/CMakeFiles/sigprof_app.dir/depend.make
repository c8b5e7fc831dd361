# Empty dependencies file for sigprof_app.
# This may be replaced when dependencies are built.
