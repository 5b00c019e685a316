"""Starting the embedded model from the command line, with progress on the terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from ..core.config import Config
from ..core.models.embedded import needs_embedded, start_embedded
from ..core.models.endpoints import Endpoint
from ..core.models.local_model import LocalModel, log_path
from .output import console_err

STAGES = {
    "assembling": "Assembling the embedded model (first run only)",
    "loading": "Loading the embedded model",
    "ready": "Embedded model ready",
}


@contextmanager
def embedded_model(config: Config, endpoints: dict[str, Endpoint]) -> Iterator[LocalModel | None]:
    """Start the embedded model when a role needs it, show progress, and always stop it."""
    if not needs_embedded(endpoints):
        yield None
        return
    console_err.print(Text("No endpoint configured: using the embedded offline model (demo quality).", style="yellow"))
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=console_err,
        transient=True,
    )
    tasks: dict[str, int] = {}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            for other in tasks.values():
                progress.update(other, visible=False)
            tasks[stage] = progress.add_task(STAGES.get(stage, stage), total=total)
        progress.update(tasks[stage], completed=done, total=total)

    model: LocalModel | None = None
    try:
        with progress:
            model = start_embedded(config, endpoints, report)
        console_err.print(Text(f"Embedded model ready on {model.base_url} (log: {log_path()})", style="dim"))
        yield model
    finally:
        if model is not None:
            model.stop()
