"""The new-session dialog shows the chosen dialogue's token estimate, without calling a model."""

from __future__ import annotations

from ragtui.tui.dialogs.new_session import NewSessionScreen

from .conftest import SIZE, notifications, static_text


async def test_the_new_session_dialog_shows_an_estimate_that_follows_the_choice(make_app, server):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        before = len(server.requests)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        first = static_text(app, "#new-estimate")
        assert first.startswith("Estimate (3.0 turns): user ") and "judge " in first and "set [prices]" in first
        await pilot.press("down")  # another scenario: another estimate
        await pilot.pause()
        assert static_text(app, "#new-estimate") != first
        assert len(server.requests) == before  # no model was asked


async def test_a_broken_persona_file_is_named_and_the_others_offered(make_app, tui_config):
    broken = tui_config.personas / "en" / "angry.toml"
    broken.write_text('name = "angry"\nlanguage = "en"\npersona = """half-writ', encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)  # the other personas can still be chosen
        warned = [n for n in notifications(app) if str(broken) in n]
        assert len(warned) == 1 and "not valid TOML" in warned[0]
