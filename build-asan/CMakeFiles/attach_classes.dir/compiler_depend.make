# Empty custom commands generated dependencies file for attach_classes.
# This may be replaced when dependencies are built.
