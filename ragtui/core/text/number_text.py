"""How every number that is not a score becomes text, named by what it is: a rate, a p-value,
a setting, a count, a duration, an amount of money, a coordinate in a chart.

Scores and the 0–1 figures read beside them are ``score_text`` (``score_text``, ``figure_text``,
``delta_text``). Everything else a view prints goes through one of these, so a view file holds
no float format of its own (tests/architecture/test_one_score_text.py) and one kind of number
reads the same in the terminal, the TUI and every report.
"""

from __future__ import annotations

NO_NUMBER = "–"  # no figure to show (score_text's NO_VERDICT is this same dash)


def percent_text(value: float) -> str:
    """A share as a whole percentage: a pass rate, a resolution rate, an accuracy — ``83%``."""
    return f"{value:.0%}"


def percent_number(value: float) -> str:
    """A share's percentage without its sign, for a range that carries one sign (``62–80%``)."""
    return f"{value * 100:.0f}"


def p_value_text(p: float) -> str:
    """A significance test's p-value, to three decimals: ``0.031``."""
    return f"{p:.3f}"


def fine_text(value: float | None) -> str:
    """A calibration's figure — a fitted cut, an agreement, a confidence bound — to three
    decimals: ``0.412``; ``–`` for none."""
    return NO_NUMBER if value is None else f"{value:.3f}"


def fine_delta_text(value: float) -> str:
    """A mean change and its bounds, signed, to three decimals: ``+0.012``."""
    return f"{value:+.3f}"


def setting_text(value: float) -> str:
    """A number as a person set it (a threshold, a minimum rate, a temperature, an alpha, a
    timeout): no padding, no rounding to a fixed width — ``0.7``, ``0.05``, ``30``."""
    return f"{value:g}"


def count_text(value: float) -> str:
    """A count or a token total, whole, with thousands separators: ``12,345``."""
    return f"{value:,.0f}"


def whole_text(value: float) -> str:
    """A quantity to the unit where a fraction says nothing: milliseconds, the seconds of a long
    job, an estimated number of calls — ``1234``."""
    return f"{value:.0f}"


def tenths_text(value: float | None) -> str:
    """A quantity to one decimal: seconds waited, gigabytes, thousands of tokens, an average
    (turns per dialogue, items a minute), a 1–5 level — ``2.5``; ``–`` for none."""
    return NO_NUMBER if value is None else f"{value:.1f}"


def timing_text(seconds: float) -> str:
    """A duration in a machine-read report (JUnit ``time``), to the millisecond: ``1.234``."""
    return f"{seconds:.3f}"


def money_text(amount: float) -> str:
    """An estimated cost, to four decimals (small runs cost fractions of a cent): ``0.0123``."""
    return f"{amount:,.4f}"


def svg_number(value: float) -> str:
    """A coordinate or a length in an SVG chart, to a tenth of a pixel."""
    return f"{value:.1f}"


def svg_signed(value: float) -> str:
    """A signed axis tick in an SVG chart (a change), to one decimal: ``+0.2``."""
    return f"{value:+.1f}"


__all__ = [
    "NO_NUMBER",
    "count_text",
    "fine_delta_text",
    "fine_text",
    "money_text",
    "p_value_text",
    "percent_number",
    "percent_text",
    "setting_text",
    "svg_number",
    "svg_signed",
    "tenths_text",
    "timing_text",
    "whole_text",
]
