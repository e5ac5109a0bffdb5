"""PDF/X-1a:2003: a finished CMYK PDF given what the standard asks of it, for a print shop's preflight.

PDF/X-1a, not X-4: X-1a is what DriveThruCards and most print-on-demand shops ask for, and everything Muster draws
can be expressed in it (CMYK and grey only, no transparency); X-4 would allow RGB and live transparency, which a
CMYK build has no use for and older RIPs still flatten badly. What this module adds to the file reportlab wrote:
the output intent with the profile embedded, the version and conformance, Trapped and dates in the Info dictionary, a TrimBox and
BleedBox on every page (the page itself where the page has no trim of its own: a rulebook, a board, the
calibration page) and a file identifier. Link annotations (the rulebook's contents) are removed: PDF/X allows none
inside the page's bleed box. The dates are fixed, as reportlab's invariant mode fixes its own, so the same inputs
give the same bytes. What the file draws, CMYK only and no transparency, is the drawing's part (inks.py).
"""

from __future__ import annotations

import hashlib
import io

from .inks import OutputProfile

DATE = "D:20000101000000+00'00'"  # reportlab's invariant date: the same inputs give the same bytes
VERSION = "PDF/X-1:2003"
CONFORMANCE = "PDF/X-1a:2003"  # ISO 15930-4: X-1a beside the version, which preflights expect of an X-1a file


def pdfx(source: bytes, profile: OutputProfile, digest: bytes | None = None) -> bytes:
    """`source`, a CMYK PDF, as PDF/X-1a:2003 with `profile` as its output intent, identified by `digest`: the MD5
    of the PDF, by default of `source` (the PDF with its art, when `source` holds tokens in its place: images.py)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (ArrayObject, ByteStringObject, DictionaryObject, NameObject, NumberObject,
                               StreamObject, TextStringObject)

    reader = PdfReader(io.BytesIO(source))
    writer = PdfWriter(clone_from=reader)
    icc = StreamObject.initialize_from_dictionary({NameObject("/N"): NumberObject(4),
                                                   "__streamdata__": profile.data()}).flate_encode()
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(profile.identifier),
        NameObject("/OutputCondition"): TextStringObject(profile.condition),
        NameObject("/RegistryName"): TextStringObject("http://www.color.org"),
        NameObject("/Info"): TextStringObject(profile.condition),
        NameObject("/DestOutputProfile"): writer._add_object(icc),
    })
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    for page in writer.pages:
        media = page.mediabox
        bleed = page.get("/BleedBox", ArrayObject(media))
        page[NameObject("/BleedBox")] = bleed
        page[NameObject("/TrimBox")] = page.get("/TrimBox", bleed)
        page.pop("/Annots", None)
    title = reader.metadata.title if reader.metadata and reader.metadata.title else "Muster"
    writer.add_metadata({"/Title": title, "/Creator": "Muster", "/Producer": "Muster",
                         "/CreationDate": DATE, "/ModDate": DATE, "/GTS_PDFXVersion": VERSION,
                         "/GTS_PDFXConformance": CONFORMANCE})
    writer._info.get_object()[NameObject("/Trapped")] = NameObject("/False")
    identifier = ByteStringObject(digest or hashlib.md5(source).digest())
    writer._ID = ArrayObject([identifier, identifier])
    writer.pdf_header = b"%PDF-1.4"
    target = io.BytesIO()
    writer.write(target)
    return target.getvalue()
