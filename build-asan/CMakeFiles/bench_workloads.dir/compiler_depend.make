# Empty custom commands generated dependencies file for bench_workloads.
# This may be replaced when dependencies are built.
