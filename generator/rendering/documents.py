"""A kit's PDF documents drawn from faces laid out: card and token sheets from their decks' batches, and boards.

Nothing here needs the game's card data, templates or YAML: a Plan says all that drawing needs to know of the
game, so the process that only draws (building/pipeline.py) imports this module and not the stages before it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from ..core.errors import Finding, MusterError, has_errors
from ..core.files import sha256
from ..core.options import Options
from ..core.plan import BoardPrint, Built, Plan
from ..core.units import paper_size
from ..imposition.groups import grouped_sheets
from ..imposition.sheets import arrange, sheets
from ..imposition.tiles import label_boxes, tiles
from .render import SheetWriter

if TYPE_CHECKING:
    from ..core.display import DeckFaces, Face


def draw_decks(plan: Plan, batches: dict[str, Iterable[DeckFaces]], path: Callable[[str], Path], options: Options,
               done: Callable[[Built], None]) -> tuple[list[Built], list[Finding]]:
    """cards-<deck>.pdf for each deck of cards and one tokens.pdf, from the decks' batches as they come; with
    every deck's findings, in the order of the game's decks. `path(name)` gives a file's staging path; `done` is
    told of each document as it is finished."""
    findings: dict[str, list[Finding]] = {deck_id: [] for deck_id in plan.decks}
    documents = [([deck_id], f"cards-{deck_id}.pdf", "cards") for deck_id in plan.cards]
    documents += [(plan.tokens, "tokens.pdf", "tokens")] if plan.tokens else []
    built = []
    for deck_ids, file, kind in documents:
        built.append(card_sheets(plan, deck_ids, batches, file, path, kind, options, findings))
        done(built[-1])
    return built, [f for deck in findings.values() for f in deck]


def card_sheets(plan: Plan, deck_ids: list[str], batches: dict[str, Iterable[DeckFaces]], file: str,
                path: Callable[[str], Path], kind: str, options: Options, findings: dict[str, list[Finding]]) -> Built:
    """`file`, holding the sheets of the given decks, fronts and their backs (none for single-sided tokens, in
    every duplex mode). Consecutive decks printed alike (same face size, shape, packing, paper and sides: the two
    armies' counters, say) share their sheets.

    Sheets are drawn as the decks' batches arrive; each batch's findings go to `findings`. A face is drawn as a
    form once it has been used more than once in the batches so far: a shared back from its first sheet on.
    """
    target = path(file)
    writer = SheetWriter(target, f"{plan.title}: {kind}", options)
    per_sheet = {}
    for group in _alike(plan, deck_ids):
        deck = plan.decks[group[0]]
        duplex = "long" if deck.single_sided else options.duplex  # sheets() leaves out back pages with nothing on
        try:
            printing = deck.format
            arrangement = arrange(paper_size(printing.paper or options.paper), printing.face_size, options.bleed,
                                  options.crop_marks, fold=duplex == "fold", packing=printing.packing,
                                  shape=printing.shape, orientation=printing.orientation)
        except MusterError as exc:
            raise MusterError(f"deck '{deck.id}': {exc.message}", deck.where, code=exc.code) from None
        per_sheet.update({deck_id: arrangement.per_sheet for deck_id in group})
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
                writer.expect(batch.faces)
                new_fronts = [index + offset for index in batch.fronts]
                new_backs = [None if index is None else index + offset for index in batch.backs]
                uses.update(new_fronts + [index for index in new_backs if index is not None])
                fronts += new_fronts
                backs += new_backs
                ready = 0 if duplex == "none" or deck.groups else len(fronts) - len(fronts) % arrangement.per_sheet
                for sheet in sheets(fronts[:ready], backs[:ready], arrangement, duplex):
                    writer.sheet(sheet, faces)
                del fronts[:ready], backs[:ready]
        if deck.groups and any(has_errors(findings[deck_id]) for deck_id in group):
            continue  # a face that failed to lay out left no front: the blocks cannot be set, and the build fails
        last = (grouped_sheets(fronts, backs, deck.groups, arrangement, duplex) if deck.groups
                else sheets(fronts, backs, arrangement, duplex))
        for sheet in last:
            writer.sheet(sheet, faces)
    writer.save()
    counts = {deck_id: plan.decks[deck_id].total for deck_id in deck_ids}
    extra = ({"deck": deck_ids[0], "cards": counts[deck_ids[0]], "per_sheet": per_sheet[deck_ids[0]]}
             if kind == "cards" else {"decks": counts, "cards": sum(counts.values()), "per_sheet": per_sheet})
    return Built(file, kind, writer.pages, sha256(target), extra)


def _alike(plan: Plan, deck_ids: list[str]) -> list[list[str]]:
    """The decks in runs that print on the same grid of the same paper."""
    groups: list[list[str]] = []
    for deck_id in deck_ids:
        deck = plan.decks[deck_id]
        if groups and not deck.groups:  # a grouped deck has its sheets to itself
            last = plan.decks[groups[-1][0]]
            if not last.groups and (last.format.sheets, last.single_sided) == (deck.format.sheets, deck.single_sided):
                groups[-1].append(deck_id)
                continue
        groups.append([deck_id])
    return groups


def board_sheets(title: str, document: BoardPrint, target: Path, options: Options) -> Built:
    """One PDF with each board at 100 %: on one page when it fits the paper, else tiled with overlaps."""
    grids = {}  # each board's tiles, columns x rows
    writer = SheetWriter(target, f"{title}: {document.file}", options)
    writer.expect([document.faces[board.id] for board in document.boards])
    for board in document.boards:
        tiling = tiles(board.size, paper_size(board.paper or options.paper), f"{title} · {board.name}",
                       label_boxes(document.faces[board.id].items))
        grids[board.id] = f"{tiling.columns}x{tiling.rows}"
        writer.start_section({})
        for sheet in tiling.sheets:
            writer.sheet(replace(sheet, side="back") if board.id in document.backs else sheet,
                         [document.faces[board.id]])
    writer.save()
    if document.kind is not None:  # a page of Muster's own (the calibration page), not one of the game's boards
        return Built(document.file, document.kind, writer.pages, sha256(target))
    seeds = {b.id: b.seed if options.seed is None else options.seed for b in document.boards if b.seed is not None}
    extra = {"boards": [b.id for b in document.boards], "tiles": grids, **({"seeds": seeds} if seeds else {})}
    return Built(document.file, "map" if document.file == "map.pdf" else "board", writer.pages, sha256(target), extra)


def draw_boards(title: str, documents: list[BoardPrint], path: Callable[[str], Path], options: Options,
                done: Callable[[Built], None]) -> list[Built]:
    built = []
    for document in documents:
        built.append(board_sheets(title, document, path(document.file), options))
        done(built[-1])
    return built
