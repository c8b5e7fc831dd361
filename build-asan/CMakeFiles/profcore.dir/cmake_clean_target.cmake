file(REMOVE_RECURSE
  "libprofcore.a"
)
