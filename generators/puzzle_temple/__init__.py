"""Puzzle Temple lock cards: the deck format, the generator and the verifier.

Modules: ``deck`` (Face, Card, Deck and the ``templeforge.deck/1`` file), ``generate``
(make a deck whose every face is proved), ``verify`` (re-prove a deck, generated or
hand-written, independently of the generator).
"""
