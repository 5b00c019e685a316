"""The report's charts as inline SVG, built from numbers only: every label that comes from a
file or a model (a scenario, a persona, a run id) is escaped text inside ``<text>``/``<title>``."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...text.number_text import setting_text, svg_number, svg_signed
from ...text.score_text import delta_text, score_text
from ...types.agreement_floor import LOW_WORDS
from .escape import colour, esc

NO_DIALOGUE = "#f1f3f4"  # a heat-map cell of a pair the run has no dialogue of
LOW_FILL = "#7b8aa6"  # a bar or cell whose scores come from a low-agreement judge: neither red nor green (slate, apart from the grey of no score)


def histogram(scores: list[float], threshold: float, *, bins: int = 10, low: bool = False) -> str:
    """Dialogue scores in ``bins`` bins over 0–1, bars under the threshold red, a line at it;
    ``low`` (the judge agrees with people under the floor): every bar grey, as its pass or fail
    is not trusted."""
    counts = [0] * bins
    for s in scores:
        counts[min(int(max(s, 0.0) * bins), bins - 1)] += 1
    width, height, left, bottom, head = 480, 210, 36, 28, 30
    plot_w, plot_h = width - left - 8, height - bottom - head
    top = max(counts, default=0) or 1
    parts = [_svg_open(width, height, "Distribution of dialogue scores")]
    bar = plot_w / bins
    for i, count in enumerate(counts):
        h = plot_h * count / top
        x, y = left + i * bar, head + plot_h - h
        fill = LOW_FILL if low else ("#1e8e3e" if (i + 1) / bins > threshold else "#d93025")
        start, end = i / bins, (i + 1) / bins
        parts.append(
            f'<rect x="{svg_number(x + 1)}" y="{svg_number(y)}" width="{svg_number(bar - 2)}" height="{svg_number(h)}" fill="{fill}">'
            f"<title>{svg_number(start)}–{svg_number(end)}: {count} dialogue(s)</title></rect>"
        )
        if count:
            parts.append(f'<text x="{svg_number(x + bar / 2)}" y="{svg_number(y - 2)}" class="c">{count}</text>')
    for tick in range(0, 11, 2):
        x = left + plot_w * tick / 10
        parts.append(f'<text x="{svg_number(x)}" y="{height - 10}" class="c">{svg_number(tick / 10)}</text>')
    tx = left + plot_w * min(max(threshold, 0.0), 1.0)
    parts.append(f'<line x1="{svg_number(tx)}" y1="14" x2="{svg_number(tx)}" y2="{head + plot_h}" class="thr"/>')
    parts.append(f'<text x="{svg_number(tx)}" y="10" class="c">threshold {setting_text(threshold)}</text>')
    parts.append(f'<line x1="{left}" y1="{head + plot_h}" x2="{left + plot_w}" y2="{head + plot_h}" class="axis"/>')
    parts.append("</svg>")
    return "".join(parts)


def heat_map(rows: list[str], columns: list[str], cells: dict[tuple[int, int], tuple[float | None, int, bool]]) -> str:
    """Mean score per scenario (row) × persona (column), the number in the cell, grey for none; a
    cell whose scores all come from a low-agreement judge reads ``≈0.30`` on slate, never red or green."""
    cell_w, cell_h, left, top = 64, 26, 150, 64
    width, height = left + cell_w * len(columns) + 8, top + cell_h * len(rows) + 8
    parts = [_svg_open(width, height, "Mean score per scenario × persona")]
    for j, name in enumerate(columns):
        x = left + j * cell_w + cell_w / 2
        parts.append(
            f'<text x="{svg_number(x)}" y="{top - 8}" class="c" transform="rotate(-30 {svg_number(x)} {top - 8})">'
        )
        parts.append(f"{esc(_short(name, 14))}<title>{esc(name)}</title></text>")
    for i, name in enumerate(rows):
        y = top + i * cell_h
        parts.append(f'<text x="{left - 6}" y="{svg_number(y + cell_h / 2 + 4)}" class="r">{esc(_short(name, 22))}')
        parts.append(f"<title>{esc(name)}</title></text>")
        for j in range(len(columns)):
            value, n, low = cells.get((i, j), (None, 0, False))
            x = left + j * cell_w
            label = score_text(value, low) if n else ""
            shown = f"{score_text(value, low)} over {n} dialogue(s)" + (f" ({LOW_WORDS} judge)" if low else "")
            tip = f"{esc(name)} × {esc(columns[j])}: " + (esc(shown) if n else "none")
            fill = LOW_FILL if low else colour(value) if n else NO_DIALOGUE
            parts.append(
                f'<rect x="{x + 1}" y="{y + 1}" width="{cell_w - 2}" height="{cell_h - 2}" '
                f'fill="{fill}"><title>{tip}</title></rect>'
            )
            if label:
                parts.append(
                    f'<text x="{x + cell_w / 2}" y="{svg_number(y + cell_h / 2 + 4)}" class="c w">{label}</text>'
                )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class TrendPoint:
    label: str  # the run id
    mean: float | None
    low: float | None
    high: float | None
    current: bool = False


def trend(points: list[TrendPoint]) -> str:
    """Run scores of the last runs of the same scenario set, each with its 95% interval."""
    width, height, left, bottom = 480, 200, 36, 24
    plot_w, plot_h = width - left - 12, height - bottom - 16
    parts = [_svg_open(width, height, "Run score over the last runs, with 95% intervals")]
    for tick in (0.0, 0.5, 1.0):
        y = 8 + plot_h * (1 - tick)
        parts.append(f'<line x1="{left}" y1="{svg_number(y)}" x2="{left + plot_w}" y2="{svg_number(y)}" class="grid"/>')
        parts.append(f'<text x="{left - 4}" y="{svg_number(y + 4)}" class="r">{svg_number(tick)}</text>')
    step = plot_w / max(len(points), 1)
    previous: tuple[float, float] | None = None
    for i, p in enumerate(points):
        x = left + step * (i + 0.5)
        parts.append(f'<text x="{svg_number(x)}" y="{height - 6}" class="c">{i + 1}</text>')
        if p.mean is None:
            previous = None
            continue
        y = 8 + plot_h * (1 - p.mean)
        if p.low is not None and p.high is not None:
            y1, y2 = 8 + plot_h * (1 - p.high), 8 + plot_h * (1 - p.low)
            parts.append(
                f'<line x1="{svg_number(x)}" y1="{svg_number(y1)}" x2="{svg_number(x)}" y2="{svg_number(y2)}" class="ci"/>'
            )
        if previous is not None:
            parts.append(
                f'<line x1="{svg_number(previous[0])}" y1="{svg_number(previous[1])}" x2="{svg_number(x)}" y2="{svg_number(y)}" class="ln"/>'
            )
        interval = f" [{score_text(p.low)}, {score_text(p.high)}]" if p.low is not None else ""
        parts.append(
            f'<circle cx="{svg_number(x)}" cy="{svg_number(y)}" r="{5 if p.current else 3.5}" class="{"pt cur" if p.current else "pt"}">'
            f"<title>{esc(p.label)}: {score_text(p.mean)}{interval}</title></circle>"
        )
        previous = (x, y)
    parts.append("</svg>")
    return "".join(parts)


def deltas(values: list[tuple[str, float, bool]]) -> str:
    """A compare's per-pair change in score, most negative first; regressions outlined."""
    shown = sorted(values, key=lambda v: v[1])[:60]  # the largest drops first: what people look for
    bar_h, left, width = 16, 170, 480
    mid = left + (width - left - 8) / 2
    # The axis spans the largest change, rounded up to a tenth: small changes stay visible.
    span = max(0.1, math.ceil(max((abs(v[1]) for v in shown), default=0.1) * 10) / 10)
    scale = (width - left - 8) / 2 / span
    height = bar_h * len(shown) + 24
    parts = [_svg_open(width, height, "Change in score per scenario × persona (new − base)")]
    for i, (label, delta, regression) in enumerate(shown):
        y = 4 + i * bar_h
        w = scale * min(abs(delta), span)
        x = mid - w if delta < 0 else mid
        fill = "#d93025" if delta < 0 else "#1e8e3e"
        outline = ' class="reg"' if regression else ""
        parts.append(
            f'<text x="{left - 6}" y="{y + 12}" class="r">{esc(_short(label, 26))}<title>{esc(label)}</title></text>'
        )
        parts.append(
            f'<rect x="{svg_number(x)}" y="{y + 2}" width="{svg_number(max(w, 1))}" height="{bar_h - 4}" fill="{fill}"{outline}>'
            f"<title>{esc(label)}: {delta_text(delta)}</title></rect>"
        )
    parts.append(f'<line x1="{svg_number(mid)}" y1="0" x2="{svg_number(mid)}" y2="{height - 18}" class="axis"/>')
    for tick, anchor in ((-span, "l"), (0.0, "c"), (span, "r")):  # the outer labels stay inside the chart
        parts.append(
            f'<text x="{svg_number(mid + scale * tick)}" y="{height - 4}" class="{anchor}">{svg_signed(tick)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _svg_open(width: int, height: int, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" role="img" aria-label="{esc(title)}"><title>{esc(title)}</title>'
    )


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
