"""The small text helpers the list screens fit into 80 columns with."""

from __future__ import annotations

from datetime import date

from ragtui.core.text.filter_words import matches
from ragtui.core.text.fit_columns import fit_widths, keep_end
from ragtui.core.text.short_date import short_date


def test_the_widest_shrinkable_column_gives_first_and_none_goes_under_its_minimum():
    assert fit_widths([3, 30, 20, 11], [3, 8, 6, 11], 40) == [3, 13, 13, 11]
    assert fit_widths([3, 10], [3, 8], 40) == [3, 10]  # room to spare: natural widths
    assert fit_widths([3, 30, 20], [3, 8, 6], 5) == [3, 8, 6]  # too narrow even so: the minimums


def test_a_run_id_keeps_its_end():
    assert keep_end("20261204-093012-ab12", 10) == "…3012-ab12"
    assert keep_end("short", 10) == "short"


def test_a_date_this_year_reads_as_a_date_and_another_year_s_as_the_day():
    today = date(2026, 12, 6)
    assert short_date("2026-12-05T15:30:12+00:00", today) == "Dec 5 15:30"
    assert short_date("2025-04-01T09:30:00+00:00", today) == "2025-04-01"
    assert short_date("not a time", today) == "not a time"


def test_every_word_must_be_found_in_some_field_ignoring_case():
    assert matches("angry DONE", ("id-linking", "angry", "run-1", "done"))
    assert not matches("angry cancelled", ("id-linking", "angry", "run-1", "done"))
    assert matches("  ", ("anything",))
