"""Fork a stored session after turn N: a new session copies turns 1..N (messages and verdicts)
and continues live, optionally as another persona or with another bot model. The parent is
never changed; the fork records where it came from."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from ...core.types.personas import Persona
from ..safe_text import field_text, one_line
from ..widgets.fields import NumberField, TextField
from .dialog import Dialog


@dataclass(frozen=True)
class ForkRequest:
    turn: int
    persona: Persona | None  # None: the parent's persona
    bot_model: str | None  # None: the current bot as configured


class ForkScreen(Dialog[ForkRequest | None]):
    """Choose the turn to fork after, the persona and (for the built-in bot) the bot model;
    ctrl+s (or Enter in a field) forks, Escape cancels."""

    BINDINGS = [Binding("ctrl+s", "submit", "Fork")]

    def __init__(self, session_id: int, last_turn: int, personas: list[Persona], persona: str, bot_model: str | None):
        super().__init__()
        self.session_id, self.last_turn = session_id, last_turn
        self.personas = {p.name: p for p in personas}
        self.persona, self.bot_model = persona, bot_model

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                Text(f"Fork session #{self.session_id}: copy turns 1..N, then continue live as a new session."),
                markup=False,
            )
            yield Label(Text(f"Fork after turn (1–{self.last_turn:d}):"))
            yield NumberField(f"{max(1, self.last_turn - 1):d}", id="fork-turn", type="integer")
            yield Label("Persona from there on:")
            options = [(Text(one_line(name, 60)), name) for name in self.personas]
            yield Select(
                options, value=self.persona if self.persona in self.personas else Select.BLANK, id="fork-persona"
            )
            if self.bot_model is not None:
                yield Label("Bot model (the built-in bot's; empty keeps it):")
                yield TextField(field_text(self.bot_model), id="fork-model")
            yield Static("", id="fork-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Fork (ctrl+s)", variant="primary", id="fork", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    @on(Button.Pressed, "#fork")
    def action_submit(self) -> None:
        error = self.query_one("#fork-error", Static)
        raw = self.query_one("#fork-turn", Input).value.strip()
        if not raw.isdigit() or not 1 <= int(raw) <= self.last_turn:
            error.update(Text(f"Turn must be a number from 1 to {self.last_turn}."))
            return
        chosen = self.query_one("#fork-persona", Select).value
        persona = self.personas.get(chosen) if isinstance(chosen, str) and chosen != self.persona else None
        model = None
        if self.bot_model is not None:
            typed = self.query_one("#fork-model", Input).value.strip()
            model = typed if typed and typed != self.bot_model else None
        self.dismiss(ForkRequest(int(raw), persona, model))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.action_cancel()
