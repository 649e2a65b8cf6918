"""Card pages in CMYK within a total ink limit, for print shops that print CMYK.

The colour conversion is LittleCMS's, not ours: Pillow's ``ImageCms`` (LittleCMS) converts
each page, rendered by PDFium, from sRGB through an output profile that LittleCMS's own
``linkicc`` builds from the press profile with its ink limit (``-k``), so that no pixel asks
for more ink than the shop allows. The press profile is Ghostscript's SWOP profile
(``default_cmyk.icc``, from Debian's ``libgs-common``, which the ``ghostscript`` package
brings); the PDF names it as its output intent.

The PDF holds one page per card face, each a CMYK image at the shop's resolution with the
page as its BleedBox and the card's cut as its TrimBox, and carries the PDF/X-1a:2003 keys
(a PDF 1.3 file, which X-1a:2003 allows; an output intent with the press profile,
``GTS_PDFXVersion``, ``Trapped``, a file id): no RGB, no transparency, no fonts. ``ink``
measures what a page asks for, as the tests do.
"""

from __future__ import annotations

import functools
import hashlib
import io
import shutil
import subprocess
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageCms

from generators.common.errors import RequestError

#: The press profile (Ghostscript's SWOP CMYK profile, ICC v2), where Debian puts it.
PRESS = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
#: The press condition the output intent names (SWOP, as the profile characterises).
CONDITION = "CGATS TR 001"
CONDITION_NAME = "SWOP (Artifex CMYK SWOP Profile)"
LINKICC = "linkicc"
INSTALL = "apt-get install ghostscript liblcms2-utils"


def available() -> str | None:
    """Why CMYK cannot be made on this machine (a line naming what to install), or None."""
    missing = [what for what, there in ((f"Ghostscript's CMYK profile {PRESS}", PRESS.is_file()),
                                        (f"LittleCMS's {LINKICC}", shutil.which(LINKICC) is not None)) if not there]
    if missing:
        return f"--colour cmyk needs {' and '.join(missing)} ({INSTALL})"
    return None


@functools.lru_cache(maxsize=8)
def _limited_profile(limit: int) -> bytes:
    """An output profile: the press profile's conversion into CMYK with at most ``limit`` %
    ink in all, built by ``linkicc -x -k LIMIT *Lab PRESS``."""
    why = available()
    if why:
        raise RequestError(why)
    with tempfile.TemporaryDirectory(prefix="templeforge-icc-") as folder:
        out = Path(folder) / f"press-{limit}.icc"
        run = subprocess.run([shutil.which(LINKICC) or LINKICC, "-x", f"-k{limit}", "-t0", f"-o{out}", "*Lab",
                              str(PRESS)], capture_output=True, text=True, timeout=120)
        if run.returncode != 0 or not out.is_file():
            raise RequestError(f"{LINKICC} could not build a {limit}% profile: "
                               f"{(run.stderr or run.stdout).strip().splitlines()[-1:] or ['no output']}")
        return out.read_bytes()


@functools.lru_cache(maxsize=8)
def _transform(limit: int) -> ImageCms.ImageCmsTransform:
    profile = ImageCms.ImageCmsProfile(io.BytesIO(_limited_profile(limit)))
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), profile, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.PERCEPTUAL)


def to_cmyk(image: Image.Image, limit: int) -> Image.Image:
    """``image`` (sRGB) in CMYK with at most ``limit`` % ink at any pixel (the profile is
    built 1 % under it: LittleCMS's limit lands up to 0.4 % over once rounded to 8 bits)."""
    out = ImageCms.applyTransform(image.convert("RGB"), _transform(limit - 1))
    assert out is not None  # (None only when converting in place)
    return out


def ink(image: Image.Image) -> float:
    """The most ink any pixel of a CMYK ``image`` asks for, in % (400 at most)."""
    import numpy as np

    if image.mode != "CMYK":
        raise ValueError(f"expected a CMYK image, got {image.mode}")
    return float(np.asarray(image, dtype=np.uint16).sum(axis=2).max()) * 100 / 255


def pdf(pages: Sequence[Image.Image], width_mm: float, height_mm: float, bleed_mm: float, title: str,
        author: str) -> bytes:
    """A PDF/X-1a:2003 document of card faces: a page per image, each ``width_mm`` x
    ``height_mm`` (the card and its bleed: the page and its BleedBox), its TrimBox
    ``bleed_mm`` inside. CMYK images get the press profile as the output intent and the
    PDF/X keys; RGB ones (for a shop that takes RGB) neither.

    Written here, object by object, rather than through ReportLab, whose pages always
    name a font it does not embed (a PDF/X check refuses any font not embedded); there is
    nothing else in these files: images, boxes, an output intent. The same pages give the
    same bytes (fixed dates; the file id is a digest of the pages).
    """
    pt = 72 / 25.4
    w, h, b = round(width_mm * pt, 3), round(height_mm * pt, 3), round(bleed_mm * pt, 3)
    x = any(image.mode == "CMYK" for image in pages)
    objects: list[bytes] = []  # object n is objects[n - 1]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def stream(head: str, data: bytes) -> bytes:
        packed = zlib.compress(data, 9)
        return f"<< {head} /Filter /FlateDecode /Length {len(packed)} >>\nstream\n".encode() + packed + \
            b"\nendstream"

    catalog, tree, info = add(b""), add(b""), add(b"")
    kids = []
    for image in pages:
        if image.mode not in ("CMYK", "RGB"):
            raise ValueError(f"expected CMYK or RGB pages, got {image.mode}")
        space = "/DeviceCMYK" if image.mode == "CMYK" else "/DeviceRGB"
        picture = add(stream(f"/Type /XObject /Subtype /Image /Width {image.width} /Height {image.height} "
                             f"/ColorSpace {space} /BitsPerComponent 8", image.tobytes()))
        content = add(stream("", f"q {w:g} 0 0 {h:g} 0 0 cm /Face Do Q".encode()))
        kids.append(add(f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 {w:g} {h:g}] "
                        f"/BleedBox [0 0 {w:g} {h:g}] /TrimBox [{b:g} {b:g} {w - b:g} {h - b:g}] "
                        f"/Resources << /XObject << /Face {picture} 0 R >> >> /Contents {content} 0 R >>".encode()))
    objects[tree - 1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode()
    date = "D:20000101000000Z"
    keys = f"/Title {_text(title)} /Author {_text(author)} /Creator {_text(author)} /Producer {_text(author)} " \
           f"/CreationDate ({date}) /ModDate ({date})"
    if x:
        profile = add(stream("/N 4", PRESS.read_bytes()))
        objects[catalog - 1] = (
            f"<< /Type /Catalog /Pages {tree} 0 R /OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX "
            f"/OutputConditionIdentifier {_text(CONDITION)} /OutputCondition {_text(CONDITION_NAME)} "
            f"/RegistryName {_text('http://www.color.org')} /Info {_text(CONDITION_NAME)} "
            f"/DestOutputProfile {profile} 0 R >>] >>").encode()
        keys += f" /GTS_PDFXVersion {_text('PDF/X-1a:2003')} /Trapped /False"
    else:
        objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R >>".encode()
    objects[info - 1] = f"<< {keys} >>".encode()
    out = io.BytesIO()
    out.write(b"%PDF-1.3\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{n} 0 obj\n".encode() + body + b"\nendobj\n")
    table = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    digest = hashlib.md5(out.getvalue(), usedforsecurity=False).hexdigest()
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R "
              f"/ID [<{digest}> <{digest}>] >>\nstartxref\n{table}\n%%EOF\n".encode())
    return out.getvalue()


def _text(value: str) -> str:
    """A PDF text string: hexadecimal UTF-16 with its byte-order mark (any character, no escapes)."""
    return "<FEFF" + value.encode("utf-16-be").hex().upper() + ">"
