"""People's labels of bot turns: their own 1–5 score and/or agree / disagree with a verdict.

Labels live in their own table (schema migration 3), apart from the judge's verdicts, so a
label can never be read as a verdict or change a dialogue score. One label per person, turn and
metric: labelling the same turn again replaces that person's label. Every check runs before
anything is written, so a bad label (a turn that does not exist, a score out of range) leaves
the database as it was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from ..registry.metrics import PRIMARY_METRIC
from ..types.errors import RagtuiError
from .store import Store, now

SCORE_MIN, SCORE_MAX = 1, 5
DEFAULT_METRIC = PRIMARY_METRIC


def default_labeller(configured: str | None = None) -> str:
    """The configured ``labeller`` name, else the OS user name."""
    if configured:
        return configured
    try:
        import getpass  # with the first label: getpass loads termios, which a first frame never needs

        return getpass.getuser()
    except (KeyError, OSError):  # no user name for this uid (some containers)
        return os.environ.get("USER") or "unknown"


@dataclass(frozen=True)
class Label:
    id: int
    session_id: int
    message_id: int
    turn: int
    metric: str
    score: int | None
    agree: bool | None
    judgment_id: int | None
    judgment_version: int | None
    note: str | None
    labeller: str
    created_at: str

    def summary(self) -> str:
        """One line for screens and tables: "4/5 · agrees with v2 · alice"."""
        parts = []
        if self.score is not None:
            parts.append(f"{self.score}/5")
        if self.agree is not None:
            verb = "agrees" if self.agree else "disagrees"
            parts.append(f"{verb} with v{self.judgment_version}" if self.judgment_version else verb)
        parts.append(self.labeller)
        return " · ".join(parts)


def _label(row: sqlite3.Row | tuple) -> Label:
    values = list(row)
    values[6] = None if values[6] is None else bool(values[6])
    return Label(*values)


_COLUMNS = (
    "id, session_id, message_id, turn, metric, score, agree, judgment_id, judgment_version, note, labeller, created_at"
)


def check_score(score: int | None) -> None:
    if score is not None and not SCORE_MIN <= score <= SCORE_MAX:
        raise RagtuiError(f"score must be {SCORE_MIN}–{SCORE_MAX}, got {score}", "nothing was stored")


def save_label(
    store: Store,
    session_id: int,
    turn: int,
    *,
    score: int | None = None,
    agree: bool | None = None,
    note: str | None = None,
    labeller: str,
    metric: str = DEFAULT_METRIC,
) -> Label:
    """Store (or replace) ``labeller``'s label of ``turn``; raise before writing on bad input."""
    check_score(score)
    if score is None and agree is None:
        raise RagtuiError("a label needs a score (1–5) or agree / disagree", "nothing was stored")
    if store._db.execute("SELECT 1 FROM sessions WHERE id = ?", [session_id]).fetchone() is None:
        raise RagtuiError(f"no session {session_id} in database {store.path}", "list them with `ragtui sessions`")
    bot = store._db.execute(
        "SELECT id FROM messages WHERE session_id = ? AND turn = ? AND role = 'bot' ORDER BY id DESC LIMIT 1",
        [session_id, turn],
    ).fetchone()
    if bot is None:
        raise RagtuiError(f"session {session_id} has no bot answer in turn {turn}", "nothing was stored")
    verdict = store._db.execute(
        "SELECT id, version FROM judgments WHERE message_id = ? AND metric = ? ORDER BY version DESC LIMIT 1",
        [bot[0], metric],
    ).fetchone()
    if agree is not None and verdict is None:
        raise RagtuiError(
            f"turn {turn} of session {session_id} has no {metric} verdict to agree or disagree with",
            "give a --score instead; nothing was stored",
        )
    note = (note or "").strip() or None
    row = {
        "session_id": session_id,
        "message_id": bot[0],
        "turn": turn,
        "metric": metric,
        "score": score,
        "agree": None if agree is None else int(agree),
        "judgment_id": verdict[0] if verdict else None,
        "judgment_version": verdict[1] if verdict else None,
        "note": note,
        "labeller": labeller,
        "created_at": now(),
    }

    def upsert() -> int:  # one write transaction (Store.write): the old label goes with the new one
        store._db.execute(
            "DELETE FROM labels WHERE message_id = ? AND metric = ? AND labeller = ?",
            [bot[0], metric, labeller],
        )
        # labels has an integer id, so an insert always sets last_pk to it.
        return cast(int, store._db.table("labels").insert(row).last_pk)

    pk = store.write("record a label", upsert)
    found = store._db.execute(f"SELECT {_COLUMNS} FROM labels WHERE id = ?", [pk]).fetchone()
    return _label(found)


def session_labels(store: Store, session_id: int) -> list[Label]:
    rows = store._db.execute(
        f"SELECT {_COLUMNS} FROM labels WHERE session_id = ? ORDER BY turn, metric, labeller", [session_id]
    ).fetchall()
    return [_label(r) for r in rows]


def labels_going_with(store: Store, session_id: int) -> str:
    """What deleting the session deletes of people's labels, for the question asked first:
    "" when nobody labelled it, else " and 2 people's labels (5 labels)"."""
    count, people = store._db.execute(
        "SELECT COUNT(*), COUNT(DISTINCT labeller) FROM labels WHERE session_id = ?", [session_id]
    ).fetchone()
    if not count:
        return ""
    who = "1 person's" if people == 1 else f"{people} people's"
    return f" and {who} labels ({count} label{'s' if count != 1 else ''})"


def labels_where(store: Store, metric: str | None = None, run_id: str | None = None) -> list[Label]:
    """Labels of one metric (or all), of one run's sessions (or all), oldest session first."""
    where, params = [], []
    if metric:
        where.append("l.metric = ?")
        params.append(metric)
    if run_id:
        where.append("s.run_id = ?")
        params.append(run_id)
    sql = (
        f"SELECT {', '.join('l.' + c.strip() for c in _COLUMNS.split(','))} FROM labels l "
        "JOIN sessions s ON s.id = l.session_id"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY l.session_id, l.turn, l.labeller"
    )
    return [_label(r) for r in store._db.execute(sql, params).fetchall()]


@dataclass(frozen=True)
class QueueTurn:
    """One bot turn in the "to label" queue."""

    session_id: int
    turn: int
    labelled: bool  # by this labeller, for this metric
    judged: bool = True  # the newest answer has a verdict of this metric (to agree or disagree with)


def label_queue(
    store: Store, labeller: str, run_id: str | None = None, metric: str = DEFAULT_METRIC, *, judged_only: bool = False
) -> list[QueueTurn]:
    """Every bot turn of a run (or of every session), in order, marked labelled or not;
    ``judged_only``: only the turns whose newest answer has a verdict of ``metric``."""
    sql = (
        "SELECT m.session_id, m.turn, EXISTS (SELECT 1 FROM labels l WHERE l.message_id = m.id "
        "AND l.metric = ? AND l.labeller = ?), EXISTS (SELECT 1 FROM judgments j WHERE j.message_id = m.id "
        "AND j.metric = ?) FROM messages m JOIN sessions s ON s.id = m.session_id "
        "WHERE m.role = 'bot'" + (" AND s.run_id = ?" if run_id else "") + " ORDER BY m.session_id, m.turn, m.id"
    )
    params: list[object] = [metric, labeller, metric, *([run_id] if run_id else [])]
    copied = _copied_labelled(store, labeller, metric)
    seen: dict[tuple[int, int], QueueTurn] = {}
    for session_id, turn, labelled, judged in store._db.execute(sql, params).fetchall():
        # the newest answer of a turn wins
        labelled = labelled or copied(session_id, turn)
        seen[(session_id, turn)] = QueueTurn(session_id, turn, bool(labelled), bool(judged))
    return [q for q in seen.values() if q.judged or not judged_only]


def _copied_labelled(store: Store, labeller: str, metric: str) -> Callable[[int, int], bool]:
    """Whether a turn is a fork's copy of a turn ``labeller`` labelled: a fork copies turns
    1..fork_turn of its parent (a fork of a fork, of its grandparent's too), and the same answer
    labelled once is not queued again in every copy."""
    labelled = {
        (session_id, turn)
        for session_id, turn in store._db.execute(
            "SELECT session_id, turn FROM labels WHERE metric = ? AND labeller = ?", [metric, labeller]
        ).fetchall()
    }
    forks = {
        session_id: (parent, fork_turn)
        for session_id, parent, fork_turn in store._db.execute(
            "SELECT id, parent_session_id, fork_turn FROM sessions WHERE parent_session_id IS NOT NULL"
        ).fetchall()
    }

    def copied(session_id: int, turn: int) -> bool:
        hops = 0
        while session_id in forks and hops <= len(forks):  # the hop count guards against a cycle
            parent, fork_turn = forks[session_id]
            if fork_turn is None or turn > fork_turn:
                return False  # a turn the fork ran itself
            session_id, hops = parent, hops + 1
            if (session_id, turn) in labelled:
                return True
        return False

    return copied
