file(REMOVE_RECURSE
  "libdg_backend.a"
)
