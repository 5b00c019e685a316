"""The other screens, driven by keys: sessions browser, verdicts and re-judging, export,
persona editor, help and command palette, and running without an endpoint."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, RadioButton, TextArea

from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_persona_file
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from ragtui.tui.dialogs.common import ConfirmScreen, ExportScreen, HelpScreen
from ragtui.tui.dialogs.rejudge_screen import RejudgeScreen
from ragtui.tui.screens.personas_screen import PersonasScreen
from ragtui.tui.screens.sessions_screen import SessionsScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen

from ..conftest import JUDGE, check_answers
from .conftest import SIZE, notifications, open_recorded, pane_text, settle, static_text


async def run_session(pilot) -> None:  # noqa: ANN001
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("ctrl+r")
    await settle(pilot)


async def test_sessions_browser_opens_and_deletes_after_confirmation(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await run_session(pilot)
        await run_session(pilot)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        await pilot.press("down", "enter")  # the older one: newest is listed first
        await pilot.pause()
        assert "Session #1" in str(app.screen.query_one("#header").render_text())
        assert "Go to Settings" in pane_text(app, "bot") and "Turn 3 · rubric v1 · 0.80" in pane_text(app, "judge")

        await pilot.press("o")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # declined: nothing happens
        await pilot.pause()
        assert len(store.sessions()) == 2
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert [s.id for s in store.sessions()] == [1]
        assert app.screen.query_one(DataTable).row_count == 1
        assert "Deleted session #2" in notifications(app)


@pytest.mark.recorded
async def test_verdict_detail_and_rejudge_store_and_show_a_new_version(make_app, store: Store, server):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
        detail = static_text(app, "#verdict-detail")
        assert "Turn 3 · rubric · version 1 · score 0.80" in detail and "overall       4.0/5" in detail
        # The verdict is built from yes/no checks: each is a step with a bar for its P(yes).
        assert "P(yes) ██████████ 100%" in detail and "every part" in detail
        assert "### SENTENCE ###" in app.screen.query_one("#prompt", TextArea).text
        raw = app.screen.query_one("#raw", TextArea).text  # every check, each with its reply
        assert raw.startswith("── 1. context_answers ──") and raw.count("\n→ yes") >= 3 and "\n→ no" in raw
        assert static_text(app, "#passages").strip()

        server.set_default(JUDGE, check_answers(2))
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RejudgeScreen)
        await pilot.press("ctrl+s")
        await settle(pilot)
        versions = [j for j in store.session(1).judgments if j.turn == 3]
        assert [(j.version, j.score) for j in versions] == [(1, pytest.approx(0.8)), (2, pytest.approx(0.4))]
        assert store.session(1).score == pytest.approx((0.8 + 0.8 + 0.4) / 3)
        columns = [str(c.render()) for c in app.screen.query(".version")]
        assert len(columns) == 2
        # The re-judge runs the dialogue's own judge (the yes/no checks), so criteria compare.
        assert "score 0.80 → 0.40" in columns[0] and "overall 4.0 → 2.0" in columns[0]  # newest first
        assert all("understanding" in c and "re-judged" not in columns[1] for c in columns)
        assert any("v2 scores 0.40 (was 0.80)" in n for n in notifications(app))

        # Another model: the request goes to that model, and the version records it.
        await pilot.press("r")
        await pilot.pause()
        app.screen.query_one("#how-model", RadioButton).value = True
        await pilot.pause()
        model_field = app.screen.query_one("#model-name", Input)
        model_field.value = "fake-judge-2"
        await pilot.press("ctrl+s")
        await settle(pilot)
        newest = max(store.session(1).judgments, key=lambda j: j.id)
        assert newest.version == 3 and server.chat_requests("fake-judge-2")

        # An edited prompt with an unknown slot is refused in the modal, before any request.
        await pilot.press("r")
        await pilot.pause()
        app.screen.query_one("#how-prompt", RadioButton).value = True
        await pilot.pause()
        editor = app.screen.query_one("#prompt-text", TextArea)
        editor.load_text(editor.text.replace("{{response}}", "{{reponse}}"))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, RejudgeScreen)
        assert "unknown slot {{reponse}}" in static_text(app, "#rejudge-error")
        editor.load_text(
            editor.text.replace("{{reponse}}", "{{response}}").replace('system = """', 'system = """EDITED. ')
        )
        await pilot.press("ctrl+s")
        await settle(pilot)
        newest = max(store.session(1).judgments, key=lambda j: j.id)
        assert newest.version == 4 and newest.prompt[0]["content"].lstrip().startswith("EDITED.")
        assert newest.details["rejudge"]["edited_prompt"] is True

        await pilot.press("escape")  # back on the main screen, the Judge pane shows the newest
        await pilot.pause()
        assert "Turn 3 · rubric v4" in pane_text(app, "judge")


@pytest.mark.recorded
async def test_export_writes_the_csv_and_notifies(make_app, tmp_path: Path):
    app = make_app()
    target = tmp_path / "out" / "session.csv"
    target.parent.mkdir()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert f"Exported session #1 to {target}" in notifications(app)
    text = target.read_text(encoding="utf-8-sig")
    assert text.startswith("config,user1,assistant1,check1") and "Go to Settings" in text


async def type_into(pilot, selector: str, text: str) -> None:  # noqa: ANN001
    widget = pilot.app.screen.query_one(selector)
    if isinstance(widget, TextArea):
        widget.load_text(text)
    else:
        widget.value = text
    await pilot.pause()


async def test_persona_editor_creates_edits_duplicates_and_deletes(make_app, tui_config: Config):
    folder = tui_config.user_personas / "en"  # the editor saves to the user's own folder
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, PersonasScreen)
        await pilot.press("ctrl+n")
        await type_into(pilot, "#p-name", "Bad Name")
        await type_into(pilot, "#p-text", "Talks like a pirate.\nAsks twice.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "not a valid persona name" in static_text(app, "#persona-error")
        assert not (folder / "Bad Name.toml").exists()

        await type_into(pilot, "#p-name", "pirate")
        await type_into(pilot, "#p-temperature", "hot")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "temperature must be a number" in static_text(app, "#persona-error")
        await type_into(pilot, "#p-temperature", "0.9")
        await type_into(pilot, "#p-description", "Nautical")
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = load_persona_file(folder / "pirate.toml")
        assert (saved.persona, saved.temperature, saved.description) == (
            "Talks like a pirate.\nAsks twice.",
            0.9,
            "Nautical",
        )
        assert '"""' in (folder / "pirate.toml").read_text()  # multi-line string: still hand-editable

        await type_into(pilot, "#p-description", "Nautical and loud")  # edit
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert load_persona_file(folder / "pirate.toml").description == "Nautical and loud"

        await pilot.press("ctrl+t")  # duplicate, then save the copy
        await pilot.pause()
        assert app.screen.query_one("#p-name", Input).value == "pirate-copy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert load_persona_file(folder / "pirate-copy.toml").persona == saved.persona

        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert not (folder / "pirate-copy.toml").exists() and (folder / "pirate.toml").exists()


async def test_help_screen_and_command_palette_entries(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for title in ("New session", "Step", "Auto-run", "Pause", "Re-judge a turn", "Export CSV", "Sessions"):
            assert title in titles


async def test_without_an_endpoint_the_app_explains_and_stays_usable(tui_config: Config, store: Store):
    tui_config.endpoint.base_url = None  # nothing configured: the embedded model would be used
    endpoints = resolve_endpoints(tui_config)
    assert endpoints["bot"].base_url is None
    app = RagtuiApp(tui_config, endpoints, store)
    async with app.run_test(size=SIZE) as pilot:
        header = str(app.screen.query_one("#header").render_text())
        assert "No model endpoint is configured" in header and "OPENAI_BASE_URL" in header
        await pilot.press("n")
        await pilot.pause()
        assert type(app.screen).__name__ == "MainScreen"
        assert any("OPENAI_BASE_URL" in n for n in notifications(app))
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)
        await pilot.press("escape", "e")
        await pilot.pause()
        assert isinstance(app.screen, PersonasScreen)
