"""The parts of tools/plot, the entry point (tools/README.md): common
(messages, input reading, module check), snapshot (the checked reader),
drawing (figure helpers, PNG writes), pictures (a snapshot's PNGs) and bench
(a benchmark CSV's PNGs).  Only common may be imported before
common.load_modules() has succeeded."""
