"""The whole kit of a small deck: STL, 3MF plates on the bed, the bill, and the command."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cad import puzzle_temple as ct
from cad.common import kit, threemf
from cad.common.meshes import Mesh
from cad.common.profile import PRINTERS, Physical
from generators.puzzle_temple.deck import Deck, write_deck
from templeforge.cli import main


@pytest.fixture(scope="module")
def made(cad_deck: Deck) -> kit.Kit:
    return ct.make_kit(cad_deck, Physical(), (256, 256), players=2)


@pytest.mark.slow
def test_the_kit_has_an_stl_per_distinct_part_and_plates_in_both_profiles(made: kit.Kit, cad_deck: Deck) -> None:
    stl = [n for n in made.files if n.startswith("stl/")]
    assert {f"stl/block-{b.name}.stl" for b in cad_deck.blocks} <= set(stl)
    assert {f"stl/card-{c.id}.stl" for c in cad_deck.cards} <= set(stl)
    assert made.pieces == 2 * len(cad_deck.blocks) + len(cad_deck.cards) + 1 + 1 + 4 + 78 + 4
    assert {"stl/board.stl", "stl/board-ink.stl", "stl/coupon.stl", "stl/coupon-ink.stl", "stl/coupon-block-0.2.stl",
            "stl/jewel-ruby.stl", "stl/pawn-round.stl"} <= set(stl)
    ams = sorted(n for n in made.files if n.startswith("ams/"))
    no_ams = sorted(n for n in made.files if n.startswith("no-ams/"))
    assert len(ams) == made.ams_plates >= 1 and len(no_ams) == made.no_ams_plates >= 8
    # both profiles print loose parts one colour a plate (no swaps); AMS never needs more plates than NO-AMS
    assert made.ams_plates <= made.no_ams_plates
    assert len([n for n in made.files if n.startswith("previews/ams/plate-")]) == made.ams_plates
    assert len([n for n in made.files if n.startswith("previews/no-ams/plate-")]) == made.no_ams_plates
    assert any(n.startswith("previews/card-") for n in made.files)


@pytest.mark.slow
def test_each_profile_has_one_project_with_every_plate_and_its_picture(made: kit.Kit) -> None:
    """One file to open instead of one per plate: the Bambu layout's multi-plate project
    holds every plate of its profile, each object on its plate, each plate's picture a
    512-pixel square of its preview."""
    from PIL import Image

    for profile, count in (("ams", made.ams_plates), ("no-ams", made.no_ams_plates)):
        first = 1
        for name in kit.all_plates_files(made, profile):  # one project, or several of at most 16 filaments
            with zipfile.ZipFile(io.BytesIO(made.files[name])) as z:
                settings = ET.fromstring(z.read("Metadata/model_settings.config"))
                plates = settings.findall("plate")
                config = z.read("Metadata/project_settings.config").decode()
                assert len(re.search(r'"filament_colour": \[([^]]*)\]', config)[1].split(",")) <= kit.PROJECT_FILAMENTS
                objects = sum(len(p.findall("model_instance")) for p in plates)
                per_plate = 0
                for n in range(first, first + len(plates)):
                    with zipfile.ZipFile(io.BytesIO(made.files[f"{profile}/plate-{n:02d}.3mf"])) as one:
                        plate = ET.fromstring(one.read("Metadata/model_settings.config")).find("plate")
                    per_plate += len(plate.findall("model_instance"))
                assert objects == per_plate
                with Image.open(io.BytesIO(z.read(f"Metadata/plate_{len(plates)}.png"))) as picture:
                    assert picture.size == (kit.THUMBNAIL, kit.THUMBNAIL)
            first += len(plates)
        assert first == count + 1, "every plate in one of the projects, in order"


def test_the_plates_are_split_over_projects_of_at_most_sixteen_filaments() -> None:
    def plate(*colours: str) -> threemf.Project:
        return threemf.Project("p", (), tuple(threemf.Filament(c, f"#{c}") for c in colours))

    few = [plate("000001", "000002"), plate("000002", "000003")]
    assert kit.within_filaments(few) == [[0, 1]]
    many = [plate(*(f"{i:06d}" for i in range(k, k + 6))) for k in range(0, 30, 6)]  # 6 new filaments a plate
    assert kit.within_filaments(many) == [[0, 1], [2, 3], [4]]
    assert kit.all_plates("ams") == "ams-all-plates.3mf" and kit.all_plates("ams", 2) == "ams-all-plates-2.3mf"


@pytest.mark.slow
def test_every_plate_lies_on_the_bed_with_its_parts_apart(made: kit.Kit) -> None:
    for name, data in made.files.items():
        if not name.startswith("ams/"):
            continue
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            model = z.read("3D/3dmodel.model").decode()
        root = ET.fromstring(model)
        ns = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
        objects = {}
        for obj in root.iterfind(".//m:object", ns):
            mesh = obj.find("m:mesh", ns)
            if mesh is not None:
                v = [(float(e.get("x")), float(e.get("y")), float(e.get("z")))
                     for e in mesh.iterfind(".//m:vertex", ns)]
                t = [(int(e.get("v1")), int(e.get("v2")), int(e.get("v3")))
                     for e in mesh.iterfind(".//m:triangle", ns)]
                objects[obj.get("id")] = Mesh(v, t)
        boxes = []
        for obj in root.iterfind(".//m:object", ns):
            comps = obj.find("m:components", ns)
            if comps is None:
                continue
            parts = [objects[c.get("objectid")] for c in comps.iterfind("m:component", ns)]
            lo = [min(p.bounds[0][i] for p in parts) for i in range(3)]
            hi = [max(p.bounds[1][i] for p in parts) for i in range(3)]
            assert all(p.watertight() for p in parts)
            assert 0 <= lo[0] and hi[0] <= 256 and 0 <= lo[1] and hi[1] <= 256 and lo[2] == pytest.approx(0, abs=1e-3)
            boxes.append((lo, hi))
        for i, (a_lo, a_hi) in enumerate(boxes):
            for b_lo, b_hi in boxes[i + 1:]:
                dx = max(b_lo[0] - a_hi[0], a_lo[0] - b_hi[0])
                dy = max(b_lo[1] - a_hi[1], a_lo[1] - b_hi[1])
                assert max(dx, dy) >= Physical().part_gap - 1e-3, f"{name}: two parts closer than the gap"
        assert re.search(r"<build>", model)


@pytest.mark.slow
def test_each_jewel_colour_has_plates_of_its_own(made: kit.Kit) -> None:
    colours_per_plate = []
    for name, data in made.files.items():
        if name.startswith("no-ams/"):
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                model = z.read("3D/3dmodel.model").decode()
            jewels = set(re.findall(r'name="jewel (\w+)', model))
            if jewels:
                colours_per_plate.append(jewels)
                assert "card" not in model and "block" not in model
    assert all(len(c) == 1 for c in colours_per_plate)
    assert set().union(*colours_per_plate) == {n for n, _ in ct.JEWELS}


@pytest.mark.slow
def test_no_ams_card_plates_change_colour_at_the_deboss_floor(made: kit.Kit) -> None:
    floors = set()
    for name, data in made.files.items():
        if name.startswith("no-ams/"):
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                if "Metadata/custom_gcode_per_layer.xml" in z.namelist():
                    floors.add(z.read("Metadata/custom_gcode_per_layer.xml").decode().split('top_z="')[1].split('"')[0])
    ph = Physical()
    # the change comes before the first layer above the floor, so the floor keeps the first colour
    assert floors == {f"{ph.card_thickness - ph.deboss_depth + ph.layer_height:g}"}
    # the light top printed after the change is thick enough not to show the dark body through
    (floor,) = floors
    assert ph.card_thickness - (float(floor) - ph.layer_height) >= 1.0


@pytest.mark.slow
def test_the_bill_lists_each_plates_filaments_in_slot_order(made: kit.Kit, cad_deck: Deck) -> None:
    rows = made.bom["no-ams"]
    firsts = [r for r in rows if r.slot == 1]
    assert len(firsts) == made.no_ams_plates and sum(r.parts for r in firsts) == made.pieces
    assert all(r.grams > 0 for r in rows)
    ams = made.bom["ams"]
    assert {r.filament for r in ams} >= {"sand: card body", "black: ink (pips, icons, ids)"}
    for plate in range(1, made.ams_plates + 1):
        slots = [r.slot for r in ams if r.plate == plate]
        assert slots == list(range(1, len(slots) + 1)) and len(slots) <= 4
    total = sum(r.grams for r in ams)
    assert total == pytest.approx(sum(r.grams for r in rows), rel=0.02), "AMS and NO-AMS print the same plastic"
    csv = kit.bom_csv(made)
    assert csv.splitlines()[0] == "profile,plate,slot,filament,colour,hex,parts,grams_solid,plate_swaps," \
                                  "plate_purge_grams"
    assert len(csv.splitlines()) == len(rows) + len(ams) + 1
    assert ",1,\"sand: card body\",sand,#CBBE9E," in csv


def _declared(data: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = ET.fromstring(z.read("3D/3dmodel.model"))
    return [b.get("displaycolor", "") for b in root.iter("{http://schemas.microsoft.com/3dmanufacturing/core/2015/"
                                                          "02}base")]


def _used(data: bytes) -> set[int]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = ET.fromstring(z.read("Metadata/model_settings.config"))
    return {int(m.get("value", "0")) for part in root.iter("part") for m in part.iter("metadata")
            if m.get("key") == "extruder"}


@pytest.mark.slow
def test_every_ams_plate_uses_at_most_four_filaments_and_declares_only_those(made: kit.Kit) -> None:
    """One AMS (or AMS lite) has four slots: a plate that needs a fifth filament cannot print."""
    for name, data in made.files.items():
        if name.startswith("ams/"):
            declared = _declared(data)
            assert len(declared) <= 4, f"{name} declares {len(declared)} filaments"
            assert _used(data) == set(range(1, len(declared) + 1)), f"{name} declares a filament it does not use"


def test_pieces_of_one_colour_share_plates_and_slots_bound_every_plate() -> None:
    from cad.common.meshes import box

    def block(key: str, n: int) -> kit.Piece:
        return kit.Piece(f"block-{key}", f"block {key}", (kit.Solid("block", box(40, 40, 6), key),), n)

    pieces = [block(k, 6) for k in "abcdef"]
    number = {k: i + 1 for i, k in enumerate("abcdef")}
    for slots in (1, 2, 4):
        sheets = kit.arrange(pieces, 256, 256, 5.0, single=False, slots=slots, number=number)
        for sheet in sheets:
            keys = {key for key, _, _ in sheet.placed}
            assert len(sheet.filaments) <= slots and {number[k[-1]] for k in keys} == set(sheet.filaments)
        assert sum(len(s.placed) for s in sheets) == 36
    by_key = {p.key: p for p in pieces}
    for slots in (1, 4):
        sheets = kit.arrange(pieces, 256, 256, 5.0, single=False, slots=slots, number=number)
        assert len(sheets) == 6, "one colour a plate: each block's six copies fill its own plate, no tool change"
        filaments = kit.Filaments(tuple(threemf.Filament(k, "#123456") for k in "abcdef"), number, {})
        assert all(kit.swaps(kit.layers_of(s, by_key, filaments, 0.2)) == 0 for s in sheets)


def test_swaps_count_the_filament_changes_a_plate_needs_at_best() -> None:
    """A swap is a change of filament between two things printed one after the other: a
    layer of several filaments starts with the one loaded and ends, where it can, with one
    the next layer prints."""
    from cad.common.meshes import box

    assert kit.swaps([{1}] * 10) == 0
    assert kit.swaps([{1}, {1, 2}, {2}, {2}]) == 1
    assert kit.swaps([{1, 2}] * 3) == 1 + 1 + 1  # each layer both: one swap a layer, the next starting where it ended
    assert kit.swaps([{1, 2, 3}, {3}, set(), {1}]) == 2 + 0 + 1
    card = kit.Piece("card-1", "card 1", (kit.Solid("card", box(40, 40, 4), "body"),
                                          kit.Solid("ink", box(10, 10, 0.6).translated(5, 5, 3.4), "ink", True)), 1)
    (sheet,) = kit.arrange([card], 256, 256, 5.0, single=False, slots=4, number={"body": 1, "ink": 2})
    filaments = kit.Filaments((threemf.Filament("sand", "#CBBE9E"), threemf.Filament("black", "#1A1A1A")),
                              {"body": 1, "ink": 2}, {})
    bands = kit.layers_of(sheet, {"card-1": card}, filaments, 0.2)
    assert len(bands) == 20 and bands[16] == {1} and bands[17:] == [{1, 2}] * 3
    (row, _) = kit.bill([sheet], {"card-1": card}, 1.24, True, filaments, 0.2)
    assert row.swaps == 3 and row.purge == pytest.approx(3 * kit.PURGE_MM3 / 1000 * 1.24, abs=0.01)


@pytest.mark.slow
def test_a_part_that_needs_more_filaments_than_the_ams_has_slots_is_refused(cad_deck: Deck, tmp_path: Path) -> None:
    deck_file = write_deck(cad_deck, tmp_path / "deck.json")
    result = CliRunner().invoke(main, ["cad", str(deck_file), "--out", str(tmp_path / "m"), "--ams-slots", "1",
                                       "--players", "1"])
    assert result.exit_code == 2, result.output
    assert re.search(r"--ams-slots: card \d+ needs 2 filaments \(sand: card body, black: ink \(pips, icons, ids\)\), "
                     r"more than the 1 slots", result.stderr)
    assert not (tmp_path / "m").exists()


def test_arrange_keeps_colour_change_plates_apart() -> None:
    from cad.common.meshes import box

    a = kit.Piece("card-1", "card 1", (kit.Solid("card", box(50, 50, 4), "body"),), 1, 3.4)
    b = kit.Piece("block-x", "block x", (kit.Solid("block", box(10, 10, 6), "x"),), 3)
    sheets = kit.arrange([a, b], 256, 256, 5.0)
    assert [sorted(k for k, _, _ in s.placed) for s in sheets] == [["card-1"], ["block-x"] * 3]
    sheets = kit.arrange([a, b], 256, 256, 5.0, single=False, slots=2, number={"body": 1, "x": 2})
    # AMS: a part of one colour never shares a plate with another colour (a swap on every shared layer)
    assert [sorted(k for k, _, _ in s.placed) for s in sheets] == [["card-1"], ["block-x"] * 3]


def test_a_no_ams_plate_of_one_colour_pieces_is_that_colour_in_every_file() -> None:
    """Loose pieces of one colour all through (blocks, jewels, crystals) go on plates of their
    own colour, never mixed with another colour, and the plate's 3MF filament, its name, the
    bill and the picture all say that colour; a card with a colour change still loads the
    kit's two filaments."""
    from cad.common.meshes import box

    red = kit.Piece("block-r", "block r", (kit.Solid("block", box(10, 10, 6), "r"),), 3)
    blue = kit.Piece("block-b", "block b", (kit.Solid("block", box(10, 10, 6), "b"),), 2)
    card = kit.Piece("card-1", "card 1", (kit.Solid("card", box(40, 40, 4), "body"),), 1, 3.4)
    fils = (threemf.Filament("vermilion: block r", "#D55E00"), threemf.Filament("blue: block b", "#0072B2"),
            threemf.Filament("sand: card body", "#CBBE9E"))
    filaments = kit.Filaments(fils, {"r": 1, "b": 2, "body": 3}, {"r": fils[0].name, "b": fils[1].name,
                                                                  "body": fils[2].name})
    pieces = {p.key: p for p in (red, blue, card)}
    sheets = kit.arrange(list(pieces.values()), 256, 256, 5.0, number=filaments.number)
    assert [sorted({k for k, _, _ in s.placed}) for s in sheets] == [["block-r"], ["block-b"], ["card-1"]]
    loads = [kit.plate_filaments(s, pieces, filaments) for s in sheets]
    assert loads == [(fils[0],), (fils[1],), kit.NO_AMS_FILAMENTS]
    projects = [kit.project(s, pieces, kit.plate_title("Kit", s, pieces, False, filaments), False, filaments)
                for s in sheets]
    assert [p.filaments for p in projects] == loads and projects[0].colour_changes == ()
    assert [p.title for p in projects] == ["Kit: plate 1, 3 blocks, vermilion", "Kit: plate 2, 2 blocks, blue",
                                           "Kit: plate 3, 1 card"]
    rows = kit.bill(sheets, pieces, 1.24, False, filaments)
    assert [(r.plate, r.filament, r.colour) for r in rows] == [
        (1, "vermilion: block r", "#D55E00"), (2, "blue: block b", "#0072B2"),
        (3, "first filament: the floor of every mark", "#1A1A1A"), (3, "second filament: the tops", "#E8E0CC")]
    ams = kit.arrange(list(pieces.values()), 256, 256, 5.0, single=False, slots=4, number=filaments.number)
    assert sorted(kit.plate_title("Kit", s, pieces, True, filaments).split(", ", 1)[1] for s in ams) == [
        "1 card, sand", "2 blocks, blue", "3 blocks, vermilion"]
    (part,) = kit.preview_parts(red, red.solids[0], False, filaments)
    assert part[1] == "#D55E00"  # the picture shows the filament the plate loads
    assert {c for _, c in kit.preview_parts(card, card.solids[0], False, filaments)} == {"#1A1A1A", "#E8E0CC"}


@pytest.mark.slow
def test_the_cad_command_writes_the_kit_and_refuses_bad_settings(cad_deck: Deck, tmp_path: Path) -> None:
    deck_file = write_deck(cad_deck, tmp_path / "deck.json")
    out = tmp_path / "models"
    result = CliRunner().invoke(main, ["cad", str(deck_file), "--out", str(out), "--profile", "ams", "--players", "1"])
    assert result.exit_code == 0, result.output + result.stderr
    assert (out / "bom.csv").is_file() and (out / "ams" / "plate-01.3mf").is_file() and not (out / "no-ams").exists()
    bad = tmp_path / "s.toml"
    bad.write_text("clearance = -0.1\n")
    result = CliRunner().invoke(main, ["cad", str(deck_file), "--out", str(tmp_path / "x"), "--settings", str(bad)])
    assert result.exit_code == 2 and "clearance: expected 0.1-0.4 mm, got -0.1" in result.stderr
    assert not (tmp_path / "x").exists()
    result = CliRunner().invoke(main, ["cad", str(deck_file), "--printer", "mk3"])
    assert result.exit_code == 2 and "mk3" in result.stderr
    result = CliRunner().invoke(main, ["cad", "--print-settings", str(deck_file)])
    assert result.exit_code == 0 and "clearance = 0.2" in result.output


@pytest.mark.slow  # two whole kits; slicer_for is checked by default
def test_prusa_printers_get_prusaslicer_files_unless_told_otherwise(cad_deck: Deck, tmp_path: Path) -> None:
    deck_file = write_deck(cad_deck, tmp_path / "deck.json")
    out = tmp_path / "models"
    args = ["cad", str(deck_file), "--out", str(out), "--profile", "ams", "--players", "1", "--printer", "prusa-mk4"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output + result.stderr
    with zipfile.ZipFile(out / "ams" / "plate-01.3mf") as z:
        names = set(z.namelist())
        config = ET.fromstring(z.read("Metadata/Slic3r_PE_model.config"))
    assert "Metadata/model_settings.config" not in names
    extruders = {v.find("metadata[@key='extruder']").get("value") for v in config.iter("volume")}
    assert len(extruders) > 1, "an AMS card plate prints its body and its inlays in different filaments"
    result = CliRunner().invoke(main, args[:-2] + ["--printer", "prusa-mk4", "--slicer", "bambu"])
    assert result.exit_code == 0
    with zipfile.ZipFile(out / "ams" / "plate-01.3mf") as z:
        assert "Metadata/model_settings.config" in z.namelist()


@pytest.mark.slow
def test_a_card_larger_than_the_bed_is_refused_before_any_part_is_built(cad_deck: Deck, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    deck_file = write_deck(cad_deck, tmp_path / "deck.json")
    big = tmp_path / "big.toml"
    big.write_text("pitch = 30.0\n")
    monkeypatch.setattr(ct, "pieces", lambda *a, **k: pytest.fail("built parts for a kit that cannot be printed"))
    result = CliRunner().invoke(main, ["cad", str(deck_file), "--printer", "bambu-a1-mini", "--settings", str(big),
                                       "--out", str(tmp_path / "m")])
    assert result.exit_code == 2
    assert re.search(r"part card-\d+ \([\d.]+ x [\d.]+ mm\) is larger than the 180 x 180 mm bed", result.stderr)
    assert not (tmp_path / "m").exists()


def test_no_ams_prints_the_marks_cut_and_ams_fills_them() -> None:
    """An inlay fills a deboss in its own filament: AMS prints it, NO-AMS leaves the deboss
    open (a filled deboss would hide the colour change at its floor)."""
    from cad.common.meshes import box

    body = kit.Solid("card", box(40, 40, 4), "body")
    inlay = kit.Solid("ink", box(10, 10, 0.6).translated(5, 5, 3.4), "ink", inlay=True)
    piece = kit.Piece("card-1", "card 1", (body, inlay), 1, 3.4)
    sheet = kit.arrange([piece], 256, 256, 5.0)[0]
    fils = threemf.Filament("body", "#CBBE9E"), threemf.Filament("ink", "#1A1A1A")
    filaments = kit.Filaments(fils, {"body": 1, "ink": 2}, {"body": "body", "ink": "ink"})
    single = kit.project(sheet, {"card-1": piece}, "t", False, filaments)
    (part,) = single.items[0].parts
    assert part.mesh.volume() == pytest.approx(body.mesh.volume())
    assert single.colour_changes == (threemf.ColourChange(3.4, 2),)
    (multi_sheet,) = kit.arrange([piece], 256, 256, 5.0, single=False, number=filaments.number)
    multi = kit.project(multi_sheet, {"card-1": piece}, "t", True, filaments)
    assert [p.filament for p in multi.items[0].parts] == [1, 2]
    rows = kit.bill([sheet], {"card-1": piece}, 1.24, False, filaments)
    assert [(r.slot, r.parts) for r in rows] == [(1, 1), (2, 1)]
    assert rows[1].grams == pytest.approx(40 * 40 * 0.6 / 1000 * 1.24, abs=0.01), "the top 0.6 mm of the card"


def test_the_preview_shows_the_filament_printing_at_each_height() -> None:
    """NO-AMS: the top in the filament above the last change, a pocket floor below it in the
    filament beneath, and no inlay (NO-AMS does not print them); AMS: each solid its own."""
    from cad.common.meshes import box

    pocket = box(30, 30, 5)
    floor = box(10, 10, 0.01).translated(10, 10, 3.0)   # a face at 3.0 mm, below the change at 4.4
    body = kit.Solid("stone", Mesh(np.concatenate([pocket.vertices, floor.vertices]),
                                   np.concatenate([pocket.triangles, floor.triangles + len(pocket.vertices)])), "body")
    top = kit.Solid("mark", box(10, 10, 0.6).translated(5, 5, 4.4), "mark", inlay=True)
    changes = (threemf.ColourChange(0.6, 2), threemf.ColourChange(4.4, 1))
    piece = kit.Piece("stone", "stone", (body, top), changes=changes)
    fils = kit.Filaments((threemf.Filament("a", "#111111"), threemf.Filament("b", "#EEEEEE")),
                         {"body": 1, "mark": 2}, {"body": "a", "mark": "b"})
    first, second = kit.NO_AMS_FILAMENTS
    parts = kit.preview_parts(piece, body, False, fils)
    colours = {colour: mesh for mesh, colour in parts}
    assert set(colours) == {first.colour, second.colour}

    def flat_at(mesh: Mesh) -> set[float]:
        z = mesh.vertices[mesh.triangles][:, :, 2]
        return {round(float(row[0]), 2) for row in z if row.max() - row.min() < 1e-9}

    assert 5.0 in flat_at(colours[first.colour])                            # the top: filament 1 again
    assert {3.0, 3.01} <= flat_at(colours[second.colour])                   # the floor at 3 mm: filament 2
    assert 5.0 not in flat_at(colours[second.colour]) and 3.01 not in flat_at(colours[first.colour])
    assert sum(len(m.triangles) for m, _ in parts) == len(body.mesh.triangles)
    assert kit.preview_parts(piece, top, False, fils) == []
    assert [c for _, c in kit.preview_parts(piece, top, True, fils)] == ["#EEEEEE"]


def test_the_slicer_layout_follows_the_printer_unless_named() -> None:
    from cad.common.options import Slicer
    from cad.common.profile import PRINTERS

    mk4, x1 = PRINTERS["prusa-mk4"], PRINTERS["bambu-x1"]
    assert Slicer.AUTO.for_printer(mk4) is Slicer.PRUSA and Slicer.AUTO.for_printer(x1) is Slicer.BAMBU
    assert Slicer.BAMBU.for_printer(mk4) is Slicer.BAMBU and Slicer.PRUSA.for_printer(x1) is Slicer.PRUSA


def test_paper_and_plastic_give_each_block_the_same_colour(cad_deck: Deck) -> None:
    """One palette (generators.common.palette) for both: a paper set and a plastic set of
    the same deck are told apart by nothing but their material."""
    from print.common import colours

    paper = colours.assign([b.name for b in cad_deck.blocks])
    plastic = ct.filaments(cad_deck)
    assert {b.name: plastic.colour(b.name) for b in cad_deck.blocks} == paper


def test_plates_for_an_x1_keep_clear_of_its_purge_chute_and_say_so_to_the_slicer() -> None:
    """Every part of every plate lies 5 mm clear of the X1's front-left 18 x 28 mm, as the file
    places it and as a slicer that centres the plate would (each plate is centred already);
    the Bambu project config names the zone, and the preview shows it in red."""
    import json

    from cad.common.meshes import box
    from cad.common.profile import PRINTERS

    x1 = PRINTERS["bambu-x1"].machine()
    pieces = [kit.Piece(f"tile-{i}", f"tile {i}", (kit.Solid("tile", box(30 + i, 20, 3), "body"),), 3)
              for i in range(12)]
    fils = kit.Filaments((threemf.Filament("a", "#CBBE9E"),), {"body": 1}, {"body": "a"})
    made = kit.make(pieces, fils, (256, 256), gap=5.0, density=1.24, ams=True, no_ams=True, title="t",
                    slicer="bambu", machine=x1)
    for name, data in made.files.items():
        if not name.endswith(".3mf"):
            continue
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            root = ET.fromstring(z.read("3D/3dmodel.model"))
            settings = json.loads(z.read("Metadata/project_settings.config"))
        assert settings["bed_exclude_area"] == ["0x0", "18x0", "18x28", "0x28"]
        vertices = list(root.iter(f"{{{threemf.CORE}}}vertex"))
        xs, ys = [float(v.get("x", "")) for v in vertices], [float(v.get("y", "")) for v in vertices]
        assert (min(xs) + max(xs)) / 2 == pytest.approx(128, abs=0.01)
        assert (min(ys) + max(ys)) / 2 == pytest.approx(128, abs=0.01)
        for x, y in zip(xs, ys):
            assert x >= 18 + 5 - 1e-3 or y >= 28 + 5 - 1e-3, f"{name}: a part in the purge chute's corner"


#: A small sample deck of each game, one a printer in turn, so that every named printer
#: gets a whole kit of one game, and every game several printers of both layouts.
PRINTER_SAMPLES = ("puzzle-temple-3-seed-11.json", "monolyth-3-seed-2.json", "shifting-stones-12-seed-5.json",
                   "mystery-of-the-temples-two-boards-seed-1.json")


@pytest.mark.slow  # a whole kit for each named printer
@pytest.mark.parametrize("index,printer", list(enumerate(PRINTERS)))
def test_every_plate_for_every_named_printer_reads_as_the_slicers_read_it(index: int, printer: str) -> None:
    """Each file of a kit laid out for the printer passes ``cad.common.readers.problems``:
    a project its slicer loads whole, every part in a filament it has, every object on its
    plate's bed, clear of the excluded zones, under the printer's height."""
    from cad import kit_files
    from cad.common.options import Profile, Slicer
    from cad.common.readers import problems
    from generators import read_deck
    from tests.data import DATA

    info, deck = read_deck(DATA / PRINTER_SAMPLES[index % len(PRINTER_SAMPLES)])
    files, _ = kit_files(info, deck, physical=Physical(), bed=PRINTERS[printer], players=2, profile=Profile.BOTH,
                         slicer=Slicer.AUTO)
    projects = {name: data for name, data in files.items() if name.endswith(".3mf")}
    assert len(projects) > 4
    assert [p for name, data in sorted(projects.items()) for p in problems(name, data)] == []
