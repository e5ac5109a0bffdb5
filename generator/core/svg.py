"""SVG art: a file vetted as untrusted XML, then turned into a reportlab drawing of vector paths.

An SVG is a program of sorts: it may name other files and URLs, declare entities, include XML, run scripts. A
game folder is untrusted, so lxml reads the file first (no entities, no network, no DTD, no huge trees) and every
element and attribute is checked against what a self-contained drawing needs; only then does svglib see the
bytes, from memory, so it cannot open anything either. The reading process checks each SVG this way (through
reading/resources.image_problem), and the drawing process does again before it draws, so a file changed between
the two is never drawn unchecked.

svglib draws some SVG features wrongly or not at all, silently: those are refused here by name, so the designer
hears which feature of which file to change rather than finding it missing on the printed card.
"""

from __future__ import annotations

import io
import logging
import re
from pathlib import Path

from . import codes
from .errors import Location, MusterError
from .inputs import SVG, read_bytes

MAX_ELEMENTS = 20_000  # elements, counting each <use> as what it repeats: a game-icons.net icon has a handful
MAX_DEPTH = 64  # nested elements (and <use> of <use>): deeper is not art, and svglib recurses per level
MAX_NUMBERS = 500_000  # coordinates in path data and points: svglib takes about 2 s and 100 MB for as many

# Elements svglib draws; title, desc and metadata are not drawn by anyone. Elements of other namespaces (an
# editor's own, RDF licence data) are ignored by every renderer and so here too.
DRAWN = {"svg", "g", "defs", "symbol", "use", "switch", "a", "style", "clipPath", "rect", "circle", "ellipse",
         "line", "polyline", "polygon", "path", "title", "desc", "metadata"}
# What an SVG may not hold at all: each could run code or fetch something from outside the file.
FORBIDDEN = {"script": "a script", "foreignObject": "foreign content (<foreignObject>)",
             "handler": "a script", "listener": "a script"}
# What svglib cannot draw, or reportlab cannot carry into a form XObject (a gradient's shading is left out of the
# form's resources, and prints black), and what the designer can do instead.
UNDRAWN = {"text": "convert the text to paths", "tspan": "convert the text to paths",
           "textPath": "convert the text to paths", "linearGradient": "use flat colours",
           "radialGradient": "use flat colours", "image": "give the raster image as its own PNG file",
           "pattern": "use flat colours", "filter": "apply the effect in the drawing program and export paths",
           "mask": "use a clipPath", "marker": "convert the markers to paths"}
# Properties svglib drops (opacity, filter, mask, markers) or that reportlab's forms cannot carry (transparency,
# whose graphics state is left out of the form's resources).
PROPERTIES = {"filter", "mask", "marker-start", "marker-mid", "marker-end", "opacity", "fill-opacity",
              "stroke-opacity"}
_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")
_URL = re.compile(r"url\(\s*['\"]?([^'\")\s]*)", re.IGNORECASE)
_DECLARATION = re.compile(r"([a-zA-Z-]+)\s*:\s*([^;}]*)")
XINCLUDE = "http://www.w3.org/2001/XInclude"


def is_svg(path: Path | str) -> bool:
    """Whether an image file is read and drawn as SVG: by its name, as every reader and painter of images decides."""
    return str(path).lower().endswith(".svg")


def load(path: Path):
    """The SVG at `path` as a reportlab Drawing, sized in points; a MusterError naming the file and what in it
    cannot be drawn otherwise."""
    data = read_bytes(path, SVG)
    where = Location(Path(path))
    vet(data, where)
    drawing = _convert(data, where)
    return drawing


def vet(data: bytes, where: Location) -> None:
    """Refuse `data` unless it is well-formed SVG that refers to nothing outside itself and uses only features
    svglib draws, within the element and depth limits."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                             remove_comments=True, recover=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise MusterError(f"not a well-formed SVG: {' '.join(str(exc.msg).split())[:160]}", where,
                          code="bad-image") from None
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None or b"<!ENTITY" in data:
        raise _refused("declares a DOCTYPE or entities, which could pull in other files (an SVG needs neither: "
                       "delete the <!DOCTYPE ...> line)", where)
    if etree.QName(root).localname != "svg":
        raise MusterError(f"not an SVG: its root element is <{etree.QName(root).localname}>", where,
                          code="bad-image")
    if any(isinstance(node, etree._ProcessingInstruction) for node in root.itersiblings(preceding=True)):
        raise _refused("has a processing instruction (a stylesheet outside the file?)", where)
    identified = {node.get("id"): node for node in root.iter() if isinstance(node.tag, str) and node.get("id")}
    _check(root, where)
    count = _extent(root, identified, where, [])
    if count > MAX_ELEMENTS:
        raise MusterError(f"{count:,} elements (counting what <use> repeats) is over the limit of "
                          f"{MAX_ELEMENTS:,}", where, code="too-large")


def _check(root, where: Location) -> None:
    """Refuse what refers outside the file or could run, anywhere in it, before what cannot be drawn: the designer
    hears of the reference even when the element holding it could not be drawn either."""
    from lxml import etree

    elements = []
    numbers = 0
    for node in root.iter():
        if isinstance(node, etree._ProcessingInstruction):
            raise _refused("has a processing instruction (a stylesheet outside the file?)", where)
        if isinstance(node, etree._Entity):
            raise _refused(f"refers to an entity '&{node.name};'", where)
        if not isinstance(node.tag, str):
            continue
        name = etree.QName(node)
        if name.namespace == XINCLUDE:
            raise _refused("includes another file (XInclude)", where)
        drawn = name.namespace in (None, "http://www.w3.org/2000/svg")
        if drawn and name.localname in FORBIDDEN:
            raise _refused(f"holds {FORBIDDEN[name.localname]}, which is never run", where)
        for attribute, value in node.attrib.items():
            local = etree.QName(attribute).localname
            if local == "href" and not value.strip().startswith("#"):
                raise _refused(f"refers to something outside itself: {local}={_shown(value)}", where)
            if local.lower().startswith("on"):
                raise _refused(f"holds a script ({local})", where)
            if "url(" in value.lower():
                _urls(value, where)
        if drawn and name.localname == "style":
            if "@import" in (node.text or "").lower():
                raise _refused("imports a stylesheet (@import)", where)
            _urls(node.text or "", where)
        if drawn:
            elements.append((name.localname, node))
            numbers += sum(len(_NUMBER.findall(node.get(key) or "")) for key in ("d", "points"))
    if numbers > MAX_NUMBERS:
        raise MusterError(f"{numbers:,} numbers in its paths is over the limit of {MAX_NUMBERS:,}", where,
                          code="too-large")
    for local, node in elements:
        if local in UNDRAWN:
            raise _undrawn(f"<{local}>", UNDRAWN[local], where)
        if local not in DRAWN:
            raise _undrawn(f"<{local}>", "remove it or export the drawing as plain paths", where)
        if local == "symbol" and node.get("viewBox"):  # svglib draws a symbol as a group, its viewBox unscaled
            raise _undrawn("a <symbol> with a viewBox", "convert the <use>s of it to paths", where)
        for attribute, value in node.attrib.items():
            prop = etree.QName(attribute).localname
            if prop == "style":
                _style(value, where)
            elif prop in PROPERTIES:
                _property(prop, value, where)
        if local == "style":
            _style(node.text or "", where)


def _style(css: str, where: Location) -> None:
    for prop, value in _DECLARATION.findall(css):
        if prop.lower() in PROPERTIES:
            _property(prop.lower(), value, where)


def _property(prop: str, value: str, where: Location) -> None:
    value = value.strip()
    if prop.endswith("opacity"):
        try:
            opaque = float(value[:-1]) / 100 if value.endswith("%") else float(value)
        except ValueError:
            opaque = 0.0
        if opaque < 1:
            raise _undrawn(f"transparency ({prop}: {value})", "use solid colours", where)
    elif value.lower() != "none":
        raise _undrawn(f"{prop}", "apply it in the drawing program and export paths", where)


def _urls(value: str, where: Location) -> None:
    for target in _URL.findall(value):
        if not target.startswith("#"):
            raise _refused(f"refers to something outside itself: url({_shown(target)})", where)


def _extent(node, identified: dict, where: Location, chain: list) -> int:
    """The number of elements `node` stands for, each <use> counted as what it repeats; a <use> that repeats
    itself, or nesting deeper than MAX_DEPTH, is refused."""
    from lxml import etree

    if len(chain) > MAX_DEPTH:
        raise MusterError(f"elements are nested more than {MAX_DEPTH} deep (the limit)", where, code="too-large")
    if id(node) in chain:
        raise MusterError("a <use> repeats an element that holds it", where, code="bad-image")
    chain.append(id(node))
    total = 1
    if etree.QName(node).localname == "use":
        reference = next((value for attribute, value in node.attrib.items()
                          if etree.QName(attribute).localname == "href"), "")
        target = identified.get(reference.strip()[1:])
        if target is not None:
            total += _extent(target, identified, where, chain)
    for child in node:
        if isinstance(child.tag, str):
            total += _extent(child, identified, where, chain)
        if total > MAX_ELEMENTS:
            break
    chain.pop()
    return total


class _Complaints(logging.Handler):
    """What svglib logs while it converts one file: it warns of what it cannot read instead of failing."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _convert(data: bytes, where: Location):
    from svglib.svglib import svg2rlg

    logger = logging.getLogger("svglib")
    complaints = _Complaints()
    logger.addHandler(complaints)
    propagate, logger.propagate = logger.propagate, False  # its warnings become our error, not stray stderr
    try:
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as exc:  # svglib's own failures are many and undocumented: any is the file's fault
        raise MusterError(f"cannot be drawn: {type(exc).__name__}: {' '.join(str(exc).split())[:120]}", where,
                          code="svg-undrawable") from None
    finally:
        logger.removeHandler(complaints)
        logger.propagate = propagate
    if complaints.messages:
        raise MusterError(f"cannot be drawn as written: {complaints.messages[0][:160]}", where,
                          code="svg-undrawable")
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise MusterError("has no size: give it a viewBox, or a width and a height", where, code="bad-image")
    return drawing


def _refused(what: str, where: Location) -> MusterError:
    return MusterError.of(codes.SVG_REFUSED, where, what=what)


def _undrawn(feature: str, instead: str, where: Location) -> MusterError:
    return MusterError.of(codes.SVG_UNSUPPORTED, where, feature=feature, instead=instead)


def _shown(value: str) -> str:
    value = " ".join(value.split())
    return repr(value if len(value) <= 60 else value[:57] + "...")
