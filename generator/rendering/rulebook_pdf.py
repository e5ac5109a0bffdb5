"""Rulebooks typeset with reportlab's platypus into the bytes of rules.pdf; imported only when a rulebook is built.

Platypus reads paragraphs as markup (<b>, <font name=...>, <img src=...>): every text that reaches it goes through
markup.py, which escapes it, in content and in attributes alike, so that the rulebook's text and the game's data
print as written and never name a font or draw an image. flowables.py holds the two flowables of our own."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any, BinaryIO, Callable, Mapping, NamedTuple, Sequence

from markdown_it.tree import SyntaxTreeNode
from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.platypus import (CondPageBreak, HRFlowable, KeepTogether, ListFlowable, ListItem, NextPageTemplate,
                                PageBreak, Preformatted, Spacer, TableStyle)
from reportlab.platypus.doctemplate import LayoutError

from ..core import fonts, shaping
from ..core.colour import COLOUR
from ..core.errors import Location, MusterError
from ..core.files import confined
from ..core.inline import RULES_NESTING, rules_tokens, rules_tree
from ..core.model import Game
from ..core.units import PT_PER_MM
from .inks import Inks, painter, spelling
from .flowables import CardFigure, CardRow, ContentsLine, Paragraph, SplitTable, picture
from .render import Painter
from .markup import escape, inline, plain
from .pages import FRAME_PADDING, GUTTER, TWO_COLUMNS, Pages, in_chapters
from .vectors import VectorCanvas

PAGE_BREAK = re.compile(r"<!--\s*page\s*break\s*-->", re.IGNORECASE)
SHORT_TABLE = 14  # rows: a table this short moves to the next page whole rather than split
HEADING_ROOM = {1: 40, 2: 30, 3: 22}  # mm that must be left on a page for a heading to start there
CELL_PADDING = 12.0  # points: a table cell's left and right padding; a column must be wider
FURNITURE_SIZE = 7.5  # points: the running head and the page number


def styles(body: float, family: dict[str, str], paint: Callable[..., Color]) -> dict:
    """The rulebook's paragraph styles for a body text of `body` points in the font `family` (its faces by style):
    body, list items, table cells, code, the three heading levels, the title page and the contents. `paint` gives
    a colour as the rulebook prints it."""
    ink = "#1d1d1b"
    regular, bold, italic = family["regular"], family["bold"], family["italic"]

    def style(name, font, size, leading, **extra):
        return ParagraphStyle(name, fontName=font, fontSize=size, leading=leading,
                              textColor=paint(extra.pop("colour", ink), size), **extra)

    return {
        "body": style("body", regular, body, body * 1.35, spaceAfter=body * 0.6),
        "item": style("item", regular, body, body * 1.35, spaceAfter=body * 0.25),
        "cell": style("cell", regular, body - 1.5, (body - 1.5) * 1.25),
        "head": style("head", bold, body - 1.5, (body - 1.5) * 1.25, colour="#ffffff"),
        "code": style("code", regular, body - 1, (body - 1) * 1.3),
        1: style("h1", fonts.RULEBOOK_DISPLAY, body * 1.9, body * 2.3, spaceBefore=body * 0.8, spaceAfter=body * 0.8,
                 keepWithNext=1),
        2: style("h2", fonts.RULEBOOK_DISPLAY, body * 1.35, body * 1.7, spaceBefore=body * 0.9, spaceAfter=body * 0.4,
                 keepWithNext=1),
        3: style("h3", bold, body * 1.05, body * 1.4, spaceBefore=body * 0.6, spaceAfter=body * 0.2,
                 keepWithNext=1),
        "title": style("title", fonts.RULEBOOK_DISPLAY, body * 3.4, body * 3.9, alignment=1, spaceAfter=body * 1.2),
        "subtitle": style("subtitle", italic, body * 1.2, body * 1.6, alignment=1, spaceAfter=body * 2,
                          colour="#5a574f"),
        "toc1": style("toc1", bold, body, body * 1.5),
        "toc2": style("toc2", regular, body - 0.5, body * 1.35, leftIndent=body * 1.6),
        "toc3": style("toc3", regular, body - 1, body * 1.3, leftIndent=body * 3.2),
        "caption": style("caption", italic, body - 1.5, (body - 1.5) * 1.3, colour="#5a574f"),
    }


def right_to_left(node: SyntaxTreeNode) -> bool:
    """Whether a list or a table is written right to left: its first letter Hebrew or Arabic (UAX #9 P2)."""
    text = "".join(child.content for child in node.walk() if child.type == "text")
    return shaping.right_to_left(text) and shaping.base_level(text) == 1


def set_right(rows: list[list]) -> tuple[list[list], str]:
    """A right-to-left table's rows of paragraphs, its columns from right to left and every cell set right; and the
    side of the column it stands at."""
    for row in rows:
        for cell in row:
            cell.style = ParagraphStyle(f"{cell.style.name}-right", parent=cell.style, alignment=TA_RIGHT)
    return [row[::-1] for row in rows], "RIGHT"


def painted_icons(game: Game, spell: Callable[[str], str]) -> Game:
    """`game` with its icons' glyph colours as `spell` writes them (a cmyk(...) colour in RGB, a hex one in CMYK):
    they reach platypus in markup, which would read cmyk(...) as fractions of ink."""
    return replace(game, icons={name: replace(icon, colour=spell(icon.colour) if COLOUR.match(icon.colour or "")
                                              else icon.colour)  # none, or (made by hand) escaped by markup.py
                                for name, icon in game.icons.items()})


def _depth(node) -> int:
    """How deep lists nest in a Markdown node: 1 for a list of plain items."""
    inner = max((_depth(child) for child in node.children), default=0)
    return inner + (node.type in ("bullet_list", "ordered_list"))


def column_needs(rows: list) -> tuple[list[float], list[int]]:
    """Per column, the width of its longest word with the cell's padding, and how much text it holds."""
    padding = 13.0  # points: the cell's left and right padding, and a little air
    columns = max(len(r) for r in rows)
    floors, amounts = [], []
    for i in range(columns):
        cells = [r[i] for r in rows if i < len(r)]
        texts = [plain(c.text) for c in cells]
        longest = max((stringWidth(w, c.style.fontName, c.style.fontSize) for c, t in zip(cells, texts)
                       for w in t.split()), default=0.0)
        floors.append(longest + padding)
        amounts.append(max(len(t) for t in texts) + 4)
    return floors, amounts

def column_widths(floors: list[float], amounts: list[int], width: float, where: Location) -> list[float]:
    """Every column at least as wide as its longest word (no word is broken), the rest of the width shared in
    proportion to how much text each column holds; when the longest words do not fit, every column wider than
    its padding at least (else the table cannot be typeset: an error at `where`)."""
    columns = len(floors)
    if columns * (CELL_PADDING + 1) > width:
        raise MusterError(f"a table of {columns} columns is wider than the page: at most "
                          f"{int(width // (CELL_PADDING + 1))} fit", where, code="rulebook-layout")
    spare = width - sum(floors)
    if spare <= 0:
        shared = [width * f / sum(floors) for f in floors]
        if min(shared) > CELL_PADDING:
            return shared
        narrowest = CELL_PADDING + 1
        return [narrowest + (width - columns * narrowest) * (f - narrowest) / (sum(floors) - columns * narrowest)
                for f in floors]
    return [f + spare * a / sum(amounts) for f, a in zip(floors, amounts)]


def kept_together(story: list) -> list:
    """The blocks of a story with what leads into a block kept with it: a lead-in ("...:"), or the introduction of a
    short table, kept with what follows; what leads into a table that may split asks for room for itself and a few
    rows instead (platypus would move what is kept with such a table to the next page whole)."""
    kept = []
    for lead, follower in zip(story, story[1:] + [None]):
        kept.append(lead)
        if isinstance(follower, SplitTable):
            lead.keepWithNext = 0
            if not isinstance(kept[-2] if len(kept) > 1 else None, CondPageBreak):
                kept.insert(len(kept) - 1, CondPageBreak(HEADING_ROOM[2] * mm))
        elif isinstance(lead, Paragraph) and not hasattr(lead, "toc") and follower is not None and (
                plain(lead.text).rstrip().endswith(":") or isinstance(follower, KeepTogether)):
            lead.keepWithNext = 1
    return kept


class Book:
    """Turns the rendered Markdown into platypus flowables (its inline text through markup.py) and writes the PDF."""

    def __init__(self, game: Game, paper: tuple[float, float], inks: Inks | None = None, figures: Figures = None):
        self.inks = inks or Inks()
        self.figures = figures or Figures({}, ())
        self.paint = painter(self.inks)
        game = painted_icons(game, spelling(self.inks))
        family = fonts.font_book().family_of(game.rulebook.font if game.rulebook else "text")
        # the faces platypus is handed by name: headings, the family's, and the bundled text faces of the contents'
        # leaders, list bullets and figures' callouts (a game whose rulebook has a family of its own draws nothing
        # else in them, so nothing else would register them in a process of its own)
        for name in ("display", "display-bold", "text", "text-bold", *family.values()):
            fonts.face(name)
        registerFontFamily(family["regular"], normal=family["regular"], bold=family["bold"], italic=family["italic"],
                           boldItalic=family["bold_italic"])
        self.game = game
        self.words = game.words
        self.paper = paper
        small = paper[0] < 160
        body = 9 if small else 10
        self.margin = 14.0 if small else 20.0  # mm
        self.page_height = (paper[1] - 2 * self.margin) * mm - 2 * FRAME_PADDING  # points: room in a frame
        self.full_width = (paper[0] - 2 * self.margin) * mm  # points: the text's width across the page
        self.column_width = (self.full_width - GUTTER) / 2 if paper[0] >= TWO_COLUMNS else self.full_width
        self.styles = styles(body, family, self.paint)
        self.numbers = [0, 0, 0]
        self.section = ""       # the chapter under way
        self.page_section = ""  # the first chapter that starts on the current page, which its header names

    # -- blocks

    def blocks(self, nodes, width: float, text_style: str = "body") -> list:

        story = []
        for node in nodes:
            kind = node.type
            under_heading = bool(story) and hasattr(story[-1], "toc")
            if kind == "heading":
                level = int(node.tag[1])
                # keepWithNext cannot hold a heading to a list or table that splits: never start one near the foot.
                # Not between two headings, though: the first would be kept with the break, not with the second.
                if not under_heading:
                    story.append(CondPageBreak(HEADING_ROOM[min(level, 3)] * mm))
                story.append(self.heading(level, node.children[0]))
            elif kind == "paragraph":
                children = node.children[0].children or []
                if len(children) == 1 and children[0].type == "image":
                    story.append(self.image(children[0], width))
                else:
                    story.append(Paragraph(inline(self.game, node.children[0]), self.styles[text_style]))
            elif kind in ("bullet_list", "ordered_list"):
                listing = self.listing(node, width)
                # nested so deep that its indents leave a column too little room: set across the page
                listing.wide = width == self.column_width < self.full_width and _depth(node) * 16 > width / 2
                story.append(listing)
            elif kind == "table":
                # under a heading, the heading's keepWithNext keeps a short table whole; a KeepTogether of its own
                # would end that chain and could leave the heading alone at the foot of the page
                story.append(self.table(node, width, whole=not under_heading))
            elif kind == "blockquote":
                story.append(self.example(node, width))
            elif kind == "hr":
                story.append(HRFlowable(width="100%", thickness=0.5, color=self.paint("#9a958a"), spaceBefore=4,
                                        spaceAfter=6))
            elif kind in ("code_block", "fence"):
                story.append(Preformatted(node.content.rstrip("\n"), self.styles["code"]))
            elif kind == "html_block" and PAGE_BREAK.search(node.content):
                story.append(PageBreak())
        return kept_together(story)

    def heading(self, level: int, node):
        level = min(level, 3)
        self.numbers[level - 1] += 1
        for deeper in range(level, 3):
            self.numbers[deeper] = 0
        number = ".".join(str(n) for n in self.numbers[:level])
        paragraph = Paragraph(f"{number}&nbsp;&nbsp;{inline(self.game, node)}", self.styles[level])
        title = plain(inline(self.game, node, pictures=False))  # the contents line and the bookmark: plain text
        paragraph.toc = (level - 1, f"{number}  {title}", f"section-{number}")
        return paragraph

    def listing(self, node, width: float):
        side = {"rightIndent": 14, "bulletDir": "rtl"} if right_to_left(node) else {"leftIndent": 14}
        items = [ListItem(self.blocks(item.children, width - 16, "item") or [Spacer(0, 0)], **side)
                 for item in node.children]
        bullets = {"bulletFontSize": self.styles["body"].fontSize, "spaceAfter": 4, **side,
                   "bulletColor": self.paint("#000000")}  # platypus's default black, in the rulebook's inks
        if node.type == "ordered_list":
            start = str(node.attrs.get("start", 1) or 1)
            return ListFlowable(items, bulletType="1", start=start, bulletFontName="text-bold", **bullets)
        return ListFlowable(items, bulletType="bullet", start="•", bulletFontName="text", **bullets)

    def table(self, node, width: float, whole: bool = True):
        """A table with its header rows repeated on every page it spans; a short one is kept on one page (`whole`).
        A table whose longest words do not fit a column of a two-column page is set across the page (`wide`)."""

        rows = []
        header_rows = 0
        for section in node.children:
            for row in section.children:
                style = self.styles["head" if section.type == "thead" else "cell"]
                rows.append([Paragraph(inline(self.game, cell.children[0]) if cell.children else "", style) for cell in row.children])
                header_rows += section.type == "thead"
        rows, side = set_right(rows) if right_to_left(node) else (rows, "LEFT")
        floors, amounts = column_needs(rows)
        wide = width == self.column_width < self.full_width and sum(floors) > width  # a table at the top level
        width = self.full_width if wide else width
        widths = column_widths(floors, amounts, width, Location(self.game.rulebook.path))
        table = SplitTable(rows, colWidths=widths, repeatRows=header_rows, hAlign=side, page_height=self.page_height)
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), self.paint("#3b3a36")),
            ("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [self.paint("#ffffff"), self.paint("#efece4")]),
            ("LINEBELOW", (0, 0), (-1, -1), 0.25, self.paint("#b9b4a8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("FONTNAME", (0, 0), (-1, -1), self.styles["cell"].fontName),  # else a cell sets Helvetica, unembedded
            ("TEXTCOLOR", (0, 0), (-1, -1), self.paint("#000000")),  # platypus's default, in the rulebook's inks
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ]))
        table.spaceAfter = 8
        kept = KeepTogether([table]) if whole and len(rows) <= SHORT_TABLE else table
        kept.wide = wide
        return kept

    def example(self, node, width: float):
        box = SplitTable([[self.blocks(node.children, width - 16)]], colWidths=[width], hAlign="LEFT",
                         page_height=self.page_height)
        box.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), self.paint("#f1eee6")),
            ("LINEBEFORE", (0, 0), (0, -1), 2.5, self.paint("#8a8578")),
            ("FONTNAME", (0, 0), (-1, -1), self.styles["body"].fontName),  # as in table()
            ("TEXTCOLOR", (0, 0), (-1, -1), self.paint("#000000")),
            ("LEFTPADDING", (0, 0), (-1, -1), 8),
            ("RIGHTPADDING", (0, 0), (-1, -1), 8),
            ("TOPPADDING", (0, 0), (-1, -1), 5),
        ]))
        box.spaceAfter = 8
        return box

    def image(self, node, width: float):
        source = node.attrs.get("src", "")
        if source in self.figures.cards:  # a card's face (layout/figures.py)
            caption = plain(inline(self.game, node, pictures=False))
            return CardFigure(self.figures.cards[source], caption, self.styles["caption"], self.painter, self.paint)
        path = confined(self.game.root, source)
        if not path.is_file():
            raise MusterError(f"no image '{source}' in {self.game.root.name}/", Location(self.game.rulebook.path),
                              code="missing-file")
        room = (self.paper[1] - 2 * self.margin) * mm - 12  # the frame's height less its padding: never too tall
        return picture(path, width, room)  # checked before typesetting (checking/rulebook.py image_findings)

    def painter(self, canvas) -> Painter:
        """What draws a card's face on the book's canvas, in its inks: one per canvas, drawing SVG art through the
        canvas's own forms, so that an SVG file is one form in the book however often and by whatever it is drawn."""
        made = getattr(canvas, "painter", None)
        if made is None:
            made = canvas.painter = Painter(canvas, inks=self.inks)
            made.vectors = canvas.vectors
        return made

    # -- the document

    def title_page(self) -> list:

        game = self.game
        story = [Spacer(1, self.paper[1] * PT_PER_MM * 0.16), Paragraph(escape(game.title), self.styles["title"])]
        if game.summary:
            story.append(Paragraph(escape(game.summary), self.styles["subtitle"]))
        if self.figures.cover:
            story += [CardRow(self.figures.cover, self.paper[1] * PT_PER_MM * 0.22, self.painter, self.paint),
                      Spacer(1, self.styles["body"].fontSize * 2)]
        words = self.words
        story.append(Paragraph(f"<b>{escape(words['players'])}:</b> " + escape(str(game.players)), self.styles["body"]))
        story.append(Paragraph(f"<b>{escape(words['components'])}</b>", self.styles["body"]))
        parts = [f"{deck.name}: {deck.total} "
                 + words[('card' if deck.format.component == 'cards' else 'counter') + ('s' if deck.total != 1 else '')]
                 for deck in game.decks.values()]
        parts += [f"{board.name} ({board.size[0]:.0f} × {board.size[1]:.0f} mm)" for board in game.boards.values()]
        story += [Paragraph("•&nbsp;&nbsp;" + escape(part), self.styles["item"]) for part in parts]
        return story

    def build(self, text: str, target: BinaryIO) -> int:

        page = (self.paper[0] * mm, self.paper[1] * mm)
        margin = self.margin * mm
        book = self
        pages = [0]
        found: dict[str, int] = {}  # heading key -> the page it landed on

        class Document(Pages):
            """The rulebook's pages: bookmarks and contents entries as headings are placed."""

            def afterPage(self):
                book.page_section = ""

            def afterFlowable(self, flowable):
                entry = getattr(flowable, "toc", None)
                if entry:
                    level, title, key = entry
                    self.canv.bookmarkPage(key)
                    self.canv.addOutlineEntry(title, key, level=level, closed=level > 0)
                    found[key] = self.page
                    if level == 0:
                        book.section = title
                        book.page_section = book.page_section or title

            def _endBuild(self):
                # The contents' page numbers are forms drawn before their pages were known: fill them in now,
                # after the last page and before saving, so that one typesetting pass is enough.
                self._doSave = 0
                super()._endBuild()
                for line in contents:
                    line.fill(self.canv, found.get(line.key))
                self.canv.save()

        def count(canvas, document):
            pages[0] = document.page

        def furniture(canvas, document):
            canvas.saveState()
            canvas.setFont(fonts.RULEBOOK_HEADS, FURNITURE_SIZE)
            canvas.setFillColor(book.paint("#5a574f", FURNITURE_SIZE))
            top = page[1] - margin * 0.55
            canvas.drawString(margin, top, shaping.shaped_line(book.game.title, fonts.RULEBOOK_HEADS, FURNITURE_SIZE))
            canvas.drawRightString(page[0] - margin, top, shaping.shaped_line(book.page_section or book.section,
                                                                              fonts.RULEBOOK_HEADS, FURNITURE_SIZE))
            canvas.setStrokeColor(book.paint("#b9b4a8"))
            canvas.setLineWidth(0.4)
            canvas.line(margin, top - 3, page[0] - margin, top - 3)
            canvas.drawCentredString(page[0] / 2, margin * 0.45, str(document.page))
            canvas.restoreState()
            count(canvas, document)

        document = Document(target, page, margin, self.column_width, furniture, count,
                            title=f"{self.game.title}: {self.words['rules']}", creator="Muster")
        tokens = rules_tokens(text)
        if any(token.nesting == 1 and token.level >= RULES_NESTING - 1 for token in tokens):  # its content dropped
            raise MusterError(f"lists and quotes are nested more than {RULES_NESTING // 2 - 1} deep",
                              Location(self.game.rulebook.path), code="rulebook-layout")
        tree = rules_tree(text)
        self.numbers, self.section, self.page_section = [0, 0, 0], "", ""
        body = in_chapters(self.blocks(tree.children, self.column_width), self.column_width, self.full_width,
                           lambda flowable: len(plain(flowable.text)) if isinstance(flowable, Paragraph) else 0)
        contents = [ContentsLine(*flowable.toc, self.styles[f"toc{flowable.toc[0] + 1}"])
                    for flowable in body if getattr(flowable, "toc", None)]
        story = self.title_page() + [NextPageTemplate("content"), PageBreak(), Paragraph(escape(self.words["contents"]), self.styles[2]),
                                     *contents, NextPageTemplate("columns"), PageBreak()] + body
        document.build(story, canvasmaker=lambda *args, **kwargs: VectorCanvas(*args, inks=self.inks, **kwargs))
        return pages[0]


class Figures(NamedTuple):
    """The cards a rulebook draws, laid out (layout/figures.py): its figures by source, and the cover's row."""

    cards: Mapping[str, Any]
    cover: Sequence[Any]


def typeset_rulebook(game: Game, text: str, paper: tuple[float, float], inks: Inks | None = None,
                     figures: Figures | None = None) -> tuple[bytes, int]:
    """The rulebook's PDF on pages of `paper` (width, height in mm), and its number of pages. What cannot be
    typeset (an image outside the game, a block too large for a page) is an error located in the rulebook."""
    where = Location(game.rulebook.path)
    target = io.BytesIO()
    try:
        pages = Book(game, paper, inks, figures).build(text, target)
    except MusterError as exc:
        raise MusterError(exc.message, exc.where or where, exc.field or "rulebook", exc.code) from None
    except (LayoutError, ValueError) as exc:  # platypus's words for a block it cannot place on any page
        message = " ".join(str(exc).split())
        raise MusterError(f"cannot be typeset: {message[:200]}", where, "rulebook", "rulebook-layout") from None
    return target.getvalue(), pages
