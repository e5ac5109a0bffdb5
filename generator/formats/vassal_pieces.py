"""How text reaches a VASSAL module: every text made XML-safe, and pieces written in VASSAL's own trait encoding.

A piece's definition is an AddPiece command (BasicCommandEncoder): its traits' types and states, outermost first,
nested as Decorator.getType nests them, each trait's fields joined as its myGetType joins them, every value through
`encoded`, VASSAL's SequenceEncoder. The field orders are those of VASSAL 3.7.9's source (the file of each trait is
named in tests/formats/test_vassal.py, TRAITS)."""

from __future__ import annotations

import re
from xml.etree import ElementTree

FLIP_KEY = "70,130"          # Ctrl+F as a NamedKeyStroke (key code 70, modifiers 130), as real modules write keys
DELETE_KEY = "68,130"        # Ctrl+D: a counter deleted (VASSAL's default for Delete)
DISCARD_KEY = "68,130"       # Ctrl+D: a card to its deck's discard pile (cards have no Delete)
RETURN_KEY = "82,130"        # Ctrl+R: a card back into its deck
REPORT_FORMAT = "$PlayerName$: $menuCommand$ $oldPieceName$ ($location$)"
XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """`text` as XML 1.0 can hold it: every character XML forbids (C0 controls but tab, newline and return; lone
    surrogates; U+FFFE, U+FFFF) becomes U+FFFD, so that a game's text never makes the module unreadable."""
    return XML_FORBIDDEN.sub("\ufffd", text)


def encoded(values, delimiter: str) -> str:
    """VASSAL's SequenceEncoder: the values joined by `delimiter`, each delimiter inside a value preceded by a
    backslash, a value ending in a backslash or wrapped in single quotes wrapped in single quotes (which the
    decoder strips)."""
    parts = []
    for value in values:
        text = value.replace(delimiter, "\\" + delimiter)
        parts.append(f"'{text}'" if value.endswith("\\") or (value.startswith("'") and value.endswith("'")) else text)
    return delimiter.join(parts)


def keys(*strokes: str) -> str:
    """A list of named key strokes as ReportState reads it (NamedKeyStrokeArrayConfigurer: comma-separated)."""
    return encoded(strokes, ",")


def flip_layer(back: str) -> str:
    """A Layer (emb2) whose one level is the back image, switched on by Flip (Ctrl+F): the fields of
    Embellishment.myGetType, version 1 (NamedKeyStrokes)."""
    return "emb2;" + encoded(["Flip", "130", "F", "", "130", "", "", "130", "", "", "", "1", "false", "0", "0", back,
                              "", "true", "Back", "", "", "false", "", "1", "1", "false", FLIP_KEY, "", "",
                              "Flip to the back"], ";")


def mask(back: str) -> str:
    """A Mask (obs) showing the back image while the card is face down (Obscurable.myGetType's first fields)."""
    return "obs;" + encoded([FLIP_KEY, back, "Flip", "I", "?"], ";")


def delete() -> str:
    """Delete (Ctrl+D): Delete.myGetType, command name, key, description."""
    return "delete;" + encoded(["Delete", DELETE_KEY, ""], ";")


def report(*strokes: str) -> str:
    """Report Action: a line in the chat when one of `strokes` is pressed (ReportState.myGetType: keys, format,
    cycle keys, cycle formats, description, no suppress)."""
    return "report;" + encoded([keys(*strokes), REPORT_FORMAT, "", "", "", "false"], ";")


def send_to(command: str, key: str, map_name: str, x: int, y: int) -> str:
    """Send to Location, to the point (x, y) of the board named as its map (SendToLocation.myGetType: command,
    key, map, board, x, y, back command, back key, x and y index and offset, description, destination L)."""
    return "sendto;" + encoded([command, key, map_name, map_name, str(x), str(y), "", "", "0", "0", "1", "1", "",
                                "L", "", "", "", ""], ";")


def return_to(command: str, key: str, pile: str) -> str:
    """Return to Deck, to the draw pile named `pile` (ReturnToDeck.myGetType, version 2: command, key, deck id,
    prompt, description, version, select at game time, the deck's name)."""
    return "return;" + encoded([command, key, "", "", "", "2", "false", pile], ";")


def prototype(name: str) -> str:
    """Prototype: the traits of the PrototypeDefinition named `name` (UsePrototype.myGetType)."""
    return "prototype;" + encoded([name], ";")


def basic_piece(image: str, name: str) -> str:
    """The innermost trait, BasicPiece.getType: clone key, delete key, image, name."""
    return "piece;" + encoded(["", "", image, name], ";")


def add_piece(traits: list[tuple[str, str]], basic: str, basic_state: str) -> str:
    """The AddPiece command a slot or a prototype holds (BasicCommandEncoder): `+/null/<type>/<state>`, type and
    state each the traits' own, outermost first, nested as Decorator.getType nests them."""
    piece_type, state = basic, basic_state
    for trait_type, trait_state in reversed(traits):
        piece_type, state = encoded([trait_type, piece_type], "\t"), encoded([trait_state, state], "\t")
    return "+/" + encoded(["null", piece_type, state], "/")


def piece_definition(front: str, name: str, gpid: int, traits: list[tuple[str, str]]) -> str:
    """A slot's piece: `traits` (type, state) outermost first around its BasicPiece showing `front`."""
    return add_piece(traits, basic_piece(front, name), f"null;0;0;{gpid};0")


def sanitised(root: ElementTree.Element) -> ElementTree.Element:
    """Every attribute and text of the tree made XML-safe (xml_safe), in place."""
    for element in root.iter():
        for name, value in element.attrib.items():
            element.set(name, xml_safe(value))
        if element.text is not None:
            element.text = xml_safe(element.text)
    return root


def xml_bytes(root: ElementTree.Element) -> bytes:
    """The tree as VASSAL writes its files: UTF-8, the declaration, indented, every text XML-safe."""
    ElementTree.indent(sanitised(root))
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ElementTree.tostring(root, "utf-8") + b"\n"
