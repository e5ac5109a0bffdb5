"""Laying out decks in a second process while this one draws them: the two halves of a big build, overlapped.

The child is forked once the game is loaded and checked, so it starts with everything it needs; it lays out the
decks in the order they will be drawn and sends each batch down a pipe as soon as it is ready. Batches are the
same either way, so a build's PDFs are byte-identical with or without the second process.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import traceback
from contextlib import contextmanager
from typing import BinaryIO, Iterator

from .display import pack, unpack
from .errors import Location, MusterError
from .layout import DeckFaces, lay_out_batches
from .model import Game

PARALLEL_FROM = 200  # card copies: below this, forking and the pipe cost more than drawing alongside saves
_LENGTH = struct.Struct("<Q")


@contextmanager
def deck_batches(game: Game, deck_ids: list[str], bleed: float, parallel: bool):
    """For each deck, in the order given (the order they are drawn in), an iterator of its batches."""
    copies = sum(card.count for deck_id in deck_ids for card in game.decks[deck_id].cards)
    if not parallel or copies < PARALLEL_FROM or not hasattr(os, "fork"):
        yield {deck_id: lay_out_batches(game, game.decks[deck_id], bleed, warnings=False) for deck_id in deck_ids}
        return
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which never returns from here
        os.close(read)
        _produce(game, deck_ids, bleed, os.fdopen(write, "wb"))
    os.close(write)
    stream = os.fdopen(read, "rb")
    try:
        yield {deck_id: _received(stream, deck_id) for deck_id in deck_ids}
    finally:
        stream.close()
        try:
            os.kill(child, signal.SIGKILL)  # done or not, it has nothing more to say
        except ProcessLookupError:
            pass
        os.waitpid(child, 0)


def _produce(game: Game, deck_ids: list[str], bleed: float, stream: BinaryIO) -> None:
    """The child: every deck's batches down the pipe, then an end of deck; a failure is sent as one message."""
    status = 0
    try:
        for deck_id in deck_ids:
            for batch in lay_out_batches(game, game.decks[deck_id], bleed, warnings=False):
                _send(stream, (deck_id, [pack(face) for face in batch.faces], batch.fronts, batch.backs,
                               batch.findings))
            _send(stream, (deck_id, None))
    except MusterError as exc:
        _send(stream, (None, exc.message, exc.where))
    except BrokenPipeError:  # the parent stopped reading: it failed, or was interrupted
        status = 1
    except BaseException:  # a bug: the parent reports it, with the child's traceback
        _send(stream, (None, "laying out failed:\n" + traceback.format_exc(), None))
        status = 1
    finally:
        try:
            stream.close()
        finally:
            os._exit(status)


def _send(stream: BinaryIO, message: tuple) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _received(stream: BinaryIO, deck_id: str) -> Iterator[DeckFaces]:
    """The batches of one deck as the child sends them."""
    while True:
        head = stream.read(_LENGTH.size)
        if len(head) < _LENGTH.size:
            raise MusterError("the process laying out the cards stopped without finishing")
        message = pickle.loads(stream.read(_LENGTH.unpack(head)[0]))
        if message[0] is None:
            _, text, where = message
            raise MusterError(text, where if isinstance(where, Location) else None)
        if message[0] != deck_id:
            raise MusterError(f"expected deck '{deck_id}' from the process laying out the cards, got '{message[0]}'")
        if message[1] is None:
            return
        _, faces, fronts, backs, findings = message
        yield DeckFaces([unpack(face) for face in faces], fronts, backs, findings)
