"""The label stroke font, and mesh previews."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cad.common import strokes
from cad.common.meshes import box, merge
from cad.common.previews import render
from generators.common.errors import RequestError


def test_every_bar_is_the_stroke_wide_and_covers_its_line() -> None:
    for loop in strokes.strokes("0123456789ABCXYZ-", 0, 0, 5.0, 0.8):
        sides = [math.dist(a, b) for a, b in zip(loop, loop[1:] + loop[:1])]
        assert min(sides) == pytest.approx(0.8, abs=1e-6)
        assert sides[0] == pytest.approx(sides[2]) and sides[1] == pytest.approx(sides[3])
    assert strokes.width("12", 6.0) == pytest.approx(10.0)  # 2 glyphs of 4 units + 2 of space, 1 mm a unit
    assert strokes.check("a1") == "A1"
    with pytest.raises(RequestError, match=r"^id: 'x\?' has characters .*: '\?'"):
        strokes.check("x?", "id")


def test_every_glyph_stays_on_its_grid() -> None:
    # a stroke off the 4 x 6 grid runs into the next glyph or above the label ("0" and "I" once did)
    for ch, lines in strokes.GLYPHS.items():
        for line in lines:
            for x, y in line:
                assert 0 <= x <= strokes.WIDTH and 0 <= y <= strokes.HEIGHT, (ch, (x, y))


def test_a_stamped_preview_carries_a_red_band_top_and_bottom() -> None:
    from io import BytesIO

    from PIL import Image

    from cad.common.previews import stamp_png
    from cad.common.solids import png

    plain = png(Image.new("RGB", (300, 200), (228, 228, 228)))
    image = np.asarray(Image.open(BytesIO(stamp_png(plain, "UNVERIFIED"))).convert("RGB")).astype(int)
    red = (image[:, :, 0] > 150) & (image[:, :, 1] < 80)
    white = (image.min(axis=2) > 240)
    for rows in (slice(0, 16), slice(184, 200)):
        assert red[rows].mean() > 0.5 and white[rows].mean() > 0.05  # the band and its letters
    assert not red[40:160].any()  # the picture itself is left alone
    assert stamp_png(plain, "UNVERIFIED") == stamp_png(plain, "UNVERIFIED")


def test_a_preview_shows_the_parts_and_a_pocket_darker_from_above() -> None:
    plate = box(40, 30, 4)
    step = box(10, 10, 2).translated(50, 0, 0)
    image = np.asarray(render([(merge([plate, step]), "#CC8844")], size=300, top=True))
    assert image.shape[1] == 300
    background = (image == 255).all(axis=2)
    assert 0.3 < 1 - background.mean() < 0.95
    lit = image[~background].sum(axis=1)
    assert lit.max() - lit.min() > 30  # the low step is darker than the plate's top
    side = np.asarray(render([(plate, "#CC8844")], size=200))
    assert len({tuple(p) for p in side.reshape(-1, 3)}) >= 3  # background and two lit faces at least
