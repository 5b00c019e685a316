"""Asked before N+1 on an imported run: which turn the bot under test should answer.

A turn number (from 1) or ``all``; the answer is checked as ``--at-turn`` checks it, and a bad one
is said in the dialog, which stays open. Dismissed with the turn (an int), ``ALL_TURNS`` for
every turn, or None when cancelled.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from ...core.runs.next_turn import ALL_TURNS, parse_at_turn
from ...core.types.errors import RagtuiError
from ..safe_text import one_line
from .dialog import Dialog


class NextTurnDialog(Dialog[int | str | None]):
    """The turn to test (Enter or ctrl+s), or Escape."""

    BINDINGS = [Binding("ctrl+s", "submit", "Test this turn")]

    def __init__(self, run_id: str, turns: int) -> None:
        super().__init__()
        self.run_id, self.turns = run_id, turns

    def compose_dialog(self) -> ComposeResult:
        question = Text(
            f"N+1 on {one_line(self.run_id, 40)}: which turn should the bot under test answer, after the "
            f"real history? 1–{self.turns}, or `all` for every turn."
        )
        with Vertical(classes="dialog"):
            yield Static(question, id="next-turn-question", markup=False)
            yield Input(placeholder=f"1–{self.turns} or all", id="next-turn-input", compact=True)
            yield Static("", id="next-turn-problem", markup=False)

    def on_mount(self) -> None:
        self.query_one("#next-turn-input", Input).focus()

    def action_submit(self) -> None:
        raw = self.query_one("#next-turn-input", Input).value
        try:
            turn = parse_at_turn(raw)
        except RagtuiError as exc:
            self.query_one("#next-turn-problem", Static).update(Text(one_line(exc.message, 200), style="red"))
            return
        self.dismiss(ALL_TURNS if turn is None else turn)
