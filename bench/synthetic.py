"""Synthetic games of N poker cards for the benchmark, and the same cards drawn by plain reportlab.

    python bench/synthetic.py game DIR N     writes a Muster game folder with N cards
    python bench/synthetic.py plain OUT N    draws the same N cards with reportlab alone into OUT (a PDF)

Both draw, per card: a coloured background to the bleed, a border, a title on one line, three or four lines of
wrapped body text, a number in a circle and a small icon; 3 x 3 on A4 with 3 mm bleed, crop marks, and backs
for long-edge duplex (one shared back drawn once and reused).
"""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

WORDS = ("advance hold flank supply armour column bridge river ridge village battery reserve screen probe "
         "assault withdraw signal convoy depot engineer").split()
COLOURS = ["#e9e1cf", "#dfe6ea", "#e8dcdc", "#e0e8d8", "#ece6d4", "#e4dff0"]


def cards(n: int) -> list[dict]:
    rng = random.Random(n)
    result = []
    for index in range(n):
        title = f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {index + 1}"
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(22, 30))).capitalize() + "."
        result.append({"title": title, "text": body, "value": rng.randint(1, 9), "colour": COLOURS[index % len(COLOURS)]})
    return result


def write_game(folder: Path, n: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(f"""\
        muster: 1
        title: Synthetic {n}
        card: {{size: poker}}
        icons:
          star: {{glyph: "★", font: text-bold}}
        traits:
          text: {{kind: text}}
          value: {{kind: integer, min: 0, max: 99}}
          colour: {{kind: text}}
        decks:
          cards:
            file: cards.yaml
            size: {n}
            face: face.yaml
            back: back.yaml
        """))
    lines = ["cards:"]
    for card in cards(n):
        lines.append(f"  - {{title: \"{card['title']}\", value: {card['value']}, colour: \"{card['colour']}\", text: \"{card['text']}\"}}")
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")
    (folder / "face.yaml").write_text(textwrap.dedent("""\
        elements:
          - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "{{ card.colour }}", bleed: true}
          - {kind: box, x: 3, y: 3, w: 57, h: 82, radius: 2, stroke: "#3b3a36", stroke_width: 0.5mm}
          - {kind: text, x: 5, y: 5, w: 42, h: 9, text: "{{ card.title }}", font: display-bold, size: 13, min_size: 7}
          - {kind: circle, cx: 52, cy: 10, r: 6, fill: "#3b3a36"}
          - {kind: text, x: 46, y: 5, w: 12, h: 10, text: "{{ card.value }}", font: display-bold, size: 16, align: center, colour: white}
          - {kind: text, x: 5, y: 74, w: 8, h: 8, text: "[[star]]", size: 12, colour: "#3b3a36"}
          - {kind: paragraph, x: 6, y: 40, w: 51, h: 30, text: "{{ card.text }}", size: 9, min_size: 6}
        """))
    (folder / "back.yaml").write_text(textwrap.dedent("""\
        elements:
          - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "#3b3a36", bleed: true}
          - {kind: box, x: 5, y: 5, w: 53, h: 78, radius: 3, stroke: "#e9e1cf", stroke_width: 0.8mm}
          - {kind: text, x: 5, y: 38, w: 53, h: 12, text: "SYNTHETIC", font: display-bold, size: 22, align: center, colour: "#e9e1cf"}
        """))


def draw_plain(target: Path, n: int) -> None:
    """The same cards, drawn with reportlab alone: the practical limit Muster is measured against."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    fonts = Path(__file__).resolve().parent.parent / "fonts"
    for name, file in (("text", "DejaVuSansCondensed.ttf"), ("text-bold", "DejaVuSansCondensed-Bold.ttf"),
                       ("display-bold", "RobotoCondensed-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(fonts / file)))
    width, height = A4
    card_w, card_h, bleed = 63 * mm, 88 * mm, 3 * mm
    gutter_x, gutter_y = 2.5 * mm, 6 * mm
    left = (width - 3 * card_w - 2 * gutter_x) / 2
    top = height - (height - 3 * card_h - 2 * gutter_y) / 2
    slots = [(left + c * (card_w + gutter_x), top - (r + 1) * card_h - r * gutter_y) for r in range(3) for c in range(3)]
    canvas = Canvas(str(target), pagesize=A4, invariant=1, initialFontName="text")
    dark, light = HexColor("#3b3a36"), HexColor("#e9e1cf")

    canvas.beginForm("back", -bleed, -bleed, card_w + bleed, card_h + bleed)
    canvas.setFillColor(dark)
    canvas.rect(-bleed, -bleed, card_w + 2 * bleed, card_h + 2 * bleed, stroke=0, fill=1)
    canvas.setStrokeColor(light)
    canvas.setLineWidth(0.8 * mm)
    canvas.roundRect(5 * mm, 5 * mm, 53 * mm, 78 * mm, 3 * mm, stroke=1, fill=0)
    canvas.setFillColor(light)
    canvas.setFont("display-bold", 22)
    canvas.drawCentredString(card_w / 2, card_h - 44 * mm - 4 * mm, "SYNTHETIC")
    canvas.endForm()

    def wrap(text: str, size: float, limit: float) -> list[str]:
        lines, line = [], ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if pdfmetrics.stringWidth(trial, "text", size) <= limit:
                line = trial
            else:
                lines.append(line)
                line = word
        return lines + [line]

    def marks(canvas):
        canvas.setStrokeColor(HexColor("#000000"))
        canvas.setLineWidth(0.2 * mm)
        for x, y in slots[:3]:
            for edge in (x, x + card_w):
                canvas.line(edge, top + bleed + 1 * mm, edge, top + bleed + 5 * mm)
                canvas.line(edge, top - 3 * card_h - 2 * gutter_y - bleed - 1 * mm, edge, top - 3 * card_h - 2 * gutter_y - bleed - 5 * mm)
        for x, y in slots[::3]:
            for edge in (y, y + card_h):
                canvas.line(left - bleed - 1 * mm, edge, left - bleed - 5 * mm, edge)
                canvas.line(width - left + bleed + 1 * mm, edge, width - left + bleed + 5 * mm, edge)

    all_cards = cards(n)
    for start in range(0, n, 9):
        chunk = all_cards[start:start + 9]
        for (x, y), card in zip(slots, chunk):
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(x - bleed, y - bleed, card_w + 2 * bleed, card_h + 2 * bleed)
            canvas.clipPath(clip, stroke=0, fill=0)
            canvas.translate(x, y)
            canvas.setFillColor(HexColor(card["colour"]))
            canvas.rect(-bleed, -bleed, card_w + 2 * bleed, card_h + 2 * bleed, stroke=0, fill=1)
            canvas.setStrokeColor(dark)
            canvas.setLineWidth(0.5 * mm)
            canvas.roundRect(3 * mm, 3 * mm, 57 * mm, 82 * mm, 2 * mm, stroke=1, fill=0)
            canvas.setFillColor(dark)
            size = 13
            while pdfmetrics.stringWidth(card["title"], "display-bold", size) > 42 * mm and size > 7:
                size -= 0.25
            canvas.setFont("display-bold", size)
            canvas.drawString(5 * mm, card_h - 12 * mm, card["title"])
            canvas.circle(52 * mm, card_h - 10 * mm, 6 * mm, stroke=0, fill=1)
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.setFont("display-bold", 16)
            canvas.drawCentredString(52 * mm, card_h - 12 * mm, str(card["value"]))
            canvas.setFillColor(dark)
            canvas.setFont("text-bold", 12)
            canvas.drawString(5 * mm, 8 * mm, "★")
            canvas.setFont("text", 9)
            for number, line in enumerate(wrap(card["text"], 9, 51 * mm)):
                canvas.drawString(6 * mm, card_h - 44 * mm - number * 10.8, line)
            canvas.restoreState()
        marks(canvas)
        canvas.showPage()
        for (x, y), _ in zip(slots, chunk):
            mirrored = width - x - card_w
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(mirrored - bleed, y - bleed, card_w + 2 * bleed, card_h + 2 * bleed)
            canvas.clipPath(clip, stroke=0, fill=0)
            canvas.translate(mirrored, y)
            canvas.doForm("back")
            canvas.restoreState()
        marks(canvas)
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    command, where, count = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    if command == "game":
        write_game(where, count)
    else:
        draw_plain(where, count)
