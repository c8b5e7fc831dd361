# Empty dependencies file for render_profile.
# This may be replaced when dependencies are built.
