"""Runs, comparison and fork in the TUI, driven with keys: the runs list with its trends,
Enter to compare, Enter again for the two dialogues side by side, replay from the runs
screen, and fork of an open session."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Label, Select, Static

from ragtui.core.runs.listing import sparkline
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.fork_screen import ForkScreen
from ragtui.tui.screens.compare_screen import CompareScreen, PairScreen
from ragtui.tui.screens.main_screen import MainScreen
from ragtui.tui.screens.runs_screen import RunsScreen
from stand_ins.fake_openai import Reply
from stand_ins.synthetic_runs import write_dialogue

from ..conftest import JUDGE, USER, check_answers
from .conftest import SIZE, notifications, settle, static_text


def two_runs(store: Store) -> None:
    write_dialogue(store, "20260101-run-a", "id-linking", "calm", [0.8, 0.8])
    write_dialogue(store, "20260101-run-a", "outage", "calm", [0.5, 0.5])
    write_dialogue(store, "20260102-run-b", "id-linking", "calm", [0.8, 0.4], customer=lambda t: f"b {t}")
    write_dialogue(store, "20260102-run-b", "outage", "calm", [0.9, 0.9])


def cell_texts(table: DataTable) -> list[str]:
    return [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]


async def open_compare(pilot) -> None:  # noqa: ANN001
    """Runs (R), then Enter: the newest run compared with the one before it."""
    await pilot.press("R")
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def test_runs_list_trends_compare_and_side_by_side(make_app, store: Store):
    two_runs(store)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        rows = cell_texts(app.screen.query_one("#runs", DataTable))
        assert rows[0].startswith("20260102-run-b") and "0.75" in rows[0] and "50%" in rows[0]
        assert rows[1].startswith("20260101-run-a") and "0.65" in rows[1]
        # The newest run is highlighted: its two pairs with their score across both runs.
        trends = [str(t.render()) for t in app.screen.query(".trend-row Label.trend").results(Label)]
        assert sorted(trends[1:]) == sorted([sparkline([0.5, 0.9]), sparkline([0.8, 0.6000000000000001])])
        assert "the pairs of 20260102-run-b" in static_text(app, "#trend-title")

        await pilot.press("enter")  # no base marked: the previous run is the base
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        summary = static_text(app, "#compare-summary")
        assert "run score 0.65 → 0.75" in summary and "1 regression(s), 1 fixed" in summary
        pairs = cell_texts(app.screen.query_one("#pairs", DataTable))
        assert pairs[0].startswith("id-linking × calm regression 0.80 0.60 -0.20 turn 1 regression")
        assert pairs[1].startswith("outage × calm improved 0.50 0.90 +0.40 – fixed")

        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PairScreen)
        base_side = " ".join(str(s.render()) for s in app.screen.query(".base").results(Static))
        new_side = " ".join(str(s.render()) for s in app.screen.query(".new").results(Static))
        assert "id-linking calm customer turn 1" in base_side and "score 0.80" in base_side
        assert "b 2" in new_side and "(differs)" in new_side and "score 0.40" in new_side
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)

        # b marks a base; Enter on the same run is refused with a clear note rather than a no-op.
        await pilot.press("down", "b")
        await pilot.pause()
        assert "Base: 20260101-run-a" in notifications(app)[-1]


async def test_compare_screen_says_why_runs_cannot_be_compared(make_app, store: Store):
    write_dialogue(store, "20260101-en", "id-linking", "calm", [0.8])
    write_dialogue(store, "20260102-other", "outage", "angry", [0.8])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_compare(pilot)
        assert isinstance(app.screen, CompareScreen)
        assert "no scenario × persona in common" in static_text(app, "#compare-summary")
        assert app.screen.query_one("#pairs", DataTable).row_count == 0


async def test_replay_from_the_runs_screen(make_app, store: Store, server):
    write_dialogue(store, "20260101-recorded", "id-linking", "calm", [0.8, 0.8], customer=lambda t: f"recorded {t}")
    server.set_default(JUDGE, check_answers(3))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)
        runs = store.run_ids()
        assert len(runs) == 2
        replay = store.session(store.sessions(run_id=runs[-1])[0].id)
        assert [m.text for m in replay.messages if m.role == "user"] == ["recorded 1", "recorded 2"]
        assert replay.score == 0.6 and replay.replay_of is not None
        assert "finished" in static_text(app, "#runs-status")
        assert app.screen.query_one("#runs", DataTable).row_count == 2


async def test_fork_an_open_session_as_another_persona(make_app, store: Store, server):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(pilot)
        parent = store.sessions()[0]
        assert parent.turns == 3

        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ForkScreen)
        app.screen.query_one("#fork-turn", Input).value = "9"
        await pilot.click("#fork")
        await pilot.pause()
        assert "from 1 to 3" in static_text(app, "#fork-error")  # and the dialog stays open
        app.screen.query_one("#fork-turn", Input).value = "1"
        app.screen.query_one("#fork-persona", Select).value = "angry"
        app.screen.query_one("#fork-model", Input).value = "other-bot-model"
        server.set_default("other-bot-model", Reply("An answer from the other model"))
        server.script(USER, Reply("The forked customer is angrier"))
        app.screen.query_one("#fork-turn", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen), static_text(app, "#fork-error")
        fork = store.sessions()[0]
        assert (fork.parent_session_id, fork.fork_turn, fork.persona_name) == (parent.id, 1, "angry")
        assert f"forked from session {parent.id} after turn 1" in static_text(app, "#status")
        assert f"Session #{fork.id}" in str(app.screen.query_one("#header").render_text())

        await pilot.press("a")
        await settle(pilot)
        fork = store.session(fork.id)
        assert fork.turns == 3 and fork.messages[2].text == "The forked customer is angrier"
        assert fork.messages[1].text == "Go to Settings > Account > Linked services."  # copied from the parent
        assert fork.messages[3].text == "An answer from the other model"
        assert fork.config["roles"]["bot"]["model"] == "other-bot-model"
        assert len(store.session(parent.id).messages) == 6  # the parent is untouched

        # Opening the parent shows what came from it.
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert f"forks: {fork.id} (after turn 1)" in static_text(app, "#status")


async def test_runs_and_compare_screens_show_the_dialogue_verdicts(make_app, store: Store):
    resolved = {"resolution": (1.0, "resolved"), "retention": (1.0, None)}
    write_dialogue(store, "20260101-run-a", "id-linking", "calm", [0.8], verdicts=resolved)
    write_dialogue(store, "20260101-run-a", "outage", "calm", [0.8], verdicts=resolved)
    write_dialogue(store, "20260102-run-b", "id-linking", "calm", [0.8], verdicts={"resolution": (0.0, "unresolved")})
    write_dialogue(store, "20260102-run-b", "outage", "calm", [0.8], verdicts={"resolution": (None, None)})
    write_dialogue(store, "20260103-run-c", "id-linking", "calm", [0.8])  # no dialogue verdicts at all
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        rows = cell_texts(app.screen.query_one("#runs", DataTable))
        # Resolution rate after score and pass: missing (–), 0% of one scored (one unscored, never 0), 100%.
        # run-b's pass rate is 50%: its unresolved dialogue does not pass (the rule of pass^1 and
        # of compare), its unscored resolution is no evidence either way.
        assert rows[0].startswith("20260103-run-c") and " 0.80 100% – " in rows[0]
        assert rows[1].startswith("20260102-run-b") and " 0.80 50% 0% " in rows[1]
        assert rows[2].startswith("20260101-run-a") and " 0.80 100% 100% " in rows[2]
        assert " █▁ " in rows[1]  # the resolution trend of run-a's set: 100% then 0%

        await pilot.press("down", "enter")  # run-b against the run before it, run-a
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        summary = static_text(app, "#compare-summary")
        assert "resolution rate 100% (2/2) → 0% (0/1), 1 unscored" in summary
        pairs = cell_texts(app.screen.query_one("#pairs", DataTable))
        assert pairs[0].startswith("id-linking × calm") and pairs[0].endswith(
            "resolved 1.00 → unresolved 0.00 1.00 → missing resolution regression"
        )
        assert pairs[1].endswith(
            "resolved 1.00 → unscored 1.00 → missing unscored in new"
        )  # never 0, never a regression
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PairScreen)
        verdicts = app.screen.query_one("#pair-verdicts")
        base_side, new_side = (str(s.render()) for s in verdicts.query(Static))
        assert "resolution resolved 1.00" in base_side and "retention 1.00" in base_side
        assert "resolution unresolved 0.00" in new_side
        await pilot.press("escape", "escape")
        await pilot.pause()

        await pilot.press("up", "enter")  # run-c, whose dialogues have no verdicts, against run-b
        await pilot.pause()
        summary = static_text(app, "#compare-summary")
        assert "run 20260103-run-c has no dialogue verdicts, so its resolution is missing" in summary
        pairs = cell_texts(app.screen.query_one("#pairs", DataTable))
        assert pairs[0].endswith("unresolved 0.00 → missing missing in new")


def runs_with_trials(store: Store) -> None:
    """Two runs of 3 trials a pair: outage × calm passes 3/3 then 2/3 (its second trial fails);
    id-linking × calm passes 2/3 (the third fails) then 1/3."""
    plan = {
        "20260101-base": {"outage": [0.8, 0.8, 0.8], "id-linking": [0.8, 0.8, 0.4]},
        "20260102-new": {"outage": [0.8, 0.4, 0.8], "id-linking": [0.8, 0.4, 0.4]},
    }
    for run, scenarios in plan.items():
        for scenario, scores in scenarios.items():
            for trial, value in enumerate(scores, start=1):
                write_dialogue(
                    store,
                    run,
                    scenario,
                    "calm",
                    [value],
                    trial=trial,
                    customer=lambda t, n=trial: f"trial {n} says {t}",
                )


async def test_runs_and_compare_screens_show_each_pairs_trials_and_pass_k(make_app, store: Store):
    runs_with_trials(store)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        table = app.screen.query_one("#runs", DataTable)
        assert [str(c.label) for c in table.columns.values()][2:4] == ["pass", "pass^K (K)"]
        rows = cell_texts(table)
        # new: pass (pass^1) (2/3 + 1/3) / 2 = 50%, pass^3 0; base: (1 + 2/3) / 2 = 83%, pass^3 0.50.
        assert rows[0].startswith("20260102-new") and " 50% 0.00 (3) " in rows[0]
        assert rows[1].startswith("20260101-base") and " 83% 0.50 (3) " in rows[1]
        assert "● passed ○ not" in static_text(app, "#trend-title")
        heading, *marks = [str(label.render()) for label in app.screen.query(".trial-marks")]
        assert heading == "trials"
        assert marks == ["●○○ pass^3 0.00", "●○● pass^3 0.00"]  # id-linking, outage: the new run's trials

        await pilot.press("enter")  # new against base
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        summary = static_text(app, "#compare-summary")
        assert "pass^1 0.83 → 0.50 · pass^3 0.50 → 0.00" in summary
        pairs = cell_texts(app.screen.query_one("#pairs", DataTable))
        outage = [row for row in pairs if row.startswith("outage × calm")]
        assert len(outage) == 3 and all(row.endswith("●●● pass^3 1.00 → ●○● pass^3 0.00") for row in outage)
        assert any(row.endswith("●●○ pass^3 0.00 → ●○○ pass^3 0.00") for row in pairs)


async def test_the_pair_screen_flips_through_the_trials(make_app, store: Store):
    runs_with_trials(store)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_compare(pilot)
        table = app.screen.query_one("#pairs", DataTable)
        first_outage = next(i for i, row in enumerate(cell_texts(table)) if row.startswith("outage × calm"))
        table.move_cursor(row=first_outage)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PairScreen)
        seen = []
        for _ in range(3):
            title = static_text(app, "#title")
            new_side = " ".join(str(s.render()) for s in app.screen.query(".new").results(Static))
            seen.append((title[title.index("trial") :], new_side.split("\n")[1]))
            await pilot.press("right_square_bracket")
            await pilot.pause()
        assert sorted(seen) == [
            ("trial 1 → 1 (1 of 3; [ / ] other trials)", "trial 1 says 1"),
            ("trial 2 → 2 (2 of 3; [ / ] other trials)", "trial 2 says 1"),
            ("trial 3 → 3 (3 of 3; [ / ] other trials)", "trial 3 says 1"),
        ]
        assert static_text(app, "#title").endswith(seen[0][0])  # three steps on: back at the first
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert static_text(app, "#title").endswith(seen[-1][0])
        assert {"left_square_bracket", "right_square_bracket"} <= footer_keys(app)


def footer_keys(app) -> set[str]:  # noqa: ANN001 - the ragtui app
    """The keys the footer shows: an action its screen refuses (check_action False) is left out."""
    return {b.binding.key for b in app.screen.active_bindings.values() if b.enabled and b.binding.show}


async def test_a_run_without_trials_shows_no_trial_columns_marks_or_keys(make_app, store: Store):
    two_runs(store)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        columns = [str(c.label) for c in app.screen.query_one("#runs", DataTable).columns.values()]
        assert "pass^1" not in columns and len(columns) == 11
        assert not app.screen.query(".trial-marks") and "pass" not in static_text(app, "#trend-title")
        await pilot.press("enter")
        await pilot.pause()
        assert "pass^" not in static_text(app, "#compare-summary")
        columns = [str(c.label) for c in app.screen.query_one("#pairs", DataTable).columns.values()]
        assert "trials base → new" not in columns
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PairScreen) and "trial" not in static_text(app, "#title")
        assert "escape" in footer_keys(app) and "right_square_bracket" not in footer_keys(app)


async def test_the_compare_screen_judges_noise_at_the_configs_compare_alpha(make_app, tui_config, store: Store):
    runs_with_trials(store)
    tui_config.compare_alpha = 0.2  # not the default 0.05: `ragtui compare` and the screen must agree
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_compare(pilot)
        assert isinstance(app.screen, CompareScreen)
        noise = app.screen.comparison.noise
        assert noise is not None and noise.alpha == 0.2
