"""Persona files are never lost: edits go to the user's own folder, a rename asks first, and
the shipped personas stay as shipped (a user file over one can be undone with ctrl+r)."""

from __future__ import annotations

from textual.widgets import Input

from ragtui.core.config.settings import Config
from ragtui.core.content.persona_folders import folders_of, load_merged
from ragtui.core.content.personas import load_persona_file
from ragtui.tui.dialogs.common import ConfirmScreen, UnsavedChangesScreen
from ragtui.tui.dialogs.persona_rename import PersonaRenameScreen
from ragtui.tui.screens.personas_screen import PersonasScreen

from .conftest import notifications, static_text

SMALL = (80, 24)


async def open_editor(pilot) -> PersonasScreen:  # noqa: ANN001
    await pilot.press("e")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, PersonasScreen) and screen.original == "angry"
    return screen


async def rename_angry(pilot, new: str) -> None:  # noqa: ANN001
    """e, Tab to Name, type a new name, ctrl+s."""
    name = pilot.app.screen.query_one("#p-name", Input)
    for _ in range(3):  # the list, (the scrolling form at 80×24,) then Name
        if pilot.app.focused is name:
            break
        await pilot.press("tab")
    assert pilot.app.focused is pilot.app.screen.query_one("#p-name", Input)
    await pilot.press("ctrl+a", "ctrl+k", *new)  # clear Name, type the new one
    await pilot.press("ctrl+s")
    await pilot.pause()


async def test_renaming_a_shipped_persona_asks_and_keeps_the_shipped_file(make_app, tui_config: Config):
    shipped = tui_config.personas / "en" / "angry.toml"
    before = shipped.read_text(encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_editor(pilot)
        await rename_angry(pilot, "furious")
        assert isinstance(app.screen, PersonaRenameScreen)
        assert "angry" in static_text(app, "#rename-question") and "furious" in static_text(app, "#rename-question")
        await pilot.press("escape")  # cancel: nothing written, still editing
        await pilot.pause()
        assert isinstance(app.screen, PersonasScreen)
        assert not (tui_config.user_personas / "en" / "furious.toml").exists()

        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("r")  # rename
        await pilot.pause()
        assert isinstance(app.screen, PersonasScreen) and app.screen.original == "furious"
    assert load_persona_file(tui_config.user_personas / "en" / "furious.toml").name == "furious"
    assert shipped.read_text(encoding="utf-8") == before  # the shipped persona stays as shipped
    names = {p.name for p in load_merged(folders_of(tui_config), "en")}
    assert {"angry", "furious"} <= names  # -p angry still runs


async def test_renaming_your_own_persona_removes_only_after_choosing_rename(make_app, tui_config: Config):
    mine = tui_config.user_personas / "en"
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_editor(pilot)
        await rename_angry(pilot, "grumpy")
        await pilot.press("c")  # save as a copy: the shipped angry and the new grumpy
        await pilot.pause()
        assert (mine / "grumpy.toml").exists()
        await rename_angry_from(pilot, "grumpy", "cross")
        assert isinstance(app.screen, PersonaRenameScreen)
        await pilot.press("c")  # a copy again: both of the user's files are kept
        await pilot.pause()
        assert (mine / "grumpy.toml").exists() and (mine / "cross.toml").exists()
        await rename_angry_from(pilot, "cross", "sulky")
        await pilot.press("ctrl+s")  # ctrl+s in the question: rename
        await pilot.pause()
        assert app.screen.original == "sulky"
    assert not (mine / "cross.toml").exists() and (mine / "sulky.toml").exists() and (mine / "grumpy.toml").exists()


async def rename_angry_from(pilot, current: str, new: str) -> None:  # noqa: ANN001
    screen = pilot.app.screen
    assert screen.original == current
    screen.query_one("#p-name", Input).value = new
    await pilot.pause()
    await pilot.press("ctrl+s")
    await pilot.pause()


async def test_an_edit_overrides_the_shipped_persona_until_restored(make_app, tui_config: Config):
    shipped = tui_config.personas / "en" / "angry.toml"
    before = shipped.read_text(encoding="utf-8")
    override = tui_config.user_personas / "en" / "angry.toml"
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_editor(pilot)
        assert "ctrl+r" in static_text(app, "#personas-title")
        screen.query_one("#p-description", Input).value = "Edited by me"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert load_persona_file(override).description == "Edited by me"
        assert shipped.read_text(encoding="utf-8") == before
        angry = next(p for p in load_merged(folders_of(tui_config), "en") if p.name == "angry")
        assert angry.description == "Edited by me"  # the user's file wins: -p angry runs it

        await pilot.press("ctrl+r")  # restore shipped: asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert override.exists()
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not override.exists() and shipped.read_text(encoding="utf-8") == before
        assert screen.query_one("#p-description", Input).value != "Edited by me"
        assert any("Restored the shipped persona angry" in n for n in notifications(app))


async def test_a_shipped_persona_is_not_deleted(make_app, tui_config: Config):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_editor(pilot)
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, PersonasScreen)
        assert any("stays as shipped" in n for n in notifications(app))
    assert (tui_config.personas / "en" / "angry.toml").exists()


async def test_unsaved_changes_name_the_persona_shown_and_discard_leaves_name_alone(make_app, tui_config: Config):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_editor(pilot)
        await pilot.press("ctrl+t")  # duplicate: the form shows angry-copy, not saved yet
        await pilot.pause()
        assert screen.query_one("#p-name", Input).value == "angry-copy"
        screen.query_one("#persona-names").focus()
        await pilot.press("down")
        await pilot.pause()
        assert isinstance(app.screen, UnsavedChangesScreen)
        assert "angry-copy" in str(app.screen.query_one("Static").render())
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is screen and screen.original == "angry"  # the first in the list
        assert app.focused is not screen.query_one("#p-name", Input)
        await pilot.press("x")  # a key after Discard does not edit the name
        await pilot.pause()
        assert screen.query_one("#p-name", Input).value == "angry"

        await pilot.press("ctrl+t", "ctrl+n")  # a new persona over an unsaved copy: asks, naming it
        await pilot.pause()
        assert isinstance(app.screen, UnsavedChangesScreen)
        assert "The new persona angry-copy" in str(app.screen.query_one("Static").render())
        await pilot.press("d")
        await pilot.pause()
        assert app.focused is screen.query_one("#persona-names")  # where it was, not in Name
