"""The small text helpers the list screens fit into 80 columns with."""

from __future__ import annotations

from datetime import date

from ragtui.core.text.filter_words import matches
from ragtui.core.text.fit_columns import (
    NAME,
    RUN_ID,
    Column,
    fit_table,
    fit_widths,
    keep_end,
    narrowest_apart,
    pair_label,
    shorten,
)
from ragtui.core.text.short_date import short_date


def test_the_widest_shrinkable_column_gives_first_and_none_goes_under_its_minimum():
    assert fit_widths([3, 30, 20, 11], [3, 8, 6, 11], 40) == [3, 13, 13, 11]
    assert fit_widths([3, 10], [3, 8], 40) == [3, 10]  # room to spare: natural widths
    assert fit_widths([3, 30, 20], [3, 8, 6], 5) == [3, 8, 6]  # too narrow even so: the minimums


def test_a_run_id_keeps_its_end():
    assert keep_end("20261204-093012-ab12", 10) == "…3012-ab12"
    assert keep_end("short", 10) == "short"


def test_text_gives_up_its_end_start_or_middle_in_terminal_cells():
    assert shorten("refund-partial", 9, "end") == "refund-p…"
    assert shorten("refund-partial", 9, "start") == "…-partial"
    assert shorten("refund-partial", 9, "middle") == "refu…tial"
    assert shorten("refund-partial", 9, "whole") == "refund-partial"
    assert shorten("払い戻しの件", 7, "middle") == "払…件"  # two cells a character
    assert shorten("short", 9, "middle") == "short"


def test_a_pair_keeps_both_names_and_rows_that_share_a_scenario_read_apart():
    assert pair_label("id-linking", "calm", 40) == "id-linking × calm"
    assert pair_label("reset-link-expired", "angry", 20) == "reset-…pired × angry"
    assert pair_label("refund-partial", "skeptical", 19) == "refu…tial·skeptical"
    pairs = [("id-linking", "in-a-hurry"), ("id-linking", "beginner"), ("id-linking", "in-a-rush")]
    width = narrowest_apart(pairs, lambda p, w: pair_label(*p, w), 8, 30)
    shown = [pair_label(*p, width) for p in pairs]
    assert len(set(shown)) == 3 and all(len(s) <= width for s in shown), shown


def test_run_ids_stay_apart_and_headings_whole_however_narrow():
    runs = ["20261204-093012-ab12", "20261204-101500-ab12", "20261205-101500-ef56"]  # two share an end
    rows = [[run, name] for run, name in zip(runs, ["refund-partial-a", "refund-partial-b", "outage"], strict=True)]
    widths = fit_table([Column("run", RUN_ID), Column("scenario", NAME)], rows, 10)
    assert widths[1] >= len("scenario")  # never narrower than its heading
    assert len({shorten(run, widths[0], "start") for run in runs}) == 3
    assert len({shorten(row[1], widths[1], "middle") for row in rows}) == 3
    # where the table wraps a heading between words, a figure's column may narrow to its figures
    assert fit_table([Column("pass^K (K)")], [["1.00 (3)"]], 5, heading_wraps=True) == [8]
    assert fit_table([Column("pass^K (K)")], [["1.00 (3)"]], 5) == [10]


def test_a_date_this_year_reads_as_a_date_and_another_year_s_as_the_day():
    today = date(2026, 12, 6)
    assert short_date("2026-12-05T15:30:12+00:00", today) == "Dec 5 15:30"
    assert short_date("2025-04-01T09:30:00+00:00", today) == "2025-04-01"
    assert short_date("not a time", today) == "not a time"


def test_every_word_must_be_found_in_some_field_ignoring_case():
    assert matches("angry DONE", ("id-linking", "angry", "run-1", "done"))
    assert not matches("angry cancelled", ("id-linking", "angry", "run-1", "done"))
    assert matches("  ", ("anything",))
