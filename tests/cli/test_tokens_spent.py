"""The tokens a run spent, per step: sent, computed by the server and reused from its prompt
cache, as the server reported them over real HTTP (– where it said nothing); stored per call
(``cached_tokens``), which a database from before the column opens with, as unknown."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.dialogue.estimate import CHECK_STEP, spent
from ragtui.core.store import schema
from ragtui.core.store.store import Store

from ..conftest import endpoint_toml


def _run(tmp_path: Path, server) -> Path:
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    assert main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm"]) == 0
    return tmp_path / "runs.db"


@pytest.mark.parametrize("form", ["openai", "llamacpp"])
def test_tokens_spent_shows_computed_and_reused_per_step(tmp_path: Path, server, capsys, form):
    server.report_prompt_cache(form)
    db = _run(tmp_path, server)
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "tokens in" in line)

    assert re.search(r"tokens in\s+computed\s+reused\s+tokens out", header), out
    store = Store.open(db)
    try:
        run_id = store.latest_run_id()
        assert run_id is not None
        roles = {r.role: r for r in spent(store, run_id, {})}
        # Every step with a model call: the customer, its check (a step of its own), bot, judge.
        assert set(roles) == {"user", CHECK_STEP, "bot", "judge"}
        for r in roles.values():
            assert r.computed is not None and r.reused is not None
            assert r.computed + r.reused == r.tokens_in
        # The judge's checks of one answer share its beginning: the cache reuses it.
        assert roles["judge"].reused > 0
        stored = store._db.execute("SELECT COUNT(*) FROM judgments WHERE cached_tokens IS NULL").fetchone()[0]
        assert stored == 0
        # The dialogue verdicts count theirs too (the expectations verdict included).
        verdicts = "SELECT metric, prompt_tokens, cached_tokens FROM dialogue_judgments WHERE attempts > 0"
        rows = store._db.execute(verdicts).fetchall()
        assert "expectations" in {r[0] for r in rows} and all(r[1] and r[2] is not None for r in rows)
    finally:
        store.close()
    row = re.search(r"^judge\s+fake-judge\s+[\d,]+\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s", out, re.MULTILINE)
    assert row is not None
    sent, computed, reused = (int(g.replace(",", "")) for g in row.groups())
    assert computed + reused == sent and reused > 0


def test_a_server_that_says_nothing_shows_a_dash_not_zero(tmp_path: Path, server, capsys):
    db = _run(tmp_path, server)
    out = capsys.readouterr().out
    for step in ("user", "user check", "bot", "judge"):
        line = next(line for line in out.splitlines() if re.match(rf"{step}\s+fake-", line))
        # tokens in is a number; computed and reused are unknown: a dash, never 0
        assert re.match(rf"{step}\s+fake-\w+\s+[\d,]+\s+[\d,]+\s+–\s+–\s+[\d,]+\s", line), line
    store = Store.open(db)
    try:
        assert store._db.execute("SELECT COUNT(*) FROM messages WHERE cached_tokens IS NOT NULL").fetchone()[0] == 0
        run_id = store.latest_run_id()
        assert run_id is not None
        assert all(r.computed is None and r.reused is None for r in spent(store, run_id, {}))
    finally:
        store.close()


def test_a_database_from_before_cached_tokens_opens_and_reads_them_as_unknown(tmp_path: Path):
    path = tmp_path / "v14.db"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.isolation_level = None
        for step in schema.MIGRATIONS[:14]:
            if callable(step):
                step(conn)
            else:
                for statement in schema.split_statements(step):
                    conn.execute(statement)
        conn.execute("PRAGMA user_version = 14")
        conn.execute(
            "INSERT INTO sessions (id, run_id, created_at, updated_at, language, scenario_id, question, scenario, "
            "persona_name, persona, config, max_turns, threshold, metrics, status, stop_reason) VALUES (1, 'r', 't', "
            "'t', 'en', 's', 'q', '{}', 'calm', '{}', '{}', 3, 0.7, '[]', 'finished', 'done')"
        )
        conn.execute(
            "INSERT INTO messages (session_id, turn, role, source, text, model, prompt_tokens, created_at) "
            "VALUES (1, 1, 'bot', 'bot', 'hi', 'm', 40, 't')"
        )
    store = Store.open(path)
    try:
        assert store.session(1).messages[0].cached_tokens is None
        (bot,) = spent(store, "r", {})
        assert (bot.tokens_in, bot.computed, bot.reused) == (40, None, None)
        for table in ("messages", "judgments", "dialogue_judgments"):
            columns = {row[1] for row in store._db.execute(f"PRAGMA table_info({table})")}
            assert "cached_tokens" in columns
    finally:
        store.close()
