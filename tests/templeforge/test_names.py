"""No name in a user's file becomes a path outside ``--out``.

Every name field of every game's input formats (block sets, tile sets, pools, boxes and each
game's deck file) is tried with ``../``, absolute paths, separators, NUL, 300-character names
and a pair of names that differ only by case: each is refused when read, naming the field.
Behind that, the shared write path refuses any target outside its folder, and a kit refuses
two pieces that would write one file.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from solver.errors import TempleforgeError

DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

BAD = {"dot-dot": "../../../../GEN-ESCAPE", "absolute": "/tmp/GEN-ESCAPE", "separator": "I2/x",
       "backslash": "I2\\x", "nul": "I2\x00x", "long": "x" * 300, "leading-dot": ".GEN"}


def _sample(name: str) -> dict[str, Any]:
    return json.loads((DATA / f"{name}.json").read_text("utf-8"))


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a TOML basic string (the same escapes)


# Each field: a function of two names (the second None, or a name that must clash with the
# first) that reads an input holding them, and the text the error must hold to name the field.

def _pt_block_set(tmp: Path, a: str, b: str | None) -> None:
    from generators.puzzle_temple.spec import read_blocks

    pieces = [f"{{ name = {_toml_string(a)}, shape = \"##\\n#.\" }}", '"I3"', '"L3"']
    if b is not None:
        pieces.append(f"{{ name = {_toml_string(b)}, shape = \"###\\n#..\" }}")
    path = tmp / "blocks.toml"
    path.write_text(f"pieces = [{', '.join(pieces)}]\n", "utf-8")
    read_blocks(str(path), "--blocks")


def _pt_deck_blocks(tmp: Path, a: str, b: str | None) -> None:
    from generators.puzzle_temple.deck import deck_from_json

    data = _sample("puzzle-temple-3-seed-11")
    data["blocks"][a] = ["##", "#."]
    if b is not None:
        data["blocks"][b] = ["###"]
    deck_from_json(data, "deck.json")


def _ids(sample: str) -> Callable[[Path, str, str | None], None]:
    def read(tmp: Path, a: str, b: str | None) -> None:
        from generators import read_deck

        data = _sample(sample)
        data["cards"][0]["id"] = a
        if b is not None:
            data["cards"][1]["id"] = b
        path = tmp / "deck.json"
        path.write_text(json.dumps(data), "utf-8")
        read_deck(path)

    return read


def _ss_tiles(field: str) -> Callable[[Path, str, str | None], None]:
    def read(tmp: Path, a: str, b: str | None) -> None:
        from generators.shifting_stones.tiles import PUBLISHED, tile_set_from

        data = PUBLISHED.as_json()
        if field == "title":
            data["title"] = a
        else:
            data["tiles"][0]["faces"] = [a, b if b is not None else "Moon"]
        tile_set_from(data, "tiles.toml")

    return read


def _ss_deck_tiles(tmp: Path, a: str, b: str | None) -> None:
    from generators.shifting_stones.deck import deck_from_json

    data = _sample("shifting-stones-12-seed-5")
    data["tiles"]["tiles"][0]["faces"] = [a, b if b is not None else "Moon"]
    for card in data["cards"] if len(a) <= 24 else ():  # the schema holds a window's names to 24
        card["window"] = [[a if f == "Sun" else b if f == "Moon" and b is not None else f for f in row]
                          for row in card["window"]]
    deck_from_json(data, "deck.json")


def _mono_pool(field: str) -> Callable[[Path, str, str | None], None]:
    def read(tmp: Path, a: str, b: str | None) -> None:
        from generators.monolyth.pool import DEFAULT, pool_from

        data = copy.deepcopy(DEFAULT.as_json())
        if field == "title":
            data["title"] = a
        elif field == "colours":
            colours = data["colours"]
            colours[a] = colours.pop("red")
            if b is not None:
                colours[b] = colours.pop("blue")
            for p in data["pieces"]:
                p["colour"] = {"red": a, "blue": b or "blue"}.get(p["colour"], p["colour"])
            data["singles"] = {c: 0 for c in colours}
            data["boards"] = [[c for c in colours if c != left] for left in colours]
        else:
            data["pieces"][0]["name"] = a
            if b is not None:
                data["pieces"][1]["name"] = b
        pool_from(data, "pool.toml")

    return read


def _mono_deck_pool(tmp: Path, a: str, b: str | None) -> None:
    from generators.monolyth.deck import deck_from_json

    data = _sample("monolyth-3-seed-2")
    data["pool"]["colours"][a] = "#123456"
    if b is not None:
        data["pool"]["colours"][b] = "#654321"
    deck_from_json(data, "deck.json")


def _mot_box(field: str) -> Callable[[Path, str, str | None], None]:
    def read(tmp: Path, a: str, b: str | None) -> None:
        from generators.mystery_of_the_temples.box import box_from
        from solver.textfiles import parse_toml

        data = parse_toml((EXAMPLES / "mystery-of-the-temples" / "box.toml").read_text("utf-8"), "box.toml",
                          ValueError)
        if field == "title":
            data["title"] = a
        else:
            data["colours"] = [{"name": "colourless", "rgb": "#DDDDDD", "supply": 20},
                               {"name": a, "rgb": "#D55E00", "supply": 12}]
            if b is not None:
                data["colours"].append({"name": b, "rgb": "#0072B2", "supply": 12})
            data.pop("temples", None)
        box_from(data, "box.toml")

    return read


def _mot_deck_colours(tmp: Path, a: str, b: str | None) -> None:
    from generators.mystery_of_the_temples.deck import deck_from_json

    data = _sample("mystery-of-the-temples-two-boards-seed-1")
    data["colours"].append({"name": a, "rgb": "#123456", "supply": 10})
    if b is not None:
        data["colours"].append({"name": b, "rgb": "#654321", "supply": 10})
    deck_from_json(data, "deck.json")


FIELDS: dict[str, tuple[Callable[[Path, str, str | None], None], str]] = {
    "puzzle-temple block set pieces[].name": (_pt_block_set, "pieces[1].name"),
    "puzzle-temple deck blocks": (_pt_deck_blocks, "blocks"),
    "puzzle-temple deck cards[].id": (_ids("puzzle-temple-3-seed-11"), ".id"),
    "shifting-stones tile set title": (_ss_tiles("title"), "title"),
    "shifting-stones tile set faces": (_ss_tiles("faces"), "faces"),
    "shifting-stones deck tiles faces": (_ss_deck_tiles, "faces"),
    "shifting-stones deck cards[].id": (_ids("shifting-stones-12-seed-5"), ".id"),
    "monolyth pool title": (_mono_pool("title"), "title"),
    "monolyth pool colours": (_mono_pool("colours"), "colours"),
    "monolyth pool pieces[].name": (_mono_pool("pieces"), "pieces"),
    "monolyth deck pool colours": (_mono_deck_pool, "colours"),
    "monolyth deck cards[].id": (_ids("monolyth-3-seed-2"), ".id"),
    "temples box title": (_mot_box("title"), "title"),
    "temples box colours[].name": (_mot_box("colours"), "colours"),
    "temples deck colours[].name": (_mot_deck_colours, "colours"),
    "temples deck cards[].id": (_ids("mystery-of-the-temples-two-boards-seed-1"), ".id"),
}


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("kind", BAD)
def test_a_bad_name_in_any_field_is_refused_naming_it(field: str, kind: str, tmp_path: Path) -> None:
    read, named = FIELDS[field]
    with pytest.raises(TempleforgeError) as caught:
        read(tmp_path, BAD[kind], None)
    message = str(caught.value)
    assert named in message
    assert "\n" not in message.strip() or "\x00" in BAD[kind]


@pytest.mark.parametrize("field", [f for f in FIELDS if not f.endswith("title")])  # a file has one title
def test_names_that_differ_only_by_case_are_refused(field: str, tmp_path: Path) -> None:
    read, _ = FIELDS[field]
    read(tmp_path, "quartz", None)  # the field takes a good name: the refusal below is the clash
    with pytest.raises(TempleforgeError):
        read(tmp_path, "quartz", "Quartz")


def test_a_hostile_block_set_writes_nothing_anywhere(tmp_path: Path) -> None:
    """The reported escape: a piece named ``../../../../GEN-ESCAPE`` is refused by generate
    (exit 2, one line naming the file and field), and a deck carrying it by cad and pdf."""
    from templeforge.cli import main

    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    (work / "blocks.toml").write_text('pieces = [{ name = "../../../../GEN-ESCAPE", shape = "##\\n#." }, "I3", '
                                      '"L3", "I2"]\n', "utf-8")
    runner = CliRunner()
    out = work / "deck.json"
    done = runner.invoke(main, ["generate", "puzzle-temple", "--blocks", str(work / "blocks.toml"), "--cards", "1",
                                "--out", str(out)])
    assert done.exit_code == 2
    assert "blocks.toml: field 'pieces[1].name': a name may not hold a path separator" in done.output
    data = _sample("puzzle-temple-3-seed-11")
    data["blocks"]["../../../../GEN-ESCAPE"] = data["blocks"].pop("I2")
    for card in data["cards"]:
        for face in card["faces"]:
            face["blocks"] = ["../../../../GEN-ESCAPE" if n == "I2" else n for n in face["blocks"]]
            if "solution" in face and "I2" in face["solution"]:
                face["solution"]["../../../../GEN-ESCAPE"] = face["solution"].pop("I2")
    out.write_text(json.dumps(data), "utf-8")
    for command in (["cad", str(out), "--out", str(work / "kit")], ["pdf", str(out), "--out", str(work / "pdf")]):
        done = runner.invoke(main, command)
        assert done.exit_code == 2, (command, done.output)
        assert "deck.json: blocks: a name may not hold a path separator" in done.output
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "blocks.toml", "deck.json"]


@pytest.mark.parametrize("name", ["../x.stl", "stl/../../x.stl", "/tmp/x.stl", "stl/a\x00.stl", "a\\..\\x.stl", ""])
def test_the_write_path_refuses_any_target_outside_its_folder(name: str, tmp_path: Path) -> None:
    from generators.common.files import OutputError, inside, write_files

    out = tmp_path / "out"
    with pytest.raises(OutputError, match="leads outside the folder"):
        inside(out, name)
    with pytest.raises(OutputError):
        write_files(out, {"stl/fine.stl": b"ok", name: b"bad"})
    assert not out.exists()  # all or none: the good file was not written either
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"] if out.exists() else True


def test_the_write_path_refuses_a_link_leading_out(tmp_path: Path) -> None:
    from generators.common.files import OutputError, inside

    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out" / "stl").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(OutputError):
        inside(tmp_path / "out", "stl/x.stl")
    assert inside(tmp_path / "out", "previews/x.png") == tmp_path / "out" / "previews" / "x.png"


def test_the_build_writer_refuses_a_target_outside_its_folder(tmp_path: Path) -> None:
    from generators.common.files import OutputError
    from templeforge.pipeline import runner

    with pytest.raises(OutputError):
        runner._write(tmp_path / "kit", {"models/ok.stl": b"", "models/../../x.stl": b""})
    assert not (tmp_path / "x.stl").exists() and not (tmp_path / "kit").exists()


def test_a_kit_refuses_two_pieces_that_write_one_file() -> None:
    """Defence in depth behind the readers: a game that made two keys alike, or a key that
    is not a plain name, gets a refusal, not an overwritten or escaped file."""
    from cad.common import kit
    from cad.common.meshes import box
    from solver.names import BadName

    def piece(key: str) -> kit.Piece:
        return kit.Piece(key, key, (kit.Solid("block", box(10, 10, 6), "x"),))

    filaments = kit.Filaments.by_colour([("x", "x", "#FF0000")])
    for keys in (["block-L4", "block-l4"], ["block-../../x"]):
        with pytest.raises(BadName):
            kit.make([piece(k) for k in keys], filaments, (100, 100), gap=2, density=1.2, ams=False, no_ams=True,
                     title="t", slicer="prusa")
