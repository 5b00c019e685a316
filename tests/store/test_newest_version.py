"""Which version of a verdict counts is declared once (``VersionedVerdicts``) and read in two
forms: in Python over loaded verdicts and as a SQL condition. Both must pick the same rows, for
turn and dialogue verdicts, whatever order the versions were stored in."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass

import pytest

from ragtui.core.types.stored import DIALOGUE_VERDICTS, TURN_VERDICTS, VersionedVerdicts


@dataclass(frozen=True)
class Row:
    id: int
    session_id: int
    turn: int
    metric: str
    version: int


def random_rows(seed: int, turns: tuple[int, ...]) -> list[Row]:
    """Versions of a few keys, stored out of order (a merge or a re-judge of an older turn);
    each key's versions are 1..n, as the store numbers them."""
    rng = random.Random(seed)
    rows = []
    for session_id in (1, 2):
        for turn in turns:
            for metric in ("checked_rubric", "faithfulness"):
                versions = list(range(1, rng.randint(1, 4) + 1))
                rng.shuffle(versions)
                rows += [Row(0, session_id, turn, metric, v) for v in versions]
    rng.shuffle(rows)
    return [Row(i + 1, r.session_id, r.turn, r.metric, r.version) for i, r in enumerate(rows)]


def newest_by_sql(rule: VersionedVerdicts, rows: list[Row]) -> set[int]:
    db = sqlite3.connect(":memory:")
    db.execute(
        f"CREATE TABLE {rule.table} (id INTEGER, session_id INTEGER, turn INTEGER, metric TEXT, version INTEGER)"
    )
    db.executemany(
        f"INSERT INTO {rule.table} VALUES (?, ?, ?, ?, ?)",
        [(r.id, r.session_id, r.turn, r.metric, r.version) for r in rows],
    )
    return {row[0] for row in db.execute(f"SELECT id FROM {rule.table} x WHERE {rule.is_newest_sql('x')}")}


@pytest.mark.parametrize("rule", [TURN_VERDICTS, DIALOGUE_VERDICTS], ids=["turn", "dialogue"])
@pytest.mark.parametrize("seed", range(5))
def test_python_and_sql_pick_the_same_versions(rule: VersionedVerdicts, seed: int):
    rows = random_rows(seed, (1, 2, 3) if "turn" in rule.keys else (0,))  # a dialogue verdict has no turn
    in_python = {r.id for r in rule.newest(rows)}
    assert in_python == newest_by_sql(rule, rows)
    keys = {tuple(getattr(r, k) for k in rule.keys) for r in rows}
    assert len(in_python) == len(keys)  # one current version per key, none lost


def test_the_highest_version_counts_not_the_last_stored():
    rows = [Row(1, 1, 1, "m", 2), Row(2, 1, 1, "m", 1)]  # version 1 stored after version 2
    assert [r.id for r in TURN_VERDICTS.newest(rows)] == [1]
    assert newest_by_sql(TURN_VERDICTS, rows) == {1}
