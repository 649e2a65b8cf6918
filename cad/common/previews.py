"""PNG previews of meshes: a small depth-buffer renderer in numpy and Pillow.

Parts are drawn as flat-shaded triangles seen from above and in front (or straight down),
the nearest surface winning each pixel, each in its part's colour, so a designer sees the plate, the marks cut into
a card and the blocks in their pockets before slicing. No OpenGL is needed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit
from PIL import Image

from cad.common.meshes import Mesh

#: The eye looks along -VIEW (from above, in front and to the left).
VIEW = np.array([-0.45, -0.75, 1.0])
LIGHT = np.array([-0.3, -0.5, 1.0])


def _rgb(colour: str) -> np.ndarray:
    value = colour.lstrip("#")
    return np.array([int(value[i:i + 2], 16) for i in (0, 2, 4)], dtype=float)


def render(parts: Sequence[tuple[Mesh, str]], size: int = 900, top: bool = False,
           background: str = "#FFFFFF") -> Image.Image:
    """The parts (mesh, ``#RRGGBB``) drawn into an image ``size`` pixels wide: flat-shaded
    triangles through a depth buffer, seen from above and in front (``top``: straight down,
    lower surfaces darker so that cuts and pockets show; what lies below z = 0, the bed and its
    zones, keeps its own colour, so the parts stand out on a light bed)."""
    view = np.array([0.0, 0.0, 1.0]) if top else VIEW / np.linalg.norm(VIEW)
    up = np.array([0.0, 1.0, 0.0]) if top else np.array([0.0, 0.0, 1.0])
    right = np.cross(up, view)
    right /= np.linalg.norm(right)
    upward = np.cross(view, right)
    light = LIGHT / np.linalg.norm(LIGHT)
    if not parts:
        return Image.new("RGB", (size, size), background)
    everything = np.concatenate([m.vertices for m, _ in parts])
    z_lo, z_hi = everything[:, 2].min(), everything[:, 2].max()
    flat = np.stack([everything @ right, everything @ upward], axis=1)
    lo, hi = flat.min(axis=0), flat.max(axis=0)
    span = max(float(hi[0] - lo[0]), float(hi[1] - lo[1]), 1e-9)
    pad = size * 0.04
    scale = (size - 2 * pad) / span
    width = size
    height = int((hi[1] - lo[1]) * scale + 2 * pad) + 1
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = _rgb(background).astype(np.uint8)
    depth = np.full((height, width), -np.inf)
    for mesh, c in parts:
        v = mesh.vertices[mesh.triangles]
        normals = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
        lengths = np.linalg.norm(normals, axis=1)
        keep = lengths > 1e-12
        v, normals = v[keep], normals[keep] / lengths[keep, None]
        facing = normals @ view > 0
        v, normals = v[facing], normals[facing]
        shade = 0.45 + 0.55 * np.clip(normals @ light, 0, 1)
        if top and v[:, :, 2].max(initial=0.0) <= 0:
            shade = np.ones(len(v))
        elif top:
            shade = shade * (0.55 + 0.45 * (v[:, :, 2].mean(axis=1) - z_lo) / max(z_hi - z_lo, 1e-9))
        colours = np.clip(_rgb(c)[None, :] * shade[:, None], 0, 255).astype(np.uint8)
        px = pad + (v @ right - lo[0]) * scale
        py = height - pad - (v @ upward - lo[1]) * scale
        pz = v @ view
        _raster(image, depth, px, py, pz, colours)
    return Image.fromarray(image)


def _raster(image: np.ndarray, depth: np.ndarray, px: np.ndarray, py: np.ndarray, pz: np.ndarray,
            colours: np.ndarray) -> None:
    """Fill each triangle's pixels (centres inside it) nearer than what is already drawn."""
    _fill(image, depth, np.ascontiguousarray(px, dtype=np.float64), np.ascontiguousarray(py, dtype=np.float64),
          np.ascontiguousarray(pz, dtype=np.float64), np.ascontiguousarray(colours, dtype=np.uint8))


@njit(cache=True, nogil=True)
def _fill(image, depth, px, py, pz, colours):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """``_raster``'s loop, compiled: the same sums in the same order, pixel by pixel."""
    height, width = depth.shape
    for i in range(px.shape[0]):
        ax, bx, cx = px[i, 0], px[i, 1], px[i, 2]
        ay, by, cy = py[i, 0], py[i, 1], py[i, 2]
        x0 = min(max(int(np.floor(min(ax, bx, cx))), 0), width - 1)
        x1 = min(max(int(np.ceil(max(ax, bx, cx))), 0), width - 1)
        y0 = min(max(int(np.floor(min(ay, by, cy))), 0), height - 1)
        y1 = min(max(int(np.ceil(max(ay, by, cy))), 0), height - 1)
        area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        if abs(area) < 1e-12:
            continue
        for y in range(y0, y1 + 1):
            ys = y + 0.5
            for x in range(x0, x1 + 1):
                xs = x + 0.5
                w0 = ((bx - xs) * (cy - ys) - (by - ys) * (cx - xs)) / area
                w1 = ((cx - xs) * (ay - ys) - (cy - ys) * (ax - xs)) / area
                w2 = 1.0 - w0 - w1
                if w0 >= -1e-9 and w1 >= -1e-9 and w2 >= -1e-9:
                    z = w0 * pz[i, 0] + w1 * pz[i, 1] + w2 * pz[i, 2]
                    if z > depth[y, x]:
                        depth[y, x] = z
                        image[y, x, 0] = colours[i, 0]
                        image[y, x, 1] = colours[i, 1]
                        image[y, x, 2] = colours[i, 2]


def stamp_png(data: bytes, text: str) -> bytes:
    """A PNG with ``text`` in white capitals on a red band across its top and bottom (the
    stroke font of ``cad.common.strokes``: no font file needed, the same pixels everywhere)."""
    import io

    from PIL import ImageDraw

    from cad.common import strokes

    image = Image.open(io.BytesIO(data)).convert("RGB")
    w, h = image.size
    band = max(16, h // 12)
    draw = ImageDraw.Draw(image)
    tall = band * 0.55
    wide = strokes.width(text, tall)
    if wide > 0.9 * w:
        tall *= 0.9 * w / wide
        wide = strokes.width(text, tall)
    for top in (0, h - band):
        draw.rectangle((0, top, w - 1, top + band - 1), fill=(198, 40, 40))
        x0, base = (w - wide) / 2, top + (band + tall) / 2
        for loop in strokes.strokes(text, x0, 0.0, tall, max(1.5, tall / 7)):
            draw.polygon([(x, base - y) for x, y in loop], fill=(255, 255, 255))
    from cad.common.solids import png

    return png(image)
