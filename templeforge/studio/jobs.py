"""What the studio's worker process computes, for any game with a ``studio`` module: a deck
opened for the page, a draft proved, a draft saved into its deck (verified, and sealed
when it verifies). Paths here are already checked by the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _open(path: str, game_name: str | None = None) -> tuple[Any, Any, Any]:
    """The game, the deck and the game's studio module: the file at ``path``, or, where there
    is none yet and ``game_name`` says which game, a new deck (``Studio.blank``)."""
    from generators import GAMES, open_deck
    from generators.common.errors import RequestError

    if not Path(path).exists() and game_name is not None:
        if game_name not in GAMES or not GAMES[game_name].studio:
            raise RequestError(f"game: the studio cannot edit {game_name!r} decks")
        game = GAMES[game_name]
        studio = game.load_studio()
        return game, studio.blank(), studio
    game, deck, _ = open_deck(path)
    if not game.studio:
        raise RequestError(f"{Path(path).name}: the studio cannot edit {game.title} cards yet")
    return game, deck, game.load_studio()


def deck(path: str, game_name: str | None = None) -> dict[str, Any]:
    """The deck as the page shows it: its game, its editor and every card's draft (a new
    deck of ``game_name``'s where there is no file yet)."""
    game, opened, studio = _open(path, game_name)
    cards = [{"id": c.id, "draft": studio.draft(opened, c.id)} for c in opened.cards]
    listed = getattr(studio, "parts", None)  # optional: the deck's other parts (a box's boards)
    parts = [{**p, "draft": studio.draft(opened, p["id"])} for p in (listed(opened) if listed else [])]
    return {"game": game.name, "title": game.title, "editor": studio.editor(opened), "cards": cards, "parts": parts,
            "new": studio.draft(opened, None), "table": studio.table(opened), "players": playable(game, opened),
            "played": played(Path(path), game.name)}


def playable(game: Any, deck: Any) -> list[int]:
    """The player counts the game's rules engine can deal this deck to (none: no engine yet,
    or too few cards for any table)."""
    from generators.common.errors import RequestError

    if not game.engine or not deck.cards:
        return []
    engine = game.load_engine()
    counts = []
    for players in engine.PLAYERS:
        try:
            engine.start(deck, players, 0)
        except RequestError:
            continue
        counts.append(players)
    return counts


def played(path: Path, game: str) -> dict[str, Any] | None:
    """What the deck's latest playtest found (``templeforge playtest`` from the studio, or a
    build's): its table, seats and findings, and whether the deck file changed since
    (``current``); None when there is none."""
    import json

    from templeforge.studio.tasks import kit_of

    if not path.is_file():
        return None
    kit = kit_of(path)
    found = [p for p in (kit / "playtest" / "playtest.json", kit / game / "playtest" / "playtest.json") if p.is_file()]
    if not found:
        return None
    latest = max(found, key=lambda p: p.stat().st_mtime)
    try:
        said = json.loads(latest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return {"file": latest.relative_to(path.parent).as_posix(), "players": said.get("players"),
            "games": said.get("games"), "current": latest.stat().st_mtime >= path.stat().st_mtime,
            "seats": [round(s["win_rate"], 3) for s in said.get("seats", [])],
            "findings": list(said.get("findings", []))[:12],
            "effort": (said.get("pricing") or {}).get("value"),
            "cards": {str(c["id"]): {"dealt": c.get("dealt"), "scored": c.get("scored"), "value": c.get("value")}
                      for c in said.get("cards", []) if isinstance(c, dict) and "id" in c}}


def prove(path: str, card: Any, draft: dict[str, Any], game_name: str | None = None) -> dict[str, Any]:
    """The live answer for a draft of card ``card`` (None: a new one) of the deck at ``path``."""
    _, opened, studio = _open(path, game_name)
    answer: dict[str, Any] = studio.prove(opened, draft, card)
    return answer


def save(path: str, card: Any, draft: dict[str, Any], game_name: str | None = None) -> dict[str, Any]:
    """The draft put in place of ``card`` (None: added) and the deck written through the
    game's writer: sealed when the whole deck verifies, written unsealed (and the problems
    said) when it does not, so no work is lost and nothing unproved is sealed."""
    from generators.common.files import write_atomic
    from generators.common.proof import sealed_text

    game, opened, studio = _open(path, game_name)
    rules = game.load_rules()
    changed = studio.put(opened, draft, card)
    check = rules.verify(changed)
    if check.problems or check.unknown:
        write_atomic(path, changed.dumps())
        said = list(check.problems) or [f"{u.where}: not settled within the time limit" for u in check.unknown]
        return {"saved": Path(path).name, "sealed": False, "problems": said[:20], "cards": len(changed.cards)}
    done = rules.completed(changed, check)
    write_atomic(path, sealed_text(game, done.dumps()))
    return {"saved": Path(path).name, "sealed": True, "problems": [], "cards": len(done.cards),
            "said": f"{check.counted} proved"}


#: The rendered fronts of the decks opened last, by path: (the file's state, the PNGs).
_FRONTS: dict[str, tuple[tuple[float, int], dict[int, bytes]]] = {}
#: Pixels an inch of a card as the page shows it.
DPI = 110


def fronts(path: str) -> dict[int, bytes]:
    """Every card front of the deck at ``path`` as it prints (the game's own print module,
    one card a page, default options, rendered by PDFium and cut along the trim): PNG bytes
    by the card's place in the deck, kept while the file is unchanged."""
    from generators.common.options import resolve
    from print import paper_of
    from print.common.options import OPTIONS
    from print.common.previews import fronts as cut
    from print.common.previews import png, render

    stat = Path(path).stat()
    state = (stat.st_mtime, stat.st_size)
    kept = _FRONTS.get(path)
    if kept is not None and kept[0] == state:
        return kept[1]
    game, opened, _ = _open(path)
    module = paper_of(game)
    values = dict(resolve(OPTIONS, {}).values)
    values["layout"] = "cards"
    printed = module.make(opened, module.request(values), module.deck_title(opened, path))
    pages = render(printed.files["cards.pdf"], DPI)
    images = {card: png(image) for card, image in cut(pages, printed.imposition.pages, DPI)}
    _FRONTS.clear()
    _FRONTS[path] = (state, images)
    return images


def front(path: str, index: int) -> bytes:
    """Card ``index``'s front (see ``fronts``).

    Raises:
        RequestError: no such card.
    """
    from generators.common.errors import RequestError

    _, opened, _ = _open(path)
    images = fronts(path)
    if not 0 <= index < len(opened.cards) or index not in images:  # (a print may add reference cards)
        raise RequestError(f"index: the deck has {len(opened.cards)} cards, not a card {index + 1}")
    return images[index]
