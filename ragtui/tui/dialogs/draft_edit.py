"""Edit a generated scenario's question and reference. ``ctrl+s`` (or Save) saves once the checks pass
again: in code, the question in the scenario's language and the reference still stating every
fact a ``contains`` expectation checks; then, when the reference changed, the judge's yes/no that
it follows from the scenario's quote. Otherwise the dialog stays open and says what failed —
an edit nobody could check is never saved as if it were.

The question and reference come from a model (through a file anyone can edit): they are loaded
cleaned of control characters, so an escape sequence in them is neither obeyed by the terminal
nor saved back."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static, TextArea

from ...core.content.prompts import load_prompt
from ...core.generate.entailment import reference_follows
from ...core.generate.review import Reviewed, edit_problems
from ...core.types.errors import RagtuiError
from ..context import TuiServices, services
from ..safe_text import area_text, clean_text, one_line
from .dialog import Dialog

CHECKING = "Asking the judge whether the reference follows from its quote…"


class DraftEditScreen(Dialog[tuple[str, str] | None]):
    BINDINGS = [Binding("ctrl+s", "submit", "Save")]
    SUBMIT_ON_ENTER = False  # Enter is a new line in the text areas

    def __init__(self, item: Reviewed) -> None:
        super().__init__()
        self.item = item

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose_dialog(self) -> ComposeResult:
        s = self.item.scenario
        with Vertical(classes="dialog", id="draft-edit"):
            yield Label(Text(f"Edit {one_line(s.id, 50)} — ctrl+s: save · Escape: cancel"))
            yield Label("Question:")
            yield TextArea(area_text(s.question), id="draft-question", soft_wrap=True, compact=True)
            yield Label("Reference answer:")
            yield TextArea(area_text(s.reference or ""), id="draft-reference", soft_wrap=True, compact=True)
            yield Static("", id="draft-problems", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()

    def action_submit(self) -> None:
        question = self.query_one("#draft-question", TextArea).text
        reference = self.query_one("#draft-reference", TextArea).text
        problems = edit_problems(self.item, question, reference)
        if problems:
            self._say("Not saved: " + "; ".join(problems), error=True)
            return
        source = self.item.scenario.source
        # The reference as loaded (cleaned): unchanged, it needs no second asking of the judge.
        if source is None or reference.strip() == area_text(self.item.scenario.reference or "").strip():
            self.dismiss((question, reference))  # a probe, or the reference as checked before
            return
        self._say(CHECKING)
        self._check(question, reference, source.quote)

    @work(exclusive=True, group="draft-entailment", exit_on_error=False)
    async def _check(self, question: str, reference: str, quote: str) -> None:
        engine = self.ragtui.engine
        if engine is None:
            self._say(f"Not saved: the judge is not connected ({self.ragtui.problem or 'no endpoint'})", error=True)
            return
        try:
            template = load_prompt(engine.config.prompts, self.item.scenario.language, "scenario_generate")
            follows = await reference_follows(
                engine.pool.client_for(engine.endpoints["judge"]), template, quote, reference
            )
        except RagtuiError as exc:  # an endpoint or prompt error: one line, the dialog stays usable
            self._say(f"Not saved: the judge could not be asked: {exc}", error=True)
            return
        if follows == "yes":
            self.dismiss((question, reference))
        elif follows == "no":
            self._say("Not saved: the judge says the reference does not follow from its quote", error=True)
        else:
            self._say("Not saved: the judge's answer could not be read; ctrl+s asks again", error=True)

    def _say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#draft-problems", Static).update(Text(clean_text(message), style="red" if error else "dim"))
