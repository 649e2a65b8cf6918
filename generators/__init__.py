"""Content generators, one module per game (cards, decks, rating, deck files).

Built on ``solver``; see ../shared/GAMES.md for the games. The Puzzle Temple lock-card
generator is the first to come (issue 3).
"""
