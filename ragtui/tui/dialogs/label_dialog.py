"""The label modal: a person's own 1–5 score of a bot turn, a note, and agree / disagree with the
judge's newest verdict. Used by the main screen, the Verdicts screen and the "to label" queue.

The label goes to its own table (``core/store/labels.py``), never among the verdicts. The
modal checks the score before closing; the store checks everything again before writing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from ...core.registry.metrics import PRIMARY_METRIC
from ...core.store.labels import Label as StoredLabel
from ...core.store.labels import default_labeller, save_label
from ...core.text.score_text import score_text
from ...core.types.agreement_floor import LOW_WORDS, AgreementFloor, is_low
from ...core.types.errors import RagtuiError
from ...core.types.stored import StoredSession
from ..context import TuiServices, services
from ..safe_text import field_text, plain
from ..widgets.choice_set import ChoiceSet
from ..widgets.fields import NumberField, TextField
from ..widgets.tick import ChoiceButton
from .dialog import Dialog


@dataclass(frozen=True)
class LabelInput:
    score: int | None
    agree: bool | None
    note: str


class LabelScreen(Dialog[LabelInput | None]):
    """``ctrl+s`` (or Enter in a field) saves, Escape cancels."""

    BINDINGS = [Binding("ctrl+s", "submit", "Save label")]

    def __init__(self, title: str, verdict: str, current: StoredLabel | None = None) -> None:
        super().__init__()
        self.heading = title
        self.verdict = verdict
        self.current = current

    def compose_dialog(self) -> ComposeResult:
        current = self.current
        with Vertical(classes="dialog", id="label-dialog"):
            yield Label(plain(f"{self.heading} — ctrl+s: save · Escape: cancel"))
            yield Static(plain(self.verdict), markup=False, id="label-verdict")
            yield Label("Your score, 1 (bad) – 5 (excellent); empty for none:")
            score = "" if current is None or current.score is None else str(current.score)
            yield NumberField(score, placeholder="1–5", max_length=1, id="label-score")
            yield Label("Note (optional):")
            yield TextField(
                field_text(current.note or "") if current else "", placeholder="why, in a few words", id="label-note"
            )
            agree = None if current is None else current.agree
            with ChoiceSet(id="label-agree"):
                yield ChoiceButton("No opinion on the verdict", value=agree is None, id="agree-none")
                yield ChoiceButton("Agree with the judge", value=agree is True, id="agree-yes")
                yield ChoiceButton("Disagree with the judge", value=agree is False, id="agree-no")
            yield Static("", id="label-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#label-score", Input).focus()

    def action_submit(self) -> None:
        error = self.query_one("#label-error", Static)
        raw = self.query_one("#label-score", Input).value.strip()
        score: int | None = None
        if raw:
            if not raw.isdigit() or not 1 <= int(raw) <= 5:
                error.update(Text(f"The score must be 1–5, got {raw!r}."))
                return
            score = int(raw)
        chosen = self.query_one("#label-agree", ChoiceSet).chosen  # the highlighted one: ↑/↓ choose
        agree = {"agree-yes": True, "agree-no": False}.get((chosen.id or "") if chosen else "")
        if score is None and agree is None:
            error.update("Give a score, or agree / disagree with the judge.")
            return
        self.dismiss(LabelInput(score, agree, self.query_one("#label-note", Input).value))

    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()


def verdict_summary(
    session: StoredSession, turn: int, metric: str = PRIMARY_METRIC, floor: AgreementFloor | None = None
) -> str:
    """The judge's newest verdict of ``turn`` in one line, for the person labelling it; with the
    agreement ``floor``, a score whose judge is under it carries ≈ and says so."""
    newest = session.latest_judgments().get((turn, metric))
    if newest is None:
        return f"Turn {turn} has no {metric} verdict yet: you can still give your own score."
    low = floor is not None and is_low(newest.details, floor)
    score = score_text(newest.score, low) + (f" ({LOW_WORDS})" if low else "")
    conclusion = newest.verdict.conclusion or newest.error or ""
    return f"Judge ({newest.model or 'unknown model'}, v{newest.version}): {score} — {conclusion}"[:300]


def labeller_of(shared: TuiServices) -> str:
    return default_labeller(shared.config.labeller)


def store_label(
    app: App[Any], session_id: int, turn: int, given: LabelInput, metric: str = PRIMARY_METRIC
) -> StoredLabel | None:
    """Save a label from the modal or a quick key; errors become a notification, never a crash."""
    try:
        return save_label(
            services(app).store,
            session_id,
            turn,
            score=given.score,
            agree=given.agree,
            note=given.note,
            labeller=labeller_of(services(app)),
            metric=metric,
        )
    except RagtuiError as exc:
        app.notify(str(exc), severity="error", markup=False)
        return None


def open_label_dialog(
    app: App[Any],
    session_id: int,
    turn: int,
    verdict: str,
    done: Callable[[StoredLabel], object] | None = None,
) -> None:
    """Push the label modal for ``turn`` of ``session_id``, save what it returns, call ``done``."""
    from ...core.store.labels import session_labels

    mine = labeller_of(services(app))
    current = next(
        (lab for lab in session_labels(services(app).store, session_id) if lab.turn == turn and lab.labeller == mine),
        None,
    )

    def saved(given: LabelInput | None) -> None:
        if given is None:
            return
        stored = store_label(app, session_id, turn, given)
        if stored is not None:
            app.notify(f"Turn {turn} labelled: {stored.summary()}", markup=False)
            if done is not None:
                done(stored)

    app.push_screen(LabelScreen(f"Label session #{session_id} turn {turn}", verdict, current), saved)


def label_newest_turn(app: App[Any], session_id: int, done: Callable[[StoredLabel], object] | None = None) -> None:
    """The main screen's label key: the newest bot turn of the open session."""
    try:
        session = services(app).store.session(session_id)
    except RagtuiError as exc:
        app.notify(str(exc), severity="error", markup=False)
        return
    turns = [m.turn for m in session.messages if m.role == "bot"]
    if not turns:
        app.notify("No bot answer to label yet.", severity="warning", markup=False)
        return
    floor = services(app).config.min_judge_agreement
    open_label_dialog(app, session_id, max(turns), verdict_summary(session, max(turns), floor=floor), done)
