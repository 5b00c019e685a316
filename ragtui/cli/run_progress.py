"""Live progress of ``ragtui run``: a live view on a terminal, one plain line per finished
dialogue otherwise (CI logs)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..core.dialogue.events import (
    DialogueDone,
    DialogueStarted,
    DialogueVerdictReady,
    Event,
    Failure,
    MessageDone,
    SimulatorRetry,
    StreamRestarted,
    TextDelta,
    TurnDone,
)
from .output import console, score_text, stop_text

STEP_LABELS = {"user": "customer typing", "bot": "bot answering", "judge": "judging"}


@dataclass
class _Active:
    label: str
    turn: int = 0
    doing: str = "waiting"


class RunProgress:
    """Live view on a terminal; one plain line per finished dialogue otherwise (CI logs)."""

    def __init__(self, total_dialogues: int, max_turns: int, threshold: float, labels: dict[int, str]) -> None:
        self.live_mode = console.is_terminal
        self.threshold = threshold
        self.labels = labels
        self.max_turns = max_turns
        self.total = total_dialogues
        self.finished = 0
        self.retries = 0  # broken streams tried again
        self.outcomes: dict[int, str] = {}  # session → resolution outcome, for the per-dialogue line
        self.active: dict[int, _Active] = {}
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
        )
        self.turns_task = self.progress.add_task("turns", total=total_dialogues * max_turns)
        self.live = (
            Live(self._render(), console=console, refresh_per_second=8, transient=True) if self.live_mode else None
        )

    def __enter__(self) -> RunProgress:
        if self.live:
            self.live.__enter__()
        else:
            console.print(Text(f"Running {self.total} dialogue(s), up to {self.max_turns} turn(s) each…"))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live:
            self.live.__exit__(None, None, None)

    def _render(self) -> Group:
        rows = Table.grid(padding=(0, 2))
        for session_id, active in list(self.active.items())[:12]:
            rows.add_row(
                Text(f"#{session_id}"),
                Text(active.label),
                Text(f"turn {active.turn}/{self.max_turns}"),
                Text(active.doing, style="dim"),
            )
        header = Text(f"dialogues {self.finished}/{self.total}", style="bold")
        return Group(header, self.progress, rows)

    def _say(self, text: Text) -> None:
        (self.live.console if self.live else console).print(text)
        console.file.flush()  # CI logs read this line by line

    def handle(self, event: Event) -> None:
        sid = event.session_id
        if isinstance(event, DialogueStarted):
            self.active[sid] = _Active(self.labels.get(sid, str(sid)))
        elif isinstance(event, TextDelta):
            if sid in self.active:
                self.active[sid].doing = STEP_LABELS[event.role]
        elif isinstance(event, StreamRestarted):
            self.retries += 1
            if sid in self.active:
                self.active[sid].doing = f"{STEP_LABELS[event.role]} (stream broke; try {event.attempt})"
        elif isinstance(event, MessageDone):
            if sid in self.active:
                self.active[sid].turn = event.turn
                self.active[sid].doing = "judging" if event.role == "bot" else "bot answering"
        elif isinstance(event, SimulatorRetry):
            if sid in self.active:
                self.active[sid].doing = f"customer asked again ({event.problem})"
        elif isinstance(event, DialogueVerdictReady):
            if sid in self.active:
                self.active[sid].doing = f"judging the dialogue ({event.judgment.metric})"
            if event.judgment.metric == "resolution":
                j = event.judgment
                self.outcomes[sid] = "unscored" if j.score is None else str(j.details.get("outcome"))
        elif isinstance(event, TurnDone):
            self.progress.advance(self.turns_task)
            if sid in self.active:
                self.active[sid].doing = "customer typing"
        elif isinstance(event, Failure):
            line = Text(f"#{sid} {self.labels.get(sid, '')}: ", style="bold red")
            line.append(event.message, style="red")
            self._say(line)
        elif isinstance(event, DialogueDone):
            self.finished += 1
            turns_done = event.turns if event.stop_reason != "done" else max(event.turns - 1, 0)
            # Dialogues that stop early free their remaining turns from the bar.
            self.progress.advance(self.turns_task, max(self.max_turns - turns_done, 0))
            self.active.pop(sid, None)
            if not self.live:
                line = Text(f"[{self.finished}/{self.total}] #{sid} {self.labels.get(sid, '')}: ")
                line.append_text(stop_text(event.stop_reason))
                line.append(", score ")
                line.append_text(score_text(event.score, self.threshold))
                if sid in self.outcomes:
                    line.append(f", {self.outcomes[sid].replace('_', ' ')}")
                self._say(line)
        if self.live:
            self.live.update(self._render())
