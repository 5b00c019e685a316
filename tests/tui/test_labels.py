"""Labelling in the TUI, driven by keys: the label modal from the main screen and the Verdicts
screen, the label shown beside (never as) the verdict, and the "to label" queue."""

from __future__ import annotations

import pytest

from ragtui.core.store.labels import session_labels
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.label_dialog import LabelScreen
from ragtui.tui.screens.label_queue import LabelQueueScreen
from ragtui.tui.screens.main_screen import MainScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen

from .conftest import SIZE, notifications, open_recorded, pane_text, settle, static_text


async def run_session(pilot) -> None:  # noqa: ANN001
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("ctrl+r")
    await settle(pilot)


@pytest.mark.recorded
async def test_main_screen_labels_the_newest_turn_and_refuses_a_bad_score(make_app, store: Store):
    app = make_app()
    app.config.labeller = "rita"
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LabelScreen)
        assert "Label session #1 turn 3" in str(app.screen.query_one("Label").render())
        assert "0.80" in static_text(app, "#label-verdict")
        await pilot.press("9", "enter")  # out of range: refused in the modal, nothing stored
        await pilot.pause()
        assert isinstance(app.screen, LabelScreen)
        assert "must be 1–5" in static_text(app, "#label-error")
        assert session_labels(store, 1) == []

        app.screen.query_one("#label-score").value = ""
        await pilot.press("2", "tab")
        await pilot.press(*"vague", "tab")
        await pilot.press("down", "down", "enter")  # the radio set: "Disagree with the judge"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        (label,) = session_labels(store, 1)
        assert (label.turn, label.score, label.agree, label.note, label.labeller) == (3, 2, False, "vague", "rita")
        assert "your label 2/5 · disagrees with v1 · rita" in pane_text(app, "judge")
        assert any("Turn 3 labelled" in n for n in notifications(app))
        assert store.session(1).score is not None and len(store.session(1).judgments) == 3  # verdicts untouched

        await pilot.press("o")  # reopened from the sessions browser, the label is shown by its verdict
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert "turn 3: label 2/5 · disagrees with v1 · rita (a person's, not a verdict)" in pane_text(app, "judge")


@pytest.mark.recorded
async def test_verdicts_screen_labels_the_chosen_turn_and_shows_it_apart(make_app, store: Store):
    app = make_app()
    app.config.labeller = "rita"
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
        await pilot.press("up", "up")  # turn 1
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("5", "enter")
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
        assert [(lab.turn, lab.score) for lab in session_labels(store, 1)] == [(1, 5)]
        detail = static_text(app, "#verdict-detail")
        assert "People's labels (not verdicts)" in detail and "rubric: 5/5 · rita" in detail
        assert "Turn 1 · rubric · version 1 · score 0.80" in detail


async def test_the_queue_labels_turns_with_one_key_each(make_app, store: Store):
    app = make_app()
    app.config.labeller = "rita"
    async with app.run_test(size=SIZE) as pilot:
        await run_session(pilot)
        await run_session(pilot)
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, LabelQueueScreen)
        assert "1 of 6 · 6 left" in static_text(app, "#queue-title")
        body = static_text(app, "#queue-turn")
        assert "Session #1" in body and "turn 1" in body and "Go to Settings" in body and "none yet" in body

        await pilot.press("4")  # scores session 1 turn 1 and moves on
        await pilot.pause()
        assert "2 of 6 · 5 left" in static_text(app, "#queue-title")
        await pilot.press("d")  # disagrees with turn 2's verdict
        await pilot.press("n")  # skip session 1 turn 3, to turn 1 of session 2 (the 4th)
        await pilot.press("a")
        await pilot.pause()
        assert "5 of 6 · 3 left" in static_text(app, "#queue-title")
        await pilot.press("p", "p", "p", "p")  # back to the first: its label is shown
        await pilot.pause()
        assert "1 of 6" in static_text(app, "#queue-title") and "4/5 · rita" in static_text(app, "#queue-turn")

        await pilot.press("l")  # the full dialog from the queue: add a note
        await pilot.pause()
        assert isinstance(app.screen, LabelScreen)
        assert app.screen.query_one("#label-score").value == "4"
        await pilot.press("tab", *"ok", "enter")
        await pilot.pause()
        assert isinstance(app.screen, LabelQueueScreen)

    got = {
        (lab.session_id, lab.turn): (lab.score, lab.agree, lab.note) for s in (1, 2) for lab in session_labels(store, s)
    }
    assert got == {(1, 1): (4, None, "ok"), (1, 2): (None, False, None), (2, 1): (None, True, None)}


async def test_the_queue_says_when_nothing_is_left(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u")
        await pilot.pause()
        assert "nothing left" in static_text(app, "#queue-title")
        await pilot.press("4")
        await pilot.pause()
        assert "Nothing to label." in notifications(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)


async def test_the_queue_offers_only_judged_turns_and_every_key_labels_one(make_app, store: Store):
    app = make_app()
    app.config.labeller = "rita"
    async with app.run_test(size=SIZE) as pilot:
        await run_session(pilot)
        await run_session(pilot)
        # Two turns without a rubric verdict (as when the judge never ran on them).
        store._db.execute("DELETE FROM judgments WHERE (session_id = 1 AND turn = 2) OR (session_id = 2 AND turn = 3)")
        store._db.conn.commit()
        await pilot.press("u")
        await pilot.pause()
        assert "1 of 4 · 4 left" in static_text(app, "#queue-title")
        await pilot.press("a", "d", "5", "a")  # four keys, four labels: each moves on
        await pilot.pause()
        assert "0 left" in static_text(app, "#queue-title")
        assert not any("no rubric verdict" in n for n in notifications(app))

    labelled = sorted((lab.session_id, lab.turn) for s in (1, 2) for lab in session_labels(store, s))
    assert labelled == [(1, 1), (1, 3), (2, 1), (2, 2)]


@pytest.mark.recorded
async def test_the_highlighted_agreement_is_the_one_stored_at_80_columns(make_app, store: Store):
    """↓ to "Disagree" and ctrl+s, with no Space or Enter: the highlighted choice is stored, as in
    the Re-judge dialog; reopened, the dialog starts on it and saving again keeps it."""
    app = make_app()
    app.config.labeller = "rita"
    async with app.run_test(size=(80, 24)) as pilot:
        await open_recorded(pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LabelScreen)
        await pilot.press("tab", "tab", "down", "down", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        (label,) = session_labels(store, 1)
        assert (label.turn, label.score, label.agree) == (3, None, False)

        await pilot.press("l")  # reopened on the stored label: saved as it stands, it stays "disagree"
        await pilot.pause()
        assert isinstance(app.screen, LabelScreen)
        await pilot.press("2", "ctrl+s")
        await pilot.pause()
        (label,) = session_labels(store, 1)
        assert (label.score, label.agree) == (2, False)

        await pilot.press("l")  # ↑ from "disagree" moves the choice back to "agree"
        await pilot.pause()
        await pilot.press("tab", "tab", "up", "ctrl+s")
        await pilot.pause()
        (label,) = session_labels(store, 1)
        assert (label.score, label.agree) == (2, True)
