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
import math
import re
from pathlib import Path

from . import codes
from .errors import Location, MusterError
from .inputs import SVG, read_bytes

MAX_ELEMENTS = 20_000  # elements, counting each <use> as what it repeats: a game-icons.net icon has a handful
MAX_DEPTH = 64  # nested elements (and <use> of <use>): deeper is not art, and svglib recurses per level
MAX_NUMBERS = 500_000  # coordinates in path data and points: svglib takes about 2 s and 100 MB for as many
MAX_COORDINATE = 1e6  # any number of the drawing, either way (user units): beyond it is an editor's accident
MIN_SIDE = 0.01  # the drawing's width and height, in points: art is scaled to its box by dividing by them
OPAQUE = 0.99  # an opacity from here up is drawn as 1: within 1 % of solid, less than two prints differ by
INVISIBLE = {"opacity": "display:none", "fill-opacity": "fill:none", "stroke-opacity": "stroke:none"}  # at 0

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
_SIGNED = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# What path data and points are written with; svglib skips anything else without a word, drawing the path short.
_WRITTEN = {"d": re.compile(r"[\sMmZzLlHhVvCcSsQqTtAa0-9eE.,+-]*"), "points": re.compile(r"[\s0-9eE.,+-]*")}
_URL = re.compile(r"url\(\s*['\"]?([^'\")\s]*)", re.IGNORECASE)
_DECLARATION = re.compile(r"([a-zA-Z-]+)\s*:\s*([^;}]*)")
_OPACITY = re.compile(r"\b((?:fill-|stroke-)?opacity)\s*:\s*([^;}]*)", re.IGNORECASE)
XINCLUDE = "http://www.w3.org/2001/XInclude"


def is_svg(path: Path | str) -> bool:
    """Whether an image file is read and drawn as SVG: by its name, as every reader and painter of images decides."""
    return str(path).lower().endswith(".svg")


def load(path: Path):
    """The SVG at `path` as a reportlab Drawing, sized in points; a MusterError naming the file and what in it
    cannot be drawn otherwise."""
    data = read_bytes(path, SVG)
    where = Location(Path(path))
    drawing = _convert(vet(data, where), where)
    return drawing


def vet(data: bytes, where: Location) -> bytes:
    """Refuse `data` unless it is well-formed SVG that refers to nothing outside itself and uses only features
    svglib draws, within the element and depth limits; the SVG svglib is to draw: `data`, or, when it holds what
    draws nothing (unused definitions, text off the canvas, invisible paint) or opacities that round to 1, `data`
    without those and with 1 for them (see `_prune`)."""
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
    _check(root, where)
    changed = _prune(root, where)
    _supported(root, where)
    identified = {node.get("id"): node for node in root.iter() if isinstance(node.tag, str) and node.get("id")}
    count = _extent(root, identified, where, [])
    if count > MAX_ELEMENTS:
        raise MusterError(f"{count:,} elements (counting what <use> repeats) is over the limit of "
                          f"{MAX_ELEMENTS:,}", where, code="too-large")
    return etree.tostring(root) if changed else data


def _check(root, where: Location) -> None:
    """Refuse what refers outside the file or could run, anywhere in it, before what cannot be drawn: the designer
    hears of the reference even when the element holding it could not be drawn either."""
    from lxml import etree

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
            for key, written in _WRITTEN.items():
                data = node.get(key) or ""
                if not written.fullmatch(data):
                    bad = next(word for word in re.split(r"[\s,]+", data) if not written.fullmatch(word))
                    raise MusterError(f"<{name.localname} {key}=...> holds {_shown(bad)}, which is not a number: "
                                      "every number must be finite", where, code="svg-number")
                numbers += len(_NUMBER.findall(data))
    if numbers > MAX_NUMBERS:
        raise MusterError(f"{numbers:,} numbers in its paths is over the limit of {MAX_NUMBERS:,}", where,
                          code="too-large")


def _supported(root, where: Location) -> None:
    """Refuse what svglib would draw wrongly or not at all, among what is left to draw."""
    from lxml import etree

    for node, local in _drawn(root):
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
        if _opacity(value) != 1:
            raise _undrawn(f"transparency ({prop}: {value})", "use solid colours", where)
    elif value.lower() != "none":
        raise _undrawn(f"{prop}", "apply it in the drawing program and export paths", where)


def _opacity(value: str) -> float | None:
    """An opacity as drawn: 1 from OPAQUE up (what an editor writes for a solid colour, 0.992), 0 for none
    (nothing is painted), else the fraction, which cannot be drawn; None when it is not a number."""
    value = value.strip()
    try:
        fraction = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return None
    if not math.isfinite(fraction):
        return None
    return 1.0 if fraction >= OPAQUE else 0.0 if fraction <= 0 else fraction


def _drawn(root):
    """(element, local name) of each element of the SVG namespace."""
    from lxml import etree

    for node in root.iter():
        if isinstance(node.tag, str):
            name = etree.QName(node)
            if name.namespace in (None, "http://www.w3.org/2000/svg"):
                yield node, name.localname


def _prune(root, where: Location) -> bool:
    """Take out of the tree what draws nothing, and write 1 for opacities that round to it; whether it changed.

    What draws nothing: a definition (in <defs>) that nothing refers to, whatever it is; a <text> wholly off the
    canvas, placed without a transform; an element of opacity 0 or display none that nothing refers to. A fill- or
    stroke-opacity of 0 is a fill or stroke of none. What is left is checked as before (`_supported`)."""
    referred = _referred(root)
    canvas = _canvas(root)
    changed = False
    for node, local in list(_drawn(root)):
        if node is root or not _attached(node, root):
            continue  # in a subtree already taken out
        changed |= _opacities(node)
        unused = local == "defs" or node.get("id") not in referred
        if local == "defs":
            for child in list(node):
                if not any(inner.get("id") in referred for inner in child.iter() if isinstance(inner.tag, str)):
                    node.remove(child)
                    changed = True
        elif unused and (local == "text" and canvas and _off_canvas(node, canvas)
                         or node.get("display") == "none" or "display:none" in _compact(node.get("style"))):
            node.getparent().remove(node)
            changed = True
    for node, local in _drawn(root):
        if local == "style" and node.text:
            css = _OPACITY.sub(_css_opacity, node.text)
            changed |= css != node.text
            node.text = css
    return changed


def _compact(text: str | None) -> str:
    return "".join((text or "").split()).lower()


def _attached(node, root) -> bool:
    while node is not None and node is not root:
        node = node.getparent()
    return node is root


def _referred(root) -> set[str]:
    """The ids that something in the SVG refers to: by href="#id" or url(#id), in attributes and <style>."""
    from lxml import etree

    referred = set()
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        for attribute, value in node.attrib.items():
            if etree.QName(attribute).localname == "href" and value.strip().startswith("#"):
                referred.add(value.strip()[1:])
            referred.update(target[1:] for target in _URL.findall(value) if target.startswith("#"))
        if etree.QName(node).localname == "style":
            referred.update(target[1:] for target in _URL.findall(node.text or "") if target.startswith("#"))
    return referred


def _number(text: str | None, default: float) -> float:
    """The number `text` starts with (12 of "12px"), signed; `default` when it starts with none."""
    match = _SIGNED.match((text or "").strip())
    return float(match.group()) if match else default


def _canvas(root) -> tuple[float, float, float, float] | None:
    """The canvas (x, y, w, h) in user units: the viewBox, else the width and height; None when neither says."""
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        try:
            return tuple(float(v) for v in box)
        except ValueError:
            return None
    width, height = _number(root.get("width"), 0), _number(root.get("height"), 0)
    return (0.0, 0.0, width, height) if width > 0 and height > 0 else None


def _off_canvas(text, canvas: tuple[float, float, float, float]) -> bool:
    """Whether a <text> lies wholly off the canvas: placed by x and y alone (no transform on it or around it, so
    where it is can be told), its box taken generously (a character as wide as the font is high, either side of
    its anchor; from a font-size above the baseline to half one below)."""
    node = text
    while node is not None:
        if node.get("transform"):
            return False
        node = node.getparent()
    style = dict((p.strip().lower(), v.strip()) for p, v in _DECLARATION.findall(text.get("style") or ""))
    size = _number(style.get("font-size", text.get("font-size")), 16.0)
    x, y = _number(text.get("x"), 0.0), _number(text.get("y"), 0.0)
    reach = size * max(1, len("".join(text.itertext())))
    left, top, width, height = canvas
    return (x - reach >= left + width or x + reach <= left or y - size >= top + height or y + size / 2 <= top)


def _opacities(node) -> bool:
    """`node`'s opacities, as attributes or in its style, made what they draw: 1 for one that rounds to 1; for one
    of 0, what it means (display, fill or stroke none) at the end of its style, where it outranks what precedes it.
    Whether anything changed; other opacities are left for `_supported` to refuse."""
    style = node.get("style") or ""
    for prop in INVISIBLE:
        value = node.get(prop)
        if value is not None and _opacity(value) in (0.0, 1.0):
            del node.attrib[prop]
            style += f";{prop}:{value}"  # decided below, with the style's own
    rewritten = _OPACITY.sub(_css_opacity, style)
    if rewritten == (node.get("style") or ""):
        return False
    node.set("style", ";".join(part for part in rewritten.split(";") if part.strip()))
    return True


def _css_opacity(match) -> str:
    """A declaration of an opacity in CSS, as drawn: 1 for one that rounds to 1, what 0 means for 0."""
    prop, value = match.group(1).lower(), match.group(2)
    drawn = _opacity(value)
    if drawn == 1:
        return f"{match.group(1)}:1"
    if drawn == 0:
        return INVISIBLE[prop]
    return match.group(0)


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


def _convert(data: bytes, where: Location):
    import logging  # here: 1 ms of every start that draws no SVG
    import sys
    from logging.handlers import BufferingHandler

    from svglib.svglib import svg2rlg

    logger = logging.getLogger("svglib")
    complaints = BufferingHandler(capacity=sys.maxsize)  # what svglib logs as it converts the file: it warns of
    complaints.setLevel(logging.WARNING)                   # what it cannot read instead of failing
    logger.addHandler(complaints)
    propagate, logger.propagate = logger.propagate, False  # its warnings become our error, not stray stderr
    try:
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as exc:  # svglib's own failures are many and undocumented: any is the file's fault
        raise MusterError.of(codes.SVG_UNDRAWABLE, where, how="",
                             problem=f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}") from None
    finally:
        logger.removeHandler(complaints)
        logger.propagate = propagate
    if complaints.buffer:
        raise MusterError.of(codes.SVG_UNDRAWABLE, where, how=" as written",
                             problem=complaints.buffer[0].getMessage()[:160])
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise MusterError("has no size: give it a viewBox, or a width and a height", where, code="bad-image")
    _finite(drawing, where)
    if not (drawing.width >= MIN_SIDE and drawing.height >= MIN_SIDE):
        raise MusterError(f"is {drawing.width:g} x {drawing.height:g} points, under the least of {MIN_SIDE:g}: give "
                          "it a larger viewBox, or a width and a height", where, code="svg-number")
    return drawing


def _finite(node, where: Location) -> None:
    """Refuse the drawing svglib made when any number in it (a size, a coordinate, a transform, a stroke's width or
    dashes) is nan, infinite or beyond MAX_COORDINATE: SVG's numbers are read by float(), which takes 'nan', 'inf'
    and 1e308, and reportlab would write them into the PDF or fail dividing by them. The drawing is checked, not
    the text, so that every attribute, style and transform svglib reads is covered whatever its syntax."""
    pending, seen = [node], set()
    while pending:
        value = pending.pop()
        if id(value) in seen:  # svglib may share a shape among the <use>s of it
            continue
        seen.add(id(value))
        if isinstance(value, (list, tuple)):
            pending.extend(value)
        elif isinstance(value, float) or isinstance(value, int) and not isinstance(value, bool):
            if not (math.isfinite(value) and abs(value) <= MAX_COORDINATE):
                raise MusterError(f"holds the number {value:g}, which cannot be drawn: every number must be finite and "
                                  f"within ±{MAX_COORDINATE:,.0f}", where, code="svg-number")
        elif hasattr(value, "__dict__") and not isinstance(value, type):
            pending.extend(item for name, item in vars(value).items() if not name.startswith("_"))


def _refused(what: str, where: Location) -> MusterError:
    return MusterError.of(codes.SVG_REFUSED, where, what=what)


def _undrawn(feature: str, instead: str, where: Location) -> MusterError:
    return MusterError.of(codes.SVG_UNSUPPORTED, where, feature=feature, instead=instead)


def _shown(value: str) -> str:
    value = " ".join(value.split())
    return repr(value if len(value) <= 60 else value[:57] + "...")
