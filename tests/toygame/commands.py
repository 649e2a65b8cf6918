"""Toy Tally's own command: ``templeforge tally count DECK``."""

from __future__ import annotations

import click


@click.group()
def tally() -> None:
    """Toy Tally tools."""


@tally.command()
@click.argument("deck_file")
def count(deck_file: str) -> None:
    """Print the deck's dots in all."""
    from generators import read_deck

    _, deck = read_deck(deck_file)
    click.echo(f"{sum(c.dots for c in deck.cards)} dots")


command = tally
