"""Fixtures for the TUI tests: the app wired to the fake server, a throw-away personas folder,
and helpers that read what the operator sees."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.widgets import Static

from ragtui.core.config.settings import Config
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from ragtui.tui.widgets.panes import MessageView, RolePane

from ..conftest import copy_of

SIZE = (140, 40)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "recorded: the test's database starts as a copy of the dialogue recorded once per worker"
    )


@pytest.fixture
def store(config: Config, request: pytest.FixtureRequest) -> Iterator[Store]:
    """The test's database; with ``@pytest.mark.recorded``, a copy of ``recorded_dialogue`` (a
    finished useless × angry dialogue), for a test that reads or edits a recorded dialogue
    rather than one it runs itself (open it with ``open_recorded``)."""
    if request.node.get_closest_marker("recorded"):
        copy_of(request.getfixturevalue("recorded_dialogue"), config.database)
    s = Store.open(config.database)
    yield s
    s.close()


async def open_recorded(pilot) -> None:  # noqa: ANN001 - a textual Pilot
    """Open the newest stored session (the recorded dialogue) from the sessions list."""
    await pilot.press("o")
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)


@pytest.fixture
def tui_config(config: Config, tmp_path: Path) -> Config:
    """The test config with its own copy of the shipped personas and its own user folder, so
    editing them touches nothing else."""
    personas = tmp_path / "personas"
    shutil.copytree(config.personas, personas)
    config.personas = personas
    config.user_personas = tmp_path / "user-personas"  # the editor writes here, never the real home
    return config


@pytest.fixture
def make_app(tui_config: Config, store: Store) -> Callable[[], RagtuiApp]:
    def make() -> RagtuiApp:
        return RagtuiApp(tui_config, resolve_endpoints(tui_config), store)

    return make


# Toasts are not drawn in snapshots: what one says is checked in ``app.notices``, and a toast
# in a screenshot would depend on the clock (it expires after seconds) and on how far the app's
# message queues got before the shot, which a busy machine changes. Clearing them before the
# shot was not enough: a notice still on its way through a screen below the top one arrived
# after the clearing, under load.
NO_TOASTS = "Toast { visibility: hidden; }"  # the rack sets its own display; a toast can be hidden


@pytest.fixture
def snap_compare(snap_compare):  # noqa: ANN001, ANN201 - pytest-textual-snapshot's own fixture
    """pytest-textual-snapshot's ``snap_compare``, on an app that draws no toasts."""

    def compare(app: RagtuiApp, *args, **kwargs) -> bool:  # noqa: ANN002, ANN003
        app.CSS = NO_TOASTS
        return snap_compare(app, *args, **kwargs)

    return compare


def pane_text(app: RagtuiApp, role: str) -> str:
    """Everything a pane shows, as plain text (streamed messages included)."""
    pane = app.screen.query_one(f"#pane-{role}", RolePane)
    parts: list[str] = []
    for child in pane.children:
        if isinstance(child, MessageView):
            # A message view just mounted may not have composed its heading yet: nothing shown.
            parts.extend(str(heading.render()) for heading in child.query(".heading").results(Static))
            parts.append(child.text)
        elif isinstance(child, Static):
            parts.append(str(child.render()))
    return "\n".join(parts)


def static_text(app: RagtuiApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def notifications(app: RagtuiApp) -> list[str]:
    """Every message the app has notified the operator of, oldest first, as the toast showed it.
    Read from the app's ``notices`` log, which keeps them: Textual's own list of toasts drops
    each one when its timeout passes, so on a busy machine a test would find it gone."""
    return app.notices.messages()


async def settle(pilot) -> None:  # noqa: ANN001 - a textual Pilot
    """Let workers finish and the screen catch up; never sleep."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


# How long a condition may take to come true before the test fails. Never how long a test
# waits: ``wait_until`` returns as soon as the condition holds. Generous, for a machine whose
# cores are busy with other work (the suite is run that way, docs/testing.md).
LIMIT_S = 120.0


async def wait_until(pilot, condition: Callable[[], object], what: str, limit_s: float = LIMIT_S) -> None:  # noqa: ANN001
    """Let the app run until ``condition()`` is true — for what arrives on its own (a stream's
    text, a thread's result) rather than after a key — failing after ``limit_s`` with ``what``.
    Each round lets the screen process its messages (``pilot.pause()``), no fixed sleep."""
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {limit_s:.0f} s: {what}")
        await pilot.pause()
