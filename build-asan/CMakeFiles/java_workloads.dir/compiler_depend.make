# Empty custom commands generated dependencies file for java_workloads.
# This may be replaced when dependencies are built.
