# Empty dependencies file for test_out_html.
# This may be replaced when dependencies are built.
