"""The rulebook's pages: a page in two columns or one across, chosen chapter by chapter, and changed in mid-page
when that keeps a page from being left mostly empty. rulebook_pdf.py makes the flowables; this module lays out the
pages they flow into.

A chapter goes in two columns on a page wide enough for them; one holding a block too wide for a column (a table,
a deeply nested list: marked `wide`) goes across the page, its text indented to the columns' measure while its wide
blocks span the page. A Switch between two chapters changes the layout: below the text on the same page when the
page would otherwise stay less than a third full, else from the next page.
"""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Frame, Indenter, NextPageTemplate, PageBreak, PageTemplate
from reportlab.platypus.doctemplate import ActionFlowable, BaseDocTemplate

FRAME_PADDING = 6.0  # points: the frame's padding on each side (platypus's default)
GUTTER = 6.0 * mm  # between the two columns of an A4 or Letter page
TWO_COLUMNS = 180.0  # mm: a page at least this wide sets its text in two columns, to keep 45-75 characters a line
SHORT_CHAPTER = 1500  # characters of text: a chapter this short never changes the page's layout alone
SWITCH_ROOM = 45.0  # mm: the least room left on a page for what follows a change of layout to start there


class Switch(ActionFlowable):
    """Sets what follows in the frames of another page template from here on: on this page, below what it holds,
    when the page would otherwise stay mostly empty (Pages.handle_switch), else from the next page."""

    def __init__(self, template: str):
        super().__init__(("switch", template))


def spans(flowable) -> bool:
    """Whether a flowable must go across the page: a chapter's heading, or a block marked too wide for a column."""
    return getattr(flowable, "wide", False) or getattr(flowable, "toc", (1,))[0] == 0


def in_chapters(story: list, column: float, across: float, length) -> list:
    """The story with its layout chosen chapter by chapter (see the module's docstring), for columns `column`
    points wide on a page `across` points wide; `length(flowable)` is how much text a flowable holds."""
    if column >= across - 1:  # one column
        return story
    inset = (across - 2 * column - GUTTER) / 2 + column * 0.22  # the text of a chapter across: about 70 a line
    chapters: list[list] = [[]]
    for flowable in story:
        if getattr(flowable, "toc", (1,))[0] == 0 and chapters[-1]:
            ending = chapters[-1]
            chapters.append([ending.pop()] if isinstance(ending[-1], CondPageBreak) else [])  # the heading's
        chapters[-1].append(flowable)
    laid, template = [], "columns"
    for chapter in chapters:
        # a short chapter stays in the layout in force, rather than leave a page part empty to change it
        short = sum(map(length, chapter)) < SHORT_CHAPTER
        wide = any(getattr(flowable, "wide", False) for flowable in chapter) or (short and template == "wide")
        if ("wide" if wide else "columns") != template:
            template = "wide" if wide else "columns"
            if laid and isinstance(laid[-1], PageBreak):  # the rules' own page break: the change comes with it
                laid[-1:] = [NextPageTemplate(template), PageBreak()]
            else:
                laid.append(Switch(template))
        if not wide:
            laid += chapter
            continue
        indented = False
        for flowable in chapter:
            if spans(flowable) == indented:
                laid.append(Indenter(-inset, -inset) if indented else Indenter(inset, inset))
                indented = not indented
            laid.append(flowable)
        if indented:
            laid.append(Indenter(-inset, -inset))
    return laid


class Pages(BaseDocTemplate):
    """Pages of `margin` points all round, in two columns `column` points wide when that is narrower than the page's
    text, with the templates title (no furniture), content, columns and wide; `furniture` draws a page's running
    heads, `count` is told of every page."""

    def __init__(self, target, page: tuple[float, float], margin: float, column: float, furniture, count, **info):
        super().__init__(target, pagesize=page, leftMargin=margin, rightMargin=margin, topMargin=margin,
                         bottomMargin=margin, invariant=1, initialFontName="text", **info)
        self.margin, self.column = margin, column
        self.across = page[0] - 2 * margin
        across = self.frame_of(margin, self.across, "body", page[1] - margin)
        columns = [self.frame_of(margin + n * (column + GUTTER), column, name, page[1] - margin)
                   for n, name in enumerate(("left", "right"))]
        columns[1].second = True
        self.addPageTemplates([PageTemplate("title", [across], onPageEnd=count),
                               PageTemplate("content", [across], onPageEnd=furniture),
                               PageTemplate("columns", columns if column < self.across - 1 else [across],
                                            onPageEnd=furniture),
                               PageTemplate("wide", [across], onPageEnd=furniture)])

    def frame_of(self, x: float, width: float, name: str, top: float, padding: float = FRAME_PADDING) -> Frame:
        return Frame(x, self.margin, width, top - self.margin, id=name, topPadding=padding,
                     bottomPadding=FRAME_PADDING)

    def handle_switch(self, template: str):
        """`template`'s frames from here: below the text when the page would otherwise be left less than a third
        full (a page of one column, or the first of two, less than two thirds down), and has SWITCH_ROOM left; else
        from the next page."""
        self.handle_nextPageTemplate(template)
        frame = self.frame
        room = frame._y - self.margin - FRAME_PADDING
        used = 1 - room / (self.pagesize[1] - 2 * self.margin - 2 * FRAME_PADDING)
        two = frame.id in ("left", "right") or frame.id.startswith("columns")  # in the first of two columns
        if getattr(frame, "second", False) or room < SWITCH_ROOM * mm or used >= (2 / 3 if two else 1 / 3):
            self.handle_pageBreak()
            return
        top = frame._y - (0 if frame._atTop else 6)
        width = self.across if template == "wide" else self.column
        made = [self.frame_of(self.margin + n * (width + GUTTER), width, f"{template}-{n}", top, padding=0)
                for n in range(1 if template == "wide" else 2)]
        for made_frame, following in zip(made, made[1:] + [None]):
            made_frame._leftExtraIndent = frame._leftExtraIndent
            made_frame._rightExtraIndent = frame._rightExtraIndent
            made_frame._frameBGs = frame._frameBGs
            made_frame.following = following
            made_frame.second = made_frame is not made[0]
            if following is None:
                made_frame.lastFrame = True
        self.frame = made[0]

    def _peekNextFrame(self):  # what a KeepTogether asks before it splits: the column beside a frame made here
        following = getattr(self.frame, "following", None)
        return following if following is not None else super()._peekNextFrame()

    def handle_frameEnd(self, resume=0):
        following = getattr(self.frame, "following", None)  # a frame made in mid-page, and the next beside it
        if following is None:
            super().handle_frameEnd(resume)
            return
        self._leftExtraIndent = self.frame._leftExtraIndent
        self._rightExtraIndent = self.frame._rightExtraIndent
        self.frame = following
        self.handle_frameBegin(resume)
