"""Live progress of ``ragtui run``: on a terminal, per dialogue the role streaming now with its
tokens and tokens/s and the run's ETA; one plain line per finished step and per finished
dialogue otherwise (CI logs), and for each dialogue verdict a line when it starts and one when
it is done, since one can take a minute on a small local model."""

from __future__ import annotations

import asyncio
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
    DialogueVerdictStarted,
    Event,
    Failure,
    MessageDone,
    SimulatorRetry,
    StreamRestarted,
    TurnDone,
)
from ..core.dialogue.progress import StepMeter, verdict_started_line
from ..core.registry.metrics import metric_info
from ..core.text.score_text import UNSCORED, styled_score
from ..core.text.text_safety import visible
from .output import console, format_seconds, stop_text

ETA_EVERY = 1.0  # seconds between two estimates of the time left
# Shown once the estimate has run out while work remains (steps slower than their measured
# mean): "ETA ≤ 0 s" for the last minute of a run would be a promise already broken.
ETA_OVERDUE = "ETA: past the estimate, finishing…"


@dataclass
class _Active:
    label: str
    turn: int = 0
    note: str = ""  # e.g. "broke off the reply after 24 characters; try 2", until the step streams again


class RunProgress:
    """Live view on a terminal: per dialogue the role streaming now with its tokens and
    tokens/s, and the run's ETA from the speeds measured so far. Without a terminal (CI logs)
    one plain line per finished step (role, turn, tokens, seconds) and per finished dialogue,
    so a log never stays silent for longer than one step."""

    def __init__(
        self,
        total_dialogues: int,
        max_turns: int,
        threshold: float,
        labels: dict[int, str],
        concurrency: int = 1,
        live_mode: bool | None = None,
        verbose: bool = False,
    ) -> None:
        self.live_mode = console.is_terminal if live_mode is None else live_mode
        self.verbose = verbose  # the plain line per step on a terminal too
        self.threshold = threshold
        self.labels = labels
        self.max_turns = max_turns
        self.total = total_dialogues
        self.concurrency = concurrency
        self.finished = 0
        self.retries = 0  # replies asked for again (a broken stream, an unreadable reply)
        self.outcomes: dict[int, str] = {}  # session → its outcome (resolution's), for the per-dialogue line
        self.active: dict[int, _Active] = {}
        self.meter = StepMeter()
        self._eta: tuple[float, str] | None = None  # (when worked out, text)
        self.output_gone = False  # stdout's reader went away (`| head`)
        self._ran_out_at: float | None = None  # when the estimate first fell under a second
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
        )
        self.turns_task = self.progress.add_task("turns", total=total_dialogues * max_turns)
        self.live = (
            Live(console=console, refresh_per_second=4, transient=True, get_renderable=self._render)
            if self.live_mode
            else None
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

    def eta_text(self) -> str:
        # The estimate walks every live dialogue; a run of hundreds at once finishes steps by
        # the hundred a second, so it is worked out at most every ETA_EVERY seconds.
        now = self.meter.clock()
        if self._eta is None or now - self._eta[0] >= ETA_EVERY:
            waiting = max(self.total - self.finished - len(self.active), 0)
            eta = self.meter.eta(self.max_turns, waiting, self.concurrency)
            text = "ETA after the first full turn" if eta is None else self._eta_words(eta, now)
            self._eta = (now, text) if eta is not None else None
            return text
        return self._eta[1]

    def _eta_words(self, eta: float, now: float) -> str:
        """``ETA ≤ 1 min 05 s``; under a second, ``ETA ≤ 1 s`` — and once that second has
        passed with work still left, that the estimate has run out, not a time that has."""
        if eta >= 1.0:
            self._ran_out_at = None
            return f"ETA ≤ {format_seconds(eta)}"
        if self._ran_out_at is None:
            self._ran_out_at = now
        return ETA_OVERDUE if now - self._ran_out_at >= 1.0 else "ETA ≤ 1 s"

    def _render(self) -> Group:
        now = self.meter.clock()
        rows = Table.grid(padding=(0, 2))
        for session_id, active in list(self.active.items())[:12]:
            step = self.meter.live.get(session_id)
            doing = step.describe(now) if step else "waiting"
            rows.add_row(
                Text(f"#{session_id}"),
                Text(active.label),
                Text(f"turn {step.turn if step else active.turn}/{self.max_turns}"),
                Text(f"{doing} ({active.note})" if active.note else doing, style="dim"),
            )
        header = Text(f"dialogues {self.finished}/{self.total}", style="bold")
        header.append(f" · {self.eta_text()}", style="dim")
        return Group(header, self.progress, rows)

    def _say(self, text: Text) -> None:
        if self.output_gone:
            return
        try:
            self._write(text)
        except BrokenPipeError:
            self._stop_run()

    def _stop_run(self) -> None:
        """Nobody reads the output any more: stop the run as Ctrl-C does (running dialogues
        are recorded as cancelled, resumable). Raised here instead, the error would leave the
        dialogues mid-call while their connections are closed, recorded as failed."""
        self.output_gone = True
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no event loop: nothing runs to stop
            task = None
        if task is not None:
            task.cancel()

    def _write(self, text: Text) -> None:
        if self.live:
            # soft_wrap: a log line stays one line (grep-able), whatever the terminal width.
            self.live.console.print(text, soft_wrap=True)
        else:
            # A log without a terminal: the plain line, made visible like every console line
            # (a run of thousands of steps writes thousands; Rich's rendering cost more than
            # the step's HTTP exchange).
            console.file.write(visible(text.plain, keep_newlines=False) + "\n")
        console.file.flush()  # CI logs read this line by line

    def handle(self, event: Event) -> None:
        sid = event.session_id
        step = self.meter.observe(event)
        if step is not None and (not self.live or self.verbose):
            self._say(Text(step.line(self.labels.get(sid, ""), self.max_turns) + f" · {self.eta_text()}"))
        if isinstance(event, DialogueStarted):
            self.active[sid] = _Active(self.labels.get(sid, str(sid)))
        elif isinstance(event, StreamRestarted):
            self.retries += 1
            if sid in self.active:
                self.active[sid].note = f"{event.reason}; try {event.attempt}"
        elif isinstance(event, MessageDone):
            if sid in self.active:
                self.active[sid].turn = event.turn
                self.active[sid].note = ""
        elif isinstance(event, SimulatorRetry):
            if sid in self.active:
                self.active[sid].note = f"customer asked again: {event.problem}"
        elif isinstance(event, DialogueVerdictStarted):
            if sid in self.active:
                self.active[sid].note = ""  # the step itself says what is being judged
            if not self.live:
                self._say(Text(f"{verdict_started_line(event)} · {self.eta_text()}"))
        elif isinstance(event, DialogueVerdictReady):
            info = metric_info(event.judgment.metric)
            if info is not None and info.success_outcomes:  # judged by its outcome: the word says how it ended
                j = event.judgment
                self.outcomes[sid] = UNSCORED if j.score is None else str(j.verdict.outcome)
        elif isinstance(event, TurnDone):
            self.progress.advance(self.turns_task)
            if sid in self.active:
                self.active[sid].note = ""
        elif isinstance(event, Failure) and not event.record:
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
                line.append_text(styled_score(event.score, self.threshold))
                if sid in self.outcomes:
                    line.append(f", {self.outcomes[sid].replace('_', ' ')}")
                self._say(line)
