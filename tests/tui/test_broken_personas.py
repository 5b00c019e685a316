"""Persona files that cannot be read: every one listed in the persona editor by name and reason,
opened as text, fixed and saved there; named once by the new-session dialog, not on every n."""

from __future__ import annotations

from textual.widgets import OptionList, TextArea

from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.screens.personas_screen import PersonasScreen

from .conftest import SIZE, notifications, static_text

HALF_WRITTEN = 'name = "angry"\nlanguage = "en"\npersona = """half-writ'
FIXED = 'name = "angry"\nlanguage = "en"\npersona = """Angry, and says so."""\n'
TOO_HOT = 'name = "mine"\nlanguage = "en"\ntemperature = 9\npersona = "Mine."\n'


def option_texts(names: OptionList) -> list[str]:
    return [str(names.get_option_at_index(i).prompt) for i in range(names.option_count)]


async def test_every_broken_persona_file_is_listed_and_can_be_fixed_there(make_app, tui_config):
    (tui_config.personas / "en" / "angry.toml").write_text(HALF_WRITTEN, encoding="utf-8")
    mine = tui_config.user_personas / "en" / "mine.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text(TOO_HOT, encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, PersonasScreen)
        assert "2 file(s) could not be read" in static_text(app, "#personas-title")
        names = app.screen.query_one("#persona-names", OptionList)
        listed = option_texts(names)
        assert "⚠ angry.toml — is not valid TOML: Unterminated string (at end of document) — fix the file" in listed
        assert "⚠ mine.toml — temperature must be between 0 and 2, got 9" in listed
        assert "angry" not in listed  # the persona itself cannot be offered

        await pilot.press("end", "up")  # the broken angry.toml: open as text, its reason below
        await pilot.pause()
        text = app.screen.query_one("#p-text", TextArea)
        assert text.text == HALF_WRITTEN
        assert "is not valid TOML" in static_text(app, "#persona-error")
        text.load_text(FIXED)  # fixed by hand
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = tui_config.user_personas / "en" / "angry.toml"  # the shipped file stays as installed
        assert saved.read_text(encoding="utf-8") == FIXED
        listed = option_texts(names)
        assert "angry (edited)" in listed and not any(t.startswith("⚠ angry.toml") for t in listed)
        assert "1 file(s) could not be read" in static_text(app, "#personas-title")


async def test_a_broken_file_is_named_once_not_on_every_new_session(make_app, tui_config):
    (tui_config.personas / "en" / "angry.toml").write_text(HALF_WRITTEN, encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewSessionScreen)
            await pilot.press("escape")
            await pilot.pause()
        assert len([n for n in notifications(app) if "angry" in n and "not valid TOML" in n]) == 1
