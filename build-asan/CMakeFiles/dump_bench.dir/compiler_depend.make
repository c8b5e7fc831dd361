# Empty compiler generated dependencies file for dump_bench.
# This may be replaced when dependencies are built.
