"""``templeforge build``: a game's whole kit in one command (settings, stages, the cache, the
display and the report)."""
