"""Markdown's inline text as reportlab paragraph markup: every text and every attribute escaped, so that what a
rulebook or the game's data says prints as written and never names a font or draws an image of its choosing."""

from __future__ import annotations

import html
import re

from ..core import codes
from ..core.errors import Location, MusterError
from ..core.inline import SYMBOL_PREFIX, tokens
from ..core.model import Game


def escape(text: str) -> str:
    """`text` as markup content: &, < and > as entities, as xml.sax.saxutils escapes them (whose module imports
    urllib.request, http.client and email: 12 ms a typesetting process spent for three replacements)."""
    return html.escape(text, quote=False)


def attribute(text: str) -> str:
    """`text` as the value of a markup attribute, between double quotes."""
    return escape(text).replace('"', "&quot;")


def plain(markup: str) -> str:
    """The text of paragraph markup, as drawn: tags left out, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def inline(game: Game, node, pictures: bool = True) -> str:
    """reportlab paragraph markup for an inline node's children, every text escaped; a run of text (escaped
    characters apart, core/inline.py) with its icons and embedded words made icons. Without `pictures` (for the
    contents and bookmarks, which are plain text), an image icon stays as it is written."""
    out = []
    fragments: list[tuple[str, bool]] = []
    for child in node.children or []:
        kind = child.type
        if kind in ("text", "text_special"):
            fragments.append((child.content, kind == "text_special"))
            continue
        if fragments:
            out.append(icons(game, fragments, pictures))
            fragments = []
        if kind == "softbreak":
            out.append(" ")
        elif kind == "hardbreak":
            out.append("<br/>")
        elif kind == "strong":
            out.append(f"<b>{inline(game, child, pictures)}</b>")
        elif kind == "em":
            out.append(f"<i>{inline(game, child, pictures)}</i>")
        elif kind == "code_inline":
            out.append(f'<font name="text-bold">{escape(child.content)}</font>')
        elif kind == "link":
            out.append(inline(game, child, pictures))
        elif kind == "image":
            out.append(escape(child.attrs.get("alt", "") or child.content))
        elif kind != "html_inline":
            out.append(escape(child.content or ""))
    if fragments:
        out.append(icons(game, fragments, pictures))
    return "".join(out)


def icons(game: Game, fragments: list[tuple[str, bool]], pictures: bool = True) -> str:
    """A run of text (its fragments: text, whether escaped) escaped, each [[name]] and embedded word made the
    icon's glyph or image, the icon's attributes escaped too; an icon after a number joined to it by a no-break
    space."""
    out = []
    for token in tokens(fragments, game.embed):
        if token.icon is None:
            out.append(escape(token.text))
            continue
        icon = game.icons.get(token.icon)
        if icon is None:
            hint = (": unit symbols are drawn in card text only; give the rulebook an image icon of the symbol "
                    "(docs/layouts.md, Unit symbols)") if token.icon.startswith(SYMBOL_PREFIX) else ""
            raise MusterError.of(codes.UNKNOWN_ICON, Location(game.rulebook.path), name=repr(token.icon),
                                 hint=" in the rulebook" + hint)
        out.append("&nbsp;" if token.glued else "")
        if icon.image is not None and not pictures:
            out.append(escape(token.text))
        elif icon.image is not None:
            out.append(f'<img src="{attribute(str(icon.image))}" width="9" height="9" valign="middle"/>')
        else:
            colour = f' color="{attribute(icon.colour)}"' if icon.colour else ""
            out.append(f'<font name="{attribute(icon.font)}"{colour}>{escape(icon.glyph or "")}</font>')
    return "".join(out)
