"""A game with its own large full-bleed PNG on every card, for the benchmark of art (issue 30).

    python bench/art.py game DIR N       writes a Muster game folder of N cards, each with its own PNG in DIR/art
    python bench/art.py img2pdf OUT DIR  puts the PNGs of DIR/art into one PDF with img2pdf, if it is installed

The art is made here, not shipped: 69 x 94 mm (the card and its bleed) at 300 dpi, 815 x 1110 RGB pixels, a smooth
gradient under noise so that it compresses about as badly as a painting, 1.5 to 2 MB a file. img2pdf passes PNG
data into the PDF without decoding it: the limit a build of the same art is measured against.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

SIZE = (815, 1110)


def write_game(folder: Path, n: int) -> None:
    from PIL import Image

    art = folder / "art"
    art.mkdir(parents=True, exist_ok=True)
    for index in range(n):
        gradient = Image.linear_gradient("L").resize(SIZE).rotate(index * 7 % 360, expand=False)
        channels = [Image.blend(gradient, Image.effect_noise(SIZE, 24 + band * 8 + index % 5), 0.35)
                    for band in range(3)]
        Image.merge("RGB", channels).save(art / f"card{index:03}.png")
    (folder / "game.yaml").write_text(textwrap.dedent(f"""\
        muster: 1
        title: Art {n}
        card: {{size: poker}}
        traits:
          art: {{kind: text}}
        decks:
          cards:
            file: cards.yaml
            size: {n}
            face: face.yaml
            back: back.yaml
        """))
    lines = ["cards:"] + [f"  - {{title: Card {index + 1}, art: art/card{index:03}.png}}" for index in range(n)]
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")
    (folder / "face.yaml").write_text(textwrap.dedent("""\
        elements:
          - {kind: image, x: 0, y: 0, w: 63, h: 88, src: "{{ card.art }}", bleed: true, fit: cover}
          - {kind: text, x: 5, y: 5, w: 53, h: 9, text: "{{ card.title }}", font: display-bold, size: 13}
        """))
    (folder / "back.yaml").write_text(textwrap.dedent("""\
        elements:
          - {kind: box, x: 0, y: 0, w: 63, h: 88, fill: "#3b3a36", bleed: true}
        """))


def with_img2pdf(target: Path, folder: Path) -> None:
    import img2pdf

    target.write_bytes(img2pdf.convert(sorted(str(p) for p in (folder / "art").glob("*.png"))))


if __name__ == "__main__":
    command, where, other = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    if command == "game":
        write_game(where, int(other))
    else:
        with_img2pdf(where, Path(other))
