"""Fixtures for the TUI tests: the app wired to the fake server, a throw-away personas folder,
and helpers that read what the operator sees."""

from __future__ import annotations

import shutil
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


def pane_text(app: RagtuiApp, role: str) -> str:
    """Everything a pane shows, as plain text (streamed messages included)."""
    pane = app.screen.query_one(f"#pane-{role}", RolePane)
    parts: list[str] = []
    for child in pane.children:
        if isinstance(child, MessageView):
            parts.append(str(child.query_one(".heading", Static).render()))
            parts.append(child.text)
        elif isinstance(child, Static):
            parts.append(str(child.render()))
    return "\n".join(parts)


def static_text(app: RagtuiApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def notifications(app: RagtuiApp) -> list[str]:
    return [n.message for n in app._notifications]


async def settle(pilot) -> None:  # noqa: ANN001 - a textual Pilot
    """Let workers finish and the screen catch up; never sleep."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()
