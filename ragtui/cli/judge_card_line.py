"""One measured judge card entry as ``judge-card --measure`` prints it."""

from __future__ import annotations

from rich.text import Text

from ..core.judge_quality.card_entry import CardEntry, figure_name, interval_text
from ..core.text.score_text import figure_text


def entry_line(entry: CardEntry, skipped: int = 0) -> Text:
    value = figure_text(entry.value)
    line = Text(f"{entry.metric} · {entry.language} · {figure_name(entry.figure)} {value}", style="bold")
    interval = interval_text(entry.low, entry.high)
    line.append(f" ({interval})" if interval else " (no interval: too few items)")
    line.append(f" · n={entry.n}")
    if entry.unscored:
        line.append(f" · {entry.unscored} unscored (judge failed; not counted)", style="yellow")
    if skipped:
        line.append(f" · {skipped} skipped (not applicable)")
    line.append(f" · {entry.on}", style="dim")
    return line
