"""Whole-database tallies: how many verdicts, messages, partial records and stop reasons a
database holds, counted in SQL. The benchmarks (``bench/``) print these after driving the real
``ragtui run`` or ``ragtui rejudge`` in another process; they read them here, through a read-only
store, so no script outside ``ragtui/core/store`` opens a connection or knows the schema."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .store import Store


@dataclass(frozen=True)
class RecordTally:
    """What a run left in the database, as a faults benchmark checks it."""

    sessions: int
    stops: Counter[str]  # stop reason (the status while none) → sessions
    messages: int
    stream_retries: int  # attempts beyond the first, summed over the messages
    partial: Counter[str]  # role → partial replies kept
    unscored_turns: int  # as the sessions count them
    unscored_verdicts: int  # turn verdict rows without a score
    bot_turns: int
    turns_without_verdict: int  # bot messages with no verdict row at all
    not_ending: int  # customer and bot messages not ending with the marker asked for (0 without one)


def turn_verdict_counts(store: Store) -> tuple[int, int]:
    """(scored, all) turn verdict rows, every version."""
    scored, judged = store._db.execute("SELECT COUNT(score), COUNT(*) FROM judgments").fetchone()
    return int(scored), int(judged)


def rejudged_versions(store: Store) -> list[tuple[int, int, int]]:
    """(version, verdicts, unscored) of each re-judged version (2 and later) of the turn verdicts."""
    rows = store._db.execute(
        "SELECT version, COUNT(*), SUM(score IS NULL) FROM judgments WHERE version > 1 GROUP BY version"
    ).fetchall()
    return [(int(v), int(n), int(u or 0)) for v, n, u in rows]


def stop_reasons(store: Store) -> Counter[str]:
    """Stop reason (the status while a session has none) → sessions."""
    rows = store._db.execute("SELECT COALESCE(stop_reason, status), COUNT(*) FROM sessions GROUP BY 1").fetchall()
    return Counter({str(reason): int(count) for reason, count in rows})


def messages_not_ending(store: Store, marker: str) -> int:
    """Stored customer and bot messages whose text does not end with ``marker``: a benchmark whose
    scripted replies all end with it counts the cut ones stored as if complete."""
    row = store._db.execute(
        "SELECT COUNT(*) FROM messages WHERE source IN ('simulator', 'bot') AND substr(text, -?) != ?",
        [len(marker), marker],
    ).fetchone()
    return int(row[0])


def record_tally(store: Store, marker: str = "") -> RecordTally:
    """The tally; ``marker``: what every scripted reply ends with, so the cut ones stored as if
    complete are counted (``not_ending``)."""
    db = store._db

    def one(sql: str) -> int:
        return int(db.execute(sql).fetchone()[0] or 0)

    messages, retries = db.execute("SELECT COUNT(*), COALESCE(SUM(attempts - 1), 0) FROM messages").fetchone()
    partial = db.execute("SELECT role, COUNT(*) FROM partial_replies GROUP BY role").fetchall()
    return RecordTally(
        sessions=one("SELECT COUNT(*) FROM sessions"),
        stops=stop_reasons(store),
        messages=int(messages),
        stream_retries=int(retries),
        partial=Counter({str(role): int(count) for role, count in partial}),
        unscored_turns=one("SELECT COALESCE(SUM(unscored_turns), 0) FROM sessions"),
        unscored_verdicts=one("SELECT COUNT(*) FROM judgments WHERE score IS NULL"),
        bot_turns=one("SELECT COUNT(*) FROM messages WHERE role = 'bot'"),
        turns_without_verdict=one(
            "SELECT COUNT(*) FROM messages m WHERE role = 'bot' AND NOT EXISTS "
            "(SELECT 1 FROM judgments j WHERE j.message_id = m.id)"
        ),
        not_ending=messages_not_ending(store, marker) if marker else 0,
    )


__all__ = [
    "RecordTally",
    "messages_not_ending",
    "record_tally",
    "rejudged_versions",
    "stop_reasons",
    "turn_verdict_counts",
]
