"""The whole-database tallies the benchmarks print (``core/store/tallies.py``), read through a
read-only store."""

from __future__ import annotations

from pathlib import Path

from ragtui.core.store.store import Store
from ragtui.core.store.tallies import record_tally, rejudged_versions, turn_verdict_counts

from .test_store import judgment, new_session

END = " [end]"


def test_the_tallies_count_what_a_run_left(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "t.db")
    sid = new_session(store)
    store.add_message(sid, 1, "user", "simulator", "How do I link?" + END)
    whole = store.add_message(sid, 1, "bot", "bot", "Open Settings." + END)
    store.add_message(sid, 2, "bot", "bot", "Open Sett")  # cut: no marker, no verdict
    store.add_judgment(sid, whole, 1, judgment(0.8))
    store.add_judgment(sid, whole, 1, judgment(None))  # a re-judge that failed: version 2
    store.add_partial(sid, 3, "bot", "Op", "stream cut", 2)
    store.finish(sid, "rubric", "max_turns")
    store.close()

    reader = Store.open_read_only(tmp_path / "t.db")
    tally = record_tally(reader, END)
    assert (tally.sessions, dict(tally.stops), tally.messages) == (1, {"max_turns": 1}, 3)
    assert (tally.bot_turns, tally.turns_without_verdict, tally.not_ending) == (2, 1, 1)
    assert (tally.unscored_verdicts, dict(tally.partial)) == (1, {"bot": 1})
    assert turn_verdict_counts(reader) == (1, 2)
    assert rejudged_versions(reader) == [(2, 1, 1)]
    reader.close()
