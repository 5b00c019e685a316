"""The heat map's legend: what its colours mean, drawn with the very function that colours the
cells (``escape.colour``), so legend and cells never disagree."""

from __future__ import annotations

from ...text.number_text import setting_text, svg_number
from .charts import LOW_FILL, NO_DIALOGUE
from .escape import colour, esc

STEPS = 20


def heat_legend(threshold: float) -> str:
    """A 0–1 colour scale with the threshold marked, then the two greys."""
    left, bar_w, bar_h, width = 8, 180, 12, 370
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} 58" width="{width}" role="img" '
        f'aria-label="{esc("Legend: mean score from red (0) through amber (0.5) to green (1); grey: no score")}">'
    ]
    step = bar_w / STEPS
    for i in range(STEPS):
        parts.append(
            f'<rect x="{svg_number(left + i * step)}" y="4" width="{svg_number(step + 0.5)}" height="{bar_h}" '
            f'fill="{colour((i + 0.5) / STEPS)}"/>'
        )
    for tick in (0.0, 0.5, 1.0):
        parts.append(
            f'<text x="{svg_number(left + bar_w * tick)}" y="{bar_h + 17}" class="c">{svg_number(tick)}</text>'
        )
    tx = left + bar_w * min(max(threshold, 0.0), 1.0)
    parts.append(f'<line x1="{svg_number(tx)}" y1="1" x2="{svg_number(tx)}" y2="{bar_h + 7}" class="thr"/>')
    parts.append(f'<text x="{svg_number(tx)}" y="{bar_h + 30}" class="c">threshold {setting_text(threshold)}</text>')
    swatches = (
        (colour(None), "no score (unscored)"),
        (NO_DIALOGUE, "no dialogue"),
        (LOW_FILL, "≈ low-agreement judge"),
    )
    for i, (fill, words) in enumerate(swatches):
        y = 4 + i * 17
        parts.append(f'<rect x="{left + bar_w + 24}" y="{y}" width="14" height="14" fill="{fill}" class="sw"/>')
        parts.append(f'<text x="{left + bar_w + 44}" y="{y + 11}" class="l">{esc(words)}</text>')
    parts.append("</svg>")
    caption = (
        "Each cell: the mean score of the pair's dialogues, the number in it; red at 0, amber at 0.5, green at 1; "
        "≈ on slate when every score in it comes from a judge under the agreement floor (not gated)."
    )
    return f'<div class="legend">{"".join(parts)}<p class="muted">{esc(caption)}</p></div>'
