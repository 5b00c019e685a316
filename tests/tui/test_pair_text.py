"""The text of the side-by-side screen's boxes, from the functions that make it (no app): a
side's dialogue verdicts and one turn of a pair. ``test_runs_compare_fork`` drives the screens."""

from __future__ import annotations

from ragtui.core.store.store import Store
from ragtui.tui.formatting import DEFAULT_FLOOR
from ragtui.tui.screens.compare_screen import _side, _verdicts_text
from stand_ins.synthetic_runs import write_dialogue


def test_a_side_s_dialogue_verdicts_give_the_outcome_and_each_score(store: Store):
    verdicts = {"resolution": (1.0, "resolved"), "retention": (0.5, None)}
    session = store.session(write_dialogue(store, "run-a", "outage", "calm", [0.8], verdicts=verdicts))
    assert str(_verdicts_text(session)) == "dialogue verdicts\nresolution resolved 1.00\nretention 0.50"


def test_an_unscored_or_skipped_verdict_says_so_never_0(store: Store):
    verdicts = {"resolution": (None, None), "retention": (None, "skipped")}
    session = store.session(write_dialogue(store, "run-a", "outage", "calm", [0.8], verdicts=verdicts))
    text = str(_verdicts_text(session))
    assert text == "dialogue verdicts\nresolution unscored\nretention skipped"
    assert "0.00" not in text


def test_a_side_without_dialogue_verdicts_says_it_has_none(store: Store):
    session = store.session(write_dialogue(store, "run-a", "outage", "calm", [0.8]))
    assert str(_verdicts_text(session)) == "no dialogue verdicts"


def test_a_turn_whose_customer_line_differs_is_marked_and_keeps_its_score(store: Store):
    base = store.session(write_dialogue(store, "run-a", "outage", "calm", [0.8, 0.4]))
    new = store.session(
        write_dialogue(store, "run-b", "outage", "calm", [0.8, None], customer=lambda t: f"something else {t}")
    )
    same = str(_side(base, 1, base, DEFAULT_FLOOR))
    assert same.startswith("customer\n") and "(differs)" not in same and "score 0.80" in same
    differs = str(_side(new, 2, base, DEFAULT_FLOOR))
    assert differs.startswith("customer (differs)\nsomething else 2\n")
    assert "score unscored" in differs and "0.00" not in differs


def test_a_turn_one_side_never_reached_is_no_turn(store: Store):
    short = store.session(write_dialogue(store, "run-a", "outage", "calm", [0.8]))
    long = store.session(write_dialogue(store, "run-b", "outage", "calm", [0.8, 0.8]))
    assert str(_side(short, 2, long, DEFAULT_FLOOR)) == "(no turn)"
