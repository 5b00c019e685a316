"""Terminal output helpers. Untrusted text (model output, user files) is only ever passed to
Rich as ``Text`` objects or with ``markup=False``: a bot reply containing ``[bold]`` or ``[/]``
is shown as typed, never interpreted.

What the *terminal* would interpret — escape sequences, other C0/C1 controls, bidi overrides in
a model's reply — is drawn visibly instead (``␛[31m``), by the console itself: every line
``ragtui`` prints passes through ``SafeConsole``, whichever command built it. Rich's own
styling travels separately from the text (control segments and styles), so it still works.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from ..core.text_safety import visible

if TYPE_CHECKING:
    from rich.progress import Progress


class SafeConsole(Console):
    """A console that never sends a control character of the *text* to the terminal."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control or not segment.text else Segment(visible(segment.text), *segment[1:])
            for segment in buffer
        )


console = SafeConsole(highlight=False)
console_err = SafeConsole(stderr=True, highlight=False)


def error_line(message: str) -> None:
    """One error, on one line of stderr, unwrapped, so it can be grepped and read in CI logs."""
    sys.stderr.write(" ".join(visible(message, keep_newlines=False).split()) + "\n")
    sys.stderr.flush()


def score_text(score: float | None, threshold: float) -> Text:
    """A score as the seed's spreadsheet showed it: red under the threshold; 'unscored' in
    yellow when the judge gave nothing usable (never shown as 0)."""
    if score is None:
        return Text("unscored", style="yellow")
    return Text(f"{score:.2f}", style="bold red" if score < threshold else "green")


def session_score_text(session: object) -> Text:
    """A dialogue's score; one with no judged turn at all has no score, which is not "unscored"."""
    score, threshold = getattr(session, "score", None), getattr(session, "threshold", 0.0)
    if score is None and not getattr(session, "unscored_turns", 0):
        return Text("-", style="dim")
    return score_text(score, threshold)


def stop_text(reason: str | None) -> Text:
    styles = {
        "done": "green",
        "max_turns": "cyan",
        "error": "bold red",
        "cancelled": "yellow",
        "interrupted": "bold yellow",
        "gave_up": "magenta",
        "handed_over": "blue",
    }
    return Text(reason or "running", style=styles.get(reason or "", "dim"))


def say_discovered(endpoints: dict) -> None:  # dict[str, Endpoint]
    """When a role's model was found on its server (none was named), say which, on stderr."""
    from ..core.models.endpoints import discovery_note

    note = discovery_note(endpoints)
    if note:
        console_err.print(Text(note, style="dim"))


def item_progress() -> Progress:
    """The bar of long per-item work (calibrating, re-judging): done/total, elapsed, time left,
    and a note (e.g. the unscored count); on stderr, gone when finished."""
    # Imported here: every command imports this module, few draw a bar.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[note]}", style="yellow"),
        console=console_err,
        transient=True,
    )
