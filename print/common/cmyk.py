"""Card pages in CMYK within a total ink limit, for print shops that print CMYK.

The colour conversion is LittleCMS's, not ours: Pillow's ``ImageCms`` (LittleCMS) converts
each page, rendered by PDFium, from sRGB through an output profile that LittleCMS's own
``linkicc`` builds from the press profile with its ink limit (``-k``), so that no pixel asks
for more ink than the shop allows. The press profile is Ghostscript's SWOP profile
(``default_cmyk.icc``, from Debian's ``libgs-common``, which the ``ghostscript`` package
brings); the PDF names it as its output intent.

The PDF holds one page per card face, each a CMYK image at the shop's resolution with the
page as its BleedBox and the card's cut as its TrimBox, and carries the PDF/X-1a:2001 keys
(PDF 1.3, an output intent with the press profile, ``GTS_PDFXVersion``, ``Trapped``): no RGB, no
transparency, no fonts to embed. ``ink`` measures what a page asks for, as the tests do.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
import tempfile
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
    """A PDF/X-1a:2001 CMYK document: a page per image, each ``width_mm`` x ``height_mm`` (the
    card and its bleed: the BleedBox), its TrimBox ``bleed_mm`` inside; the press profile as
    its output intent."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen.canvas import Canvas

    pt = 72 / 25.4
    w, h, b = width_mm * pt, height_mm * pt, bleed_mm * pt
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(w, h), invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setCreator(author)
    doc = canvas._doc
    catalog, info = _x_classes()
    doc.info.__class__ = info
    profile = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"N": 4}), PRESS.read_bytes(),
                               filters=[pdfdoc.PDFStreamFilterZCompress()])
    intent = pdfdoc.PDFDictionary({
        "Type": pdfdoc.PDFName("OutputIntent"), "S": pdfdoc.PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": pdfdoc.PDFString(CONDITION), "OutputCondition": pdfdoc.PDFString(CONDITION_NAME),
        "RegistryName": pdfdoc.PDFString("http://www.color.org"), "Info": pdfdoc.PDFString(CONDITION_NAME),
        "DestOutputProfile": doc.Reference(profile),
    })
    doc.Catalog.__class__ = catalog
    doc.Catalog.OutputIntents = pdfdoc.PDFArray([intent])
    for image in pages:
        if image.mode != "CMYK":
            raise ValueError(f"expected CMYK pages, got {image.mode}")
        canvas.setPageSize((w, h))
        canvas.setCropBox((0, 0, round(w, 3), round(h, 3)), name="bleed")
        canvas.setCropBox((round(b, 3), round(b, 3), round(w - b, 3), round(h - b, 3)), name="trim")
        canvas.drawImage(ImageReader(image), 0, 0, width=w, height=h)
        canvas.showPage()
    return bytes(canvas.getpdfdata())


@functools.lru_cache(maxsize=1)
def _x_classes() -> tuple[type, type]:
    """ReportLab's catalog and document info with the keys of PDF/X: an ``OutputIntents``
    array in the catalog; ``GTS_PDFXVersion`` and ``Trapped`` in the info."""
    from reportlab.pdfbase import pdfdoc

    class Catalog(pdfdoc.PDFCatalog):  # type: ignore[misc]
        __NoDefault__ = [*pdfdoc.PDFCatalog.__NoDefault__, "OutputIntents"]

    class Info(pdfdoc.PDFInfo):  # type: ignore[misc]
        def format(self, document: object) -> bytes:
            d = {"Title": pdfdoc.PDFString(self.title), "Author": pdfdoc.PDFString(self.author),
                 "Creator": pdfdoc.PDFString(self.creator), "Producer": pdfdoc.PDFString(self.producer),
                 "GTS_PDFXVersion": pdfdoc.PDFString("PDF/X-1:2001"),
                 "GTS_PDFXConformance": pdfdoc.PDFString("PDF/X-1a:2001"), "Trapped": pdfdoc.PDFName("False")}
            d["ModDate"] = d["CreationDate"] = pdfdoc.PDFDate(ts=document._timeStamp,  # type: ignore[attr-defined]
                                                              dateFormatter=self._dateFormatter)
            return pdfdoc.PDFDictionary(d).format(document)  # type: ignore[no-any-return]

    return Catalog, Info
