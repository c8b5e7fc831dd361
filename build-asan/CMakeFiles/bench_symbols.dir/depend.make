# Empty dependencies file for bench_symbols.
# This may be replaced when dependencies are built.
