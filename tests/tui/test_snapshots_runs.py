"""SVG snapshots of the runs and compare screens, from synthetic runs with pinned times."""

from __future__ import annotations

from textual.pilot import Pilot

from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

from .test_snapshots import SMALL, pin_time, steady

RESOLVED = {"resolution": (1.0, "resolved"), "retention": (1.0, None)}
UNRESOLVED = {"resolution": (0.0, "unresolved"), "retention": (0.5, None)}
UNSCORED = {"resolution": (None, None), "retention": (1.0, None)}


def three_runs(store: Store) -> None:
    for run, shift in (("20250401-0930-a", 0.0), ("20250402-0930-b", -0.2), ("20250403-0930-c", 0.1)):
        worse = shift < 0  # run b: one resolution regresses, one becomes unscored (never shown as 0)
        write_dialogue(
            store, run, "id-linking", "calm", [0.8 + shift / 2, 0.8 + shift], verdicts=UNRESOLVED if worse else RESOLVED
        )
        write_dialogue(store, run, "id-linking", "angry", [0.7, 0.7 - shift], verdicts=RESOLVED)
        write_dialogue(
            store,
            run,
            "outage",
            "calm",
            [0.6 + shift, None if worse else 0.9],
            verdicts=UNSCORED if worse else RESOLVED,
        )
    pin_time(store)


def test_runs_screen(snap_compare, make_app, store: Store):
    three_runs(store)

    async def run_before(pilot: Pilot) -> None:
        await pilot.press("R")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_compare_screen(snap_compare, make_app, store: Store):
    three_runs(store)

    async def run_before(pilot: Pilot) -> None:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("down", "enter")  # b compared with a
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)
