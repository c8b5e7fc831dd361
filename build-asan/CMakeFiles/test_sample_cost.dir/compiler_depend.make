# Empty compiler generated dependencies file for test_sample_cost.
# This may be replaced when dependencies are built.
