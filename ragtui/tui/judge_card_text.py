"""The judge card as the TUI shows it: one line per metric and language, how far the judge agrees
with people in words first and figures second, then where it was measured. The rows are the ones
``ragtui judge-card`` prints (``core.judge_quality.card_rows``)."""

from __future__ import annotations

from rich.text import Text

from ..core.judge_quality.card_rows import CardRow
from ..core.text.number_text import setting_text
from ..core.types.agreement_floor import LOW_MARK, LOW_WORDS, AgreementFloor, agreement_words
from .safe_text import one_line


def card_text(rows: list[CardRow], judge: str, floor: AgreementFloor) -> Text:
    text = Text(f"Judge card · {one_line(judge, 60)}\n", style="bold")
    text.append("How far the judge agrees with people, per metric and language.\n\n", style="dim")
    width = max((len(one_line(row.metric, 40)) for row in rows), default=0)
    for row in rows:
        metric = one_line(row.metric, 40)  # the card's names are read from a file
        text.append(f"{metric:<{width}}  {one_line(row.language, 8)}  ")
        entry = row.entry
        if entry is None:
            text.append("unmeasured", style="yellow")
            text.append(f" — ragtui judge-card --measure --metric {metric}\n", style="dim")
            continue
        words = agreement_words({"agreement": entry.to_dict()}, floor)
        if row.quick:  # a newer measurement on too few items: shown, never what gates
            text.append(f"quick, decides nothing: {words}", style="dim")
        else:
            text.append(f"{LOW_MARK} {words}" if row.low else words, style="dim" if row.low else "")
        text.append(f"\n{' ' * (width + 6)}{one_line(f'{entry.source}: {entry.on}', 200)}\n", style="dim")
    text.append(
        f"\n{LOW_MARK} {LOW_WORDS}: under [min_judge_agreement] (Spearman {setting_text(floor.spearman)}, κ {setting_text(floor.kappa)}, "
        f"at least {floor.items} labelled items): its scores carry {LOW_MARK}, are drawn neither red nor green "
        "and do not gate a run. `ragtui judge-card --measure` measures the judge; an edited prompt is unmeasured "
        "until measured again.",
        style="dim",
    )
    return text
