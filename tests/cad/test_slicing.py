"""A real slicer (PrusaSlicer's command line) slices the kits' plates as the files mean them:
every part with the extruder its file names, each NO-AMS colour change before the first
layer above the deboss floor (so the floor keeps the colour below), and as much plastic as
the bill of materials says; and ``templeforge cad --slice``. The slicing tests are skipped
where ``prusa-slicer`` is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from cad import puzzle_temple as ct
from cad import shifting_stones as cs
from cad.common import kit, slicing
from cad.common.profile import PRINTERS, Physical
from generators.puzzle_temple.deck import Deck
from generators.shifting_stones.deck import write_deck
from generators.shifting_stones.tiles import TileSet
from templeforge.cli import main

needs_slicer = pytest.mark.skipif(slicing.find() is None, reason="prusa-slicer is not installed")

PH = Physical()
MK4 = PRINTERS["prusa-mk4"]
BED = (MK4.width, MK4.depth)


Chooser = Callable[[int, slicing.Planned], bool]


def everything(number: int, plan: slicing.Planned) -> bool:
    return True


def slice_all(made: kit.Kit, folder: Path, profile: str,
              which: Chooser = everything) -> dict[int, tuple[slicing.Planned, slicing.Sliced]]:
    """Slice the ``profile`` plates that ``which`` picks, by number."""
    out = {}
    for name, data in sorted(made.files.items()):
        if name.startswith(f"{profile}/") and name.endswith(".3mf"):
            plan = slicing.planned(data)
            number = int(name.split("plate-")[1].split(".")[0])
            if not which(number, plan):
                continue
            path = folder / name.replace("/", "-")
            path.write_bytes(data)
            extruders = max(plan.extruders, default=1) if profile == "ams" else 1
            out[number] = (plan, slicing.slice_plate(path, BED, extruders))
    return out


def grams(made: kit.Kit, profile: str, plate: int) -> float:
    return sum(r.grams for r in made.bom[profile] if r.plate == plate)


@pytest.fixture(scope="module")
def temple_pieces(cad_deck: Deck) -> tuple[list[kit.Piece], kit.Filaments]:
    return ct.pieces(cad_deck, PH, 1), ct.filaments(cad_deck)


def temple(pieces: tuple[list[kit.Piece], kit.Filaments], slicer: str, ams: bool = True) -> kit.Kit:
    made, fils = pieces
    return kit.make(made, fils, BED, gap=PH.part_gap, density=PH.density, ams=ams, no_ams=True, title="t",
                    slicer=slicer, layer=PH.layer_height, mapper=lambda f, xs: [b"" for _ in xs])


@pytest.fixture(scope="module")
def stones(small_stones_deck) -> kit.Kit:
    return cs.make_kit(small_stones_deck, PH, BED, slicer="prusa")


@pytest.fixture(scope="module")
def one_stone(small_stones_deck) -> kit.Kit:
    """The Sun/Moon stone alone: quick to model and slice."""
    tiles = small_stones_deck.tiles
    deck = replace(small_stones_deck, tiles=TileSet(tiles.title, tiles.tiles[:1]))
    return cs.make_kit(deck, PH, BED, slicer="prusa")


def check_temple(made: kit.Kit, sliced: dict[int, tuple[slicing.Planned, slicing.Sliced]], profile: str) -> int:
    """Every sliced plate as its file says, colour changes just above the deboss floor, and
    plastic as the bill says; the number of colour changes seen."""
    floor = PH.card_thickness - PH.deboss_depth
    changed = 0
    for number, (plan, result) in sliced.items():
        assert slicing.problems(plan, result, f"{profile} plate {number}") == []
        for z in result.colour_changes:
            # the layer that ends at the deboss floor still prints in the first colour
            assert z == pytest.approx(floor + PH.layer_height)
            changed += 1
        # 100% infill: the slicer's plastic agrees with the bill (printed solid) within 5%
        assert sum(result.volume_cm3) * PH.density == pytest.approx(grams(made, profile, number), rel=0.05)
    return changed


def first_of(made: kit.Kit, profile: str, wanted: Callable[[slicing.Planned], bool]) -> Chooser:
    """Picks the lowest-numbered ``profile`` plate whose file is ``wanted``."""
    numbers = sorted(int(name.split("plate-")[1].split(".")[0]) for name, data in made.files.items()
                     if name.startswith(f"{profile}/plate-") and wanted(slicing.planned(data)))
    assert numbers, f"no {profile} plate is wanted"
    return lambda number, plan: number == numbers[0]


@needs_slicer
@pytest.mark.slow
def test_the_slicer_prints_the_card_plates_as_their_files_say(temple_pieces, tmp_path: Path) -> None:
    made = temple(temple_pieces, "prusa")
    ams = slice_all(made, tmp_path, "ams", first_of(made, "ams", lambda plan: {1, 2} <= plan.extruders))
    assert check_temple(made, ams, "ams") == 0
    (plan, result), = ams.values()
    assert {1, 2} <= result.extruders == plan.extruders, "card body and ink, each in the extruder its file names"
    no_ams = slice_all(made, tmp_path, "no-ams", first_of(made, "no-ams", lambda plan: bool(plan.colour_changes)))
    assert check_temple(made, no_ams, "no-ams") == 1


@needs_slicer
@pytest.mark.slow
@pytest.mark.parametrize("profile", ["ams"])
def test_the_slicer_prints_every_puzzle_temple_plate_as_its_file_says(temple_pieces, tmp_path: Path,
                                                                      profile: str) -> None:
    """Every AMS plate of a small kit, its plastic as the bill says. (Its NO-AMS plates, 40 s
    of slicing, were sliced here too until the slow tests neared CI's 30 minutes: the default
    kit's NO-AMS plates on the MK4, the same kinds of plate in the same layout, are sliced by
    ``test_every_plate_of_every_default_kit_slices_as_its_file_says``, and a NO-AMS card
    plate's colour change and plastic by ``test_the_slicer_prints_the_card_plates_as_their_files_say``.)"""
    made = temple(temple_pieces, "prusa")
    sliced = slice_all(made, tmp_path, profile)
    assert len(sliced) == (made.ams_plates if profile == "ams" else made.no_ams_plates)
    changed = check_temple(made, sliced, profile)
    assert (changed >= 1) if profile == "no-ams" else (changed == 0)


@needs_slicer
def test_the_slicer_turns_a_stone_over_in_colour_at_both_symbol_floors(one_stone: kit.Kit, tmp_path: Path) -> None:
    (plan, result), = slice_all(one_stone, tmp_path, "no-ams").values()
    assert slicing.problems(plan, result) == []
    d, t, h = PH.deboss_depth, PH.stone_thickness, PH.layer_height
    assert result.colour_changes == pytest.approx((d + h, t - d + h))


@needs_slicer
@pytest.mark.slow
def test_the_slicer_prints_the_stones_in_their_ams_filaments(stones: kit.Kit, tmp_path: Path) -> None:
    for number, (plan, result) in slice_all(stones, tmp_path, "ams").items():
        assert slicing.problems(plan, result, f"ams plate {number}") == []
        assert 3 <= len(result.extruders) == len(plan.extruders) <= 4   # two halves, one or two inks
        assert sum(result.volume_cm3) * PH.density == pytest.approx(grams(stones, "ams", number), rel=0.05)


@needs_slicer
@pytest.mark.slow
def test_the_bambu_layout_slices_too_with_its_colour_changes(temple_pieces, tmp_path: Path) -> None:
    made = temple(temple_pieces, "bambu", ams=False)
    sliced = slice_all(made, tmp_path, "no-ams")
    assert check_temple(made, sliced, "no-ams") >= 1


@needs_slicer
def test_a_plate_the_slicer_refuses_is_an_error_with_its_reason(tmp_path: Path) -> None:
    bad = tmp_path / "plate.3mf"
    bad.write_bytes(b"not a zip")
    with pytest.raises(slicing.SlicingError, match=r"refused plate\.3mf: .+"):
        slicing.slice_plate(bad, BED, 1)


def test_the_gcode_reader_finds_layers_tools_changes_and_volumes() -> None:
    gcode = "\n".join([
        "T0", "G1 X1 Y1 E-0.5", ";LAYER_CHANGE", ";Z:0.2", "G1 X2 Y2 E1.5", ";Z:0.4", ";COLOR_CHANGE,T0,#FFFFFF",
        "M600", "T2 ; switch", "G1 X3 E0.2", ";Z:0.6", "G1 X4", "; filament used [cm3] = 1.5, 0, 2.25"])
    got = slicing.read_gcode(gcode)
    assert got.layers == (0.2, 0.4, 0.6)
    assert got.extruders == {1, 3}
    assert got.colour_changes == (0.4,)
    assert got.volume_cm3 == (1.5, 0.0, 2.25)


# -- templeforge cad --slice ---------------------------------------------------------------------------


@pytest.mark.slow  # slices every plate; the default run slices one of each kind
@needs_slicer
def test_cad_slice_writes_sliced_csv_for_every_plate_it_can_check(small_stones_deck, tmp_path: Path) -> None:
    deck = write_deck(small_stones_deck, tmp_path / "deck.json")
    out = tmp_path / "prusa"
    result = CliRunner().invoke(main, ["cad", str(deck), "--slice", "--slicer", "prusa", "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader((out / "sliced.csv").open()))
    assert [(r["profile"], r["plate"]) for r in rows] == [("ams", str(n)) for n in range(1, 5)] + [("no-ams", "1")]
    assert all(r["as_its_file_says"] == "yes" and float(r["grams"]) > 0 and r["print_time"] for r in rows)
    assert rows[-1]["colour_changes_mm"] == "1.2 4.2"
    assert "ams: sliced 4 plates with PrusaSlicer-" in result.output


@needs_slicer
@pytest.mark.slow
def test_cad_slice_leaves_bambu_layout_ams_plates_alone_and_says_so(small_stones_deck, tmp_path: Path) -> None:
    deck = write_deck(small_stones_deck, tmp_path / "deck.json")
    bambu = tmp_path / "bambu"
    result = CliRunner().invoke(main, ["cad", str(deck), "--slice", "--out", str(bambu)])
    assert result.exit_code == 0, result.output
    assert "ams: 4 plates in the Bambu Studio layout not sliced" in result.output
    assert [r["profile"] for r in csv.DictReader((bambu / "sliced.csv").open())] == ["no-ams"]


def test_only_plates_prusaslicer_reads_part_by_part_are_sliced() -> None:
    def plate(*names: str) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as z:
            for name in ("3D/3dmodel.model", *names):
                z.writestr(name, "<x/>")
        return buffer.getvalue()

    files = {"ams/plate-01.3mf": plate("Metadata/model_settings.config"),
             "ams/plate-02.3mf": plate(slicing.PRUSA_CONFIG),
             "no-ams/plate-01.3mf": plate("Metadata/model_settings.config"),
             "stl/block.stl": b"solid"}
    assert slicing.sliceable(files) == ["ams/plate-02.3mf", "no-ams/plate-01.3mf"]
    assert slicing.bambu_ams("ams/plate-01.3mf", files["ams/plate-01.3mf"])


def test_cad_slice_without_the_slicer_is_one_line_and_writes_nothing(small_stones_deck, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slicing, "find", lambda: None)
    deck = write_deck(small_stones_deck, tmp_path / "deck.json")
    result = CliRunner().invoke(main, ["cad", str(deck), "--slice", "--out", str(tmp_path / "m")],
                                prog_name="templeforge")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "templeforge: error: --slice: prusa-slicer is not installed (Debian: apt-get install prusa-slicer) "
        "(see 'templeforge cad --help')"]
    assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_a_plate_that_slices_otherwise_fails_the_command_and_writes_nothing(small_stones_deck, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slicing, "find", lambda: "/bin/true")

    def wrong(files, bed, **_):
        bad = slicing.Sliced((0.2,), frozenset({1}), (), (1.0,), "PrusaSlicer-x")
        return [slicing.PlateSlice("no-ams", 1, bad, ("no-ams/plate-01.3mf: the slicer changed before []",))]

    monkeypatch.setattr(slicing, "slice_kit", wrong)
    import cad

    monkeypatch.setattr(cad, "kit_files", lambda *a, **k: ({"no-ams/plate-01.3mf": b"x", "bom.csv": b"x"}, []))
    deck = write_deck(small_stones_deck, tmp_path / "deck.json")
    result = CliRunner().invoke(main, ["cad", str(deck), "--slice", "--profile", "no-ams", "--out",
                                       str(tmp_path / "m")])
    assert result.exit_code == 1
    assert "1 plate does not slice as its file says: no-ams/plate-01.3mf" in result.stderr
    assert not (tmp_path / "m").exists()


# -- G-code ready to print ---------------------------------------------------------------------------


@needs_slicer
def test_a_prusa_printer_gets_gcode_that_checks_it_levels_purges_and_changes_colour(one_stone: kit.Kit,
                                                                                  tmp_path: Path) -> None:
    """The G-code of a NO-AMS plate for a Prusa MK4: it names the printer and nozzle first
    (Prusa firmware's M862.3/M862.1 checks), heats, homes and levels before the first layer,
    purges in front of the bed (the firmware allows Y down to -4), extrudes relative with
    a reset each layer, keeps an M600 at each colour change, and is the same bytes each time."""
    name, data = next((n, d) for n, d in one_stone.files.items() if n.startswith("no-ams/") and n.endswith(".3mf"))
    path = tmp_path / "plate.3mf"
    path.write_bytes(data)
    config = slicing.slicer_config(MK4, PH.nozzle)
    first = slicing.slice_plate(path, BED, 1, infill=15, config=config, keep=True)
    again = slicing.slice_plate(path, BED, 1, infill=15, config=config, keep=True)
    assert first.gcode == again.gcode, "the same plate gives the same G-code, byte for byte"
    text = first.gcode.decode()
    lines = text.splitlines()
    assert lines[0].startswith("; generated by PrusaSlicer-") and " at " not in lines[0]
    head = text[:text.index(";Z:")]
    order = [head.index(code) for code in ('M862.3 P "MK4"', "M862.1 P0.4", "M190 S60", "G28", "G29", "M109 S215",
                                          f"Y{slicing.PURGE_Y:g}")]
    assert order == sorted(order)
    assert -4 <= slicing.PURGE_Y < 0
    assert "M83" in head and "; use_relative_e_distances = 1" in text
    assert sum(1 for line in lines if line.startswith("M600")) == len(slicing.planned(data).colour_changes) == 2
    assert first.colour_changes == slicing.read_gcode(text).colour_changes
    # the part is printed where the plate puts it, not moved by the slicer's own arrangement
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        model = z.read("3D/3dmodel.model").decode()
    xs = [float(v) for v in re.findall(r'<vertex x="([-0-9.e]+)"', model)]
    printed = [float(v) for v in re.findall(r"^G1 X([-0-9.]+) Y[-0-9.]+ E[0-9.]", text[text.index(";Z:"):], re.M)]
    assert min(printed) == pytest.approx(min(xs), abs=0.5) and max(printed) == pytest.approx(max(xs), abs=0.5)


def test_a_printer_whose_presets_prusaslicer_has_gets_gcode_with_them() -> None:
    """The Ender-3 is in the Creality bundle installed with PrusaSlicer (Debian's package):
    its G-code is ready to print with Creality's own start G-code; the X1 is in no bundle."""
    from cad.common import vendor

    ender = PRINTERS["ender3"]
    if vendor.presets(*ender.vendor, 0.4, 0.2) is None:
        pytest.skip("no PrusaSlicer Creality bundle with the Ender-3 on this machine")
    config = slicing.slicer_config(ender)
    assert slicing.ready(ender) and config["printer_model"] == "ENDER3" and "G28" in config["start_gcode"]
    assert not slicing.ready(PRINTERS["bambu-x1"]) and not slicing.ready(PRINTERS["generic-220"])


def test_only_prusa_printers_get_gcode(own_settings: None) -> None:
    assert slicing.slicer_config(PRINTERS["bambu-x1"]) == {} and not slicing.ready(PRINTERS["ender3"])
    assert slicing.ready(PRINTERS["prusa-mini"])
    assert 'M862.3 P "MINI"' in slicing.slicer_config(PRINTERS["prusa-mini"])["start_gcode"]
    assert slicing.gcode_name("no-ams/plate-07.3mf") == "gcode/plate-07.gcode"


@needs_slicer
@pytest.mark.slow
def test_cad_slice_on_a_prusa_printer_writes_gcode_for_every_no_ams_plate(small_stones_deck, tmp_path: Path) -> None:
    deck = write_deck(small_stones_deck, tmp_path / "deck.json")
    out = tmp_path / "mk4"
    result = CliRunner().invoke(main, ["cad", str(deck), "--slice", "--printer", "prusa-mini", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / "gcode").iterdir()) == ["plate-01.gcode"]
    text = (out / "gcode" / "plate-01.gcode").read_text()
    assert 'M862.3 P "MINI"' in text and text.count("\nM600") == 2
    assert "gcode/: 1 NO-AMS plate ready to print on a Prusa MINI in PLA" in result.output


@needs_slicer
@pytest.mark.slow
@pytest.mark.parametrize("game, printer", [("puzzle-temple", "prusa-mk4"), ("shifting-stones", "prusa-mk4"),
                                           ("shifting-stones", "bambu-x1")])
def test_every_plate_of_every_default_kit_slices_as_its_file_says(game: str, printer: str, request) -> None:
    """The default kits of both games, both profiles, in the layout the printer's slicer
    reads (Bambu Studio's for the X1: its AMS plates are not PrusaSlicer's to read, so its
    NO-AMS plates are sliced; PrusaSlicer's for the MK4: every plate), on the printer's bed:
    every plate slices, every part in its file's extruder, every colour change where its
    file puts it; the MK4 has G-code for every NO-AMS plate. (Puzzle Temple's default kit in
    the Bambu layout, two minutes of slicing, is left out: that layout's Puzzle Temple plates
    are sliced by ``test_the_bambu_layout_slices_too_with_its_colour_changes`` and the X1's
    bed by the stones. Of Puzzle Temple's default kit on the MK4 the 27 NO-AMS plates are
    sliced, whose G-code the kit keeps; its 19 AMS plates, a minute of slicing, are the same
    kinds of plate as the smaller kit's that
    ``test_the_slicer_prints_every_puzzle_temple_plate_as_its_file_says[ams]`` slices in the
    same layout, so they are left out to keep the slow tests within CI's 30 minutes.)"""
    from cad import kit_files
    from cad.common.options import Profile, Slicer
    from generators import game as game_info

    deck = request.getfixturevalue("default_deck" if game == "puzzle-temple" else "stones_deck")
    bed = PRINTERS[printer]
    files, _ = kit_files(game_info(game), deck, physical=PH, bed=bed, players=4, profile=Profile.BOTH,
                         slicer=Slicer.AUTO)
    plates = {n for n in files if n.endswith(".3mf")}
    no_ams = {n for n in plates if n.startswith("no-ams/")}
    if game == "puzzle-temple":  # its NO-AMS plates only (see above)
        files = {n: data for n, data in files.items() if not (n.endswith(".3mf") and n.startswith("ams/"))}
        assert len(plates - no_ams) > 0 and set(files) >= no_ams
        plates = no_ams
    rows = slicing.slice_kit(files, (bed.width, bed.depth), printer=bed)
    assert [p for r in rows for p in r.problems] == []
    sliced = {f"{r.profile}/plate-{r.plate:02d}.3mf" for r in rows}
    assert sliced == (plates if printer == "prusa-mk4" else no_ams)
    assert all(r.sliced.layers for r in rows)
    kept = {slicing.gcode_name(f"{r.profile}/plate-{r.plate:02d}.3mf") for r in rows if r.sliced.gcode}
    assert kept == ({slicing.gcode_name(n) for n in no_ams} if printer == "prusa-mk4" else set())


@needs_slicer
def test_a_prusa_project_sliced_alone_prints_with_its_printers_own_setup(tmp_path: Path) -> None:
    """A Prusa-layout plate opened as a project brings its printer, not a default one: sliced
    by PrusaSlicer's command line with no option but the file, its G-code checks the MK4,
    heats the bed to 60 and the nozzle to 215 degrees, and prints a NO-AMS plate from one
    extruder with its colour change (``M600``)."""
    from tests.cad.projects import card_plate, sliced_alone

    text = sliced_alone(card_plate(MK4, tmp_path, PH.nozzle, PH.layer_height))
    head = text[:text.index(";Z:")]
    order = [head.index(code) for code in ('M862.3 P "MK4"', "M140 S60", "M190 S60", "G28", "M109 S215")]
    assert order == sorted(order)
    assert "; bed_temperature = 60" in text and "; temperature = 215" in text
    assert "; nozzle_diameter = 0.4\n" in text, "a NO-AMS plate is one extruder, its colours by M600"
    assert sum(1 for line in text.splitlines() if line.startswith("M600")) == 1
