"""Terminal output helpers. Untrusted text (model output, user files) is only ever passed to
Rich as ``Text`` objects or with ``markup=False``: a bot reply containing ``[bold]`` or ``[/]``
is shown as typed, never interpreted."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.text import Text

console = Console(highlight=False)
console_err = Console(stderr=True, highlight=False)


def error_line(message: str) -> None:
    """One error, on one line of stderr, unwrapped, so it can be grepped and read in CI logs."""
    sys.stderr.write(" ".join(message.split()) + "\n")
    sys.stderr.flush()


def score_text(score: float | None, threshold: float) -> Text:
    """A score as the seed's spreadsheet showed it: red under the threshold; 'unscored' in
    yellow when the judge gave nothing usable (never shown as 0)."""
    if score is None:
        return Text("unscored", style="yellow")
    return Text(f"{score:.2f}", style="bold red" if score < threshold else "green")


def stop_text(reason: str | None) -> Text:
    styles = {"done": "green", "max_turns": "cyan", "error": "bold red", "cancelled": "yellow"}
    return Text(reason or "running", style=styles.get(reason or "", "dim"))
