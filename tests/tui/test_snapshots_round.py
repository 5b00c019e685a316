"""SVG snapshots of the fork, label and to-label screens at 80×24 and 220×60, after one
scripted dialogue with pinned times (the same conventions as ``test_snapshots``)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from ragtui.core.record.store import Store

from .test_snapshots import SIZES, pin_time, run_dialogue, steady


def _after_a_dialogue(store: Store, key: str):
    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        pin_time(store)
        await pilot.press(key)
        await steady(pilot)

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_fork_dialog(snap_compare, make_app, store: Store, size):
    assert snap_compare(make_app(), terminal_size=size, run_before=_after_a_dialogue(store, "f"))


@pytest.mark.parametrize("size", SIZES)
def test_label_dialog(snap_compare, make_app, store: Store, size):
    assert snap_compare(make_app(), terminal_size=size, run_before=_after_a_dialogue(store, "l"))


@pytest.mark.parametrize("size", SIZES)
def test_to_label_queue(snap_compare, make_app, store: Store, size):
    assert snap_compare(make_app(), terminal_size=size, run_before=_after_a_dialogue(store, "u"))
