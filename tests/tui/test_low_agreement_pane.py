"""A score from a judge whose measured agreement with people is under the floor: in the Judge
pane and the header it is neither red nor green, and carries the ``≈`` / "low agreement" marker
that reads without colour. A measured judge's score keeps its colours. Pilot, real SQLite."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.personas import Persona
from ragtui.core.types.stored import StoredJudgment
from ragtui.tui.formatting import detail_text, judgment_text
from ragtui.tui.widgets.header import SessionHeader, SessionInfo
from ragtui.tui.widgets.panes import RolePane

from .conftest import SIZE, settle


def entry(value: float) -> dict[str, object]:
    return {
        "metric": "rubric", "language": "en", "model": "fake-judge", "fingerprint": "f", "figure": "spearman",
        "value": value, "n": 18, "on": "labels.jsonl, 5-fold cross-validation", "source": "calibrate",
    }  # fmt: skip


def stored_session(store: Store, score: float, value: float, details: dict[str, object] | None = None) -> int:
    """A finished one-turn session whose rubric verdict carries an agreement of ``value`` (or
    ``details`` as given)."""
    session = store.create_session(
        scenario={"id": "id-linking", "question": "How do I link?", "language": "en"},
        persona=Persona("calm", "en", "- polite"),
        config={"roles": {"judge": {"model": "fake-judge"}}},
        language="en",
        max_turns=1,
        threshold=0.7,
        metrics=["rubric"],
    )
    store.add_message(session, 1, "user", "scenario", "How do I link?")
    bot = store.add_message(session, 1, "bot", "bot", "Go to Settings.")
    details = details if details is not None else {"conclusion": "thin", "agreement": entry(value)}
    judgment = Judgment("rubric", score, details=details, model="fake-judge")
    store.add_judgment(session, bot, 1, judgment)
    store.refresh_score(session, "rubric")
    store.set_status(session, "finished", "max_turns")
    return session


@asynccontextmanager
async def opened_session(make_app, store: Store, score: float, agreement: float) -> AsyncIterator:  # noqa: ANN001
    """The app at SIZE with a stored one-turn session (its rubric judge at ``agreement``) open."""
    session = stored_session(store, score, agreement)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.screen.open_session(session)
        await settle(pilot)
        yield app, pilot


def colours(text: Text) -> set[str]:
    """The colour names of every span of ``text``."""
    found = set()
    for span in text.spans:
        style = span.style if isinstance(span.style, Style) else Style.parse(str(span.style))
        if style.color is not None:
            found.add(style.color.name)
    return found


def verdict_block(app) -> Text:  # noqa: ANN001 - the app under test
    pane = app.screen.query_one("#pane-judge", RolePane)
    blocks = [c.content for c in pane.children if isinstance(c, Static)]  # the Text as drawn
    (block,) = [b for b in blocks if isinstance(b, Text) and str(b).startswith("Turn 1 · rubric")]
    return block


def header_text(app) -> Text:  # noqa: ANN001
    return app.screen_stack[0].query_one("#header").render_text()


def stored_judgment(store: Store, score: float, agreement: float) -> StoredJudgment:
    (judgment,) = store.session(stored_session(store, score, agreement)).judgments
    return judgment


def header_of(info: SessionInfo) -> Text:
    """The header's text for ``info``: what ``SessionHeader.render_text`` draws, without an app."""
    state = SimpleNamespace(info=info, state="finished", connecting=None, problem=None, endpoints={})
    return SessionHeader.render_text(state)  # type: ignore[arg-type]


def test_a_low_agreement_verdict_is_neither_red_nor_green_and_is_marked(store: Store):
    block = judgment_text(stored_judgment(store, 0.25, 0.10), 0.7)
    assert "≈0.25" in str(block) and "≈ low agreement with people (Spearman 0.10, n=18; floor 0.5)" in str(block)
    assert not colours(block) & {"red", "green"}


def test_a_low_agreement_score_in_the_header_is_neither_red_nor_green_and_is_marked():
    info = SessionInfo(
        session_id=1, scenario="id-linking", persona="calm", turn=1, max_turns=1, score=0.25, threshold=0.7,
        judged=1, agreement="low agreement with people (Spearman 0.10, n=18; floor 0.5)", low=True,
    )  # fmt: skip
    head = header_of(info)
    assert "score ≈0.25" in str(head) and "· ≈ low agreement with people (Spearman 0.10, n=18; floor 0.5)" in str(head)
    assert not colours(head) & {"red", "green"}
    measured = header_of(dataclasses.replace(info, agreement="agrees with people (Spearman 0.80, n=18)", low=False))
    assert "≈" not in str(measured) and "red" in colours(measured)


def test_a_measured_judge_keeps_its_colours_and_shows_its_agreement(store: Store):
    block = judgment_text(stored_judgment(store, 0.25, 0.80), 0.7)
    assert "0.25" in str(block) and "≈" not in str(block)
    assert "agrees with people (Spearman 0.80, n=18)" in str(block) and "red" in colours(block)


def test_the_verdict_detail_marks_the_low_agreement_score_without_colour(store: Store):
    detail = detail_text(stored_judgment(store, 0.25, 0.10), 0.7)
    assert "score ≈0.25" in str(detail) and "≈ low agreement with people (Spearman 0.10, n=18; floor 0.5)" in str(
        detail
    )
    assert not colours(detail) & {"red", "green"}


async def test_an_opened_session_draws_those_texts_in_the_pane_the_header_and_on_verdicts(make_app, store: Store):
    from ragtui.tui.screens.verdict_screen import VerdictScreen

    async with opened_session(make_app, store, 0.25, 0.10) as (app, pilot):
        (judgment,) = store.session(1).judgments
        assert str(verdict_block(app)) == str(judgment_text(judgment, 0.7)).rstrip(
            "\n"
        )  # the pane drops the last newline
        head = header_text(app)
        assert "score ≈0.25" in str(head) and "≈ low agreement" in str(head)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
        assert (
            str(app.screen.query_one("#verdict-detail", Static).content).strip()
            == str(detail_text(judgment, 0.7)).strip()
        )
