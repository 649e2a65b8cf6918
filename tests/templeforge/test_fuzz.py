"""Every command fed malformed input: it ends with exit 0-3, no traceback, one line on stderr
for an error, and leaves no file behind.

Inputs are drawn by hypothesis: broken TOML and JSON, valid files with mutated characters,
JSON and TOML trees of the right keys with wrong types, pictures with non-ASCII and control
characters, empty pictures, ragged 3D layers, binary garbage, a folder or a missing path where
a file is expected, out-of-range options, and output paths that cannot be written. A few
hundred examples run by default; ``-m slow`` runs thousands.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from templeforge.cli import main

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
VALID_TOML = [p.read_text() for p in sorted(EXAMPLES.glob("*.toml"))] + [
    (EXAMPLES / "profiles" / "puzzle-temple-hard.toml").read_text()]
VALID_JSON = [(EXAMPLES / "hand-deck.json").read_text()]

PICTURE_CHARS = st.sampled_from(list("#.#.# \t\n\r\x00\x1b\u00e9\u2588\ud7ff\U0001f600x1"))
NAMES = st.one_of(st.sampled_from(["I2", "L3", "T4", "P", "soma_A", "pentominoes", "ubongo12", "V3", ""]),
                  st.text(max_size=12))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True),
                    st.text(max_size=20), NAMES)


def pictures() -> st.SearchStrategy[str]:
    ragged_3d = st.lists(st.text(PICTURE_CHARS, max_size=6), min_size=1, max_size=4).map(
        lambda rows: "\n".join(rows) + "\n\n" + "\n".join(r + "#" for r in rows[:-1]))
    return st.one_of(st.text(PICTURE_CHARS, max_size=40), ragged_3d, st.just(""), st.just("..\n.."))


def mutated(texts: list[str]) -> st.SearchStrategy[str]:
    """A valid file with a few characters replaced, inserted or deleted."""

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(texts))
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(text)))
            how = draw(st.sampled_from(["replace", "insert", "delete"]))
            ch = draw(st.one_of(PICTURE_CHARS, st.sampled_from(list('[]{}"=,:\\0-9'))))
            if how == "replace":
                text = text[:at] + ch + text[at + 1:]
            elif how == "insert":
                text = text[:at] + ch + text[at:]
            else:
                text = text[:at] + text[at + 1:]
        return text

    return mutate()


def json_trees(keys: list[str]) -> st.SearchStrategy[object]:
    return st.recursive(
        st.one_of(SCALARS, pictures()),
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), inner, max_size=5)),
        max_leaves=20)


DECK_KEYS = ["format", "game", "seed", "parameters", "versions", "blocks", "cards", "id", "lock", "faces",
             "die", "solution", "solutions", "difficulty", "tier_bounds", "flips", "holes", "unique"]


@st.composite
def deck_texts(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["mutated"] * 3 + ["deck-tree"] * 4 + ["tree", "binary", "deep", "text"]))
    if kind == "mutated":
        return draw(mutated(VALID_JSON)).encode("utf-8", "surrogatepass")
    if kind == "tree":
        return json.dumps(draw(json_trees(DECK_KEYS))).encode()
    if kind == "deck-tree":
        data = json.loads(VALID_JSON[0])
        card = data["cards"][0]
        target = draw(st.sampled_from(["id", "lock", "faces", "face", "blocks", "top"]))
        value = draw(json_trees(DECK_KEYS))
        if target == "face":
            card["faces"][0][draw(st.sampled_from(["die", "blocks", "solution", "solutions", "difficulty"]))] = value
        elif target == "blocks":
            data["blocks"] = value
        elif target == "top":
            data[draw(st.sampled_from(["seed", "parameters", "versions", "format", "game"]))] = value
        else:
            card[target] = value
        return json.dumps(data).encode()
    if kind == "binary":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.integers(30, 5000))
        return ("[" * depth + "]" * depth).encode()
    return draw(st.text(max_size=200)).encode("utf-8", "surrogatepass")


PUZZLE_KEYS = ["title", "region", "pieces", "flips", "mode", "name", "shape", "count"]


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and value == value and abs(value) != float("inf"):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(str(value))


@st.composite
def toml_texts(draw: st.DrawFn, keys: list[str]) -> bytes:
    kind = draw(st.sampled_from(["valid", "mutated", "mutated", "mutated", "keys", "keys", "binary", "deep",
                                 "text"]))
    if kind == "valid":
        return draw(st.sampled_from(VALID_TOML)).encode()
    if kind == "mutated":
        return draw(mutated(VALID_TOML)).encode("utf-8", "surrogatepass")
    if kind == "keys":
        items = draw(st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), json_trees(keys), max_size=6))
        return "\n".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in items.items()).encode(
            "utf-8", "surrogatepass")
    if kind == "binary":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.integers(30, 3000))
        return ("a = " + "[" * depth + "]" * depth).encode()
    return draw(st.text(max_size=200)).encode("utf-8", "surrogatepass")


PROFILE_KEYS = ["blocks", "cards", "blocks_per_face", "flips", "lock_cells", "lock_size", "holes", "min_fill",
                "unique", "difficulty", "seed", "attempts", "locks", "designs", "workers", "like", "out"]

BAD_OPTIONS = {
    "--cards": ["0", "-1", "1.5", "x", "99999999999"],
    "--blocks-per-face": ["99", "0", "4-3", "3-", "x", "\u00e9"],
    "--lock-size": ["0x0", "60x60", "7x", "x5", "7*5", ""],
    "--lock-cells": ["0-0", "9-3", "999", "a-b"],
    "--time-limit": ["0", "-1", "nan", "x"],
    "--workers": ["0", "-3", "99999999999", "x"],
    "--seed": ["-1", "3000000000", "x"],
    "--min-fill": ["0", "1.5", "nan", "inf", "x"],
    "--difficulty": ["hardest", "easy:-1", "easy:0", ""],
    "--blocks": ["nope", "missing.toml", "", "\u00e9\u00e9"],
    "--locks": ["magic"],
    "--attempts": ["0", "-5"],
    "--designs": ["-1"],
}


def run_and_check(args: list[str], workdir: Path) -> None:
    """Run the command in ``workdir``; check the status, stderr and the files left."""
    before = {p for p in workdir.rglob("*")}
    old = os.getcwd()
    os.chdir(workdir)
    try:
        result = CliRunner().invoke(main, args)
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in (0, 1, 2, 3), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.output + result.stderr, args
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
    after = {p for p in workdir.rglob("*")}
    new = {p for p in after - before if p.is_file()}
    if result.exit_code != 0:
        assert not new, (args, new)
    assert not [p for p in after if p.name.endswith(".tmp")], args


def write(workdir: Path, name: str, data: bytes) -> str:
    path = workdir / name
    path.write_bytes(data)
    return name


def where(draw: st.DrawFn, workdir: Path, data: bytes, name: str) -> str:
    """A file holding ``data``, or a folder, or a missing path."""
    kind = draw(st.sampled_from(["file"] * 8 + ["folder", "missing"]))
    if kind == "folder":
        return "."
    if kind == "missing":
        return "no-such-" + name
    return write(workdir, name, data)


def fuzz(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


#: Examples per command: (the default run, -m slow). Commands that model or generate for
#: seconds an example draw fewer.
SIZES = {"cad": (8, 60), "stones-generate": (4, 60), "stones-decks": (30, 400), "build": (30, 200),
         "generate": (30, 400), "export": (12, 100)}
DEFAULT_SIZES = (60, 1000)


def solve_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    path = where(draw, workdir, draw(toml_texts(PUZZLE_KEYS)), "puzzle.toml")
    extra = draw(st.lists(st.sampled_from(
        ["--count", "--unique", "--distinct", "--show", "--json", "--enumerate", "--limit", "0",
         "--engine", "counter", "--engine", "cp-sat", "--engine", "x", "--seed", "3000000000",
         "--time-limit", "0", "--time-limit", "nan"]), max_size=3))
    return ["solve", path, *extra] + ([] if "--time-limit" in extra else ["--time-limit", "2"])


def deck_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    path = where(draw, workdir, draw(deck_texts()), "deck.json")
    return draw(st.sampled_from([
        ["verify", path, "--time-limit", "2"], ["verify", path, "--show", "--time-limit", "2"],
        ["verify", path, "--tiers-from", path, "--time-limit", "2"], ["show", path],
        ["show", path, "--card", draw(st.sampled_from(["1", "A1", "0", "\u00e9", ""]))]]))


def generate_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    args = ["generate", "puzzle-temple"]
    sometimes = st.sampled_from([True, False, False])
    if draw(sometimes):
        args += ["--profile", where(draw, workdir, draw(toml_texts(PROFILE_KEYS)), "p.toml")]
    if draw(sometimes):
        args += ["--blocks", write(workdir, "blocks.toml", draw(toml_texts(["title", "pieces"])))]
    if draw(sometimes):
        args += ["--like", where(draw, workdir, draw(deck_texts()), "ref.json")]
    bad = draw(st.lists(st.sampled_from(sorted(BAD_OPTIONS)), max_size=2, unique=True)
               if draw(st.booleans()) else st.just([]))
    for option in bad:
        args += [option, draw(st.sampled_from(BAD_OPTIONS[option]))]
    # keep the requests that are valid small: two cards, a small budget
    for option, value in (("--cards", "2"), ("--attempts", "12"), ("--designs", "1"), ("--workers", "1")):
        if option not in bad:
            args += [option, value]
    (workdir / "file").write_text("x")
    return args + ["--out", draw(st.sampled_from(["deck.json", "out/", ".", "file/deck.json", ""]))]


def shapes_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    return ["shapes", *draw(st.lists(NAMES, max_size=3)), draw(st.sampled_from(["--flips", "--no-flips"]))]


PDF_OPTIONS = {
    "--size": ["huge", "0x0", "mini-euro", "10x10", "500x500", "auto-landscape", "a5", "poker-landscape"],
    "--paper": ["a9", "", "letter", "a3"],
    "--duplex": ["both", "", "long", "gutter"],
    "--back-offset": ["9,9", "1", "x,y", "nan,0", "0.5,-1"],
    "--bleed": ["-1", "11", "nan", "0"],
    "--pitch": ["5", "31", "x", "8"],
    "--players": ["-1", "13", "1.5", "0"],
    "--safe": ["-1", "11", "10", "x"],
    "--margin": ["-1", "31", "0", "30"],
}


def pdf_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    path = where(draw, workdir, draw(deck_texts()), "deck.json")
    options = draw(st.lists(st.sampled_from(sorted(PDF_OPTIONS)), max_size=2, unique=True))
    args = ["pdf", path, "--no-previews", "--out", draw(st.sampled_from(["out", "out/", ".", "deck.json/x"]))]
    for option in options:
        args += [option, draw(st.sampled_from(PDF_OPTIONS[option]))]
    return args


EXPORT_OPTIONS = {
    "--service": ["tgc", "mpc", "dtc", "png", "", "kinkos"],
    "--product": ["poker", "jumbo-landscape", "domino", "70x120", ""],
    "--colour": ["cmyk", "rgb", "grey"],
    "--pitch": ["5", "8", "x"],
    "--players": ["-1", "1"],
}


def export_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    path = where(draw, workdir, draw(deck_texts()), "deck.json")
    out = ["--out", draw(st.sampled_from(["out", "out/", ".", "deck.json/x"]))]
    if draw(st.sampled_from([True, False, False])):  # Tabletop Simulator (without the kit's models: seconds each)
        base = ["--url-base", draw(st.sampled_from(["https://x.org/", "x", ""]))] if draw(st.booleans()) else []
        return ["export", "tts", path, "--no-models", *base, *out]
    args = ["export", "shop", path, *out]
    options = draw(st.lists(st.sampled_from(sorted(EXPORT_OPTIONS)), max_size=3, unique=True))
    for option in options:
        args += [option, draw(st.sampled_from(EXPORT_OPTIONS[option]))]
    return args


CAD_KEYS = ["pitch", "block_height", "card_thickness", "pocket_depth", "clearance", "deboss_depth",
            "bottom_chamfer", "top_fillet", "text_size", "min_stroke", "layer_height", "nozzle", "part_gap",
            "density"]

CAD_OPTIONS = {
    "--printer": ["bambu-x9", "", "prusa-mk4", "bambu-a1-mini"],
    "--profile": ["rainbow", "", "ams"],
    "--slicer": ["cura", "prusa"],
    "--players": ["0", "-1", "13", "x"],
}


def cad_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    path = where(draw, workdir, draw(deck_texts()), "deck.json")
    args = ["cad", path, "--out", draw(st.sampled_from(["out", "out/", ".", "deck.json/x"]))]
    if draw(st.sampled_from([True, False, False])):
        args += ["--settings", where(draw, workdir, draw(toml_texts(CAD_KEYS)), "s.toml")]
    for option in draw(st.lists(st.sampled_from(sorted(CAD_OPTIONS)), max_size=2, unique=True)):
        args += [option, draw(st.sampled_from(CAD_OPTIONS[option]))]
    return args


BUILD_SECTIONS = {"generate": ["cards", "seed", "blocks", "lock_size", "out", "workers", "colour"],
                  "pdf": ["paper", "size", "duplex", "bleed", "previews", "out", "ink"],
                  "cad": ["printer", "profile", "slicer", "players", "clearance", "pitch", "glue"]}
#: one entry each that no build accepts: at least one goes in every drawn profile, so that
#: the command stops before any work (a valid profile would build a whole kit)
BUILD_BAD = [("generate", "cards", 0), ("generate", "out", "x"), ("generate", "colour", "red"),
             ("pdf", "paper", "a9"), ("pdf", "previews", "yes"), ("cad", "clearance", -1),
             ("cad", "printer", "mk9"), ("cad", "players", 0), ("paint", "x", 1)]


def build_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    kind = draw(st.sampled_from(["sections"] * 6 + ["text", "folder", "missing", "option"]))
    args = ["build", "--out", draw(st.sampled_from(["out", ".", "file/x"])), "--jobs", "1"]
    (workdir / "file").write_text("x")
    if kind == "option":
        option, value = draw(st.sampled_from([("--jobs", "0"), ("--seed", "-1"), ("--game", "chess"),
                                              ("--seed", "x"), ("--jobs", "999")]))
        return args + ["--profile", write(workdir, "p.toml", b"[paint]\n"), option, value]
    if kind == "text":
        return args + ["--profile", write(workdir, "p.toml", draw(toml_texts(["generate", "pdf", "cad"])) +
                                          b"\n[paint]\n")]
    if kind in ("folder", "missing"):
        return args + ["--profile", "." if kind == "folder" else "no-such.toml"]
    sections: dict[str, dict[str, object]] = {}
    for section, key, value in draw(st.lists(st.sampled_from(BUILD_BAD), min_size=1, max_size=3)):
        sections.setdefault(section, {})[key] = value
    for section, keys in BUILD_SECTIONS.items():
        for key in draw(st.lists(st.sampled_from(keys), max_size=2, unique=True)):
            sections.setdefault(section, {}).setdefault(key, draw(json_trees(["x"])))
    text = "\n".join(f"[{section}]\n" + "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in table.items())
                     for section, table in sections.items())
    return args + ["--profile", write(workdir, "p.toml", text.encode("utf-8", "surrogatepass"))]


STONES = EXAMPLES / "shifting-stones"
STONES_JSON = [(STONES / "patterns.json").read_text()]
STONES_TOML = [(STONES / "seasons.toml").read_text()]
STONES_KEYS = ["format", "game", "seed", "parameters", "versions", "tiles", "cards", "id", "window", "points",
               "difficulty", "shown", "max", "title", "faces", "count", "colours", "mix", "stones"]
FACES = st.one_of(st.sampled_from(["Sun", "Moon", "Fish", "any", ".", "S", "sun", "Cat", "", "-", "é"]),
                  st.text(max_size=6))


@st.composite
def stones_deck_texts(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["mutated"] * 3 + ["deck-tree"] * 4 + ["windows", "tree", "binary"]))
    if kind == "mutated":
        return draw(mutated(STONES_JSON)).encode("utf-8", "surrogatepass")
    if kind == "tree":
        return json.dumps(draw(json_trees(STONES_KEYS))).encode()
    if kind == "binary":
        return draw(st.binary(max_size=200))
    data = json.loads(STONES_JSON[0])
    card = data["cards"][draw(st.integers(0, len(data["cards"]) - 1))]
    if kind == "windows":
        card["window"] = draw(st.lists(st.lists(FACES, min_size=0, max_size=4), max_size=4))
        return json.dumps(data).encode("utf-8", "surrogatepass")
    target = draw(st.sampled_from(["id", "window", "points", "difficulty", "shown", "max", "tiles", "top"]))
    value = draw(json_trees(STONES_KEYS))
    if target == "tiles":
        data["tiles"] = value
    elif target == "top":
        data[draw(st.sampled_from(["seed", "parameters", "versions", "format", "game"]))] = value
    else:
        card[target] = value
    return json.dumps(data).encode("utf-8", "surrogatepass")


def stones_deck_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    path = where(draw, workdir, draw(stones_deck_texts()), "deck.json")
    return draw(st.sampled_from([
        ["verify", path], ["verify", path, "--tiers-from", path], ["show", path],
        ["show", path, "--card", draw(st.sampled_from(["1", "line", "0", ""]))],
        ["pdf", path, "--no-previews", "--out", "out"], ["pdf", path, "--pitch", "12", "--out", "out"],
        ["playtest", path, "--players", draw(st.sampled_from(["2", "5", "0"])), "--games", "1", "--workers", "1",
         "--agents", draw(st.sampled_from(["greedy", "random,search", "x"])), "--out", "out"]]))


STONES_OPTIONS = {
    "--cards": ["0", "-1", "x", "501"],
    "--mix": ["1:2,2:x", "1-5", "", "1:2,1:3", "0:1", "1:0", "1:99999"],
    "--stones": ["0", "10", "5-3", "x"],
    "--attempts": ["0", "x"],
    "--seed": ["-1", "x"],
}


def stones_generate_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    args = ["generate", "shifting-stones"]
    if draw(st.sampled_from([True, False, False])):
        text = draw(st.one_of(st.sampled_from(STONES_TOML).map(str.encode),
                              mutated(STONES_TOML).map(lambda t: t.encode("utf-8", "surrogatepass")),
                              toml_texts(["title", "tiles", "faces", "count", "colours"])))
        args += ["--tiles", where(draw, workdir, text, "tiles.toml")]
    bad = draw(st.lists(st.sampled_from(sorted(STONES_OPTIONS)), max_size=2, unique=True)
               if draw(st.booleans()) else st.just([]))
    for option in bad:
        args += [option, draw(st.sampled_from(STONES_OPTIONS[option]))]
    for option, value in (("--cards", "3"), ("--attempts", "6"), ("--workers", "1")):
        if option not in bad and not (option == "--cards" and "--mix" in bad):
            args += [option, value]
    (workdir / "file").write_text("x")
    return args + ["--out", draw(st.sampled_from(["deck.json", "out/", ".", "file/deck.json", ""]))]


def stones_solve_args(draw: st.DrawFn, workdir: Path) -> list[str]:
    grids = ["S F B / H O E / T E H", "random", "Sun Fish Bird / Horse Boat Seed / Tree Seed Tree", "", "S F B"]
    rows = st.lists(st.lists(FACES, max_size=4).map(" ".join), max_size=4).map(" / ".join)
    args = ["stones", "solve", "--grid", draw(st.one_of(st.sampled_from(grids), rows)),
            "--pattern", draw(st.one_of(st.sampled_from(["Moon any / Fish Fish", "Sun Moon", "S", ""]), rows))]
    if draw(st.sampled_from([True, False, False])):
        args += ["--tiles", where(draw, workdir, draw(mutated(STONES_TOML)).encode("utf-8", "surrogatepass"),
                                  "tiles.toml")]
    return args


COMMANDS = {"solve": solve_args, "verify-show": deck_args, "generate": generate_args, "shapes": shapes_args,
            "pdf": pdf_args, "export": export_args, "cad": cad_args, "build": build_args,
            "stones-decks": stones_deck_args, "stones-generate": stones_generate_args,
            "stones-solve": stones_solve_args}


@pytest.mark.parametrize("run", [pytest.param(0, id="default"), pytest.param(1, id="long", marks=pytest.mark.slow)])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_survives_malformed_input(command: str, run: int) -> None:
    examples = SIZES.get(command, DEFAULT_SIZES)[run]

    @fuzz(examples)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(tmp)
            run_and_check(COMMANDS[command](data.draw, workdir), workdir)

    check()
