# Empty custom commands generated dependencies file for browser_workload.
# This may be replaced when dependencies are built.
