"""One way to submit and cancel in every dialog, each with its own footer; New session's last
choice kept across restarts."""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

import ragtui.tui
from ragtui.core.config import paths
from ragtui.core.store.labels import session_labels
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from ragtui.tui.dialogs.dialog import Dialog
from ragtui.tui.dialogs.fork_screen import ForkScreen
from ragtui.tui.dialogs.label_dialog import LabelScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen

from .conftest import open_recorded, settle, wait_until


def modal_classes() -> list[type[ModalScreen]]:
    """Every modal screen class defined anywhere in ragtui.tui."""
    for module in pkgutil.walk_packages(ragtui.tui.__path__, "ragtui.tui."):
        importlib.import_module(module.name)
    found: list[type[ModalScreen]] = []
    todo: list[type] = [ModalScreen]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("ragtui.tui.") and sub is not Dialog:
                found.append(sub)
    return found


def test_every_modal_follows_the_dialog_convention():
    classes = modal_classes()
    assert len(classes) >= 8  # confirm, unsaved, export, help, fork, label, new session, re-judge
    for cls in classes:
        assert issubclass(cls, Dialog), f"{cls.__name__} is a modal that is not a Dialog"
        keys = cls._merge_bindings().key_to_bindings
        assert keys["ctrl+s"][0].action == "submit", f"{cls.__name__}: ctrl+s does not submit"
        assert keys["escape"][0].action == "cancel", f"{cls.__name__}: Escape does not cancel"
        assert "compose" not in cls.__dict__, f"{cls.__name__} overrides compose: its footer would go"
        assert cls.action_submit is not Dialog.action_submit, f"{cls.__name__} has no submit"


def keys_in_footer(app: RagtuiApp) -> list[str]:
    """The keys in the footer the active screen shows (its own, not the one behind)."""
    footers = list(app.screen.query(Footer))
    assert footers, f"{type(app.screen).__name__} shows no footer of its own"
    return [f"{k.key} {k.description}" for k in footers[0].query(FooterKey)]


async def footer_of(pilot: Pilot) -> list[str]:
    """The active screen's footer keys, once it shows them: a footer fills itself in after the
    screen's first refresh, which a busy machine can put after the next pause."""
    await wait_until(pilot, lambda: keys_in_footer(pilot.app), f"{type(pilot.app.screen).__name__}'s footer keys")
    return keys_in_footer(pilot.app)


async def run_session(pilot: Pilot) -> None:
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("ctrl+r")
    await settle(pilot)


@pytest.mark.recorded
async def test_each_dialog_shows_its_own_footer_and_escape_closes_it(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:  # the smallest terminal: the footer still shows
        await open_recorded(pilot)
        main = app.screen
        for key in ("n", "f", "l", "x", "r", "f1"):
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, Dialog), key
            shown = await footer_of(pilot)
            assert any(entry.startswith("escape ") for entry in shown), (key, shown)
            await pilot.press("escape")
            await pilot.pause()
            while app.screen is not main and not isinstance(app.screen, Dialog):
                await pilot.press("escape")  # r opens the verdicts screen under its dialog
                await pilot.pause()
            assert app.screen is main, key


@pytest.mark.recorded
async def test_the_label_dialog_from_verdicts_has_its_own_footer_and_ctrl_s_saves(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_recorded(pilot)
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LabelScreen)
        shown = await footer_of(pilot)
        assert "ctrl+s Save label" in shown and not any("Re-judge" in entry for entry in shown)
        app.screen.query_one("#label-score", Input).value = "4"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
        assert [lab.score for lab in session_labels(store, store.sessions()[0].id)] == [4]


async def test_fork_submits_with_ctrl_s_and_shows_its_own_footer(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_session(pilot)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ForkScreen)
        shown = await footer_of(pilot)
        assert "ctrl+s Fork" in shown and not any("Verdicts" in entry for entry in shown)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, ForkScreen)
        assert len(store.sessions()) == 2  # the fork is a new session


async def test_new_sessions_last_choice_survives_a_restart(make_app, store: Store, tmp_path: Path):
    first = make_app()
    async with first.run_test(size=(140, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        first.screen.query_one("#scenario-list").highlighted = 1
        first.screen.query_one("#persona-list").highlighted = 2
        await pilot.press("ctrl+s")
        await settle(pilot)
    chosen = store.sessions()[0]
    state = paths.state_dir() / "tui-state.json"
    assert state.is_relative_to(tmp_path)  # the tests' state folder, never the user's
    kept = json.loads(state.read_text(encoding="utf-8"))["new_session"]
    assert (kept["scenario_id"], kept["persona"]) == (chosen.scenario_id, chosen.persona_name)
    assert not list(state.parent.glob(".*.tmp"))  # written atomically: no temporary file left

    again = make_app()  # a new app: nothing kept in memory
    async with again.run_test(size=(140, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert again.screen.query_one("#scenario-list").highlighted == 1
        assert again.screen.query_one("#persona-list").highlighted == 2


async def test_an_unreadable_state_file_means_no_last_choice(make_app):
    state = paths.state_dir() / "tui-state.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text("{not json", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.query_one("#scenario-list").highlighted == 0


async def test_screen_keys_do_not_open_a_screen_over_a_dialog(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        for key in ("o", "e", "R"):  # the scenario list has the focus: letters reach the app
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is dialog, key
