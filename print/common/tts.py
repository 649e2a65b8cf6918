"""Card decks and boards for Tabletop Simulator: faces on sheets as its custom decks take
them, and the saved-object records that point at them.

Tabletop Simulator (Berserk Games' knowledge base, "Custom Deck") reads a deck's faces from
one image per sheet of at most 10 x 7 cards, the last place left for the card it shows when
a card is hidden: 69 cards a sheet. Backs are one image for the whole deck, or a sheet of
backs in the same places (``UniqueBack``). A card's id is the deck's key times 100 plus its
place on the sheet. Images are kept within 4096 px a side, as the knowledge base advises.

The faces are the game's own one-a-page cards (``print.common.shop.decks``), cut at their
trim. Nothing here knows a game.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

COLS, ROWS = 10, 7
PER_SHEET = COLS * ROWS - 1  #: the sheet's last place shows a hidden card
MAX_SIDE = 4096
#: A card's width on the table, in Tabletop Simulator's units (about inches), at scale 1
#: (its standard card, 2.5 in wide); other sizes are scaled from the card's trim.
TTS_CARD = 2.5


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet of a deck: the image's file name, its grid and the cards on it (indexes
    into the deck)."""

    name: str
    cols: int
    rows: int
    cards: tuple[int, ...]


def sheets(count: int, stem: str) -> list[Sheet]:
    """The sheets of a deck of ``count`` cards: 69 a sheet, each grid as small as holds its
    cards and the hidden card's place (at least 2 x 2, which the game asks)."""
    out = []
    for k, start in enumerate(range(0, count, PER_SHEET)):
        cards = tuple(range(start, min(count, start + PER_SHEET)))
        places = len(cards) + 1
        cols = max(2, min(COLS, math.ceil(math.sqrt(places * 1.4))))
        rows = max(2, math.ceil(places / cols))
        while rows > ROWS:
            cols += 1
            rows = math.ceil(places / cols)
        out.append(Sheet(f"{stem}-{k + 1}.png", cols, rows, cards))
    return out


def face_size(aspect: float, cols: int, rows: int) -> tuple[int, int]:
    """A face's pixels on a ``cols`` x ``rows`` sheet within 4096 px a side (``aspect``:
    width over height), at most 750 px wide (300 dpi on a poker card)."""
    w = min(750.0, MAX_SIDE / cols, MAX_SIDE / rows * aspect)
    return int(w), int(w / aspect)


def trimmed(face: Image.Image, bleed_px: float) -> Image.Image:
    """A rendered face cut at its trim."""
    b = round(bleed_px)
    return face.crop((b, b, face.width - b, face.height - b))


def sheet_image(faces: Sequence[Image.Image], sheet: Sheet, size: tuple[int, int],
                hidden: Image.Image | None = None) -> bytes:
    """The sheet's PNG: each card of ``sheet`` in its place, row by row; ``hidden`` (the back)
    in the last place."""
    w, h = size
    image = Image.new("RGB", (w * sheet.cols, h * sheet.rows), "white")
    placed = [faces[i] for i in sheet.cards]
    if hidden is not None:
        image.paste(hidden.resize((w, h), Image.Resampling.LANCZOS), ((sheet.cols - 1) * w, (sheet.rows - 1) * h))
    for k, face in enumerate(placed):
        image.paste(face.resize((w, h), Image.Resampling.LANCZOS), ((k % sheet.cols) * w, (k // sheet.cols) * h))
    return png(image)


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def transform(x: float, z: float, scale: float = 1.0, y: float = 1.0, turn: float = 180.0) -> dict[str, float]:
    """An object's place on the table (``x`` right, ``z`` away from the first seat, units)."""
    return {"posX": round(x, 3), "posY": y, "posZ": round(z, 3), "rotX": 0.0, "rotY": turn, "rotZ": 0.0,
            "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def deck_object(name: str, key_base: int, sheet_urls: Sequence[tuple[Sheet, str, str]], unique_back: bool,
                names: Sequence[str], texts: Sequence[str], place: dict[str, float]) -> dict[str, Any]:
    """A custom deck (or, of one card, a card): ``sheet_urls`` each sheet with its face and
    back image's address; card ``k`` of sheet ``s`` is card id ``(key_base + s) * 100 + k``."""
    custom: dict[str, Any] = {}
    cards = []
    for s, (sheet, face_url, back_url) in enumerate(sheet_urls):
        key = key_base + s
        custom[str(key)] = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": sheet.cols,
                            "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
        for slot, card in enumerate(sheet.cards):
            cards.append(_card(key * 100 + slot, names[card], texts[card], {str(key): custom[str(key)]}, place))
    if len(cards) == 1:
        return cards[0]
    return {"Name": "DeckCustom", "Transform": place, "Nickname": name, "Description": "",
            "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713}, "Locked": False, "Grid": True, "Snap": True,
            "Hands": False, "SidewaysCard": False, "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": custom,
            "ContainedObjects": cards}


def _card(card_id: int, name: str, text: str, custom: dict[str, Any], place: dict[str, float]) -> dict[str, Any]:
    return {"Name": "Card", "Transform": place, "Nickname": name, "Description": text,
            "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713}, "Locked": False, "Grid": True, "Snap": True,
            "Hands": True, "SidewaysCard": False, "CardID": card_id, "CustomDeck": custom}


def tile_object(name: str, front_url: str, back_url: str, place: dict[str, float], thickness: float = 0.2
                ) -> dict[str, Any]:
    """A board or token as a custom tile: its two sides' images, a box ``thickness`` thick."""
    return {"Name": "Custom_Tile", "Transform": place, "Nickname": name, "Description": "",
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
            "Hands": False, "CustomImage": {"ImageURL": front_url, "ImageSecondaryURL": back_url, "WidthScale": 0.0,
                                            "CustomTile": {"Type": 0, "Thickness": thickness, "Stackable": False,
                                                           "Stretch": True}}}


def token_object(name: str, url: str, place: dict[str, float], thickness: float = 0.2) -> dict[str, Any]:
    """A token cut to its picture's outline (the picture's clear background is cut away),
    stackable."""
    return {"Name": "Custom_Token", "Transform": place, "Nickname": name, "Description": "",
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
            "Hands": False, "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                            "WidthScale": 0.0,
                                            "CustomToken": {"Thickness": thickness, "MergeDistancePixels": 15.0,
                                                            "StandUp": False, "Stackable": True}}}


def saved_object(title: str, objects: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A saved object holding ``objects`` (the file Tabletop Simulator lists under Saved
    Objects)."""
    return {"SaveName": title, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "",
            "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": list(objects), "TabStates": {}, "VersionNumber": ""}


def description(text: str) -> str:
    """A card's words as printed, for its description: the lines that hold a word of three
    letters or more (a grid's single letters and numbers left out), joined."""
    lines = [" ".join(line.split()) for line in text.replace("\r", "\n").split("\n")]
    kept = [line for line in lines if any(sum(c.isalpha() for c in w) >= 3 for w in line.split())]
    return "\n".join(kept)
