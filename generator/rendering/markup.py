"""Markdown's inline text as reportlab paragraph markup: every text and every attribute escaped, so that what a
rulebook or the game's data says prints as written and never names a font or draws an image of its choosing."""

from __future__ import annotations

import html
import re
from xml.sax.saxutils import escape

from ..core.errors import Location, MusterError
from ..core.model import Game

_ICON = re.compile(r"\[\[([A-Za-z0-9_-]+)\]\]")


def attribute(text: str) -> str:
    """`text` as the value of a markup attribute, between double quotes."""
    return escape(text, {'"': "&quot;"})


def plain(markup: str) -> str:
    """The text of paragraph markup, as drawn: tags left out, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def inline(game: Game, node) -> str:
    """reportlab paragraph markup for an inline node's children, every text escaped."""
    out = []
    for child in node.children or []:
        kind = child.type
        if kind == "text":
            out.append(icons(game, escape(child.content)))
        elif kind == "softbreak":
            out.append(" ")
        elif kind == "hardbreak":
            out.append("<br/>")
        elif kind == "strong":
            out.append(f"<b>{inline(game, child)}</b>")
        elif kind == "em":
            out.append(f"<i>{inline(game, child)}</i>")
        elif kind == "code_inline":
            out.append(f'<font name="text-bold">{escape(child.content)}</font>')
        elif kind == "link":
            out.append(inline(game, child))
        elif kind == "image":
            out.append(escape(child.attrs.get("alt", "") or child.content))
        elif kind != "html_inline":
            out.append(escape(child.content or ""))
    return "".join(out)

def icons(game: Game, text: str) -> str:
    """Escaped `text` with each [[name]] made the icon's glyph or image; the icon's attributes escaped too."""
    def glyph(match):
        icon = game.icons.get(match.group(1))
        if icon is None:
            raise MusterError(f"unknown icon '{match.group(1)}' in the rulebook", Location(game.rulebook.path),
                              code="unknown-icon")
        if icon.image is not None:
            return f'<img src="{attribute(str(icon.image))}" width="9" height="9" valign="middle"/>'
        colour = f' color="{attribute(icon.colour)}"' if icon.colour else ""
        return f'<font name="{attribute(icon.font)}"{colour}>{escape(icon.glyph or "")}</font>'

    return _ICON.sub(glyph, text)
