"""The verdict screen's "Try expectation" dialog: how the judge reads a sentence on the open turn.

The operator types an expectation, ticks "prohibition" if it is one, picks its form (judged, or
decided in code: contains / regex / not_contains) and submits; the dialog shows P(met) — P(does
it) for a prohibition — for the open turn's answer, in the words a run's verdict would use, and
stays open so the text can be rephrased and tried again. It is the TUI's ``ragtui expect``: the
same core functions build the expectation, ask the judge and word the result. Nothing is stored.

The judge is asked in a worker, so the dialog stays responsive while it answers; it goes through
the engine's judge endpoint and client pool, as re-judging does (the embedded model included).
"""

from __future__ import annotations

from typing import get_args

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, Static

from ...core.config.expectation_items import expectation_from_text
from ...core.metrics.dialogue import context_from_session
from ...core.metrics.dialogue.expectation_judge import ExpectationJudge
from ...core.metrics.dialogue.expectation_trial import asked_label, outcome_words, try_expectation
from ...core.registry.metrics import EXPECTATION_RATE, gate_metric
from ...core.text.score_text import figure_text
from ...core.types.agreement_floor import LOW_MARK, agreement_words, is_low
from ...core.types.errors import RagtuiError
from ...core.types.expectations import Expectation, ExpectationCheck, Form, Polarity
from ..context import TuiServices, services
from ..safe_text import clean_text
from ..widgets.choice_set import ChoiceSet
from ..widgets.fields import TextField
from ..widgets.tick import ChoiceButton, TickBox
from .dialog import Dialog

FORMS: tuple[Form, ...] = get_args(Form)
ASKING = "Asking the judge…"


def check_text(expectation: Expectation, check: ExpectationCheck) -> Text:
    """One tried check in words: P, met / not met (kept / broken), how it was read — or why not."""
    line = Text(f"Turn {check.turn}: {asked_label(expectation)} ")
    if check.p_yes is None:
        reason = clean_text(check.error or "the reply could not be read")
        line.append(f"unscored — {reason}", style="yellow")
        return line
    word, good = outcome_words(expectation, check.p_yes)
    line.append(f"{figure_text(check.p_yes)} ", style="bold")
    line.append(clean_text(word), style="green" if good else "red")
    line.append(f" ({clean_text(check.read)})", style="dim")
    return line


class TryExpectationScreen(Dialog[None]):
    """``ctrl+s`` (or Enter in the field) asks, Escape closes; the dialog stays open between tries."""

    BINDINGS = [Binding("ctrl+s", "submit", "Try"), Binding("escape", "cancel", "Close")]

    def __init__(self, session_id: int, turn: int) -> None:
        super().__init__()
        self.session_id = session_id
        self.turn = turn

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog", id="try-expectation"):
            yield Label(Text(f"Try an expectation on session #{self.session_id} turn {self.turn} — nothing is stored"))
            yield TextField(placeholder="e.g. gives the steps to link an account", id="try-text")
            yield TickBox("prohibition (must not): P(does it)", id="try-not", compact=True)
            with ChoiceSet(id="try-form"):
                for form in FORMS:
                    yield ChoiceButton(Text(form), value=form == "judged", id=f"form-{form}", compact=True)
            yield Static("", id="try-result", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Try (ctrl+s)", variant="primary", id="try", compact=True)
                yield Button("Close (Esc)", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#try-text", Input).focus()

    def _form(self) -> Form:
        chosen = self.query_one("#try-form", ChoiceSet).chosen  # the highlighted one: ↑/↓ choose
        name = (chosen.id or "") if chosen else ""
        return next((f for f in FORMS if name == f"form-{f}"), "judged")

    def _show(self, text: Text, error: bool = False) -> None:
        result = self.query_one("#try-result", Static)
        result.set_class(error, "error")
        result.update(text)

    def action_submit(self) -> None:
        polarity: Polarity = "must_not" if self.query_one("#try-not", Checkbox).value else "must"
        text = self.query_one("#try-text", Input).value
        try:  # bad text is one line here, and no call is made
            expectation = expectation_from_text(text, self._form(), polarity)
        except RagtuiError as exc:
            self._show(Text(clean_text(str(exc))), error=True)
            return
        if not expectation.deterministic and self.ragtui.engine is None:
            self._show(Text(clean_text(self.ragtui.problem or "the judge is not connected")), error=True)
            return
        self._show(Text(ASKING, style="dim"))
        self._try(expectation)

    @work(exclusive=True, group="try-expectation", exit_on_error=False)
    async def _try(self, expectation: Expectation) -> None:
        try:
            checks = await self._checks(expectation)
        except RagtuiError as exc:  # an endpoint or store error: one line, the dialog stays usable
            self._show(Text(clean_text(f"The judge could not be asked: {exc}")), error=True)
            return
        if not checks:
            self._show(Text(f"Turn {self.turn} has no bot answer to try."), error=True)
            return
        shown = Text("\n").join(check_text(expectation, c) for c in checks)
        if not expectation.deterministic and any(c.p_yes is not None for c in checks):
            # a judged P(met): how far that judge agrees with people
            shown.append("\n")
            shown.append_text(self._agreement())
        self._show(shown)

    def _agreement(self) -> Text:
        """The judge card's figure for the expectation checks of this judge and prompt, in words:
        ``≈ low agreement with people (κ 0.33, …)``, ``agrees with people (…)`` or unmeasured."""
        from ...core.judge_quality.card_judges import card_judge
        from ...core.judge_quality.fit import prompt_fingerprint
        from ...core.judge_quality.judge_card import entry_for
        from ...core.metrics import MetricSettings

        engine = self.ragtui.engine
        if engine is None:
            return Text("")
        config, judge = engine.config, engine.endpoints["judge"]
        language = self.ragtui.store.session(self.session_id).language
        name = gate_metric(EXPECTATION_RATE)  # the verdict whose card row this is
        metric = card_judge(
            name,
            engine.pool.client_for(judge),
            config.prompts,
            language,
            MetricSettings.from_config(config),
        )
        floor = config.min_judge_agreement
        entry = entry_for(self.ragtui.store, name, judge.model, prompt_fingerprint(metric), floor)
        details = {"agreement": entry.to_dict()} if entry is not None else {}
        if is_low(details, floor):
            return Text(f"Judge: {LOW_MARK} {agreement_words(details, floor)}", style="dim")
        return Text(f"Judge: {agreement_words(details, floor)}", style="dim")

    async def _checks(self, expectation: Expectation) -> list[ExpectationCheck]:
        session = self.ragtui.store.session(self.session_id)
        context = context_from_session(session)
        if expectation.deterministic:
            return await try_expectation(expectation, context, None, self.turn)
        engine = self.ragtui.engine
        if engine is None:
            raise RagtuiError(self.ragtui.problem or "the judge is not connected")
        client = engine.pool.client_for(engine.endpoints["judge"])
        judge = ExpectationJudge(client, engine.config.prompts, session.language)
        return await try_expectation(expectation, context, judge, self.turn)

    @on(Button.Pressed, "#try")
    def _pressed_try(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#close")
    def _pressed_close(self) -> None:
        self.action_cancel()
