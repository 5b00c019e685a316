"""The judge card from the command palette: what ``ragtui judge-card`` prints, for the judge this
TUI uses — how far it agrees with people per metric and language, and so how far its scores can
be trusted."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from ...core.types.errors import RagtuiError
from ..context import TuiServices, services
from ..judge_card_text import card_text
from ..safe_text import plain
from .dialog import Dialog


class JudgeCardScreen(Dialog[None]):
    BINDINGS = [
        Binding("ctrl+s", "submit", "Close", show=False),
        Binding("escape", "cancel", "Close"),
    ]

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            with VerticalScroll(id="help-text"):
                yield Static(Text("Reading the judge card…", style="italic"), id="judge-card", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Close (Escape)", id="close", compact=True)

    def on_mount(self) -> None:
        self._import()

    @work(thread=True, exit_on_error=False)
    def _import(self) -> None:
        """The metrics' modules (the LLM client among them) load off the UI thread; the card
        itself is read on it, where the store's connection lives."""
        from ...core.judge_quality import card_rows  # noqa: F401

        self.app.call_from_thread(self._show)

    def _show(self) -> None:
        from ...core.judge_quality.card_rows import card_rows
        from ...core.models.endpoints import resolve_endpoint
        from ...core.models.llm import ChatClient

        config = self.ragtui.config
        shown = self.query_one("#judge-card", Static)
        try:
            judge = self.ragtui.endpoints.get("judge") or resolve_endpoint(config, "judge")
            client = ChatClient(judge, None)  # builds the metrics to fingerprint them; never calls
            rows = card_rows(config, self.ragtui.store, client, judge.model)
        except RagtuiError as exc:
            shown.update(plain(f"The judge card cannot be read: {exc}", style="bold yellow"))
            return
        shown.update(card_text(rows, judge.label, config.min_judge_agreement))

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_submit(self) -> None:
        self.dismiss(None)
