"""A support engineer's day in the TUI: each friction point of issue "the operator's day" as a
Pilot test that drives keys and checks what the operator sees (the layouts themselves are in
the snapshots at 80×24 and, for what only a wide terminal shows, test_wide_layouts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Footer, Input, TabbedContent, TextArea

from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_persona_file
from ragtui.core.runs.bootstrap import Overrides
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from ragtui.tui.dialogs.common import ExportScreen, HelpScreen, UnsavedChangesScreen
from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.dialogs.rejudge_screen import RejudgeScreen
from ragtui.tui.screens.main_screen import MainScreen
from ragtui.tui.screens.personas_screen import PersonasScreen
from ragtui.tui.screens.too_small import TooSmallScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, check_answers, check_line, verdict
from .conftest import notifications, open_recorded, pane_text, settle

# An operator's whole day, end to end: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow

SMALL = (80, 24)


def header(app: RagtuiApp) -> str:
    return str(app.screen_stack[0].query_one("#header").render_text())


def status(app: RagtuiApp) -> str:
    return str(app.screen_stack[0].query_one("#status").render())


def on_screen(app: RagtuiApp, widget) -> bool:  # noqa: ANN001
    """The widget is painted inside the terminal, not cut off or scrolled away."""
    region = widget.region
    width, height = app.size
    return region.area > 0 and region.right <= width and region.bottom <= height


async def run_session(pilot, keys: str = "ctrl+r") -> None:  # noqa: ANN001
    await pilot.press("n")
    await pilot.pause()
    await pilot.press(keys)
    await settle(pilot)


# -- small terminals -----------------------------------------------------------------------


async def test_at_80x24_every_dialog_keeps_its_actions_on_screen(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        for button_id in ("#start", "#start-run", "#cancel"):
            assert on_screen(app, app.screen.query_one(button_id, Button)), button_id
        assert on_screen(app, app.screen.query_one("#free-question", Input))
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and on_screen(app, app.screen.query_one("#close", Button))
        await pilot.press("escape", "e")
        await pilot.pause()
        assert isinstance(app.screen, PersonasScreen)
        for button_id in ("#p-save", "#p-new", "#p-duplicate", "#p-delete"):
            assert on_screen(app, app.screen.query_one(button_id, Button)), button_id


async def test_a_terminal_below_80x24_shows_one_line_until_it_grows(make_app):
    app = make_app()
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "Make the terminal larger" in str(app.screen.query_one("Static").render())
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)


async def test_modal_dialogs_cover_the_main_footer_with_their_own(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("n")
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        assert on_screen(app, footer) and footer.region.bottom == SMALL[1]


# -- lost work -----------------------------------------------------------------------------


async def test_persona_editor_asks_before_dropping_edits(make_app, tui_config: Config):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("e")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PersonasScreen) and screen.original == "angry"
        screen.query_one("#p-description", Input).value = "Edited"
        screen.query_one("#persona-names").focus()
        await pilot.press("down")  # to "beginner": asks first
        await pilot.pause()
        assert isinstance(app.screen, UnsavedChangesScreen)
        await pilot.press("escape")  # stay: the edit is still there, on the same persona
        await pilot.pause()
        assert app.screen is screen and screen.original == "angry"
        assert screen.query_one("#p-description", Input).value == "Edited"
        assert screen.query_one("#persona-names").highlighted == 0

        await pilot.press("down")
        await pilot.pause()
        await pilot.press("d")  # discard: moves on, the file is untouched
        await pilot.pause()
        assert screen.original == "beginner"
        path = tui_config.personas / "en" / "angry.toml"
        assert load_persona_file(path).description != "Edited"

        screen.query_one("#p-description", Input).value = "Saved from the prompt"
        await pilot.press("escape")  # leaving asks too; s saves, then leaves
        await pilot.pause()
        assert isinstance(app.screen, UnsavedChangesScreen)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        saved = tui_config.user_personas / "en" / "beginner.toml"  # the user's own copy; the shipped one stays
        assert load_persona_file(saved).description == "Saved from the prompt"


async def test_persona_list_is_sorted_by_name(make_app, tui_config: Config):
    (tui_config.personas / "en" / "aaa-late.toml").write_text(
        'name = "aaa-late"\nlanguage = "en"\npersona = "x"\n', encoding="utf-8"
    )
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("e")
        await pilot.pause()
        names = [p.name for p in app.screen.personas]
        assert names == sorted(names) and names[0] == "aaa-late"


async def test_cancel_while_judging_keeps_the_score_and_continuing_runs_the_rest(make_app, store: Store, server):
    # Turn 1's checks add up to overall 2 (score 0.40); turn 2's first check hangs once.
    state = {"turn": 0, "hung": False}
    turn_one, turn_two = check_answers(2), check_answers(4)

    def judge(body: dict) -> Reply:
        if "information needed" in check_line(body):  # every turn's checks start with this one
            state["turn"] += 1
        if state["turn"] < 2:
            return turn_one(body)
        if not state["hung"]:
            state["hung"] = True
            return Reply("yes", hang=True)
        return turn_two(body)

    server.set_default(JUDGE, judge)
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await run_session(pilot, "ctrl+s")
        for _ in range(4):  # customer, bot, verdict 1; customer 2
            await pilot.press("s")
            await settle(pilot)
        await pilot.press("s")  # bot 2
        await settle(pilot)
        await pilot.press("s")  # the verdict of turn 2 hangs
        await pilot.pause()
        await pilot.press("c")
        await settle(pilot)
        session = store.sessions()[0]
        assert session.stop_reason == "cancelled" and session.score is not None
        assert "score 0.40" in pane_text(app, "judge")  # not "unscored" beside a scored turn
        assert "{" not in pane_text(app, "judge").split("Turn 1 score")[1]  # no partial JSON left
        await pilot.press("s")  # continue: the missing verdict runs
        await settle(pilot)
        session = store.session(session.id)
        assert sorted(j.turn for j in session.judgments) == [1, 2] and session.status == "running"


# -- continue anywhere ----------------------------------------------------------------------


async def test_s_and_a_continue_a_cancelled_session_without_a_stale_end_line(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await run_session(pilot, "ctrl+s")
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert "cancelled · s/a continue" in header(app) and "s: continue" in status(app)
        assert "Dialogue ended: cancelled" in pane_text(app, "judge")
        await pilot.press("a")
        await settle(pilot)
        session = store.sessions()[0]
        assert (session.status, session.stop_reason) == ("finished", "max_turns")
        judge = pane_text(app, "judge")
        assert "cancelled" not in judge and "Dialogue ended: max_turns" in judge
        assert not any("is finished" in n for n in notifications(app))


async def test_an_interrupted_session_is_continued_like_a_cancelled_one(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await run_session(pilot, "ctrl+s")
        await pilot.press("s")
        await settle(pilot)
        session_id = store.sessions()[0].id
        store.set_status(session_id, "interrupted")  # its owner process went away
        app.screen.dialogue = None
        app.screen.open_session(session_id)
        await pilot.pause()
        assert "interrupted · s/a continue" in header(app)
        await pilot.press("a")
        await settle(pilot)
        assert store.session(session_id).stop_reason == "max_turns"


# -- one rendering path --------------------------------------------------------------------


async def test_a_reopened_session_looks_like_the_live_one(make_app, store: Store, server):
    server.set_default(JUDGE, Reply(verdict(4)))
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(pilot)
        live = {role: pane_text(app, role) for role in ("user", "bot", "judge")}
        assert "Turn 1 score" in live["judge"]
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert {role: pane_text(app, role) for role in ("user", "bot", "judge")} == live
        assert "finished: max_turns" in header(app)


@pytest.mark.recorded
async def test_versions_list_every_changed_criterion_and_count_the_older_ones(make_app, store: Store, server):
    app = make_app()
    async with app.run_test(size=(160, 45)) as pilot:
        await open_recorded(pilot)
        await pilot.press("v")
        await pilot.pause()
        for overall in (2, 3, 1, 2):  # versions 2–5 of turn 3, by the dialogue's own yes/no-check judge
            server.set_default(JUDGE, check_answers(overall))
            await pilot.press("r")
            await pilot.pause()
            await pilot.press("ctrl+s")
            await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VerdictScreen)
        assert screen.query_one(TabbedContent).active == "tab-versions"
        older = str(screen.query_one("#older-versions").render())
        assert "1 older version" in older and "v1" in older
        newest = str(screen.query("#versions Static").first().render())  # newest first
        assert "overall 1.0 → 2.0" in newest


# -- friction ------------------------------------------------------------------------------


async def test_the_hint_offers_m_only_when_the_customer_is_next(make_app):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await run_session(pilot, "ctrl+s")
        assert "m: type as customer" in status(app)
        await pilot.press("s")
        await settle(pilot)
        assert "Next: bot answer" in status(app) and "m:" not in status(app)
        await pilot.press("s")
        await settle(pilot)
        assert "Next: verdicts" in status(app) and "m:" not in status(app)


@pytest.mark.recorded
async def test_verdict_tabs_switch_with_brackets_and_numbers(make_app):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_recorded(pilot)
        await pilot.press("v")
        await pilot.pause()
        tabs = app.screen.query_one(TabbedContent)
        assert "[ ]" in str(app.screen.query_one("#verdict-title").render())
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert tabs.active == "tab-versions"
        await pilot.press("4")
        await pilot.pause()
        assert tabs.active == "tab-raw"
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert tabs.active == "tab-prompt"


@pytest.mark.recorded
async def test_rejudge_opens_on_same_judge_arrows_choose_and_an_edit_is_remembered(make_app):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await open_recorded(pilot)
        await pilot.press("r")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, RejudgeScreen)
        await pilot.press("down")  # no Enter needed
        await pilot.pause()
        assert dialog.mode == "model" and dialog.query_one("#model-name").display
        await pilot.press("down")
        await pilot.pause()
        assert dialog.mode == "prompt" and dialog.query_one("#prompt-text").display
        area = dialog.query_one("#prompt-text", TextArea)
        area.load_text(area.text + "\n# my edit\n")
        await pilot.pause()
        await pilot.press("escape")  # closed without re-judging
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        again = app.screen
        # Opens on the fixed default, not the last choice: the same ↓ lands in the same place.
        assert isinstance(again, RejudgeScreen) and again.mode == "same"
        await pilot.press("down", "down")
        await pilot.pause()
        assert again.mode == "prompt"
        assert again.query_one("#prompt-text", TextArea).text.endswith("# my edit\n")
        await pilot.press("x", "y")  # the editor is shown but not focused: it takes no keys
        await pilot.pause()
        assert again.query_one("#prompt-text", TextArea).text.endswith("# my edit\n")
        await pilot.press("up")  # "Another model": typing goes into its field
        await pilot.press(*"other-judge")
        await pilot.pause()
        assert again.mode == "model" and again.query_one("#model-name", Input).value == "other-judge"
        assert again.query_one("#prompt-text", TextArea).text.endswith("# my edit\n")


async def test_new_session_dialog_opens_on_the_last_choice(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        app.screen.query_one("#scenario-list").highlighted = 1
        app.screen.query_one("#persona-list").highlighted = 2
        await pilot.press("ctrl+s")
        await settle(pilot)
        first = store.sessions()[0]
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.query_one("#scenario-list").highlighted == 1
        assert app.screen.query_one("#persona-list").highlighted == 2
        await pilot.press("ctrl+s")
        await settle(pilot)
        second = store.sessions()[0]
        assert (second.scenario_id, second.persona_name) == (first.scenario_id, first.persona_name)


async def test_a_free_question_shows_as_the_question_not_adhoc(make_app):
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        app.screen.query_one("#free-question", Input).value = "Where is my invoice?"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "question “Where is my invoice?”" in header(app) and "adhoc" not in header(app)


async def test_export_defaults_outside_the_current_folder_and_keeps_a_bad_path(make_app, tmp_path: Path, monkeypatch):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    monkeypatch.chdir(checkout)
    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        await run_session(pilot, "ctrl+s")
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("x")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        field = dialog.query_one("#export-path", Input)
        assert not Path(field.value).is_relative_to(checkout)  # not the current folder
        assert "not finished" in str(dialog.query_one("#export-warning").render())
        (tmp_path / "a-file").write_text("x")
        field.value = str(tmp_path / "a-file" / "out.csv")  # its folder is a file
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and field.value.endswith("out.csv")
        assert str(dialog.query_one("#export-error").render())
        field.value = str(tmp_path / "good.csv")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and (tmp_path / "good.csv").exists()


async def test_judge_replies_stream_on_separate_lines(make_app, store: Store, server):
    from ragtui.tui.widgets.panes import RolePane

    app = make_app()
    async with app.run_test(size=(140, 40)) as pilot:
        pane = app.screen.query_one("#pane-judge", RolePane)
        pane.add_delta(1, '{"statements": ["a"]}')
        pane.add_delta(1, '{"verdicts": [')
        pane.flush()
        await pilot.pause()
        assert '{"statements": ["a"]}\n{"verdicts": [' in pane_text(app, "judge")


async def test_endpoint_problem_toast_is_titled_for_the_endpoint(tui_config: Config, store: Store):
    app = RagtuiApp(tui_config, {}, store, endpoint_error="No usable endpoint: nope")
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        titles = [n.title for n in app.notices]
        assert "Model endpoint" in titles and "No dialogues" not in titles


# -- start-up ------------------------------------------------------------------------------


async def test_the_app_connects_after_its_first_frame_and_finds_the_served_model(
    tui_config: Config, store: Store, server, monkeypatch
):
    server.clear()  # the fake server lists one model
    for role in tui_config.roles.values():
        role.model = None
    tui_config.endpoint.base_url = None
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    app = RagtuiApp(tui_config, None, store, overrides=Overrides())
    assert app.engine is None and app.connecting
    async with app.run_test(size=(140, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        assert app.engine is not None and app.connecting is None
        assert any("the one model" in n for n in notifications(app))
        assert "connecting" not in header(app).lower()
