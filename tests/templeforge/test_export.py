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
    assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003" and reader.metadata["/Trapped"] == "/False"
    assert len(reader.trailer["/ID"]) == 2
    data = (tmp_path / "cards.pdf").read_bytes()
    assert b"/Font" not in data and b"DeviceRGB" not in data  # PDF/X-1a: no font left unembedded, no RGB
    assert f"the most on any pixel: {most:.1f} %" in (tmp_path / "UPLOAD.txt").read_text()


@pytest.mark.slow
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


# --- Tabletop Simulator ---------------------------------------------------------------------------------------------

BIG = DATA / "shifting-stones-72-seed-1.json"  # 72 patterns and 4 reference cards: two sheets


def saved(folder: Path) -> dict:
    import json

    (path,) = folder.glob("*.json")
    return json.loads(path.read_text())


def test_a_tts_save_is_a_deck_of_the_right_cards_on_sheets_tts_takes(tmp_path: Path) -> None:
    result = run("export", "tts", str(BIG), "--no-models", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    save = saved(tmp_path)
    assert {"SaveName", "ObjectStates", "TabStates", "VersionNumber"} <= set(save)
    (deck,) = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert set(deck["CustomDeck"]) == {"1", "2"}
    assert deck["DeckIDs"] == [*range(100, 169), *range(200, 207)]  # 69 on the first sheet, 7 on the second
    cards = deck["ContainedObjects"]
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    assert cards[0]["Nickname"] == "card 1" and cards[-1]["Nickname"] == "ref 4"
    assert "point" in cards[0]["Description"]  # its printed words
    for key, sheet in deck["CustomDeck"].items():
        assert sheet["FaceURL"].startswith("file:///") and not sheet["UniqueBack"] and sheet["BackIsHidden"]
        face = Image.open(sheet["FaceURL"].removeprefix("file://"))
        cols, rows = sheet["NumWidth"], sheet["NumHeight"]
        assert cols <= 10 and rows <= 7 and max(face.size) <= 4096
        assert face.width % cols == 0 and face.height % rows == 0
        w, h = face.width // cols, face.height // rows
        assert abs(w / h - 63.5 / 88.9) < 0.01  # a poker card's shape
        held = [c for c in cards if c["CardID"] // 100 == int(key)]
        assert len(held) <= cols * rows - 1  # the last place shows a hidden card
    assert Image.open(deck["CustomDeck"]["1"]["BackURL"].removeprefix("file://")).size == (w, h)


def test_a_tts_sheet_holds_each_card_where_its_id_says(tmp_path: Path) -> None:
    """Card k of the sheet is the game's card k: each place, compared with every card as
    `templeforge pdf --layout cards --bleed 0` draws it, scaled to the place, is nearest its own."""
    import numpy as np
    import pypdfium2 as pdfium

    assert run("export", "tts", str(STONES), "--no-models", "--out", str(tmp_path / "tts")).exit_code == 0
    assert run("pdf", str(STONES), "--layout", "cards", "--duplex", "long", "--bleed", "0", "--no-previews",
               "--out", str(tmp_path / "pdf")).exit_code == 0
    (deck,) = [o for o in saved(tmp_path / "tts")["ObjectStates"] if o["Name"] == "DeckCustom"]
    sheet = deck["CustomDeck"]["1"]
    image = Image.open(sheet["FaceURL"].removeprefix("file://")).convert("RGB")
    cols = sheet["NumWidth"]
    w, h = image.width // cols, image.height // sheet["NumHeight"]
    doc = pdfium.PdfDocument((tmp_path / "pdf" / "cards.pdf").read_bytes())
    drawn = [np.asarray(doc[2 * k].render(scale=300 / 72).to_pil().convert("RGB").resize((w, h)), dtype=float)
             for k in range(13)]
    for card in deck["ContainedObjects"][:13]:
        place = card["CardID"] % 100
        got = np.asarray(image.crop(((place % cols) * w, (place // cols) * h, (place % cols + 1) * w,
                                     (place // cols + 1) * h)), dtype=float)
        distances = [np.abs(d - got).mean() for d in drawn]
        assert int(np.argmin(distances)) == place and min(distances) < 3


@pytest.mark.slow
def test_a_tts_save_of_a_game_with_boards_and_pieces(tmp_path: Path) -> None:
    result = run("export", "tts", str(TEMPLES), "--out", str(tmp_path), "--url-base", "https://example.org/mot/")
    assert result.exit_code == 0, result.output
    objects = saved(tmp_path)["ObjectStates"]
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    assert [d["Nickname"].split(": ")[-1] for d in decks] == ["cards", "table"]
    assert next(iter(decks[0]["CustomDeck"].values()))["UniqueBack"]  # each temple card's other side is its own
    assert not next(iter(decks[1]["CustomDeck"].values()))["UniqueBack"]
    assert len(decks[1]["ContainedObjects"]) == 37
    tiles = [o for o in objects if o["Name"] == "Custom_Tile"]
    assert len(tiles) == 2 and all(t["CustomImage"]["ImageURL"].startswith("https://example.org/mot/images/grids-")
                                   for t in tiles)
    models = [o for o in objects if o["Name"] == "Custom_Model"]
    assert models and all(m["CustomMesh"]["MeshURL"].startswith("https://example.org/mot/models/") for m in models)
    for m in models[:3]:
        path = tmp_path / m["CustomMesh"]["MeshURL"].removeprefix("https://example.org/mot/")
        assert path.read_text().startswith("# ") and (path.with_suffix(".png")).exists()
    assert "file://" not in (next(tmp_path.glob("*.json"))).read_text()


def test_a_piece_becomes_an_obj_turned_never_mirrored() -> None:
    """A piece's mesh in inches, Y up, resting on y = 0 and centred: the same volume with its
    faces still wound outwards (a mirror would turn the signed volume negative), and each
    part's faces on its colour's square of the palette."""
    import numpy as np

    from cad.common.meshes import box
    from cad.common.obj import INCH, obj

    body, ink = box(20, 10, 4), box(4, 4, 1).translated(2, 2, 4)
    text, png_bytes = obj([(body, "#112233"), (ink, "#FFEEDD")], "token")
    lines = text.decode().splitlines()
    v = np.array([[float(x) for x in line.split()[1:]] for line in lines if line.startswith("v ")])
    faces = [line.split()[1:] for line in lines if line.startswith("f ")]
    tri = np.array([[int(c.split("/")[0]) - 1 for c in f] for f in faces])
    a, b, c = v[tri[:, 0]], v[tri[:, 1]], v[tri[:, 2]]
    signed = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6
    assert signed == pytest.approx((20 * 10 * 4 + 4 * 4 * 1) / INCH ** 3, rel=1e-3)
    assert v[:, 1].min() == pytest.approx(0) and v[:, 1].max() == pytest.approx(5 / INCH, abs=1e-5)
    assert v[:, 0].min() == pytest.approx(-10 / INCH, abs=1e-5) and v[:, 2].max() == pytest.approx(5 / INCH, abs=1e-5)
    colours = {f[0].split("/")[1] for f in faces[:len(body.triangles)]} | {"|"} | \
        {f[0].split("/")[1] for f in faces[len(body.triangles):]}
    assert colours == {"1", "|", "2"}
    palette = Image.open(io.BytesIO(png_bytes)).convert("RGB")
    assert palette.getpixel((4, 4)) == (0x11, 0x22, 0x33) and palette.getpixel((12, 4)) == (0xFF, 0xEE, 0xDD)


@pytest.mark.parametrize("args, said", [
    (["--url-base", "ftp://x/"], "--url-base: expected an http(s) address ending in /"),
    (["--pitch", "12"], "--pitch: not used for Shifting Stones decks"),
])
def test_a_bad_tts_request_is_one_line(tmp_path: Path, args: list[str], said: str) -> None:
    result = run("export", "tts", str(STONES), *args, "--no-models", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_paper_pieces_become_tokens_cut_to_their_outline_or_two_sided_tiles(tmp_path: Path) -> None:
    monolyth = DATA / "monolyth-3-seed-2.json"
    assert run("export", "tts", str(monolyth), "--no-models", "--out", str(tmp_path / "m")).exit_code == 0
    tokens = [o for o in saved(tmp_path / "m")["ObjectStates"] if o["Name"] == "Custom_Token"]
    assert len(tokens) == 38 and {t["Nickname"].split(" token ")[0] for t in tokens} == {"level", "structure",
                                                                                           "prophecy"}
    level = next(t for t in tokens if t["Nickname"].startswith("level"))
    picture = Image.open(level["CustomImage"]["ImageURL"].removeprefix("file://"))
    assert picture.mode == "RGBA" and picture.getpixel((2, 2))[3] == 0  # a round token: its corners cut away
    assert picture.getpixel((picture.width // 2, picture.height // 2))[3] == 255
    names = [t["Nickname"] for t in tokens]
    twice = max(set(names), key=names.count)
    same = [t["CustomImage"]["ImageURL"] for t in tokens if t["Nickname"] == twice]
    assert len(same) >= 2 and len(set(same)) == 1  # pieces of one name share a picture

    assert run("export", "tts", str(STONES), "--no-models", "--out", str(tmp_path / "s")).exit_code == 0
    stones = [o for o in saved(tmp_path / "s")["ObjectStates"] if o["Name"] == "Custom_Tile"]
    assert len(stones) == 9  # the nine stones, each with its two faces
    assert all(s["CustomImage"]["ImageURL"] != s["CustomImage"]["ImageSecondaryURL"] for s in stones)
