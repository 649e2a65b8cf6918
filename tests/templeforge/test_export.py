"""``templeforge export shop``: each print-on-demand service's files at its template's pixel
sizes, names and order, CMYK within the ink limit (measured), and bad requests refused."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from print.common import cmyk, shop
from print.common.sizes import CardSize
from templeforge.cli import main

DATA = Path(__file__).parents[1] / "data"
STONES = DATA / "shifting-stones-12-seed-5.json"    # poker cards, one back for all, 4 reference cards
TEMPLE = DATA / "puzzle-temple-7-seed-3.json"       # cards 138 mm wide at the usual pitch, each its own back
TEMPLES = DATA / "mystery-of-the-temples-two-boards-seed-1.json"  # tarot temple cards and tarot table cards
NO_CMYK = cmyk.available()


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name, product, pixels", [
    ("tgc", "poker", (825, 1125)), ("tgc", "bridge", (750, 1125)), ("tgc", "tarot", (900, 1500)),
    ("tgc", "square", (1125, 1125)),
    ("mpc", "poker", (822, 1122)), ("mpc", "bridge", (747, 1122)), ("mpc", "tarot", (897, 1497)),
    ("dtc", "poker", (825, 1125)),
])
def test_every_service_size_has_its_templates_pixels(name: str, product: str, pixels: tuple[int, int]) -> None:
    svc = shop.service(name)
    assert svc.pixels(svc.product(product)) == pixels


def test_the_product_is_the_cards_own_size_else_the_smallest_that_holds_them_else_the_largest_that_draws() -> None:
    svc = shop.service("tgc")
    tried: list[str] = []

    def fits(p: shop.Product) -> str | None:
        tried.append(str(p))
        return None

    assert shop.choose(svc, CardSize("poker", 63.5, 88.9), fits).name == "poker"
    assert shop.choose(svc, CardSize("x", 60, 80), fits).name == "poker"  # bridge is too narrow
    turned = shop.choose(svc, CardSize("x", 120, 69), fits)  # a landscape tarot card
    assert (turned.name, turned.landscape) == ("tarot", True)
    tried.clear()

    def only_jumbo_on_its_side(p: shop.Product) -> str | None:
        tried.append(str(p))
        return None if p.name == "jumbo" and p.landscape else f"{p} is too small"

    chosen = shop.choose(svc, CardSize("a6", 105, 148), only_jumbo_on_its_side)
    assert (chosen.name, chosen.landscape) == ("jumbo", True)
    assert tried[:2] == ["jumbo", "jumbo (cards on their side)"]  # nothing holds A6: the largest first
    with pytest.raises(shop.RequestError, match="either way up .*too small"):
        shop.choose(svc, CardSize("a5", 148, 210), lambda p: "too small")


def test_the_game_crafter_gets_a_png_a_front_one_back_and_what_goes_where(tmp_path: Path) -> None:
    result = run("export", "shop", str(STONES), "--service", "tgc", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    written = files(tmp_path)
    fronts = sorted(k for k in written if k.startswith("cards/fronts/"))
    assert fronts == [f"cards/fronts/{k:03d}.png" for k in range(1, 17)]  # 12 patterns and 4 reference cards
    assert set(written) == {*fronts, "cards/back.png", "UPLOAD.txt"}
    for name in (*fronts, "cards/back.png"):
        image = Image.open(io.BytesIO(written[name]))
        assert (image.size, image.mode) == ((825, 1125), "RGB")
        assert round(image.info["dpi"][0]) == 300
    assert len({written[f] for f in fronts}) == 13  # the four reference cards are alike
    text = written["UPLOAD.txt"].decode()
    assert "825 x 1125 px at 300 dpi" in text and "675 x 975 px" in text  # the safe area, 1/8 in inside the cut
    assert "cards/back.png: the back of every card" in text
    assert "cards/fronts/016.png: ref 4" in text and "cards/fronts/001.png: card 1" in text


def test_a_face_is_the_card_the_sheets_draw(tmp_path: Path) -> None:
    """The front PNG is the game's one-a-page card at the service's size: its cut lies 37.5 px
    in, and its colours match those of the card `templeforge pdf` draws at that size."""
    assert run("export", "shop", str(STONES), "--service", "png", "--out", str(tmp_path / "shop")).exit_code == 0
    assert run("pdf", str(STONES), "--layout", "cards", "--duplex", "long", "--bleed", "3.175", "--safe", "3.175",
               "--no-previews", "--out", str(tmp_path / "pdf")).exit_code == 0
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument((tmp_path / "pdf" / "cards.pdf").read_bytes())[0]
    drawn = page.render(scale=300 / 72).to_pil().convert("RGB").crop((0, 0, 825, 1125))
    face = Image.open(tmp_path / "shop" / "cards" / "fronts" / "001.png").convert("RGB")
    assert face.tobytes() == drawn.tobytes()


def test_makeplayingcards_gets_its_36_px_bleed_and_the_deck_size_to_order(tmp_path: Path) -> None:
    result = run("export", "shop", str(STONES), "--service", "mpc", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert Image.open(tmp_path / "cards" / "fronts" / "001.png").size == (822, 1122)
    text = (tmp_path / "UPLOAD.txt").read_text()
    assert "order the 18-card deck" in text and "2 places are left over" in text


def test_cards_on_their_side_are_turned_into_the_portrait_template(tmp_path: Path) -> None:
    result = run("export", "shop", str(TEMPLE), "--service", "tgc", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "jumbo (cards on their side)" in result.output
    written = files(tmp_path)
    assert Image.open(io.BytesIO(written["cards/fronts/001.png"])).size == (1125, 1725)
    assert len([k for k in written if k.startswith("cards/backs/")]) == 7  # each card its own back
    assert "quarter turn clockwise" in written["UPLOAD.txt"].decode()


def test_a_game_with_two_decks_gets_a_folder_each(tmp_path: Path) -> None:
    result = run("export", "shop", str(TEMPLES), "--service", "tgc", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    written = files(tmp_path)
    assert len([k for k in written if k.startswith("cards/fronts/")]) == 5  # 5 temple cards (10 sides)
    assert len([k for k in written if k.startswith("table/fronts/")]) == 37  # wilderness, runes, objectives, track
    assert Image.open(io.BytesIO(written["table/back.png"])).size == (900, 1500)  # tarot
    assert not any(k.startswith(("grids", "tokens")) for k in written)  # boards and tokens are not cards


@pytest.mark.skipif(NO_CMYK is not None, reason=str(NO_CMYK))
def test_drivethrucards_gets_a_cmyk_pdf_back_before_front_within_240_percent_ink(tmp_path: Path) -> None:
    from pypdf import PdfReader

    result = run("export", "shop", str(STONES), "--service", "dtc", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(files(tmp_path)) == ["UPLOAD.txt", "cards.pdf"]
    reader = PdfReader(tmp_path / "cards.pdf")
    assert len(reader.pages) == 32
    images = []
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == [0, 0, 198, 270]  # 2.75 x 3.75 in
        assert [round(float(v), 3) for v in page.trimbox] == [9, 9, 189, 261]  # 1/8 in inside
        (image,) = page.images
        assert image.image.mode == "CMYK" and image.image.size == (825, 1125)
        images.append(image.image)
    most = max(cmyk.ink(i) for i in images)
    assert 200 < most <= 240  # the dark backs reach the limit and stay within it (281 % without it)
    backs, fronts = images[0::2], images[1::2]
    assert len({i.tobytes() for i in backs}) == 1 and len({i.tobytes() for i in fronts}) == 13
    root = reader.trailer["/Root"]
    (intent,) = root["/OutputIntents"]
    assert intent["/S"] == "/GTS_PDFX" and intent["/DestOutputProfile"].get_object()["/N"] == 4
    assert reader.metadata["/GTS_PDFXConformance"] == "PDF/X-1a:2001"
    assert f"the most on any pixel: {most:.1f} %" in (tmp_path / "UPLOAD.txt").read_text()


@pytest.mark.skipif(NO_CMYK is not None, reason=str(NO_CMYK))
def test_the_same_export_gives_the_same_bytes_and_drops_faces_of_a_longer_one(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        assert run("export", "shop", str(STONES), "--service", "dtc", "--colour", "cmyk",
                   "--out", str(tmp_path / folder)).exit_code == 0
    assert files(tmp_path / "a") == files(tmp_path / "b")
    stale = tmp_path / "c" / "cards" / "fronts" / "099.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"an earlier, longer deck")
    mine = tmp_path / "c" / "notes.txt"
    mine.write_text("the designer's own")
    assert run("export", "shop", str(STONES), "--service", "tgc", "--out", str(tmp_path / "c")).exit_code == 0
    assert not stale.exists() and mine.exists()


@pytest.mark.parametrize("args, said", [
    (["--service", "kinkos"], "service: expected one of tgc, mpc, dtc, png, got 'kinkos'"),
    (["--service", "tgc", "--colour", "cmyk"], "--colour cmyk: The Game Crafter takes RGB files"),
    (["--service", "mpc", "--product", "domino"], "product: MakePlayingCards sells mini, bridge, poker"),
    (["--service", "tgc", "--product", "mini"], "size: "),  # the game's own refusal
    (["--service", "tgc", "--pitch", "12"], "--pitch: not used for Shifting Stones decks"),
])
def test_a_bad_request_is_one_line_and_writes_nothing(tmp_path: Path, args: list[str], said: str) -> None:
    result = run("export", "shop", str(STONES), *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists() or not files(tmp_path / "out")
    assert len(re.findall(r"error", result.output)) <= 1
