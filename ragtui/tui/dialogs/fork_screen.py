"""Fork a stored session after turn N: a new session copies turns 1..N (messages and verdicts)
and continues live, optionally as another persona or with another bot model. The parent is
never changed; the fork records where it came from."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from ...core.content.persona_folders import folders_of, load_merged
from ...core.content.picking import Skipped
from ...core.registry.bots import uses_bot_role
from ...core.store.lineage import lineage_lines
from ...core.types.errors import RagtuiError
from ...core.types.personas import Persona
from ..safe_text import field_text, one_line
from ..widgets.fields import NumberField, TextField
from .dialog import Dialog

if TYPE_CHECKING:
    from ...core.dialogue.state_machine import Dialogue
    from ..context import DialogueHost

    _Base = DialogueHost
else:
    _Base = object


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


class ForkActions(_Base):
    """The main screen's ``f``: fork the open session."""

    # Declared again here: mypy takes an assignment in a subclass of a protocol as a new
    # declaration, typed by the first value assigned, unless the subclass declares it.
    dialogue: Dialogue | None

    def action_fork(self) -> None:
        engine = self.ragtui.engine
        if self.session_id is None:
            self.notify_plain("No session open: open one with o, then press f to fork it.", "warning")
            return
        if engine is None:
            self.notify_plain(self.ragtui.problem or "No endpoint: a fork continues live.", "warning")
            return
        if self.running:
            self.notify_plain("A dialogue is running: pause (p) or cancel (c) it first.", "warning")
            return
        try:
            session = self.ragtui.store.session(self.session_id)
            skipped: list[Skipped] = []  # a broken persona file is left out: the fork can use the others
            personas = load_merged(folders_of(self.ragtui.config), session.language, skipped)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        for s in skipped:
            self.notify_plain(f"Skipped persona {s.name!r}: {s.error}", "warning")
        last = max((m.turn for m in session.messages), default=0)
        if last == 0:
            self.notify_plain("This session has no turn yet to fork from.", "warning")
            return
        bot_endpoint = engine.endpoints.get("bot")
        model = bot_endpoint.model if bot_endpoint is not None and uses_bot_role(self.ragtui.config.bot.type) else None
        screen = ForkScreen(session.id, last, personas, session.persona_name, model)
        self.app.push_screen(screen, self._start_fork)

    def _start_fork(self, request: ForkRequest | None) -> None:
        engine = self.ragtui.engine
        if request is None or engine is None or self.session_id is None:
            return
        note: dict[str, object] | None
        bot, note = None, None
        if request.bot_model is not None:
            endpoint = dataclasses.replace(engine.endpoints["bot"], model=request.bot_model)
            roles = {role: e.public() for role, e in {**engine.endpoints, "bot": endpoint}.items()}
            try:
                from ...core.bots.factory import build_bot  # the LLM client: not at start-up

                bot = build_bot(
                    self.ragtui.config,
                    {**engine.endpoints, "bot": endpoint},
                    engine.pool,
                    engine.prompts,
                    lambda: engine.knowledge,
                )
            except RagtuiError as exc:
                self.notify_plain(str(exc), "error")
                return
            note = {"roles": roles}
        try:
            dialogue = engine.fork_dialogue(
                self.session_id, request.turn, persona=request.persona, bot=bot, config_note=note
            )
            session = self.ragtui.store.session(dialogue.session_id)
            lineage = lineage_lines(self.ragtui.store, session)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self.dialogue = dialogue
        self.view.replay(session)
        self.refresh_state()
        self.set_status(f"Session #{session.id}: {'; '.join(lineage)}. s: step · a: auto-run")
        self.notify_plain(f"Forked session #{session.id} from #{session.parent_session_id} after turn {request.turn}")
