"""Starting the embedded model from the command line, with progress on the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from ..core.config.settings import Config
from ..core.models.embedded import judge_caveat, needs_embedded, start_embedded
from ..core.models.endpoints import Endpoint
from ..core.models.local_model import LocalModel, log_path
from .output import console_err

STAGES = {
    "waiting": "Waiting for another ragtui process to start the embedded model",
    "assembling": "Assembling the embedded model file (first run only)",
    "loading": "Loading the embedded model into memory (llama.cpp)",
    "attached": "Using the embedded model already running",
    "ready": "Embedded model ready",
}
# Stages with a real measure of progress get a bar; the others a spinner naming the step
# (llama.cpp reports no loading progress, and a bar filling against a timeout would lie).
MEASURED = {"assembling"}


@contextmanager
def embedded_model(config: Config, endpoints: dict[str, Endpoint]) -> Iterator[LocalModel | None]:
    """Start the embedded model when a role needs it, show progress, and always stop it."""
    if not needs_embedded(endpoints):
        yield None
        return
    console_err.print(Text("No endpoint configured: using the embedded offline model (demo quality).", style="yellow"))
    caveat = judge_caveat(endpoints, config.language)
    if caveat:
        console_err.print(Text(caveat, style="yellow"), soft_wrap=True)
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=console_err,
        transient=True,
    )
    tasks: dict[str, TaskID] = {}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            for other in tasks.values():
                progress.update(other, visible=False)
            tasks[stage] = progress.add_task(STAGES.get(stage, stage), total=total if stage in MEASURED else None)
            if not console_err.is_terminal:
                console_err.print(Text(STAGES.get(stage, stage) + "…"))  # CI logs: one line per step
        if stage in MEASURED:
            progress.update(tasks[stage], completed=done, total=total)

    model: LocalModel | None = None
    try:
        with progress:
            model = start_embedded(config, endpoints, report)
        how = "started" if model.started_here else "shared with other ragtui processes"
        state = model.state
        if state is not None:  # fewer threads than CPUs: the machine was busy when it started
            how += f", {state.threads} thread{'s' if state.threads != 1 else ''}"
        console_err.print(Text(f"Embedded model ready on {model.base_url}, {how} (log: {log_path()})", style="dim"))
        yield model
    finally:
        if model is not None:
            model.stop()
