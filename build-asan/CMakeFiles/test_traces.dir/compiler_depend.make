# Empty compiler generated dependencies file for test_traces.
# This may be replaced when dependencies are built.
