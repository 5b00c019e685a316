"""The side-by-side figures and the blind test's pairs, on conversations written straight into a
store: an imported-like run (every customer message the customer's own) against a simulated one."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.runs.realism.conversations import read_side
from ragtui.core.runs.realism.figures import compute
from ragtui.core.runs.realism.pairing import pair_conversations
from ragtui.core.runs.realism.report import WIDTH, figure_lines, table_lines
from ragtui.core.store.store import Store
from ragtui.core.types.errors import RagtuiError

from .conversations import write_conversation

REAL = [
    ["Hi, my order ORD-12345 never arrived. Where is it?", "I want to speak to a human", "forget it"],
    ["Cannot log in", "still nothing? email is bob@example.com"],
]
SIM = [
    ["My order has not arrived yet. Can you check where it is?", "Thank you. Could you explain the tracking page?"],
    ["I cannot log in to my account.", "Thanks! That worked. DONE"],
]


@pytest.fixture
def store(tmp_path: Path):
    s = Store.open(tmp_path / "r.db")
    for texts in REAL:
        write_conversation(s, "real", texts)
    for texts, scenario in zip(SIM, ("delivery", "login"), strict=True):
        write_conversation(s, "sim", texts, scenario=scenario, simulated=True)
    write_conversation(s, "sim", ["DONE"], scenario="empty", simulated=True)  # no customer words at all
    yield s
    s.close()


def test_the_figures_are_the_hand_computed_ones(store: Store):
    real, sim = read_side(store, "real", "REAL"), read_side(store, "sim", "SIM")
    assert len(sim.conversations) == 2  # the conversation that was only DONE is none
    f = compute(real, sim, seed=3)
    row = f.row
    # REAL: 3 and 2 customer messages; SIM: 2 and 2.
    assert (row("messages").real.value, row("messages").sim.value) == (2.5, 2.0)
    assert (row("messages").real.low, row("messages").real.high) == (2.0, 3.0)
    # Words: 10 + 7 + 2 and 3 + 7 = 29 over 5 messages; the SIM's DONE is not a word.
    assert row("length").real.value == pytest.approx(29 / 5) and row("length").real.n == 5
    assert row("length").sim.value == pytest.approx((12 + 8 + 7 + 3) / 4)
    assert row("length_opening").real.value == pytest.approx((10 + 3) / 2)
    assert row("length_reply").real.value == pytest.approx((7 + 2 + 7) / 3)
    # Questions: "Where is it?" and "still nothing?" of REAL's 5; two of SIM's 4.
    assert row("questions").real.value == pytest.approx(2 / 5)
    assert row("questions").sim.value == pytest.approx(2 / 4)
    # Shares of conversations: one of two REAL customers asks for a person and gives up; both
    # volunteer personal data (an order number, an e-mail address); no SIM customer does.
    assert (row("human").real.value, row("give_up").real.value, row("personal").real.value) == (0.5, 0.5, 1.0)
    assert (row("human").sim.value, row("give_up").sim.value, row("personal").sim.value) == (0.0, 0.0, 0.0)
    assert f.personal_kinds["email"] == (1, 0) and f.personal_kinds["number"] == (1, 0)
    assert f.units == ("words", "words")
    assert 0 < row("opening_match").sim.value < 1
    # An import's openings are its customers'; a simulated run's are the scenario file's.
    assert (real.scenario_words, sim.scenario_words) == (0, 2)


def test_the_table_fits_80_columns_and_names_its_units(store: Store):
    f = compute(read_side(store, "real", "REAL"), read_side(store, "sim", "SIM"), seed=3)
    table = table_lines(f)
    assert all(len(line) <= WIDTH for line in table), "\n".join(table)
    text = "\n".join(figure_lines(f))
    assert "words per message" in text and "SIM: 2 of 4 customer messages are the scenario file's words" in text


def test_japanese_is_measured_in_characters(tmp_path: Path):
    s = Store.open(tmp_path / "ja.db")
    write_conversation(s, "real", ["ログインできません。", "もういいです。担当者に代わってください"], language="ja")
    write_conversation(s, "sim", ["ログインできない", "ありがとうございます"], language="ja", simulated=True)
    f = compute(read_side(s, "real", "REAL"), read_side(s, "sim", "SIM"), seed=1)
    assert f.units == ("characters", "characters")
    assert f.row("length_opening").real.value == 9
    assert f.row("human").real.value == 1.0 and f.row("give_up").real.value == 1.0
    assert "characters per message" in "\n".join(figure_lines(f))
    # Units that differ are said, never silently compared.
    write_conversation(s, "en", ["I cannot log in to my account", "why?"], simulated=True)
    mixed = compute(read_side(s, "real", "REAL"), read_side(s, "en", "SIM"), seed=1)
    assert mixed.units == ("characters", "words") and mixed.row("length").label == "length per message"
    assert "not comparable" in "\n".join(figure_lines(mixed))
    s.close()


def test_a_run_without_customer_messages_is_one_line(tmp_path: Path):
    s = Store.open(tmp_path / "e.db")
    write_conversation(s, "quiet", ["DONE"], simulated=True)
    with pytest.raises(RagtuiError, match="SIM run quiet .* has no customer messages"):
        read_side(s, "quiet", "SIM")
    s.close()


def test_pairs_by_opening_show_each_sides_first_reply(store: Store):
    real, sim = read_side(store, "real", "REAL"), read_side(store, "sim", "SIM")
    pairing = pair_conversations(real, sim, limit=10, seed=1)
    assert pairing.candidates == 2 and pairing.identical == 0
    by_real = {p.real.opening.text[:6]: p for p in pairing.pairs}
    # The order that never arrived goes with the order that has not arrived; log in with log in.
    assert by_real["Hi, my"].sim.scenario_id == "delivery" and by_real["Cannot"].sim.scenario_id == "login"
    assert all(p.how == "opening" and p.shown == "reply" for p in pairing.pairs)
    assert by_real["Hi, my"].real_message.text == "I want to speak to a human"
    assert by_real["Cannot"].sim_message.text == "Thanks! That worked."
    assert len(pair_conversations(real, sim, limit=1, seed=1).pairs) == 1
    # Best matched first: the limit keeps the pair whose openings are most alike.
    kept = pair_conversations(real, sim, limit=1, seed=1).pairs[0]
    assert kept.similarity == max(p.similarity for p in pairing.pairs)


def test_pairs_by_scenario_when_both_runs_played_it(tmp_path: Path):
    s = Store.open(tmp_path / "s.db")
    for run, reply in (("a", "still broken, now what"), ("b", "Thank you! Could you explain step two?")):
        for i in range(3):
            write_conversation(s, run, ["How do I link my ID?", f"{reply} {i}"], scenario="id-linking", simulated=True)
        write_conversation(s, run, ["Refund please", "Same words"], scenario="refund", simulated=True)
    pairing = pair_conversations(read_side(s, "a", "REAL"), read_side(s, "b", "SIM"), limit=10, seed=5)
    # Three id-linking pairs by scenario; the refund pair shows the same text twice: left out.
    assert [p.how for p in pairing.pairs] == ["scenario"] * 3 and pairing.identical == 1
    assert all(p.real.scenario_id == p.sim.scenario_id == "id-linking" for p in pairing.pairs)
    again = pair_conversations(read_side(s, "a", "REAL"), read_side(s, "b", "SIM"), limit=10, seed=5)
    assert [(p.real.session_id, p.sim.session_id) for p in again.pairs] == [
        (p.real.session_id, p.sim.session_id) for p in pairing.pairs
    ]
    s.close()


def test_the_rule_under_the_header_spans_the_named_columns_only(store: Store):
    real, sim = read_side(store, "real", "REAL"), read_side(store, "sim", "SIM")
    write_conversation(store, "long", ["Hello, I cannot log in to my account at all today, please help"] * 3)
    f = compute(read_side(store, "long", "REAL"), sim, seed=3)
    assert any(r.apart for r in f.rows)  # a row carries the mark…
    header, rule = table_lines(f)[:2]
    assert len(rule.split()) == len(header.split()) == 5  # …and the rule draws no dash over it
    assert real.run_id == "real"
