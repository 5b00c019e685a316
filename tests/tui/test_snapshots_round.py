"""SVG snapshots of the fork, label, to-label and try-expectation screens at 80×24, after one scripted
dialogue with pinned times (the same conventions as ``test_snapshots``)."""

from __future__ import annotations

from textual.pilot import Pilot

from ragtui.core.store.store import Store

from ..conftest import JUDGE
from .test_snapshots import SMALL, after_a_dialogue, pin_time, run_dialogue, steady
from .test_try_expectation import judge_answering


def test_fork_dialog(snap_compare, make_app, store: Store):
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "f"))


def test_label_dialog(snap_compare, make_app, store: Store):
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "l"))


def test_to_label_queue(snap_compare, make_app, store: Store):
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "u"))


def test_try_expectation_dialog(snap_compare, make_app, store: Store, server):
    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        pin_time(store)
        server.set_default(JUDGE, judge_answering(0.8))
        await pilot.press("v")
        await steady(pilot)
        await pilot.press("e")
        await steady(pilot)
        await pilot.press(*"apologises for the wait", "ctrl+s")
        await pilot.app.workers.wait_for_complete()
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)
