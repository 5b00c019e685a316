"""The re-judge modal: same judge, another model, or a judge prompt edited on the spot.

The edited prompt is the TOML text of ``prompts/<lang>/judge_rubric.toml``; it is validated
exactly like the file (keys and ``{{slots}}``) before anything is sent, and the error is shown
here. The file itself is never changed: the edit applies to this re-judgment only, and the
stored verdict keeps the exact prompt it was made with.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static, TextArea

from ..core.content.prompts import PromptTemplate
from ..core.errors import RagtuiError
from .rejudge import parse_judge_prompt


@dataclass(frozen=True)
class RejudgeRequest:
    model: str | None = None  # None: the configured judge model
    template: PromptTemplate | None = None  # None: the prompt file


class RejudgeScreen(ModalScreen[RejudgeRequest | None]):
    BINDINGS = [
        Binding("ctrl+s", "submit", "Re-judge"),
        Binding("escape", "dismiss(None)", "Cancel"),
    ]

    def __init__(self, turn: int, judge_model: str, prompt_text: str, language: str) -> None:
        super().__init__()
        self.turn = turn
        self.judge_model = judge_model
        self.prompt_text = prompt_text
        self.language = language

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide tall"):
            yield Label(f"Re-judge turn {self.turn} — ctrl+s: re-judge · Escape: cancel")
            with RadioSet(id="how"):
                yield RadioButton("Same judge", value=True, id="how-same")
                yield RadioButton("Another model", id="how-model")
                yield RadioButton("Edited judge prompt", id="how-prompt")
            yield Input(self.judge_model, placeholder="model name", id="model-name", classes="hidden")
            yield TextArea(self.prompt_text, language=None, soft_wrap=True, id="prompt-text", classes="hidden")
            yield Static("", id="rejudge-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Re-judge", variant="primary", id="go")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(RadioSet).focus()

    @property
    def mode(self) -> str:
        pressed = self.query_one(RadioSet).pressed_button
        return pressed.id.removeprefix("how-") if pressed is not None and pressed.id else "same"

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
                error.update(Text(str(exc)))
                return
            self.dismiss(RejudgeRequest(template=template))
        else:
            self.dismiss(RejudgeRequest())

    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        self.action_submit()

    @on(Input.Submitted, "#model-name")
    def _model_entered(self) -> None:
        self.action_submit()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)
