"""The re-judge modal: same judge, another model, or a judge prompt edited on the spot.

The edited prompt is the TOML text of ``prompts/<lang>/judge_rubric.toml``; it is validated
exactly like the file (keys and ``{{slots}}``) before anything is sent, and the error is shown
here. The file itself is never changed: the edit applies to this re-judgment only, and the
stored verdict keeps the exact prompt it was made with.

The dialog always opens on "Same judge" with the choices focused, so ``↓`` lands in the same
place every time; the app remembers the model typed and the edited prompt, so reopening the
dialog does not lose an edit. Text typed or pasted while "Another model" is chosen goes into the
model field, in the order typed however fast it comes (``widgets/choice_set.py``); the prompt
editor only ever takes keys once it is focused (Tab, or a click).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, RadioSet, Static, TextArea

from ...core.content.prompts import PromptTemplate
from ...core.types.errors import RagtuiError
from ..rejudge import parse_judge_prompt
from ..safe_text import area_text, field_text, plain
from ..widgets.choice_set import ChoiceSet
from ..widgets.fields import TextField
from ..widgets.tick import ChoiceButton
from .dialog import Dialog


@dataclass(frozen=True)
class RejudgeRequest:
    model: str | None = None  # None: the configured judge model
    template: PromptTemplate | None = None  # None: the prompt file


@dataclass
class RejudgeMemory:
    """What was typed in the dialog last time, per language (not the choice: see above)."""

    model: str = ""
    prompt_text: str = ""


class RejudgeScreen(Dialog[RejudgeRequest | None]):
    BINDINGS = [Binding("ctrl+s", "submit", "Re-judge")]

    def __init__(
        self, turn: int, judge_model: str, prompt_text: str, language: str, memory: RejudgeMemory | None = None
    ) -> None:
        super().__init__()
        self.turn = turn
        self.judge_model = judge_model
        self.prompt_text = prompt_text
        self.language = language
        self.memory = memory or RejudgeMemory()

    def compose_dialog(self) -> ComposeResult:
        memory = self.memory
        with Vertical(classes="dialog wide tall"):
            yield Label(Text(f"Re-judge turn {self.turn:d} — ↑/↓ choose · ctrl+s re-judge · Escape cancel"))
            with ChoiceSet(id="how", fields={"how-model": "model-name"}):
                yield ChoiceButton("Same judge", value=True, id="how-same")
                yield ChoiceButton("Another model", id="how-model")
                yield ChoiceButton("Edited judge prompt", id="how-prompt")
            yield TextField(
                field_text(memory.model or self.judge_model),
                placeholder="model name",
                id="model-name",
                classes="hidden",
            )
            yield TextArea(
                area_text(memory.prompt_text or self.prompt_text),
                language=None,
                soft_wrap=True,
                id="prompt-text",
                classes="hidden",
            )
            yield Static("", id="rejudge-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Re-judge (ctrl+s)", variant="primary", id="go", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._mode_changed()
        choices = self.query_one(RadioSet)
        choices._selected = 0  # arrows move on from "Same judge", every time
        choices.focus()

    @on(Input.Changed, "#model-name")
    @on(TextArea.Changed, "#prompt-text")
    def _remember(self) -> None:
        """Kept by the caller (the app) for next time, submitted or not."""
        self.memory.model = self.query_one("#model-name", Input).value
        text = self.query_one("#prompt-text", TextArea).text
        self.memory.prompt_text = text if text != self.prompt_text else ""

    @property
    def mode(self) -> str:
        chosen = self.query_one(ChoiceSet).chosen
        return chosen.id.removeprefix("how-") if chosen is not None and chosen.id else "same"

    @on(RadioSet.Changed)
    def _mode_changed(self) -> None:
        self.query_one("#model-name").set_class(self.mode != "model", "hidden")
        self.query_one("#prompt-text").set_class(self.mode != "prompt", "hidden")

    def action_submit(self) -> None:
        error = self.query_one("#rejudge-error", Static)
        mode = self.mode
        if mode == "model":
            model = self.query_one("#model-name", Input).value.strip()
            if not model:
                error.update("Type the model name to judge with.")
                return
            self.dismiss(RejudgeRequest(model=model))
        elif mode == "prompt":
            try:
                template = parse_judge_prompt(self.query_one("#prompt-text", TextArea).text, self.language)
            except RagtuiError as exc:
                error.update(plain(str(exc)))
                return
            self.dismiss(RejudgeRequest(template=template))
        else:
            self.dismiss(RejudgeRequest())

    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
