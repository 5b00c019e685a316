"""Printing a bot probe (``ragtui doctor``). Every piece of the response is untrusted, so it
goes to Rich as ``Text`` only — never as markup."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..core.bots.probe import BotProbeResult
from ..core.text.number_text import whole_text
from .output import console as default_console

PASSAGES_SHOWN = 5
PASSAGE_CHARS = 160


def bot_probe_lines(result: BotProbeResult) -> list[Text]:
    lines: list[Text] = []
    head = Text("bot: ", style="bold")
    head.append(result.bot)
    head.append("  ")
    head.append("ok" if result.ok else "FAILED", style="green" if result.ok else "bold red")
    if result.latency_ms is not None:
        head.append(f"  {whole_text(result.latency_ms)} ms", style="dim")
    lines.append(head)
    lines.append(_field("question", result.question))
    status = str(result.status) if result.status is not None else "-"
    if result.content_type:
        status += f" ({result.content_type})"
    lines.append(_field("status", status))
    lines.append(_field("raw response", result.raw or "(nothing)", style="dim"))
    if result.error:
        lines.append(_field("error", result.error, style="red"))
    if result.answer is not None:
        lines.append(_field("answer", result.answer))
        lines.append(_field("passages", f"{len(result.passages)} extracted" if result.passages else "none"))
        for i, passage in enumerate(result.passages[:PASSAGES_SHOWN], start=1):
            line = Text(f"    [{i}] ")
            line.append(passage.title or "(no title)", style="bold")
            if passage.doc_id:
                line.append(f"  {passage.doc_id}", style="cyan")
            text = " ".join(passage.text.split())
            line.append("  " + (text if len(text) <= PASSAGE_CHARS else text[: PASSAGE_CHARS - 1] + "…"), style="dim")
            lines.append(line)
        if len(result.passages) > PASSAGES_SHOWN:
            lines.append(Text(f"    … and {len(result.passages) - PASSAGES_SHOWN} more", style="dim"))
        if not result.passages:
            lines.append(Text("    (turns will be judged without context)", style="yellow"))
    return lines


def print_bot_probe(result: BotProbeResult, console: Console | None = None) -> None:
    out = console or default_console
    for line in bot_probe_lines(result):
        out.print(line, soft_wrap=True)


def _field(label: str, value: str, style: str = "") -> Text:
    line = Text(f"  {label}: ", style="bold")
    line.append(value, style=style)
    return line
