"""The files of a kit: each document built from the stages, written atomically, listed in the manifest."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .errors import Finding, GameInvalid
from .boards import lay_out_board
from .cache import input_key
from .booklet import impose_booklet
from .display import Face
from .imposition import grid, sheets, tiles
from .layout import DeckFaces, lay_out_cards
from .model import Board, Game
from .options import Options
from .render import SheetWriter, atomic_target
from .rulebook import check_rulebook, render_text, write_rulebook
from .units import PAPERS
from .validation import check_data


@dataclass
class Built:
    file: str
    kind: str
    pages: int
    sha256: str
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"file": self.file, "kind": self.kind, "pages": self.pages, **self.extra, "sha256": self.sha256}


def validate(game: Game, bleed: float = 3.0) -> list[Finding]:
    """All findings for a game: its data, its rules, and every card laid out with its layouts."""
    findings = check_data(game)
    if not any(f.severity == "error" for f in findings):
        for deck in game.decks.values():
            findings.extend(lay_out_cards(game, deck, bleed).findings)
        for board in game.boards.values():
            findings.extend(lay_out_board(game, board, warnings=True)[1])
        findings.extend(check_rulebook(game))
    return findings


def build_game(game: Game, out: Path, options: Options) -> list[Built]:
    """Every document of `game` into out/<game id>/, then its manifest. Nothing is written if validation fails."""
    findings = check_data(game)
    if any(f.severity == "error" for f in findings):
        raise GameInvalid(findings)
    laid_out = {deck_id: lay_out_cards(game, deck, options.bleed, warnings=False) for deck_id, deck in game.decks.items()}
    boards = {board_id: lay_out_board(game, board, options.seed) for board_id, board in game.boards.items()}
    rules = render_text(game) if game.rulebook else None
    findings = [f for deck in laid_out.values() for f in deck.findings] + [f for _, fs in boards.values() for f in fs]
    findings += rules.findings if rules else []
    if any(f.severity == "error" for f in findings):
        raise GameInvalid(findings)
    folder = out / game.id
    built = [card_sheets(game, [deck_id], laid_out, folder / f"cards-{deck_id}.pdf", "cards", options)
             for deck_id, deck in game.decks.items() if deck.component == "cards"]
    tokens = [deck_id for deck_id, deck in game.decks.items() if deck.component == "tokens"]
    if tokens:
        built.append(card_sheets(game, tokens, laid_out, folder / "tokens.pdf", "tokens", options))
    for stem in dict.fromkeys(board.file for board in game.boards.values()):
        members = [board for board in game.boards.values() if board.file == stem]
        built.append(board_sheets(game, members, {b.id: boards[b.id][0] for b in members}, folder / f"{stem}.pdf", options))
    if rules is not None:
        built += rulebook_files(game, rules.markdown, folder, options)
    write_manifest(game, folder, built, options)
    return built


def card_sheets(game: Game, deck_ids: list[str], laid_out: dict[str, DeckFaces], final: Path, kind: str,
                options: Options) -> Built:
    """One PDF holding the sheets of the given decks, one deck after the other, fronts and their backs."""
    temporary = atomic_target(final)
    try:
        writer = SheetWriter(temporary, f"{game.title}: {kind}", options.greyscale)
        per_sheet = {}
        for deck_id in deck_ids:
            deck, faces = game.decks[deck_id], laid_out[deck_id]
            layout = grid(PAPERS[options.paper], deck.face_size, options.bleed, options.crop_marks,
                          fold=options.duplex == "fold", packing=deck.packing, shape=deck.shape)
            per_sheet[deck_id] = layout.per_sheet
            uses = Counter(faces.fronts) + Counter(faces.backs)
            writer.start_section({index for index, number in uses.items() if number > 1})
            for sheet in sheets(faces.fronts, faces.backs, layout, options.duplex):
                writer.sheet(sheet, faces.faces)
        writer.save()
        digest = sha256(temporary)
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)
    counts = {deck_id: game.decks[deck_id].total for deck_id in deck_ids}
    extra = ({"deck": deck_ids[0], "cards": counts[deck_ids[0]], "per_sheet": per_sheet[deck_ids[0]]}
             if kind == "cards" else {"decks": counts, "per_sheet": per_sheet})
    return Built(final.name, kind, writer.pages, digest, extra)


def board_sheets(game: Game, members: list[Board], faces: dict[str, Face], final: Path, options: Options) -> Built:
    """One PDF with each board at 100 %: on one page when it fits the paper, else tiled with overlaps."""
    temporary = atomic_target(final)
    tiling = {}
    try:
        writer = SheetWriter(temporary, f"{game.title}: {final.stem}", options.greyscale)
        for board in members:
            plan = tiles(board.size, PAPERS[options.paper], f"{game.title} · {board.name}")
            tiling[board.id] = f"{plan.columns}x{plan.rows}"
            writer.start_section(set())
            for sheet in plan.sheets:
                writer.sheet(sheet, [faces[board.id]])
        writer.save()
        digest = sha256(temporary)
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)
    seeds = {b.id: b.seed if options.seed is None else options.seed for b in members if b.place}
    extra = {"boards": [b.id for b in members], "tiles": tiling, **({"seeds": seeds} if seeds else {})}
    return Built(final.name, "map" if final.stem == "map" else "board", writer.pages, digest, extra)


def rulebook_files(game: Game, markdown: str, folder: Path, options: Options) -> list[Built]:
    """rules.pdf, and rules-booklet.pdf when the game or the build asks for one."""
    paper = game.rulebook.paper or ("letter" if options.paper in ("letter", "tabloid") else "a4")
    built = []
    final = folder / "rules.pdf"
    temporary = atomic_target(final)
    try:
        pages = write_rulebook(game, markdown, temporary, paper)
        digest = sha256(temporary)
        if options.booklet or game.rulebook.booklet:
            booklet_final = folder / "rules-booklet.pdf"
            booklet_temporary = atomic_target(booklet_final)
            try:
                sheet = "letter" if paper == "letter" else "a4"
                sides = impose_booklet(temporary, booklet_temporary, sheet)
                built.append(Built(booklet_final.name, "booklet", sides, sha256(booklet_temporary),
                                   {"paper": f"{sheet} landscape", "rulebook_pages": pages}))
                os.replace(booklet_temporary, booklet_final)
            finally:
                booklet_temporary.unlink(missing_ok=True)
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)
    return [Built(final.name, "rules", pages, digest, {"paper": paper})] + built


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_manifest(game: Game, folder: Path, built: list[Built], options: Options) -> Path:
    manifest = {
        "game": game.id,
        "inputs": input_key(game.root, options.as_dict()),
        "title": game.title,
        "muster": __version__,
        "options": options.as_dict(),
        "decks": {d.id: {"declared": d.size, "cards": d.total} for d in game.decks.values()},
        "files": [b.as_dict() for b in built],
    }
    final = folder / "manifest.json"
    temporary = atomic_target(final)
    try:
        temporary.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)
    return final
