"""Help lists every key of every screen; the command palette finds every screen by name."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from textual.command import CommandList, CommandPalette
from textual.screen import Screen
from textual.widgets import Static

import ragtui.tui
from ragtui.tui.dialogs.common import HelpScreen
from ragtui.tui.dialogs.dialog import Dialog
from ragtui.tui.help_text import EVERYWHERE, SCREENS, help_text, key_name, ragtui_bindings, screen_class
from ragtui.tui.screens.too_small import TooSmallScreen

from .conftest import settle


def screen_classes() -> set[type[Screen]]:
    """Every full screen (not a dialog) defined in ragtui.tui."""
    for module in pkgutil.walk_packages(ragtui.tui.__path__, "ragtui.tui."):
        importlib.import_module(module.name)
    found: set[type[Screen]] = set()
    todo: list[type] = [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("ragtui.tui.") and not issubclass(sub, Dialog | TooSmallScreen):
                found.add(sub)
    return found


def sections(text: str) -> dict[str, str]:
    """Help's text by heading (a line that does not start with a space)."""
    found: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            current = line
        found.setdefault(current, []).append(line)
    return {heading: "\n".join(lines) for heading, lines in found.items()}


def keys_of(line: str) -> list[str]:
    """The keys of one of Help's key lines: ``  d / Delete Delete the session`` → d, Delete."""
    return [key.strip() for key in line[2:13].split(" / ")] if line.startswith("  ") else []


def test_every_screen_has_a_section_in_help():
    listed = {screen_class(module, name) for _, module, name in SCREENS}
    missing = {cls.__name__ for cls in screen_classes()} - {cls.__name__ for cls in listed}
    assert not missing, f"screens missing from Help: {missing}"


@pytest.mark.parametrize(
    ("heading", "module", "name"), [*SCREENS, EVERYWHERE], ids=[h for h, _, _ in [*SCREENS, EVERYWHERE]]
)
def test_help_lists_every_key_of_the_screen(heading: str, module: str, name: str):
    shown = sections(help_text())
    assert heading in shown, heading
    listed_keys = {key for line in shown[heading].splitlines()[1:] for key in keys_of(line)}
    for binding in ragtui_bindings(screen_class(module, name)):
        assert key_name(binding) in listed_keys, f"{heading}: key {key_name(binding)} is not in Help"


def test_help_gives_the_main_screen_keys_its_footer_leaves_out():
    main = sections(help_text())["Main screen"]
    main_keys = {key for line in main.splitlines()[1:] for key in keys_of(line)}
    assert {"m", "p", "c", "f", "r", "u"} <= main_keys  # never in the main footer: Help has them
    assert "every session" in main  # what u shows without a run, as the queue says


async def test_f1_shows_the_help_text(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert str(app.screen.query_one("#help-text Static", Static).render()) == help_text()


def palette_titles(app) -> list[str]:  # noqa: ANN001
    return [command.title for command in app.get_system_commands(app.screen)]


async def test_the_palette_offers_every_screen_from_the_main_screen_and_the_others(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screens = {"Sessions", "Personas", "Runs", "Compare runs", "Verdicts", "To label", "Help", "New session"}
        assert screens <= set(palette_titles(app))
        await pilot.press("R")
        await pilot.pause()
        assert {"Sessions", "Personas", "Compare runs", "Verdicts", "To label", "Help"} <= set(palette_titles(app))


@pytest.mark.parametrize("query", ["compare", "to label", "sessions"])
async def test_typing_in_the_palette_finds_the_screen(make_app, query):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*query)
        await settle(pilot)
        results = app.screen.query_one(CommandList)
        prompts = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert any(query in p.lower() for p in prompts), prompts
