"""``ragtui run``: scenarios × personas through the engine, with live progress and a final
score table; the exit status gates CI (see ``main``)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from rich.console import Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..core import bootstrap
from ..core.bootstrap import Overrides
from ..core.config import Config
from ..core.content.personas import Persona, load_personas, pick_personas
from ..core.content.scenarios import Scenario, load_scenarios, pick_scenarios
from ..core.dialogue.engine import Engine, new_run_id
from ..core.dialogue.events import DialogueDone, DialogueStarted, Event, Failure, MessageDone, TextDelta, TurnDone
from ..core.models.endpoints import Endpoint
from ..core.record.store import Store, StoredSession
from .model_start import embedded_model
from .output import console, console_err, score_text, stop_text

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
        elif isinstance(event, MessageDone):
            if sid in self.active:
                self.active[sid].turn = event.turn
                self.active[sid].doing = "judging" if event.role == "bot" else "bot answering"
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
                self._say(line)
        if self.live:
            self.live.update(self._render())


def results_table(rows: list[StoredSession]) -> Table:
    table = Table(title="Results")
    for name, justify in (
        ("id", "right"),
        ("scenario", "left"),
        ("persona", "left"),
        ("turns", "right"),
        ("unscored", "right"),
        ("score", "right"),
        ("stop", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for s in rows:
        table.add_row(
            str(s.id),
            Text(s.scenario_id),
            Text(s.persona_name),
            str(s.turns),
            str(s.unscored_turns),
            score_text(s.score, s.threshold),
            stop_text(s.stop_reason),
        )
    return table


def exit_status(rows: list[StoredSession], threshold: float) -> int:
    """2 if any dialogue ended in error, else 1 if any scored under the threshold or could
    not be scored at all (a gate must not pass without evidence), else 0."""
    if any(s.stop_reason == "error" for s in rows):
        return 2
    if any(s.score is None or s.score < threshold for s in rows if s.stop_reason != "cancelled"):
        return 1
    return 0


async def run(args: argparse.Namespace, overrides: Overrides) -> int:
    config = bootstrap.load_effective_config(overrides)
    endpoints = bootstrap.endpoints_for(config, overrides)
    personas = pick_personas(load_personas(config.personas, config.language), args.persona)
    scenarios = pick_scenarios(load_scenarios(config.scenarios, config.language), args.scenario)
    if not personas:
        console_err.print(Text(f"No personas in {config.personas / config.language}"))
        return 2
    store = bootstrap.open_store(config)
    with embedded_model(config, endpoints):
        return await _run(args, config, endpoints, store, personas, scenarios)


async def _run(
    args: argparse.Namespace,
    config: Config,
    endpoints: dict[str, Endpoint],
    store: Store,
    personas: list[Persona],
    scenarios: list[Scenario],
) -> int:
    if not args.no_check:
        await bootstrap.check_reachable(endpoints)
    engine = Engine(config, endpoints, store)
    try:
        for role, endpoint in endpoints.items():
            console.print(Text(f"{role:>5}: {endpoint.label}", style="dim"))
        run_id = new_run_id()
        dialogues = [engine.new_dialogue(s, p, run_id=run_id) for s in scenarios for p in personas]
        labels = {d.session_id: f"{d.simulator.scenario.id} × {d.simulator.persona.name}" for d in dialogues}
        with RunProgress(len(dialogues), config.max_turns, config.threshold, labels) as progress:
            async for event in engine.run_many(dialogues, config.concurrency):
                progress.handle(event)
    finally:
        await engine.aclose()
    rows = list(reversed(store.sessions(run_id=run_id)))
    console.print(results_table(rows))
    scored = [s.score for s in rows if s.score is not None]
    summary = Text(f"run {run_id}: {len(rows)} dialogue(s), run score ")
    summary.append_text(score_text(sum(scored) / len(scored) if scored else None, config.threshold))
    summary.append(f" (threshold {config.threshold:g}); stored in {store.path}")
    console.print(summary)
    console.print(
        Text(f"Next: ragtui show {rows[0].id}   ·   ragtui export --run {run_id} --csv results.csv", style="dim")
    )
    sys.stdout.flush()
    return exit_status(rows, config.threshold)
