file(REMOVE_RECURSE
  "libdg_quadrature.a"
)
