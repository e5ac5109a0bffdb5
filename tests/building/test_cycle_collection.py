"""The cycle collector around a build (kit.without_cycle_collection): off while the game is built; on again after
it, so that the cycles the build dropped are collected in a process that goes on (watch, a kit's workers, the
tests); left off, and what the build made frozen, when the process ends with the build."""

from __future__ import annotations

import gc
import weakref

from generator.building.kit import without_cycle_collection


class Node:
    pass


def dropped_cycle() -> weakref.ref:
    cycle = Node()
    cycle.itself = cycle
    return weakref.ref(cycle)


def test_in_a_process_that_goes_on_the_cycles_a_build_dropped_are_collected():
    with without_cycle_collection():
        assert not gc.isenabled()
        dropped = dropped_cycle()
    assert gc.isenabled()
    gc.collect()
    assert dropped() is None


def test_a_build_that_ends_the_process_leaves_the_collector_off_and_its_objects_frozen():
    frozen = gc.get_freeze_count()
    try:
        with without_cycle_collection(ending=True):
            kept = [[index] for index in range(1000)]
        assert not gc.isenabled()
        assert gc.get_freeze_count() >= frozen + len(kept)
    finally:
        gc.unfreeze()
        gc.enable()
