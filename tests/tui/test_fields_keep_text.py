"""Tab into a text field and type: what is typed goes after what the field holds, nothing of
it is replaced (a field that selected all its text on focus lost it to the first key)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_persona_file
from ragtui.tui.screens.personas_screen import PersonasScreen

from .conftest import SIZE, open_recorded


async def tab_to(pilot, selector: str) -> Input:  # noqa: ANN001 - a textual Pilot
    field = pilot.app.screen.query_one(selector, Input)
    for _ in range(8):
        if pilot.app.focused is field:
            break
        await pilot.press("tab")
    assert pilot.app.focused is field
    return field


async def test_typing_after_tab_into_a_personas_description_adds_to_it(make_app, tui_config: Config):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PersonasScreen) and screen.original == "angry"
        field = await tab_to(pilot, "#p-description")
        before = field.value
        assert before
        await pilot.press(*" and loud")
        await pilot.pause()
        assert field.value == before + " and loud"  # what the screen shows
        await pilot.press("ctrl+s")
        await pilot.pause()
    saved = load_persona_file(tui_config.user_personas / "en" / "angry.toml")
    assert saved.description == before + " and loud"  # what is stored


# The dialogs of the main screen with a text field: the key that opens one, the field.
TEXT_FIELDS = [
    ("l", "#label-note"),
    ("x", "#export-path"),
    ("f", "#fork-model"),
    ("n", "#free-question"),
]


@pytest.mark.recorded
@pytest.mark.parametrize(("key", "selector"), TEXT_FIELDS, ids=[s for _, s in TEXT_FIELDS])
async def test_typing_after_tab_into_a_dialogs_text_field_adds_to_it(make_app, key: str, selector: str):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await pilot.press(key)
        await pilot.pause()
        field = app.screen.query_one(selector, Input)
        if not field.value:  # what an earlier edit left there
            field.value = "kept"
        before = field.value
        await tab_to(pilot, selector)
        await pilot.press(*"-typed")
        await pilot.pause()
        assert field.value == before + "-typed"
