"""The files of a kit: each document built from the stages, written atomically, listed in the manifest."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from . import __version__
from .errors import Finding, GameInvalid, MusterError
from .boards import lay_out_board
from .cache import input_key
from .booklet import impose_booklet
from .display import Face
from .imposition import TILE_MARGIN, grid, sheets, tiles
from .layout import DeckFaces, lay_out_cards
from .pipeline import deck_batches
from .model import Board, Game
from .options import Options
from .render import SheetWriter
from .resources import atomic_target
from .rulebook import check_rulebook, render_text
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


class Staging:
    """New files are written beside their final names and moved into place together only when all are complete.

    Until commit() nothing in the output folder changes; a failure or a kill leaves the old files as they were
    (and at most a hidden temporary file, removed by the next build). On commit the old manifest goes first, then
    each file is renamed over its old version, then the new manifest is written: at every moment the manifest,
    when there is one, describes the files that are there.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.created = not folder.exists()  # removed again when nothing is committed to it
        folder.mkdir(parents=True, exist_ok=True)
        for leftover in folder.glob(".*.tmp"):
            leftover.unlink(missing_ok=True)
        self.pending: list[tuple[Path, Path]] = []

    def path(self, name: str) -> Path:
        final = self.folder / name
        temporary = atomic_target(final)
        self.pending.append((temporary, final))
        return temporary

    def commit(self, manifest: dict) -> None:
        previous = self.folder / "manifest.json"
        try:
            listed = {entry["file"] for entry in json.loads(previous.read_text(encoding="utf-8")).get("files", [])}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            listed = set()
        previous.unlink(missing_ok=True)
        for temporary, final in self.pending:
            os.replace(temporary, final)
        for name in listed - {final.name for _, final in self.pending}:  # a document the game no longer has
            if "/" not in name and name != "manifest.json":
                (self.folder / name).unlink(missing_ok=True)
        self.pending = []
        self.created = False
        target = atomic_target(self.folder / "manifest.json")
        target.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(target, self.folder / "manifest.json")

    def discard(self) -> None:
        for temporary, _ in self.pending:
            temporary.unlink(missing_ok=True)
        self.pending = []
        if self.created:
            self.created = False
            try:
                self.folder.rmdir()
            except OSError:  # something else has put files there since: they stay
                pass


def build_game(game: Game, out: Path, options: Options, parallel: bool = False) -> list[Built]:
    """Every document of `game` into out/<game id>/, then its manifest. Nothing is written if validation fails.

    With `parallel`, a big game's cards are laid out in a second process while this one draws them.
    """
    findings = check_data(game)
    if any(f.severity == "error" for f in findings):
        raise GameInvalid(findings)
    cards = [deck_id for deck_id, deck in game.decks.items() if deck.component == "cards"]
    tokens = [deck_id for deck_id, deck in game.decks.items() if deck.component == "tokens"]
    with deck_batches(game, cards + tokens, options.bleed, parallel) as batches:
        # Everything but the card sheets first: with a second process, it lays the cards out meanwhile.
        boards = {board_id: lay_out_board(game, board, options.seed) for board_id, board in game.boards.items()}
        rules = render_text(game) if game.rulebook else None
        findings = [f for _, fs in boards.values() for f in fs] + (rules.findings if rules else [])
        staging = Staging(out / game.id)
        try:
            others: list[Built] = []
            if not any(f.severity == "error" for f in findings):
                for stem in dict.fromkeys(board.file for board in game.boards.values()):
                    members = [board for board in game.boards.values() if board.file == stem]
                    faces = {b.id: boards[b.id][0] for b in members}
                    others.append(board_sheets(game, members, faces, staging.path(f"{stem}.pdf"), options))
                if rules is not None:
                    others += rulebook_files(game, rules.markdown, staging, options)
                if options.calibration:
                    others.append(calibration_page(game, staging.path("calibration.pdf"), options))
            deck_findings: dict[str, list[Finding]] = {deck_id: [] for deck_id in game.decks}
            built = [card_sheets(game, [deck_id], batches, staging.path(f"cards-{deck_id}.pdf"), "cards", options,
                                 deck_findings) for deck_id in cards]
            if tokens:
                built.append(card_sheets(game, tokens, batches, staging.path("tokens.pdf"), "tokens", options,
                                         deck_findings))
            findings = [f for deck in deck_findings.values() for f in deck] + findings
            if any(f.severity == "error" for f in findings):
                raise GameInvalid(findings)
            staging.commit(manifest(game, built + others, options))
        finally:
            staging.discard()
    return built + others


def card_sheets(game: Game, deck_ids: list[str], batches: dict[str, Iterable[DeckFaces]], target: Path, kind: str,
                options: Options, findings: dict[str, list[Finding]]) -> Built:
    """One PDF holding the sheets of the given decks, fronts and their backs. Consecutive decks printed alike
    (same face size, shape and packing: the two armies' counters, say) share their sheets.

    Sheets are drawn as the decks' batches arrive; each batch's findings go to `findings`. A face is drawn as a
    form once it has been used more than once in the batches so far: a shared back from its first sheet on.
    """
    writer = SheetWriter(target, f"{game.title}: {kind}", options.greyscale)
    per_sheet = {}
    for group in _alike(game, deck_ids):
        deck = game.decks[group[0]]
        try:
            layout = grid(PAPERS[options.paper], deck.face_size, options.bleed, options.crop_marks,
                          fold=options.duplex == "fold", packing=deck.packing, shape=deck.shape)
        except MusterError as exc:
            raise MusterError(f"deck '{deck.id}': {exc.message}", deck.where) from None
        per_sheet.update({deck_id: layout.per_sheet for deck_id in group})
        faces: list[Face] = []
        uses: Counter[int] = Counter()
        fronts: list[int] = []
        backs: list[int] = []
        writer.start_section(uses)
        for deck_id in group:
            offset = len(faces)  # decks sharing sheets: each deck's face indices follow the ones before it
            for batch in batches[deck_id]:
                findings[deck_id] += batch.findings
                faces += batch.faces
                new_fronts = [index + offset for index in batch.fronts]
                new_backs = [index + offset for index in batch.backs]
                uses.update(new_fronts + new_backs)
                fronts += new_fronts
                backs += new_backs
                ready = 0 if options.duplex == "none" else len(fronts) - len(fronts) % layout.per_sheet
                for sheet in sheets(fronts[:ready], backs[:ready], layout, options.duplex):
                    writer.sheet(sheet, faces)
                del fronts[:ready], backs[:ready]
        for sheet in sheets(fronts, backs, layout, options.duplex):
            writer.sheet(sheet, faces)
    writer.save()
    counts = {deck_id: game.decks[deck_id].total for deck_id in deck_ids}
    extra = ({"deck": deck_ids[0], "cards": counts[deck_ids[0]], "per_sheet": per_sheet[deck_ids[0]]}
             if kind == "cards" else {"decks": counts, "per_sheet": per_sheet})
    return Built(final_name(target), kind, writer.pages, sha256(target), extra)


def _alike(game: Game, deck_ids: list[str]) -> list[list[str]]:
    """The decks in runs that print on the same grid."""
    groups: list[list[str]] = []
    for deck_id in deck_ids:
        deck = game.decks[deck_id]
        if groups:
            last = game.decks[groups[-1][0]]
            if (last.face_size, last.shape, last.packing) == (deck.face_size, deck.shape, deck.packing):
                groups[-1].append(deck_id)
                continue
        groups.append([deck_id])
    return groups


def final_name(temporary: Path) -> str:
    """cards-germans.pdf from the staging name .cards-germans.pdf.1a2b3c.tmp."""
    return temporary.name[1:].rsplit(".", 2)[0]


def board_sheets(game: Game, members: list[Board], faces: dict[str, Face], target: Path, options: Options,
                 kind: str | None = None) -> Built:
    """One PDF with each board at 100 %: on one page when it fits the paper, else tiled with overlaps."""
    tiling = {}
    writer = SheetWriter(target, f"{game.title}: {final_name(target)}", options.greyscale)
    for board in members:
        plan = tiles(board.size, PAPERS[options.paper], f"{game.title} · {board.name}")
        tiling[board.id] = f"{plan.columns}x{plan.rows}"
        writer.start_section({})
        for sheet in plan.sheets:
            writer.sheet(sheet, [faces[board.id]])
    writer.save()
    name = final_name(target)
    if kind is not None:  # a page of Muster's own (the calibration page), not one of the game's boards
        return Built(name, kind, writer.pages, sha256(target))
    seeds = {b.id: b.seed if options.seed is None else options.seed for b in members if b.place}
    extra = {"boards": [b.id for b in members], "tiles": tiling, **({"seeds": seeds} if seeds else {})}
    return Built(name, "map" if name == "map.pdf" else "board", writer.pages, sha256(target), extra)


CALIBRATION = "calibration.yaml"  # a bundled layout


def calibration_page(game: Game, target: Path, options: Options) -> Built:
    """A page to print first: 100 mm rulers and a card at true size, drawn like any board."""
    paper = PAPERS[options.paper]
    board = Board("calibration", "calibration", "Calibration", CALIBRATION,
                  (paper[0] - 2 * TILE_MARGIN, paper[1] - 2 * TILE_MARGIN), None, {}, {}, 0, game.where)
    face, findings = lay_out_board(game, board)
    if face is None:
        raise GameInvalid(findings)
    return board_sheets(game, [board], {board.id: face}, target, options, kind="calibration")


def rulebook_files(game: Game, markdown: str, staging: Staging, options: Options) -> list[Built]:
    """rules.pdf, and rules-booklet.pdf when the game or the build asks for one."""
    from .rulebook_pdf import write_rulebook  # platypus takes 60 ms to import; most custom games have no rulebook

    paper = game.rulebook.paper or ("letter" if options.paper in ("letter", "tabloid") else "a4")
    target = staging.path("rules.pdf")
    pages = write_rulebook(game, markdown, target, paper)
    built = [Built("rules.pdf", "rules", pages, sha256(target), {"paper": paper})]
    if options.booklet or game.rulebook.booklet:
        sheet = "letter" if paper == "letter" else "a4"
        booklet = staging.path("rules-booklet.pdf")
        sides = impose_booklet(target, booklet, sheet)
        built.append(Built("rules-booklet.pdf", "booklet", sides, sha256(booklet),
                           {"paper": f"{sheet} landscape", "rulebook_pages": pages}))
    return built


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def manifest(game: Game, built: list[Built], options: Options) -> dict:
    return {
        "game": game.id,
        "inputs": input_key(game.root, options.as_dict()),
        "title": game.title,
        "muster": __version__,
        "options": options.as_dict(),
        "decks": {d.id: {"declared": d.size, "cards": d.total} for d in game.decks.values()},
        "files": [b.as_dict() for b in built],
    }
