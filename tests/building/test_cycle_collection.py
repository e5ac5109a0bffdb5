"""The cycle collector during and after a build (kit.without_cycle_collection): off while the game is built; then
what the build left lies in the oldest generation, as collections would have put it, so that the first young
collection after it does not walk it all; and a cycle it dropped is still collected."""

from __future__ import annotations

import gc
import weakref

from generator.building.kit import without_cycle_collection


class Node:
    pass


def _in_generation(thing: object, generation: int) -> bool:
    return any(found is thing for found in gc.get_objects(generation=generation))


def test_what_a_build_left_is_in_the_oldest_generation_and_its_cycles_are_still_collected():
    gc.unfreeze()  # what earlier tests froze (the preview's): nothing frozen, as in a build's process
    gc.collect()  # the generations' counts at nought: no collection of the older ones cascades below
    with without_cycle_collection():
        assert not gc.isenabled()
        kept = [[index] for index in range(20_000)]  # far more than a young collection's threshold
        cycle = Node()
        cycle.itself = cycle
        dropped = weakref.ref(cycle)
        del cycle
    assert gc.isenabled()
    assert gc.get_count()[0] < gc.get_threshold()[0]  # no young collection pending over the build's objects
    assert _in_generation(kept, 2) and _in_generation(kept[-1], 2)
    assert gc.get_freeze_count() == 0  # thawed: later full collections walk it as ever
    gc.collect()
    assert dropped() is None


def test_what_was_frozen_before_a_build_stays_frozen():
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with without_cycle_collection():
            pass
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
