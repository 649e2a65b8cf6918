"""One module per ``templeforge`` command, each exposing ``command``; imported only when the
command runs or help lists it, so each keeps its heavy imports inside its function."""
