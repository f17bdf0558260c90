file(REMOVE_RECURSE
  "libdgrid.a"
)
