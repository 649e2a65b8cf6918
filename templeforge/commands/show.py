"""``templeforge show``: a deck's cards drawn as ASCII."""

from __future__ import annotations

import click

from templeforge.terminal import render


@click.command()
@click.argument("deck_file", metavar="DECK.json")
@click.option("--card", "card_id", metavar="ID", help="The card to show, by its id (default: every card).")
def show(deck_file: str, card_id: str | None) -> None:
    """Print a card's lock and each face's solution as ASCII.

    Faces without a stored solution (a hand-written deck) are solved on the spot. One letter
    stands for one block throughout the deck.

    Exit status: 0 shown, 2 bad input; and, as every command, 70 a bug, 74 standard output,
    130 interrupted, 141 a closed pipe.

    Example:

        templeforge show output/GAME/deck.json --card 1
    """
    from generators import read_deck

    info, deck = read_deck(deck_file)
    chosen = [deck.card(card_id)] if card_id is not None else list(deck.cards)
    click.echo(render(info.load_rules().cards(deck, chosen)).lstrip("\n"))


command = show
