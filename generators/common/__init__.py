"""What every game's generator shares: deck files, requests and their options, grading by
difficulty, the seeded candidate pool, atomic files and the figures a deck is described by.

Modules: ``files`` (atomic writes, output paths), ``errors`` (request errors),
``parse`` (ranges, sizes, ids), ``options`` (a game's options declared once),
``deckfile`` (the ``templeforge.deck/1`` envelope, JSON reading, schemas), ``grading``
(tiers, weights to counts, the one mean), ``pool`` (seeded candidates in parallel),
``figures`` (tables and histograms as data).
"""
