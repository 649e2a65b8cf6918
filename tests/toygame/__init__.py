"""Toy Tally, a game that exists only in the tests and only through the game contract
(``generators.contract``): its cards show 1-6 dots on a 3x3 grid, proved by listing each
dot's cell. ``tests/test_contract.py`` registers it and runs it through every command; if a
shared layer needed more than the contract, that test would fail."""

from __future__ import annotations

from generators.contract import Game

GAME = Game("toy-tally", "Toy Tally", "Tally cards: 1-6 dots on a 3x3 grid, each dot's cell listed.",
            rules="tests.toygame.rules", paper="tests.toygame.paper", plastic="tests.toygame.plastic",
            commands=(("tally", "tests.toygame.commands"),), mine="tests.toygame.mine")
